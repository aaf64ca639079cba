// Symmetry (model/symmetry.h) against a brute force: every renaming of
// relays, of a group's instances and of interchangeable events, applied
// directly to reachable states.

#include "model/symmetry.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <deque>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "explorer/breadth_first_search.h"
#include "model/action.h"
#include "model/fault_budgets.h"
#include "model/outbox_model.h"
#include "model_test_util.h"

namespace oc {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Two relays; events e1 and e2 alike, e3 of another type; one
// check_then_act group of two instances; a premature expiry.
Config SymmetricConfig() {
  Config c = testing::MakeConfig(2, 3, {Strategy::kCreditCheckThenAct}, 2);
  for (Event& e : c.events) {
    e.key.reset();
    e.version.reset();
  }
  c.events[2].type = "refund";
  c.budgets.premature_expiries = 1;
  return c;
}

// The same with time (model/TIME.md): clocks per event, per group and
// event, and a retrying flag per relay must move with their owners.
Config TimedSymmetricConfig(Dedup dedup) {
  Config c = SymmetricConfig();
  c.groups[0].strategy = Strategy::kCreditInbox;
  c.time.lease = 120;
  c.time.poll = 60;
  c.broker.dedup = dedup;
  if (dedup == Dedup::kWindow) c.broker.window = 180;
  c.groups[0].inbox_retention = 120;
  c.groups[0].redelivery = {60};
  c.groups[0].dead_letter_redrive = 180;
  c.budgets.premature_expiries = 0;  // keeps the brute force quick
  c.budgets.relay_crashes = 1;
  c.budgets.lost_consumer_acks = 1;
  c.budgets.lost_publish_acks = dedup == Dedup::kProducerSession ? 1 : 0;
  return c;
}

// The same with a declared strategy of three steps over tables of its own:
// a row per event (which must move with its event), a number per account
// (which stays: interchangeable events have the same account), a local
// carried from step 1 to step 3 and a `stop handler`.
Config DeclaredSymmetricConfig() {
  Config c = SymmetricConfig();
  c.budgets.premature_expiries = 0;
  c.budgets.consumer_crashes = 1;
  c.budgets.lost_publish_acks = 1;
  for (Event& e : c.events) {
    e.account = "a";
    e.amount = 2;
  }
  c.events[2].account = "b";
  HandlerProgram p;
  p.name = "points";
  p.file = "points.toml";
  p.tables = {UserTable{"awarded", true, -1}, UserTable{"points", false, 0}};
  p.domains = {"account"};

  HandlerError error;
  const bool ok =
      CompileHandler({{{"new = insert awarded[event]", 1, 1},
                       {"if not new: stop handler", 1, 1}},
                      {{"points[event.account] += event.amount", 2, 1}},
                      {{"if new: points[event.account] += 1", 3, 1}}},
                     p, error);
  REQUIRE_MESSAGE(ok, error.message);
  c.groups[0].strategy = Strategy::kDeclared;
  c.groups[0].declared = p;
  REQUIRE(Validate(c).ok());
  return c;
}

// A transfer between two accounts that two attributes of one domain
// name: a debit of `from` in step 1, which also keeps `to` in a local, and
// a credit of that local in step 2. Account a starts with a balance; the
// third event, equal to the others in every attribute, starts with its row
// by event present, which tells it apart.
Config DeclaredTransferConfig() {
  Config c = SymmetricConfig();
  c.budgets.premature_expiries = 0;
  c.budgets.consumer_crashes = 1;
  for (Event& e : c.events) {
    e.amount = 3;
    e.attributes = {{"from", "a", std::nullopt}, {"to", "b", std::nullopt}};
  }
  HandlerProgram p;
  p.name = "transfer";
  p.file = "transfer.toml";
  p.declared_domains = {DeclaredDomain{"account", {"from", "to"}}};
  p.domains = {"account"};
  p.tables = {UserTable{"balance", false, 0}, UserTable{"seen", true, -1}};
  HandlerError error;
  const bool ok = CompileHandler(
      {{{"if seen[event]: stop handler", 1, 1},
        {"dest = event.to", 1, 1},
        {"balance[event.from] -= event.amount", 1, 1}},
       {{"balance[dest] += event.amount", 2, 1}, {"insert seen[event]", 2, 1}}},
      p, error);
  REQUIRE_MESSAGE(ok, error.message);
  c.groups[0].strategy = Strategy::kDeclared;
  c.groups[0].declared = p;
  c.groups[0].initial = {{"balance", "a", 5}, {"seen", c.events[2].name, 1}};
  REQUIRE_MESSAGE(Validate(c).ok(), Validate(c).message());
  return c;
}

Bytes Encode(const OutboxModel& m, const State& s) {
  Bytes b(m.EncodedSize());
  m.Encode(s, b.data());
  return b;
}

Bytes Canonical(const OutboxModel& m, const State& s) {
  Bytes b(m.EncodedSize());
  OutboxModel::SymmetryScratch scratch;
  m.Canonicalize(s, b.data(), scratch);
  return b;
}

std::uint64_t OrbitSize(const OutboxModel& m, const State& s) {
  OutboxModel::SymmetryScratch scratch;
  return m.OrbitSize(s, scratch);
}

// `s` with relay r renamed relay[r], instance i instance[i] and event e
// event[e]: every cell moves, and every reference follows.
State Rename(const State& s, const std::vector<int>& relay,
             const std::vector<int>& instance, const std::vector<int>& event,
             const std::vector<UserTableLayout>& declared) {
  State t = s;
  for (const UserTableLayout& l : declared) {
    if (!l.by_event) continue;
    for (int e = 0; e < l.size; ++e) {
      t.user[static_cast<std::size_t>(l.first + event[e])] =
          s.user[static_cast<std::size_t>(l.first + e)];
    }
  }
  const std::size_t events = s.events.size();
  auto event_ref = [&](std::uint8_t ref) {
    return ref == 0 ? std::uint8_t{0}
                    : static_cast<std::uint8_t>(event[ref - 1] + 1);
  };
  for (std::size_t e = 0; e < events; ++e) {
    EventCells c = s.events[e];
    if (c.owner != 0)
      c.owner = static_cast<std::uint8_t>(relay[c.owner - 1] + 1);
    t.events[event[e]] = c;
    t.group_events[event[e]] = s.group_events[e];  // one group
  }
  for (std::size_t r = 0; r < s.relays.size(); ++r) {
    RelayCells c = s.relays[r];
    c.event = event_ref(c.event);
    t.relays[relay[r]] = c;
  }
  for (std::size_t i = 0; i < s.instances.size(); ++i) {
    InstanceCells c = s.instances[i];
    c.event = event_ref(c.event);
    t.instances[instance[i]] = c;
  }
  return t;
}

// Every reachable state of `m`, in breadth-first order; `encodings` gets
// their encodings.
std::vector<State> Reachable(const OutboxModel& m, std::set<Bytes>& encodings) {
  std::vector<State> states;
  const std::vector<State> initial = m.InitialStates();
  std::deque<State> work(initial.begin(), initial.end());
  while (!work.empty()) {
    State s = work.front();
    work.pop_front();
    if (!encodings.insert(Encode(m, s)).second) continue;
    states.push_back(s);
    std::vector<std::pair<Action, State>> next;
    m.Successors(s, next);
    for (auto& [a, t] : next) work.push_back(t);
  }
  return states;
}

// The renaming CanonicalRenaming gives takes each state to its canonical
// form, and its successors, actions and count flows to those of the
// canonical form (what the leads-to check on the quotient relies on):
// for every successor (a, t) of s, the representative has the successor
// (RenameAction(a, r), r(t)), one for one, with the flows renamed.
void CheckRenamedSuccessors(const OutboxModel& m,
                            const std::vector<State>& states) {
  OutboxModel::SymmetryScratch scratch;
  Bytes bytes(m.EncodedSize()), renamed(m.EncodedSize());
  for (const State& s : states) {
    const Renaming r = m.CanonicalRenaming(s, bytes.data(), scratch);
    CHECK(bytes == Canonical(m, s));
    m.EncodeRenamed(s, r, renamed.data());
    CHECK(renamed == bytes);
    const State rep = m.Decode(bytes.data());
    std::vector<std::pair<Action, State>> from_s, from_rep;
    m.Successors(s, from_s);
    m.Successors(rep, from_rep);
    std::multiset<std::pair<std::string, Bytes>> expected, actual;
    for (const auto& [a, t] : from_s) {
      // A fairness class names its action (all but the partition).
      Action unpartitioned = a;
      unpartitioned.partition = 0;
      CHECK(OutboxModel::ActionOfFairnessClass(OutboxModel::FairnessClass(a)) ==
            unpartitioned);
      m.EncodeRenamed(t, r, renamed.data());
      std::uint64_t stays = 0, adds = 0;
      m.CountFlows(s, a, t, stays, adds);
      const Action b = m.RenameAction(a, r);
      expected.insert({FormatAction(m.config(), b) + " " +
                           std::to_string(m.RenameFlowPairs(stays, r)) + " " +
                           std::to_string(m.RenameFlowPairs(adds, r)) + " " +
                           (m.IsFault(s, a) ? "fault" : ""),
                       renamed});
    }
    for (const auto& [b, u] : from_rep) {
      std::uint64_t stays = 0, adds = 0;
      m.CountFlows(rep, b, u, stays, adds);
      actual.insert({FormatAction(m.config(), b) + " " + std::to_string(stays) +
                         " " + std::to_string(adds) + " " +
                         (m.IsFault(rep, b) ? "fault" : ""),
                     Encode(m, u)});
    }
    CHECK(expected == actual);
  }
}

// Every reachable state of `config`, renamed every way: canonical forms
// and orbit sizes must agree with the brute force.
void CheckAgainstEveryRenaming(const Config& config) {
  const OutboxModel m(config);
  const std::vector<UserTableLayout> declared = UserTableLayouts(config);
  REQUIRE(m.HasSymmetry());
  CHECK(m.SymmetryDescription().starts_with(
      "relays r1 r2 (2!); instances of g1 (2!); events e1 e2 (2!)"));

  std::set<Bytes> reachable;
  const std::vector<State> states = Reachable(m, reachable);
  REQUIRE(states.size() > 1000);

  const std::vector<std::vector<int>> swaps = {{0, 1}, {1, 0}};
  const std::vector<std::vector<int>> event_perms = {{0, 1, 2}, {1, 0, 2}};
  std::set<Bytes> classes;
  std::uint64_t orbit_sum = 0;
  for (const State& s : states) {
    const Bytes canonical = Canonical(m, s);
    std::set<Bytes> orbit;
    for (const auto& relay : swaps) {
      for (const auto& instance : swaps) {
        for (const auto& event : event_perms) {
          const State t = Rename(s, relay, instance, event, declared);
          const Bytes bytes = Encode(m, t);
          // A renaming of a reachable state is reachable, and has the same
          // canonical form.
          CHECK(reachable.count(bytes) == 1);
          CHECK(Canonical(m, t) == canonical);
          orbit.insert(bytes);
        }
      }
    }
    CHECK(OrbitSize(m, s) == orbit.size());
    // The canonical form is the encoding of a member of the orbit.
    CHECK(orbit.count(canonical) == 1);
    if (classes.insert(canonical).second) orbit_sum += orbit.size();
  }
  // States with equal canonical forms are renamings of each other: the
  // orbits of the classes cover the reachable states exactly once.
  CHECK(orbit_sum == states.size());
  CheckRenamedSuccessors(m, states);
}

TEST_CASE("canonical forms and orbit sizes agree with every renaming") {
  CheckAgainstEveryRenaming(SymmetricConfig());
}

TEST_CASE(
    "with any number of faults, the canonical renaming carries successors, "
    "faults and count flows over") {
  // Saturated counts and renumbered tokens: CountFlows' pairs are live.
  // Two relays, two instances, two events.
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditInbox}, 2);
  for (Event& e : c.events) {
    e.key.reset();
    e.version.reset();
  }
  c.budgets.premature_expiries = kAnyBudget;
  c.budgets.lost_consumer_acks = kAnyBudget;
  c.budgets.redeliveries = kAnyBudget;
  REQUIRE(Validate(c).ok());
  const OutboxModel m(c);
  REQUIRE(m.Abstracted());
  REQUIRE(m.FlowPairsDistinct());
  REQUIRE(m.SymmetryDescription().starts_with(
      "relays r1 r2 (2!); instances of g1 (2!); events e1 e2 (2!)"));
  // Breadth-first, each state queued once, up to 20,000 states.
  std::vector<State> states = m.InitialStates();
  std::set<Bytes> seen = {Encode(m, states.front())};
  for (std::size_t i = 0; i < states.size() && states.size() < 20'000; ++i) {
    std::vector<std::pair<Action, State>> next;
    m.Successors(states[i], next);
    for (auto& [a, t] : next) {
      if (seen.insert(Encode(m, t)).second) states.push_back(t);
    }
  }
  REQUIRE(states.size() > 1000);
  CheckRenamedSuccessors(m, states);
}

