// Relay styles: each relay style's claim, send, complete and crash, the source
// commits, the failed commit, the offset flush, the lost broker write and
// per-attempt message ids, on tiny configs.

#include <doctest/doctest.h>

#include <algorithm>

#include "model/outbox_model.h"
#include "model/state_cells.h"
#include "model_test_util.h"

namespace oc {
namespace {

using testing::Run;
using testing::Why;

Config Styled(RelayStyle style, int relays, int events,
              std::vector<Strategy> groups = {}) {
  Config c = testing::MakeConfig(relays, events, std::move(groups));
  c.relay_style = style;
  return c;
}

TEST_CASE("row_lock: another relay skips a locked row, complete publishes") {
  Config c = Styled(RelayStyle::kRowLock, 2, 1, {Strategy::kCreditInbox});
  OutboxModel m(c);
  State s = Run(m, {"claim(r1, e1)"});
  CHECK(s.relays[0] == RelayCells{RelayPhase::kClaimed, 1, 0});
  CHECK(s.events[0].token == 0);  // no fencing token
  CHECK(s.events[0].owner == 0);
  CHECK(s.events[0].lease == Lease::kNone);
  CHECK(Why(m, s, "claim(r2, e1)") ==
        "the row of event e1 is locked by another relay");
  s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)"});
  CHECK(s.events[0].published == 1);
  CHECK(s.relays[0] == RelayCells{});
  CHECK(Why(m, s, "claim(r2, e1)") == "event e1 is already published");
  CHECK(Why(m, s, "expire(e1)") == "the lease of event e1 is none, not active");
}

TEST_CASE("row_lock: a failed commit after the send rolls the row back") {
  Config c = Styled(RelayStyle::kRowLock, 2, 1);
  c.budgets.failed_commits = 1;
  OutboxModel m(c);
  State s = Run(m, {"claim(r1, e1)"});
  CHECK(Why(m, s, "commit_fails(r1)") == "relay r1 is claimed(e1), not sent");
  s = Run(m, {"claim(r1, e1)", "send(r1)", "commit_fails(r1)", "claim(r2, e1)",
              "send(r2)", "complete(r2)"});
  CHECK(s.events[0].offered == 2);
  CHECK(s.events[0].published == 1);
  CHECK(s.budgets.failed_commits == 0);
  CHECK(Why(m,
            Run(m, {"claim(r1, e1)", "send(r1)", "commit_fails(r1)",
                    "claim(r1, e1)", "send(r1)"}),
            "commit_fails(r1)") == "no failed commit is left in the budget");
}

TEST_CASE("row_lock: a crashed relay's row is unlocked and unpublished") {
  Config c = Styled(RelayStyle::kRowLock, 2, 1);
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(r1, e1)", "send(r1)", "crash_relay(r1)"});
  CHECK(s.events[0].published == 0);
  CHECK(Why(m, s, "claim(r2, e1)").empty());
}

TEST_CASE("sequence_cursor: a row committed below the cursor is skipped") {
  Config c = Styled(RelayStyle::kSequenceCursor, 1, 2);
  c.commits_during_run = true;
  OutboxModel m(c);
  State s = m.InitialStates().front();
  CHECK(s.events[0].pending == 1);
  CHECK(Why(m, s, "claim(r1, e1)") ==
        "the source transaction of event e1 has not committed, so its row is "
        "not visible");
  s = Run(m, {"source_commit(e2)"});
  CHECK(Why(m, s, "source_commit(e2)") ==
        "the source transaction of event e2 has committed");
  s = Run(m, {"source_commit(e2)", "claim(r1, e2)", "send(r1)", "complete(r1)",
              "source_commit(e1)"});
  CHECK(s.log.offset == 2);
  CHECK(s.events[1].published == 1);
  CHECK(Why(m, s, "claim(r1, e1)") ==
        "event e1 is not the next row above the cursor (last_seen 2); no row "
        "is next");
  std::vector<std::pair<Action, State>> next;
  m.Successors(s, next);
  CHECK(next.empty());  // at rest, with e1 never offered
}

TEST_CASE(
    "sequence_cursor: a cursor that waits at a gap reads past it only once "
    "the gap timed out") {
  Config c = Styled(RelayStyle::kSequenceCursor, 1, 2);
  c.commits_during_run = true;
  c.gaps_wait = true;
  c.gap_timeout = 10;    // 1 unit
  c.commit_within = 20;  // 2 units
  OutboxModel m(c);
  State s = Run(m, {"source_commit(e2)"});
  CHECK(Why(m, s, "claim(r1, e2)") ==
        "event e2 is not the next row above the cursor (last_seen 0); no row "
        "is next: the cursor waits at the gap of e1, still pending (0s old; "
        "given up at 10s)");
  CHECK(Why(m, s, "tick").empty());  // nothing is due: time may pass
  s = Run(m, {"source_commit(e2)", "tick"});
  CHECK(s.events[0].clock == 1);
  CHECK(Why(m, s, "claim(r1, e2)").empty());
  CHECK_FALSE(Why(m, s, "tick").empty());  // the read past the gap is due
  // The commit is due at 20s: e1's transaction may not outlast it.
  s = Run(m, {"source_commit(e2)", "tick", "claim(r1, e2)", "send(r1)",
              "complete(r1)", "tick"});
  CHECK(s.events[0].clock == 2);
  CHECK(Why(m, s, "tick") ==
        "an action is due now (actions that are not faults happen before time "
        "passes)");
  s = Run(m, {"source_commit(e2)", "tick", "claim(r1, e2)", "send(r1)",
              "complete(r1)", "tick", "source_commit(e1)"});
  CHECK(s.events[0].clock == 0);
  CHECK(s.log.offset == 2);  // e1 lies below the cursor for good
  std::vector<std::pair<Action, State>> next;
  m.Successors(s, next);
  CHECK(next.empty());
}

TEST_CASE("sequence_cursor: rows committed in id order are all relayed") {
  Config c = Styled(RelayStyle::kSequenceCursor, 1, 2);
  OutboxModel m(c);
  State s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)"});
  CHECK(s.log.offset == 1);
  CHECK(Why(m, s, "claim(r1, e1)") ==
        "event e1 is not the next row above the cursor (last_seen 1); e2 is "
        "next");
  s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "claim(r1, e2)",
              "send(r1)", "complete(r1)"});
  CHECK(s.events[0].published + s.events[1].published == 2);
}

