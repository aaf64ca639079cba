// How the model presents its steps: participants, the arrow or note of a
// step under different relay styles, the step table's columns, the relay
// style's words, and the argument list of every action kind.

#include "model/presentation.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model_test_util.h"

namespace oc {
namespace {

struct Run {
  std::vector<Action> actions;
  std::vector<State> states;
};

// A run of `model` from its initial state along the actions written in text
// form.
Run RunOf(const OutboxModel& m, const std::vector<std::string>& texts) {
  Run run{{}, {m.InitialStates().front()}};
  for (const std::string& text : texts) {
    const Result<Action> a = ParseAction(m.config(), text);
    REQUIRE_MESSAGE(a.ok(), text);
    Result<State> next = m.Apply(run.states.back(), a.value());
    REQUIRE_MESSAGE(next.ok(), text);
    run.actions.push_back(a.value());
    run.states.push_back(std::move(next).value());
  }
  return run;
}

// The same, presented step by step.
std::vector<StepPresentation> Present(const OutboxModel& m,
                                      const std::vector<std::string>& texts) {
  const Run run = RunOf(m, texts);
  return PresentSteps(m, run.actions, run.states);
}

Config Styled(RelayStyle style, int relays, int events,
              std::vector<Strategy> groups = {}) {
  Config c = testing::MakeConfig(relays, events, std::move(groups), 2);
  c.relay_style = style;
  return c;
}

bool Changes(const StepPresentation& step, const std::string& cell) {
  return std::any_of(step.changed.begin(), step.changed.end(),
                     [&](const CellChange& c) { return c.name == cell; });
}

TEST_CASE(
    "participants are the database, the relays, the broker, then each "
    "instance") {
  OutboxModel m(testing::MakeConfig(
      2, 1, {Strategy::kCreditInbox, Strategy::kCreditNaive}, 2));
  CHECK(Participants(m) ==
        std::vector<std::string>{"outbox database", "relay r1", "relay r2",
                                 "broker", "g1/1", "g1/2", "g2/1", "g2/2"});
}

TEST_CASE(
    "a send under the seed's relay is an arrow to the broker with its "
    "fencing token") {
  OutboxModel m(Styled(RelayStyle::kLeaseToken, 2, 1));
  const std::vector<StepPresentation> steps =
      Present(m, {"claim(r2, e1)", "send(r2)"});
  const StepPresentation& claim = steps[0];
  CHECK(claim.shape == StepShape::kMessage);
  CHECK(claim.from == 2);  // relay r2
  CHECK(claim.to == 0);    // the outbox database
  CHECK(claim.text == "claim e1 (token 1)");
  CHECK(claim.action == "claim(r2, e1)");
  CHECK(claim.detail == "token 1");

  const StepPresentation& send = steps[1];
  CHECK(send.shape == StepShape::kMessage);
  CHECK(send.from == 2);
  CHECK(send.to == 3);  // the broker
  CHECK(send.text == "publish e1 (token 1)");
  CHECK_FALSE(send.dashed);
  CHECK_FALSE(send.lost);
  CHECK(send.action == "send(r2)");
  CHECK(send.detail == "e1, token 1");
  CHECK(Changes(send, "broker.offered[e1]"));
  CHECK_FALSE(Changes(send, "outbox[e1].published"));
}

TEST_CASE(
    "a send under row_lock names no token, and says when its ack is "
    "lost") {
  Config c = Styled(RelayStyle::kRowLock, 1, 1);
  c.budgets.lost_publish_acks = 1;
  OutboxModel m(c);
  const std::vector<StepPresentation> steps = Present(
      m, {"claim(r1, e1)", "send_ack_lost(r1)", "send(r1)", "complete(r1)"});
  CHECK(steps[0].text == "lock e1");
  CHECK(steps[0].detail == "");
  CHECK(steps[1].from == 1);
  CHECK(steps[1].to == 2);
  CHECK(steps[1].text == "publish e1; its ack is lost");
  CHECK(steps[1].detail == "e1");
  CHECK(steps[2].text == "publish e1");  // no dedup: a second copy
  CHECK(steps[3].to == 0);
  CHECK(steps[3].text == "commit: published e1");
}

TEST_CASE("a second copy the broker drops is drawn as dropped") {
  Config c = Styled(RelayStyle::kLeaseToken, 1, 1);
  c.broker.dedup = Dedup::kProducerSession;
  c.budgets.lost_publish_acks = 1;
  OutboxModel m(c);
  const std::vector<StepPresentation> steps =
      Present(m, {"claim(r1, e1)", "send_ack_lost(r1)", "send(r1)"});
  CHECK(steps[1].text == "publish e1 (token 1); its ack is lost");
  CHECK(steps[2].text == "publish e1 (token 1): dropped as a duplicate");
  CHECK_FALSE(Changes(steps[2], "broker.offered[e1]"));
}

TEST_CASE(
    "a CDC completion is the broker's acknowledgement back to the "
    "relay") {
  OutboxModel m(Styled(RelayStyle::kCdcOffset, 1, 1));
  const std::vector<StepPresentation> steps = Present(
      m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "flush_offset(r1)"});
  CHECK(steps[0].text == "read e1");
  const StepPresentation& ack = steps[2];
  CHECK(ack.shape == StepShape::kMessage);
  CHECK(ack.from == 2);  // the broker
  CHECK(ack.to == 1);    // relay r1
  CHECK(ack.dashed);
  CHECK(ack.text == "acknowledged: e1");
  CHECK(steps[3].text == "flush offset 1");
  CHECK(steps[3].to == 0);
}

TEST_CASE("a fenced completion says whether the token still held") {
  Config c = Styled(RelayStyle::kLeaseToken, 2, 1);
  c.budgets.premature_expiries = 1;
  OutboxModel m(c);
  const std::vector<StepPresentation> steps =
      Present(m, {"claim(r1, e1)", "send(r1)", "expire(e1)", "claim(r2, e1)",
                  "send(r2)", "complete(r2)", "complete(r1)"});
  CHECK(steps[2].shape == StepShape::kNote);
  CHECK(steps[2].from == 0);
  CHECK(steps[2].to == 0);
  CHECK(steps[2].text == "lease of e1 expires (premature)");
  CHECK(steps[2].detail == "token 1");
  CHECK(steps[3].text == "claim e1 (token 2)");
  CHECK(steps[5].text == "complete e1 (token 2): published");
  CHECK(steps[6].text == "complete e1 (token 1): 0 rows, rejected");
  CHECK(Changes(steps[6], "relay[r1]"));
  CHECK_FALSE(Changes(steps[6], "outbox[e1].published"));
}

TEST_CASE("consumer steps are drawn between the broker and the instance") {
  Config c = testing::MakeConfig(1, 1, {Strategy::kCreditInbox}, 2);
  c.budgets.lost_consumer_acks = 1;
  OutboxModel m(c);
  const std::vector<StepPresentation> steps = Present(
      m,
      {"claim(r1, e1)", "send(r1)", "consume(g1, 2, e1)", "ack_lost(g1, 2)"});
  CHECK(steps[2].from == 2);  // the broker
  CHECK(steps[2].to == 4);    // g1/2
  CHECK(steps[2].text == "deliver e1");
  CHECK(steps[3].from == 4);
  CHECK(steps[3].to == 2);
  CHECK(steps[3].dashed);
  CHECK(steps[3].lost);
  CHECK(steps[3].text == "ack lost: redelivery");
}

TEST_CASE(
    "the age sweeper's claims are a dispatch, then a sweep; ticks count "
    "the time since the start") {
  Config c = Styled(RelayStyle::kAgeSweeper, 2, 1);
  c.min_age = 10;
  c.send_time = 15;
  c.time.poll = 5;
  OutboxModel m(c);
  const std::vector<StepPresentation> steps =
      Present(m, {"claim(r1, e1)", "tick", "tick", "claim(r2, e1)", "send(r2)",
                  "complete(r2)"});
  CHECK(steps[0].text == "dispatch (just written) e1");
  CHECK(steps[0].detail == "dispatch");
  CHECK(steps[1].shape == StepShape::kNote);
  CHECK(steps[1].text == "time passes: 5s since the start");
  CHECK(steps[1].detail == "+5s");
  CHECK(steps[2].text == "time passes: 10s since the start");
  CHECK(steps[3].text == "sweep: unmarked and old enough e1");
  CHECK(steps[3].detail == "sweep");
  CHECK(steps[4].text == "publish e1");
  CHECK(steps[5].text == "mark dispatched: e1");
}

TEST_CASE(
    "a run of consecutive ticks is one row that spans its steps, unless a "
    "step of it must stand alone") {
  // A consumer down for 5 minutes, in 1-minute ticks.
  Config c = testing::MakeConfig(1, 1, {Strategy::kCreditInbox}, 1);
  c.time.poll = 60;
  c.time.consumer_outage = 300;
  c.budgets.consumer_outages = 1;
  OutboxModel m(c);
  const Run run = RunOf(
      m, {"claim(r1, e1)", "send(r1)", "complete(r1)", "consumer_outage(g1)",
          "tick", "tick", "tick", "tick", "tick", "consume(g1, 1, e1)"});
  const std::vector<StepRow> rows = PresentRows(m, run.actions, run.states);
  REQUIRE(rows.size() == 6);
  CHECK(rows[3].first == 3);
  CHECK_FALSE(rows[3].grouped());
  // Steps 5 to 9: five ticks, one row, with what the five changed.
  CHECK(rows[4].first == 4);
  CHECK(rows[4].last == 8);
  CHECK(rows[4].grouped());
  CHECK(rows[4].step.shape == StepShape::kNote);
  CHECK(rows[4].step.action == "5 ticks");
  CHECK(rows[4].step.detail == "+5m, to 5m since the start");
  CHECK(rows[4].step.text ==
        "time passes 5m in 5 ticks, to 5m since the start");
  CHECK(rows[4].step.changed == ChangedCells(m, run.states[4], run.states[9]));
  CHECK_FALSE(rows[4].step.changed.empty());
  CHECK(rows[5].step.action == "consume(g1, 1, e1)");
  // A marked step (7, 1-based) splits the run around it, and the runs on
  // either side count on from the start.
  const std::vector<std::size_t> alone = {7};
  const std::vector<StepRow> split =
      PresentRows(m, run.actions, run.states, alone);
  REQUIRE(split.size() == 8);
  CHECK(split[4].last == 5);
  CHECK(split[4].step.text ==
        "time passes 2m in 2 ticks, to 2m since the start");
  CHECK_FALSE(split[5].grouped());
  CHECK(split[5].step.text == "time passes: 3m since the start");
  CHECK(split[6].step.text ==
        "time passes 2m in 2 ticks, to 5m since the start");
}

TEST_CASE("the relay style's scope clauses and settings") {
  Config c = Styled(RelayStyle::kLeaseToken, 1, 1);
  CHECK(RelayStyleClauses(c) == "");
  CHECK(RelayStyleSettings(c).empty());
  c.budgets.lost_broker_writes = 2;
  CHECK(RelayStyleClauses(c) == "; at most 2 lost broker writes");
  c.budgets.lost_broker_writes = 0;
  c.relay_style = RelayStyle::kRowLock;
  c.budgets.failed_commits = 0;
  CHECK(RelayStyleClauses(c) ==
        "; relay style row_lock, at most 0 failed commits");
  c.budgets.failed_commits = 1;
  CHECK(RelayStyleClauses(c) ==
        "; relay style row_lock, at most 1 failed commit");
  c.budgets.lost_broker_writes = 1;
  CHECK(RelayStyleClauses(c) ==
        "; relay style row_lock, at most 1 failed commit; at most 1 lost "
        "broker write");
  c.budgets.failed_commits = 0;
  c.budgets.lost_broker_writes = 0;
  c.relay_style = RelayStyle::kSequenceCursor;
  CHECK(RelayStyleClauses(c) == "; relay style sequence_cursor");
  c.relay_style = RelayStyle::kCdcOffset;
  CHECK(RelayStyleClauses(c) == "; relay style cdc_offset");
  CHECK(RelayStyleSettings(c).empty());
  c.relay_style = RelayStyle::kAgeSweeper;
  c.min_age = 300;
  CHECK(RelayStyleClauses(c) ==
        "; relay style age_sweeper (minimum age 5m, sends up to 0s)");
  CHECK(RelayStyleSettings(c) ==
        std::vector<RelaySetting>{{"min_age", "5m"},
                                  {"send_time", std::nullopt}});
}

TEST_CASE("every action kind's argument list is what its text form names") {
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditInbox}, 3);
  c.relays = {"A", "B"};
  c.groups[0].name = "billing";
  // Each kind with every index set, so that an argument the kind does not
  // take would show.
  struct Expected {
    ActionKind kind;
    std::vector<std::string_view> names;
  };
  const std::vector<Expected> kinds = {
      {ActionKind::kClaim, {"relay", "event"}},
      {ActionKind::kSend, {"relay"}},
      {ActionKind::kSendAckLost, {"relay"}},
      {ActionKind::kComplete, {"relay"}},
      {ActionKind::kExpire, {"event"}},
      {ActionKind::kCrashRelay, {"relay"}},
      {ActionKind::kConsume, {"group", "instance", "event"}},
      {ActionKind::kStep, {"group", "instance"}},
      {ActionKind::kAcknowledge, {"group", "instance"}},
      {ActionKind::kAckLost, {"group", "instance"}},
      {ActionKind::kCrashConsumer, {"group", "instance"}},
      {ActionKind::kRedeliver, {"group", "instance"}},
      {ActionKind::kTick, {}},
      {ActionKind::kRetry, {"group", "event"}},
      {ActionKind::kRedrive, {"group", "event"}},
      {ActionKind::kDeadLetterExpire, {"group", "event"}},
      {ActionKind::kCleanup, {"group", "event"}},
      {ActionKind::kConsumerOutage, {"group"}},
      {ActionKind::kDatabaseOutage, {}},
      {ActionKind::kSourceCommit, {"event"}},
      {ActionKind::kCommitFails, {"relay"}},
      {ActionKind::kFlushOffset, {"relay"}},
      {ActionKind::kLoseWrite, {"event"}},
      {ActionKind::kRebalance, {"group", "partition", "instance"}},
      {ActionKind::kSendFails, {"relay"}},
      {ActionKind::kRetrySend, {"relay"}},
      {ActionKind::kConsumeFails, {"group", "instance", "event"}},
      {ActionKind::kConsumeRetry, {"group", "instance", "event"}},
  };
  REQUIRE(kinds.size() == static_cast<std::size_t>(kActionKindCount));
  for (const Expected& x : kinds) {
    const Action a{x.kind, 1, 1, 0, 2, 1};
    const std::string text = FormatAction(c, a);
    const std::vector<ActionArgument> args = ActionArguments(c, a);
    std::vector<std::string_view> names;
    std::vector<std::string> values;
    for (const ActionArgument& arg : args) {
      names.push_back(arg.name);
      values.push_back(arg.value);
      CHECK_MESSAGE(
          std::find(kActionArgumentNames.begin(), kActionArgumentNames.end(),
                    arg.name) != kActionArgumentNames.end(),
          text);
      CHECK_MESSAGE(arg.number.has_value() == (arg.name == "instance"), text);
    }
    CHECK_MESSAGE(names == x.names, text);
    const std::string name(ActionKindName(x.kind));
    CHECK(text == (values.empty()
                       ? name
                       : fmt::format("{}({})", name, fmt::join(values, ", "))));
  }
  const std::vector<ActionArgument> consume =
      ActionArguments(c, Action{ActionKind::kConsume, 0, 1, 0, 2});
  CHECK(consume == std::vector<ActionArgument>{{"group", "billing", {}},
                                               {"instance", "3", 3},
                                               {"event", "e2", {}}});
}

}  // namespace
}  // namespace oc