TEST_CASE(
    "with clocks too, canonical forms and orbit sizes agree with every "
    "renaming") {
  CheckAgainstEveryRenaming(TimedSymmetricConfig(Dedup::kWindow));
  CheckAgainstEveryRenaming(TimedSymmetricConfig(Dedup::kProducerSession));
}

TEST_CASE(
    "with a declared strategy's own tables and three steps, canonical forms "
    "and orbit sizes agree with every renaming") {
  CheckAgainstEveryRenaming(DeclaredSymmetricConfig());
}

TEST_CASE(
    "with a table indexed by two attributes of one domain and starting "
    "values, canonical forms and orbit sizes agree with every renaming") {
  const Config c = DeclaredTransferConfig();
  const Symmetry symmetry(c);
  // The third event starts with its own row: only the first two swap.
  CHECK(symmetry.Describe().find("events e1 e2 (2!)") != std::string::npos);
  CheckAgainstEveryRenaming(c);
}

TEST_CASE(
    "with a row-lock relay, source commits and lost broker writes, canonical "
    "forms and orbit sizes still agree with every renaming") {
  Config c = SymmetricConfig();
  c.budgets.premature_expiries = 0;
  c.relay_style = RelayStyle::kRowLock;
  c.commits_during_run = true;
  c.budgets.failed_commits = 1;
  c.budgets.lost_broker_writes = 1;
  CheckAgainstEveryRenaming(c);
}