TEST_CASE("cdc_offset: a restart re-reads every entry since the flush") {
  Config c = Styled(RelayStyle::kCdcOffset, 1, 2);
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  State s = m.InitialStates().front();
  CHECK(Why(m, s, "claim(r1, e2)") ==
        "event e2 is not the next entry of the commit log (read up to 0); e1 "
        "is next");
  CHECK(Why(m, s, "flush_offset(r1)") ==
        "the flushed offset is already 0, the read position");
  s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "claim(r1, e2)",
              "send(r1)", "complete(r1)"});
  CHECK(s.log.position == 2);
  CHECK(s.log.offset == 0);
  s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "claim(r1, e2)",
              "send(r1)", "complete(r1)", "crash_relay(r1)"});
  CHECK(s.log.position == 0);
  s = Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "claim(r1, e2)",
              "send(r1)", "complete(r1)", "crash_relay(r1)", "claim(r1, e1)",
              "send(r1)", "complete(r1)", "claim(r1, e2)", "send(r1)",
              "complete(r1)", "flush_offset(r1)"});
  CHECK(s.events[0].offered == 2);
  CHECK(s.events[1].offered == 2);
  CHECK(s.log.offset == 2);
}

TEST_CASE("cdc_offset: a flushed offset survives the restart") {
  Config c = Styled(RelayStyle::kCdcOffset, 1, 1);
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  const State s =
      Run(m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "flush_offset(r1)"});
  CHECK(Why(m, s, "crash_relay(r1)") ==
        "relay r1 is idle; there is nothing to crash");
  CHECK(Why(m, s, "claim(r1, e1)") ==
        "event e1 is not the next entry of the commit log (read up to 1); no "
        "row is next");
}

