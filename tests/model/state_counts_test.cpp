// Unreduced distinct-state counts of tiny configurations, worked out by hand.
// These pin the semantics of docs/SEMANTICS.md: a changed count is a changed
// model.

#include <doctest/doctest.h>

#include "explorer/breadth_first_search.h"
#include "model/outbox_model.h"
#include "model_test_util.h"

namespace oc {
namespace {

explorer::Stats Count(const Config& c) {
  OutboxModel m(c);
  const auto result = explorer::Explore<OutboxModel>(m, {});
  REQUIRE(result.complete());
  return result.stats;
}

TEST_CASE("one relay, one event, no group: claim, send, complete") {
  // init -claim-> claimed -send-> sent -complete-> published, idle.
  const explorer::Stats s = Count(testing::MakeConfig(1, 1));
  CHECK(s.states == 4);
  CHECK(s.transitions == 3);
  CHECK(s.terminal_states == 1);
  CHECK(s.depth == 3);
}

TEST_CASE("two relays, one event, no group, no fault: 7 states") {
  // init; then A or B claims (the lease keeps the other out), sends and
  // completes: 1 + 3 + 3 states, 2 + 2 + 2 transitions, two terminal states.
  const explorer::Stats s = Count(testing::MakeConfig(2, 1));
  CHECK(s.states == 7);
  CHECK(s.transitions == 6);
  CHECK(s.terminal_states == 2);
  CHECK(s.depth == 3);
}

TEST_CASE("one relay, one event, one naive consumer: 8 states") {
  // s0 -claim-> s1 -send-> s2 (sent, 1 ready).
  // s2 -complete-> s3 (published, 1 ready); s2 -consume-> s4 (sent, holding).
  // s3 -consume-> s5 (published, holding); s4 -complete-> s5;
  // s4 -acknowledge-> s6 (sent, consumer idle).
  // s5 -acknowledge-> s7; s6 -complete-> s7 (terminal).
  // 8 states, 1+1+2+1+2+1+1 = 9 transitions, depth 5.
  const explorer::Stats s =
      Count(testing::MakeConfig(1, 1, {Strategy::kCreditNaive}));
  CHECK(s.states == 8);
  CHECK(s.transitions == 9);
  CHECK(s.terminal_states == 1);
  CHECK(s.depth == 5);
}

TEST_CASE("a two-step handler adds a midway stage: 10 states") {
  // After claim and send the relay is in {sent, published} and the consumer
  // in {ready, midway, holding, acknowledged}: 2 x 4 = 8 states, plus init
  // and claimed. Transitions: 1 + 1 + 4 (complete, one per consumer stage)
  // + 2 x 3 (consume, step, acknowledge per relay stage) = 12. Depth 6.
  for (Strategy s :
       {Strategy::kCreditEffectThenInbox, Strategy::kCreditCheckThenAct,
        Strategy::kNotificationSendThenLedger,
        Strategy::kNotificationLedgerThenSend}) {
    const explorer::Stats stats = Count(testing::MakeConfig(1, 1, {s}));
    CHECK_MESSAGE(stats.states == 10, StrategyName(s));
    CHECK(stats.transitions == 12);
    CHECK(stats.depth == 6);
  }
}

TEST_CASE(
    "one premature expiry: 7 states, and send after expiry meets expire after "
    "send") {
  // s0 -claim-> s1 (claimed, active, X=1).
  // s1 -send-> s2 (sent, active, X=1); s1 -expire-> s3 (claimed, expired, X=0).
  // s2 -complete-> s4 (published); s2 -expire-> s5 (sent, expired, X=0).
  // s3 -send-> s5 (the same state).  s5 -complete-> s6 (published, expired).
  // 7 states, 1 + 2 + 2 + 1 + 1 = 7 transitions, terminal s4 and s6.
  Config c = testing::MakeConfig(1, 1);
  c.budgets.premature_expiries = 1;
  const explorer::Stats s = Count(c);
  CHECK(s.states == 7);
  CHECK(s.transitions == 7);
  CHECK(s.terminal_states == 2);
  CHECK(s.depth == 4);
}

TEST_CASE("without a lease, the claim bound leaves bounded dead ends") {
  // One relay, claim bound 1, one crash.
  // s0 -claim-> s1 (claimed, token 1, C=1).
  // s1 -send-> s2; s1 -crash-> s3 (idle, token 1, C=0): claim blocked by
  // the bound, a bounded dead end.
  // s2 -complete-> s4 (published, terminal); s2 -crash-> s5 (idle, offered
  // 1, C=0): again a bounded dead end.
  Config c = testing::MakeConfig(1, 1);
  c.lease = false;
  c.claim_bound = 1;
  c.budgets.relay_crashes = 1;
  const explorer::Stats s = Count(c);
  CHECK(s.states == 6);
  CHECK(s.transitions == 5);
  CHECK(s.terminal_states == 1);
  CHECK(s.bounded_dead_ends == 2);
}

}  // namespace
}  // namespace oc