TEST_CASE(
    "with an age sweeper, whose relays and rows carry clocks, canonical "
    "forms and orbit sizes still agree with every renaming") {
  // Two relays that dispatch and sweep; a send (2 units) outlasts the
  // minimum age (1 unit), so relays with different send clocks work on
  // the same row; a crash leaves a row begun and unmarked.
  Config c = SymmetricConfig();
  c.groups[0].strategy = Strategy::kCreditInbox;  // keeps the brute force quick
  c.budgets.premature_expiries = 0;
  c.relay_style = RelayStyle::kAgeSweeper;
  c.min_age = 60;
  c.send_time = 120;
  c.time.poll = 60;
  c.budgets.relay_crashes = 1;
  CheckAgainstEveryRenaming(c);
}

TEST_CASE(
    "events that differ only in attributes nothing reads are swapped, and "
    "canonical forms and orbit sizes agree with every renaming") {
  // e1 and e2 differ in account, amount and an attribute of their own,
  // which neither the strategy nor the checks read; the checks read the
  // type, which sets e3 apart.
  Config c = SymmetricConfig();
  c.events[0].account = "acct-1";
  c.events[0].amount = 10;
  c.events[0].attributes = {EventAttribute{"sku", "a", std::nullopt}};
  c.events[1].account = "acct-2";
  c.events[1].amount = 25;
  c.events[1].attributes = {EventAttribute{"sku", "b", std::nullopt}};
  c.checks_read = EventReads{{"type"}, {}};
  CheckAgainstEveryRenaming(c);
  CHECK(OutboxModel(c).SymmetryDescription().ends_with(
      "event attributes account, amount, sku ignored, since nothing checked "
      "reads them (type read)"));
  // Unless the checks say what they read, every attribute counts.
  c.checks_read.reset();
  CHECK(OutboxModel(c).SymmetryDescription() ==
        "relays r1 r2 (2!); instances of g1 (2!)");
  // An attribute the checks read, or an event they name, sets events apart.
  c.checks_read = EventReads{{"type", "sku"}, {}};
  CHECK(OutboxModel(c).SymmetryDescription().starts_with(
      "relays r1 r2 (2!); instances of g1 (2!); event attributes account, "
      "amount ignored"));
  c.checks_read = EventReads{{"type"}, {"e2"}};
  CHECK(OutboxModel(c).SymmetryDescription().starts_with(
      "relays r1 r2 (2!); instances of g1 (2!); event attributes"));
}