TEST_CASE("cdc_offset: the log is in commit order, not in id order") {
  Config c = Styled(RelayStyle::kCdcOffset, 1, 2);
  c.commits_during_run = true;
  OutboxModel m(c);
  const State s = Run(m, {"source_commit(e2)", "claim(r1, e2)", "send(r1)",
                          "complete(r1)", "source_commit(e1)"});
  CHECK(s.events[1].log_position == 1);
  CHECK(s.events[0].log_position == 2);
  CHECK(Why(m, s, "claim(r1, e1)").empty());
}

TEST_CASE("flush_offset belongs to cdc_offset only") {
  OutboxModel m(Styled(RelayStyle::kRowLock, 1, 1));
  CHECK(Why(m, m.InitialStates().front(), "flush_offset(r1)") ==
        "relay.style is 'row_lock'; only cdc_offset flushes an offset");
}

TEST_CASE("a lost broker write takes back a copy every group waits for") {
  Config c = testing::MakeConfig(1, 1, {Strategy::kCreditInbox});
  c.budgets.lost_broker_writes = 1;
  OutboxModel m(c);
  State s = m.InitialStates().front();
  CHECK(Why(m, s, "lose_write(e1)") ==
        "the broker holds no copy of e1 that every group still waits for");
  s = Run(m, {"claim(r1, e1)", "send(r1)", "lose_write(e1)", "complete(r1)"});
  CHECK(s.events[0].offered == 0);
  CHECK(s.events[0].published == 1);
  CHECK(s.group_events[0].ready == 0);
  CHECK(s.budgets.lost_broker_writes == 0);
  std::vector<std::pair<Action, State>> next;
  m.Successors(s, next);
  CHECK(next.empty());  // published, never to be offered again
  CHECK(Why(m, Run(m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)"}),
            "lose_write(e1)") ==
        "the broker holds no copy of e1 that every group still waits for");
}

TEST_CASE("per-attempt message ids get past the inbox") {
  Config c = testing::MakeConfig(1, 1, {Strategy::kCreditInbox});
  c.budgets.lost_publish_acks = 1;
  const std::vector<std::string> order = {
      "claim(r1, e1)",      "send_ack_lost(r1)",  "send(r1)",
      "consume(g1, 1, e1)", "acknowledge(g1, 1)", "consume(g1, 1, e1)"};
  CHECK(Run(OutboxModel(c), order).group_events[0].effects == 1);
  c.message_id = MessageIdentity::kPerAttempt;
  CHECK(Run(OutboxModel(c), order).group_events[0].effects == 2);
}

TEST_CASE(
    "the relay styles' cells and classes appear only where they are used") {
  const OutboxModel seed(testing::MakeConfig(1, 1));
  auto possible = [](const OutboxModel& m, std::string_view name) {
    return m.ClassPossible(OutboxModel::ClassesNamed(name).front());
  };
  for (std::string_view name :
       {"source_commit", "commit_fails", "flush_offset", "lose_write"}) {
    CHECK_FALSE(possible(seed, name));
  }
  for (const Cell& cell : Cells(seed, seed.InitialStates().front())) {
    CHECK(cell.name.find("committed") == std::string::npos);
    CHECK(cell.name != "faults.lost_broker_writes");
  }
  Config c = Styled(RelayStyle::kCdcOffset, 1, 1);
  c.commits_during_run = true;
  const OutboxModel cdc(c);
  CHECK(possible(cdc, "source_commit"));
  CHECK(possible(cdc, "flush_offset"));
  CHECK_FALSE(possible(cdc, "commit_fails"));
  CHECK_FALSE(possible(cdc, "lose_write"));
  std::vector<std::string> names;
  for (const Cell& cell : Cells(cdc, cdc.InitialStates().front())) {
    names.push_back(cell.name);
  }
  CHECK(std::count(names.begin(), names.end(), "outbox[e1].committed") == 1);
  CHECK(std::count(names.begin(), names.end(), "connector.flushed_offset") ==
        1);
  CHECK(std::count(names.begin(), names.end(), "connector.read_position") == 1);
}

