// Each invariant of docs/SEMANTICS.md section 6 on hand-built states.

#include "invariants/invariant.h"

#include <doctest/doctest.h>

#include "../model/model_test_util.h"

namespace oc {
namespace {

bool Holds(std::string_view name, const OutboxModel& m, const State& s) {
  const Invariant* inv = FindInvariant(name);
  REQUIRE(inv != nullptr);
  REQUIRE(static_cast<bool>(inv->holds));
  return inv->holds(m, s);
}

TEST_CASE("effect_at_most_once reads effects of credit groups only") {
  OutboxModel m(testing::MakeConfig(
      1, 2, {Strategy::kCreditNaive, Strategy::kNotificationSendThenLedger}));
  State s = m.InitialStates().front();
  CHECK(Holds("effect_at_most_once", m, s));
  s.group_events[1].effects = 1;  // group g1, event e2
  CHECK(Holds("effect_at_most_once", m, s));
  s.group_events[1].effects = 2;
  CHECK_FALSE(Holds("effect_at_most_once", m, s));
  s.group_events[1].effects = 1;
  s.group_events[2].effects = 5;  // g2 is a notification group: not read
  CHECK(Holds("effect_at_most_once", m, s));
}

TEST_CASE(
    "stale_completion_rejected compares the completing and current tokens") {
  OutboxModel m(testing::MakeConfig(1, 1));
  State s = m.InitialStates().front();
  s.events[0].token = 2;
  CHECK(Holds("stale_completion_rejected", m, s));  // unpublished
  s.events[0].published = 1;
  s.events[0].completed_token = 2;
  CHECK(Holds("stale_completion_rejected", m, s));
  s.events[0].completed_token = 1;
  CHECK_FALSE(Holds("stale_completion_rejected", m, s));
}

TEST_CASE("projection_monotonic fails on a step that lowers a version") {
  OutboxModel m(testing::MakeConfig(1, 2, {Strategy::kProjectionLww}));
  const Invariant* inv = FindInvariant("projection_monotonic");
  REQUIRE(inv->kind == InvariantKind::kTransition);
  State a = m.InitialStates().front();
  State b = a;
  b.group_keys[0].version = 2;
  CHECK(inv->holds_on(m, a, b));
  CHECK_FALSE(inv->holds_on(m, b, a));
  CHECK(inv->holds_on(m, b, b));
}

TEST_CASE("notify invariants bound sent from both sides") {
  OutboxModel m(
      testing::MakeConfig(1, 1, {Strategy::kNotificationLedgerThenSend}));
  State s = m.InitialStates().front();
  CHECK(Holds("notify_at_most_once", m, s));
  CHECK_FALSE(Holds("notify_at_least_once", m, s));
  s.group_events[0].sent = 1;
  CHECK(Holds("notify_at_most_once", m, s));
  CHECK(Holds("notify_at_least_once", m, s));
  s.group_events[0].sent = 2;
  CHECK_FALSE(Holds("notify_at_most_once", m, s));
}

TEST_CASE("eventually_offered needs every event published and offered") {
  OutboxModel m(testing::MakeConfig(1, 2));
  State s = m.InitialStates().front();
  CHECK_FALSE(Holds("eventually_offered", m, s));
  for (EventCells& e : s.events) e = EventCells{1, 1, 1, Lease::kActive, 1, 1};
  CHECK(Holds("eventually_offered", m, s));
  s.events[1].offered = 0;  // published but never offered
  CHECK_FALSE(Holds("eventually_offered", m, s));
}

TEST_CASE(
    "eventually_consumed asks each strategy for its own committed effect") {
  OutboxModel m(testing::MakeConfig(
      1, 1,
      {Strategy::kCreditNaive, Strategy::kCreditInbox,
       Strategy::kNotificationSendThenLedger, Strategy::kProjectionMonotonic,
       Strategy::kCacheInvalidate}));
  State s = m.InitialStates().front();
  CHECK_FALSE(Holds("eventually_consumed", m, s));
  s.group_events[0].effects = 1;  // naive
  s.group_events[1].effects = 1;  // inbox, inbox row missing
  s.group_events[2].sent = 1;     // notification
  s.group_events[2].ledger = 1;
  s.group_keys[3].version = 1;  // projection, key k
  s.group_keys[4].cache = 1;    // cache
  CHECK_FALSE(Holds("eventually_consumed", m, s));
  s.group_events[1].inbox = 1;
  CHECK(Holds("eventually_consumed", m, s));
  s.group_events[2].ledger = 0;
  CHECK_FALSE(Holds("eventually_consumed", m, s));
}

TEST_CASE("projection_converges wants the highest version of each key") {
  OutboxModel m(testing::MakeConfig(1, 3, {Strategy::kProjectionLww}));
  State s = m.InitialStates().front();
  s.group_keys[0].version = 2;
  CHECK_FALSE(Holds("projection_converges", m, s));
  s.group_keys[0].version = 3;
  CHECK(Holds("projection_converges", m, s));
}

TEST_CASE("cache_consistent wants every entry fresh") {
  OutboxModel m(testing::MakeConfig(1, 1, {Strategy::kCacheInvalidate}));
  State s = m.InitialStates().front();
  CHECK_FALSE(Holds("cache_consistent", m, s));
  s.group_keys[0].cache = 1;
  CHECK(Holds("cache_consistent", m, s));
}

TEST_CASE("an invariant about a kind of group needs such a group") {
  const Config credit = testing::MakeConfig(1, 1, {Strategy::kCreditNaive});
  CHECK(CheckApplicable(*FindInvariant("effect_at_most_once"), credit).ok());
  CHECK(CheckApplicable(*FindInvariant("notify_at_most_once"), credit)
            .message() ==
        "'notify_at_most_once' is about notification groups; this scenario has "
        "none");
  CHECK(CheckApplicable(*FindInvariant("eventually_consumed"),
                        testing::MakeConfig(1, 1))
            .message() ==
        "'eventually_consumed' is about consumer groups; this "
        "scenario has none");
  CHECK(CheckApplicable(*FindInvariant("eventually_offered"),
                        testing::MakeConfig(1, 1))
            .ok());
}

TEST_CASE("invariant names are found, and misspellings get a suggestion") {
  CHECK(AllInvariants().size() == 13);
  for (const Invariant& inv : AllInvariants())
    CHECK(FindInvariant(inv.name) == &inv);
  CHECK(FindInvariant("efect_at_most_once") == nullptr);
  CHECK(SuggestInvariant("efect_at_most_once") == "effect_at_most_once");
  CHECK(SuggestInvariant("liveness") == "");
}

}  // namespace
}  // namespace oc