TEST_CASE("relays that read events in order make no event interchangeable") {
  for (RelayStyle style :
       {RelayStyle::kSequenceCursor, RelayStyle::kCdcOffset}) {
    Config c = testing::MakeConfig(1, 2, {Strategy::kCreditInbox}, 2);
    for (Event& e : c.events) e.version.reset();  // alike but for the name
    c.relay_style = style;
    CHECK(OutboxModel(c).SymmetryDescription() == "instances of g1 (2!)");
  }
}

TEST_CASE("a reduced search stores one state per orbit and counts them all") {
  const OutboxModel m(SymmetricConfig());
  explorer::Options plain;
  plain.symmetry = false;
  const auto full = explorer::Explore<OutboxModel>(m, {}, plain);
  const auto reduced = explorer::Explore<OutboxModel>(m, {});
  CHECK(reduced.stats.states == full.stats.states);
  CHECK(reduced.stats.transitions == full.stats.transitions);
  CHECK(reduced.stats.terminal_states == full.stats.terminal_states);
  CHECK(reduced.stats.stored_states * 4 < full.stats.stored_states);
  CHECK(reduced.reduction == m.SymmetryDescription());
  CHECK(full.reduction == "none");
}

TEST_CASE("no symmetry when nothing is interchangeable") {
  Config c = testing::MakeConfig(1, 2, {Strategy::kCreditInbox}, 1);
  const OutboxModel m(c);  // versions 1 and 2 tell the events apart
  CHECK_FALSE(m.HasSymmetry());
  CHECK(m.SymmetryDescription() == "none");
}