TEST_CASE("the state codec round-trips the relay styles' fields") {
  Config c = Styled(RelayStyle::kCdcOffset, 1, 3);
  c.commits_during_run = true;
  c.budgets.relay_crashes = 2;
  c.budgets.lost_broker_writes = 1;
  OutboxModel m(c);
  const State s = Run(m, {"source_commit(e3)", "source_commit(e1)",
                          "claim(r1, e3)", "send(r1)", "lose_write(e3)"});
  std::vector<std::uint8_t> bytes(m.EncodedSize());
  m.Encode(s, bytes.data());
  CHECK(m.Decode(bytes.data()) == s);
}

// Two relays (a producer and its sweeper); one unit is 5s: the minimum age
// is 2 units, a send takes up to 3, the sweeper polls every unit.
Config Sweeper(std::vector<Strategy> groups = {}) {
  Config c = Styled(RelayStyle::kAgeSweeper, 2, 1, std::move(groups));
  c.min_age = 10;
  c.send_time = 15;
  c.time.poll = 5;
  return c;
}

TEST_CASE(
    "age_sweeper: the dispatch goes at once, the sweeper only once the row "
    "is old enough") {
  OutboxModel m(Sweeper());
  State s = m.InitialStates().front();
  CHECK(Why(m, s, "tick") ==
        "an action is due now (actions that are not faults happen before time "
        "passes)");
  s = Run(m, {"claim(r1, e1)"});
  CHECK(s.relays[0] == RelayCells{RelayPhase::kClaimed, 1, 0});
  CHECK(s.events[0].begun == 1);
  CHECK(s.events[0].token == 0);  // no token, no owner, no lease
  CHECK(s.events[0].owner == 0);
  CHECK(Why(m, s, "claim(r2, e1)") ==
        "the row of event e1 is 0s old; its dispatch has begun, and the "
        "sweeper sends it again only from relay.min_age 10s on");
  CHECK(Why(m, s, "send(r1)").empty());  // a send may return at once
  // ... or later: time passes while the send is in flight.
  s = Run(m, {"claim(r1, e1)", "tick"});
  CHECK(s.relays[0].clock == 1);
  CHECK(s.events[0].clock == 1);
  s = Run(m, {"claim(r1, e1)", "tick", "tick"});
  CHECK(Why(m, s, "claim(r2, e1)").empty());  // 10s old: the sweeper may
  CHECK(Why(m, s, "tick").empty());           // within its poll interval
  s = Run(m, {"claim(r1, e1)", "tick", "tick", "tick"});
  // 15s: both the send and the sweep are due.
  CHECK_FALSE(Why(m, s, "tick").empty());
  s = Run(m, {"claim(r1, e1)", "tick", "tick", "tick", "claim(r2, e1)",
              "send(r2)", "send(r1)", "complete(r1)", "complete(r2)"});
  CHECK(s.events[0].offered == 2);  // the duplicate send
  CHECK(s.events[0].published == 1);
  CHECK(s.events[0].clock == 0);
  CHECK(s.relays[0] == RelayCells{});
  CHECK(s.relays[1] == RelayCells{});
  std::vector<std::pair<Action, State>> next;
  m.Successors(s, next);
  CHECK(next.empty());  // at rest: a marked row waits for nothing
}

TEST_CASE("age_sweeper: a send that returns in time leaves nothing to sweep") {
  OutboxModel m(Sweeper());
  const State s = Run(m, {"claim(r1, e1)", "tick", "send(r1)", "complete(r1)"});
  CHECK(s.events[0].published == 1);
  CHECK(s.events[0].offered == 1);
  CHECK(Why(m, s, "claim(r2, e1)") == "event e1 is already published");
  CHECK(Why(m, s, "tick") == "nothing waits for time to pass");
}

TEST_CASE(
    "age_sweeper: the sweeper recovers a crash between the send and the "
    "mark") {
  Config c = Sweeper({Strategy::kCreditInbox});
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  // A crash leaves the row begun and unmarked: no second dispatch, only
  // the sweeper, once the row is old enough.
  State s = Run(m, {"claim(r1, e1)", "send(r1)", "crash_relay(r1)"});
  CHECK(s.events[0].begun == 1);
  CHECK(s.events[0].published == 0);
  CHECK(Why(m, s, "claim(r1, e1)") ==
        "the row of event e1 is 0s old; its dispatch has begun, and the "
        "sweeper sends it again only from relay.min_age 10s on");
  s = Run(m,
          {"claim(r1, e1)", "send(r1)", "crash_relay(r1)", "consume(g1, 1, e1)",
           "acknowledge(g1, 1)", "tick", "tick", "claim(r1, e1)", "send(r1)",
           "complete(r1)", "consume(g1, 1, e1)", "acknowledge(g1, 1)"});
  CHECK(s.events[0].offered == 2);
  CHECK(s.events[0].published == 1);
  CHECK(s.group_events[0].effects == 1);  // the inbox holds
}

TEST_CASE("age_sweeper: the sweeper reads the outbox, the dispatch does not") {
  Config c = Sweeper();
  c.time.database_outage = 30;
  c.budgets.database_outages = 1;
  OutboxModel m(c);
  State s = Run(m, {"database_outage", "claim(r1, e1)", "send(r1)"});
  CHECK(Why(m, s, "complete(r1)") ==
        "the outbox database is down for 6 more unit(s)");
  s = Run(m, {"database_outage", "claim(r1, e1)", "send(r1)", "tick", "tick"});
  CHECK(Why(m, s, "claim(r2, e1)") ==
        "the outbox database is down for 4 more unit(s)");
}

TEST_CASE("the state codec round-trips the age sweeper's fields") {
  Config c = Sweeper({Strategy::kCreditNaive});
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  const State s =
      Run(m, {"claim(r1, e1)", "tick", "tick", "claim(r2, e1)", "tick"});
  CHECK(s.relays[0].clock == 3);
  CHECK(s.relays[1].clock == 1);
  CHECK(s.events[0].clock == 3);
  std::vector<std::uint8_t> bytes(m.EncodedSize());
  m.Encode(s, bytes.data());
  CHECK(m.Decode(bytes.data()) == s);
  CHECK(Fingerprint(s) != Fingerprint(Run(m, {"claim(r1, e1)", "tick", "tick",
                                              "claim(r2, e1)"})));
}

TEST_CASE("the age sweeper's cells appear only with the age sweeper") {
  const OutboxModel m(Sweeper());
  std::vector<std::string> names;
  for (const Cell& cell : Cells(m, m.InitialStates().front())) {
    names.push_back(cell.name);
  }
  for (const char* name : {"outbox[e1].dispatch_begun", "outbox[e1].age",
                           "relay[r1].sending_for"}) {
    CHECK(std::count(names.begin(), names.end(), name) == 1);
  }
  CHECK(std::count(names.begin(), names.end(), "outbox[e1].token") == 0);
  const OutboxModel seed(testing::MakeConfig(1, 1));
  for (const Cell& cell : Cells(seed, seed.InitialStates().front())) {
    CHECK(cell.name.find("dispatch_begun") == std::string::npos);
    CHECK(cell.name.find("sending_for") == std::string::npos);
  }
  CHECK(ActionDetail(m, m.InitialStates().front(),
                     ParseAction(m.config(), "claim(r1, e1)").value()) ==
        "dispatch");
}