// A partitioned broker (docs/SEMANTICS.md section 16): relays alone swap.
// Every reachable state, its relays swapped: the canonical form and the
// orbit size agree with the brute force, and the orbits cover the states.
TEST_CASE(
    "with a partitioned broker, relays alone are interchangeable, and "
    "canonical forms and orbit sizes agree with swapping them") {
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditNaive}, 2);
  c.broker.delivery = Delivery::kPartitioned;
  c.broker.commit_fencing = false;
  c.max_in_flight = 5;
  c.budgets.premature_expiries = 1;
  c.budgets.send_failures = 1;
  c.budgets.rebalances = 1;
  c.observed = kObserveKeyOrder | kObserveStaleCommit;
  REQUIRE(Validate(c).ok());
  const OutboxModel m(c);
  CHECK(m.SymmetryDescription() == "relays r1 r2 (2!)");
  std::set<Bytes> reachable;
  const std::vector<State> states = Reachable(m, reachable);
  REQUIRE(states.size() > 1000);
  std::set<Bytes> classes;
  std::uint64_t orbit_sum = 0;
  for (const State& s : states) {
    State t = s;
    std::swap(t.relays[0], t.relays[1]);
    for (EventCells& e : t.events) {
      if (e.owner != 0) e.owner = static_cast<std::uint8_t>(3 - e.owner);
    }
    const Bytes canonical = Canonical(m, s);
    CHECK(reachable.count(Encode(m, t)) == 1);
    CHECK(Canonical(m, t) == canonical);
    const std::set<Bytes> orbit = {Encode(m, s), Encode(m, t)};
    CHECK(OrbitSize(m, s) == orbit.size());
    CHECK(orbit.count(canonical) == 1);
    if (classes.insert(canonical).second) orbit_sum += orbit.size();
  }
  CHECK(orbit_sum == states.size());
}