TEST_CASE("configurations that break a style's rules do not validate") {
  Config c = Styled(RelayStyle::kRowLock, 1, 1);
  c.lease = false;
  CHECK(Validate(c).message() ==
        "switches.lease: relay.style 'row_lock' has no lease and no fencing "
        "token; leave [switches] out");
  c = Styled(RelayStyle::kCdcOffset, 2, 1);
  CHECK(Validate(c).message() ==
        "relays: relay.style 'cdc_offset' runs exactly one relay (one cursor "
        "or connector); got 2");
  c = Styled(RelayStyle::kSequenceCursor, 1, 1);
  c.budgets.failed_commits = 1;
  CHECK(Validate(c).message() ==
        "faults.failed_commits: relay.style 'sequence_cursor' takes no failed "
        "commits; only 'row_lock' does (its send and its commit share a "
        "transaction)");
  c = Styled(RelayStyle::kRowLock, 1, 1);
  c.budgets.premature_expiries = 1;
  CHECK(Validate(c).message() ==
        "faults.premature_expiries: relay.style 'row_lock' has no lease to "
        "expire; only 'lease_token' takes premature expiries");
  c = testing::MakeConfig(1, 1, {Strategy::kCreditInbox});
  c.message_id = MessageIdentity::kPerAttempt;
  c.budgets.lost_consumer_acks = 1;
  CHECK(Validate(c).message() ==
        "faults.lost_consumer_acks: relay.message_id 'per_attempt' is "
        "modelled only without broker redeliveries to consumers (a "
        "redelivered copy keeps its id); set it to 0");
  c = Styled(RelayStyle::kAgeSweeper, 1, 1);
  CHECK(Validate(c).message() ==
        "relay.min_age: required with relay.style = \"age_sweeper\": the age "
        "from which the sweeper sends a row still not marked dispatched "
        "again");
  c.min_age = 60;
  CHECK(Validate(c).ok());
  c.budgets.lost_broker_writes = 1;
  CHECK(Validate(c).message() ==
        "faults.lost_broker_writes: faults.lost_broker_writes is set, which "
        "does not combine with durations (relay.min_age is set) "
        "(model/TIME.md) yet; use one or the other");
}

TEST_CASE(
    "inline_dispatch: a pass before the commit finds nothing and the row is "
    "never sent; waiting for the commit, the pass always finds it") {
  Config c =
      Styled(RelayStyle::kInlineDispatch, 1, 1, {Strategy::kCreditInbox});
  c.commits_during_run = true;
  c.dispatch_waits_for_commit = false;
  c.budgets.relay_crashes = 1;
  REQUIRE(Validate(c).ok());
  OutboxModel racing(c);
  State s = Run(racing, {"claim(r1, e1)"});
  CHECK(s.events[0].begun == 1);
  CHECK(s.relays[0] == RelayCells{});  // found nothing, stays idle
  s = Run(racing, {"claim(r1, e1)", "source_commit(e1)"});
  CHECK(Why(racing, s, "claim(r1, e1)") ==
        "the delivery pass of event e1's context has run");
  CHECK(s.events[0].published == 0);

  c.dispatch_waits_for_commit = true;
  OutboxModel waiting(c);
  const State fresh = waiting.InitialStates().front();
  CHECK(Why(waiting, fresh, "claim(r1, e1)") ==
        "the source transaction of event e1 has not committed, so its row "
        "is not visible");
  // A crash before the delivery lets the pass run again.
  s = Run(waiting,
          {"source_commit(e1)", "claim(r1, e1)", "send(r1)", "crash_relay(r1)",
           "claim(r1, e1)", "send(r1)", "complete(r1)"});
  CHECK(s.events[0].published == 1);
  CHECK(s.events[0].offered == 2);

  Config other = Styled(RelayStyle::kRowLock, 1, 1);
  other.dispatch_waits_for_commit = false;
  CHECK(Validate(other).message() ==
        "relay.dispatch_waits_for_commit: relay.style 'row_lock' runs no "
        "inline delivery pass; only 'inline_dispatch' takes it");
  Config early = Styled(RelayStyle::kInlineDispatch, 1, 1);
  CHECK(Validate(early).message().rfind("source.commits: relay.style "
                                        "'inline_dispatch'",
                                        0) == 0);
}

}  // namespace
}  // namespace oc