// The instances that start with no partition swap too: with one partition
// and three instances, instance 1 starts with it and instances 2 and 3 are
// interchangeable. Every reachable state, renamed by every combination of
// the relay swap and the swap of instances 2 and 3 (owners follow): the
// canonical form and the orbit size agree with the brute force.
TEST_CASE(
    "with a partitioned broker, the instances that start with no partition "
    "are interchangeable, and canonical forms and orbit sizes agree with "
    "swapping them") {
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditNaive}, 3);
  c.broker.delivery = Delivery::kPartitioned;
  c.broker.commit_fencing = false;
  c.budgets.premature_expiries = 1;
  c.budgets.consumer_crashes = 1;
  c.budgets.rebalances = 2;
  c.observed = kObserveKeyOrder | kObserveStaleCommit | kObserveProcessed;
  REQUIRE(Validate(c).ok());
  const OutboxModel m(c);
  CHECK(m.SymmetryDescription() ==
        "relays r1 r2 (2!); instances of g1 that start with no partition "
        "(2!)");
  std::set<Bytes> reachable;
  const std::vector<State> states = Reachable(m, reachable);
  REQUIRE(states.size() > 1000);
  auto rename = [](const State& s, bool relays, bool instances) {
    State t = s;
    if (relays) {
      std::swap(t.relays[0], t.relays[1]);
      for (EventCells& e : t.events) {
        if (e.owner != 0) e.owner = static_cast<std::uint8_t>(3 - e.owner);
      }
    }
    if (instances) {
      std::swap(t.instances[1], t.instances[2]);
      for (GroupPartitionCells& p : t.partitions) {
        if (p.owner != 0) p.owner = static_cast<std::uint8_t>(3 - p.owner);
      }
    }
    return t;
  };
  std::set<Bytes> classes;
  std::uint64_t orbit_sum = 0;
  bool moved = false;  // some state has a partition at instance 2 or 3
  for (const State& s : states) {
    const Bytes canonical = Canonical(m, s);
    std::set<Bytes> orbit;
    for (bool relays : {false, true}) {
      for (bool instances : {false, true}) {
        const State t = rename(s, relays, instances);
        const Bytes bytes = Encode(m, t);
        CHECK(reachable.count(bytes) == 1);
        CHECK(Canonical(m, t) == canonical);
        orbit.insert(bytes);
      }
    }
    moved = moved || s.partitions[0].owner != 0;
    CHECK(OrbitSize(m, s) == orbit.size());
    CHECK(orbit.count(canonical) == 1);
    if (classes.insert(canonical).second) orbit_sum += orbit.size();
  }
  CHECK(moved);
  CHECK(orbit_sum == states.size());
}

}  // namespace
}  // namespace oc
