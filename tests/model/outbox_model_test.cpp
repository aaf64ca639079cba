// Each action's guard and effect (docs/SEMANTICS.md sections 3-5), on tiny
// configs.

#include "model/outbox_model.h"

#include <doctest/doctest.h>

#include "model_test_util.h"

namespace oc {
namespace {

using testing::Run;
using testing::Why;

Config TwoRelays(std::vector<Strategy> groups = {Strategy::kCreditNaive},
                 int instances = 1) {
  Config c = testing::MakeConfig(2, 1, std::move(groups), instances);
  c.relays = {"A", "B"};
  return c;
}

TEST_CASE("claim bumps the token, sets owner and an active lease") {
  OutboxModel m(TwoRelays());
  const State s = Run(m, {"claim(A, e1)"});
  CHECK(s.events[0].token == 1);
  CHECK(s.events[0].owner == 1);
  CHECK(s.events[0].lease == Lease::kActive);
  CHECK(s.relays[0] == RelayCells{RelayPhase::kClaimed, 1, 1});
  CHECK(Why(m, s, "claim(B, e1)") ==
        "the lease of event e1 is active (token 1, owner A)");
  CHECK(Why(m, s, "claim(A, e1)") ==
        "relay A is claimed(e1, token 1), not idle");
}

TEST_CASE(
    "with the lease off, claim leaves the lease none and needs only the "
    "bound") {
  Config c = TwoRelays();
  c.lease = false;
  c.claim_bound = 2;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "claim(B, e1)"});
  CHECK(s.events[0].lease == Lease::kNone);
  CHECK(s.events[0].token == 2);
  CHECK(s.events[0].owner == 2);
  // A, fenced out by B's claim, completes and updates nothing.
  const State fenced =
      Run(m, {"claim(A, e1)", "claim(B, e1)", "send(A)", "complete(A)"});
  CHECK(fenced.events[0].published == 0);
  CHECK(fenced.relays[0] == RelayCells{});
}

TEST_CASE("the claim bound disables claims and marks the state as bounded") {
  Config c = TwoRelays({});
  c.lease = false;
  c.claim_bound = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)"});
  CHECK(Why(m, s, "claim(B, e1)") == "event e1 has token 1, the claim bound");
  CHECK(m.BlockedByBound(s));
  CHECK_FALSE(m.BlockedByBound(m.InitialStates().front()));
}

TEST_CASE(
    "send offers a copy to every group; send_ack_lost keeps the relay "
    "claimed") {
  Config c = TwoRelays({Strategy::kCreditNaive, Strategy::kCreditInbox});
  c.budgets.lost_publish_acks = 1;
  OutboxModel m(c);
  const State lost = Run(m, {"claim(A, e1)", "send_ack_lost(A)"});
  CHECK(lost.events[0].offered == 1);
  CHECK(lost.group_events[0].ready == 1);
  CHECK(lost.group_events[1].ready == 1);
  CHECK(lost.relays[0].phase == RelayPhase::kClaimed);
  CHECK(lost.budgets.lost_publish_acks == 0);
  CHECK(Why(m, lost, "send_ack_lost(A)") ==
        "no lost publish acknowledgement is left in the budget");
  const State sent = Run(m, {"claim(A, e1)", "send_ack_lost(A)", "send(A)"});
  CHECK(sent.events[0].offered == 2);
  CHECK(sent.relays[0].phase == RelayPhase::kSent);
  CHECK(Why(m, sent, "send(A)") == "relay A is sent(e1, token 1), not claimed");
}

TEST_CASE("complete publishes for the owner with the current token") {
  OutboxModel m(TwoRelays());
  const State s = Run(m, {"claim(A, e1)", "send(A)", "complete(A)"});
  CHECK(s.events[0].published == 1);
  CHECK(s.events[0].completed_token == 1);
  CHECK(s.relays[0] == RelayCells{});
  // A published row keeps owner, token and lease.
  CHECK(s.events[0].owner == 1);
  CHECK(s.events[0].lease == Lease::kActive);
  CHECK(Why(m, s, "claim(B, e1)") == "event e1 is already published");
  CHECK(Why(m, s, "expire(e1)") == "event e1 is already published");
}

TEST_CASE("stale completion is rejected when fencing is on") {
  Config c = TwoRelays();
  c.budgets.premature_expiries = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "expire(e1)", "claim(B, e1)",
                          "send(A)", "complete(A)"});
  CHECK(s.events[0].published == 0);
  CHECK(s.relays[0] == RelayCells{});  // fenced out: zero rows, relay idle
  CHECK(s.events[0].token == 2);
  CHECK(s.budgets.premature_expiries == 0);
}

TEST_CASE("stale completion is accepted when fencing is off") {
  Config c = TwoRelays();
  c.fencing = false;
  c.budgets.premature_expiries = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "expire(e1)", "claim(B, e1)",
                          "send(A)", "complete(A)"});
  CHECK(s.events[0].published == 1);
  CHECK(s.events[0].completed_token == 1);
  CHECK(s.events[0].token == 2);
}

TEST_CASE(
    "expire needs the budget while the owner works, and is free when "
    "orphaned") {
  Config c = TwoRelays();
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  const State held = Run(m, {"claim(A, e1)"});
  CHECK(Why(m, held, "expire(e1)") ==
        "the lease of event e1 is held by a working relay and no premature "
        "expiry is left in the budget");
  const State orphaned =
      Run(m, {"claim(A, e1)", "crash_relay(A)", "expire(e1)"});
  CHECK(orphaned.events[0].lease == Lease::kExpired);
  CHECK(orphaned.budgets.premature_expiries == 0);
  CHECK(orphaned.budgets.relay_crashes == 0);
  CHECK(Why(m, orphaned, "expire(e1)") ==
        "the lease of event e1 is expired, not active");
  // After expiry anyone may claim again.
  const State again =
      Run(m, {"claim(A, e1)", "crash_relay(A)", "expire(e1)", "claim(B, e1)"});
  CHECK(again.events[0].token == 2);
}

TEST_CASE("a lease held by a stale token holder is orphaned") {
  Config c = TwoRelays();
  c.budgets.premature_expiries = 1;
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  // A holds token 1, B claimed token 2 and crashed: no relay holds token 2.
  const State s = Run(m, {"claim(A, e1)", "expire(e1)", "claim(B, e1)",
                          "crash_relay(B)", "expire(e1)"});
  CHECK(s.events[0].lease == Lease::kExpired);
  CHECK(s.budgets.premature_expiries == 0);
  CHECK(s.relays[0].phase == RelayPhase::kClaimed);
}

TEST_CASE("crash_relay idles the relay and keeps its lease") {
  Config c = TwoRelays();
  c.budgets.relay_crashes = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "send(A)", "crash_relay(A)"});
  CHECK(s.relays[0] == RelayCells{});
  CHECK(s.events[0].lease == Lease::kActive);
  CHECK(Why(m, s, "crash_relay(A)") ==
        "relay A is idle; there is nothing to crash");
}

TEST_CASE("consume takes a copy and runs a one-step handler to holding") {
  OutboxModel m(TwoRelays());
  const State before = Run(m, {"claim(A, e1)", "send(A)"});
  CHECK(Why(m, m.InitialStates().front(), "consume(g1, 1, e1)") ==
        "no copy of e1 is ready for group g1");
  const State s = Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)"});
  CHECK(before.group_events[0].ready == 1);
  CHECK(s.group_events[0].ready == 0);
  CHECK(s.group_events[0].effects == 1);
  CHECK(s.instances[0] == InstanceCells{InstancePhase::kHolding, 1, 0});
  CHECK(Why(m, s, "step(g1, 1)") ==
        "instance 1 of group g1 is holding(e1), not midway");
}

TEST_CASE("acknowledge forgets the delivery, ack_lost puts the copy back") {
  Config c = TwoRelays();
  c.budgets.lost_consumer_acks = 1;
  OutboxModel m(c);
  const std::vector<std::string> held = {"claim(A, e1)", "send(A)",
                                         "consume(g1, 1, e1)"};
  std::vector<std::string> acked = held;
  acked.push_back("acknowledge(g1, 1)");
  const State a = Run(m, acked);
  CHECK(a.instances[0] == InstanceCells{});
  CHECK(a.group_events[0].ready == 0);
  std::vector<std::string> lost = held;
  lost.push_back("ack_lost(g1, 1)");
  const State l = Run(m, lost);
  CHECK(l.instances[0] == InstanceCells{});
  CHECK(l.group_events[0].ready == 1);
  CHECK(l.budgets.lost_consumer_acks == 0);
}

TEST_CASE("crash_consumer and redeliver act only midway") {
  Config c = TwoRelays({Strategy::kCreditEffectThenInbox});
  c.budgets.consumer_crashes = 1;
  c.budgets.redeliveries = 1;
  OutboxModel m(c);
  const std::vector<std::string> midway = {"claim(A, e1)", "send(A)",
                                           "consume(g1, 1, e1)"};
  const State s = Run(m, midway);
  CHECK(s.instances[0].phase == InstancePhase::kMidway);
  std::vector<std::string> redeliver = midway;
  redeliver.push_back("redeliver(g1, 1)");
  const State r = Run(m, redeliver);
  CHECK(r.group_events[0].ready == 1);
  CHECK(r.instances[0].phase == InstancePhase::kMidway);  // it goes on
  CHECK(r.budgets.redeliveries == 0);
  std::vector<std::string> crash = midway;
  crash.push_back("crash_consumer(g1, 1)");
  const State x = Run(m, crash);
  CHECK(x.instances[0] == InstanceCells{});
  CHECK(x.group_events[0].ready == 1);
  CHECK(x.group_events[0].effects == 1);  // step 1 had committed
  CHECK(x.budgets.consumer_crashes == 0);
}

TEST_CASE("credit.inbox applies the effect once however often it consumes") {
  Config c = TwoRelays({Strategy::kCreditInbox});
  c.budgets.lost_consumer_acks = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)",
                          "ack_lost(g1, 1)", "consume(g1, 1, e1)"});
  CHECK(s.group_events[0].effects == 1);
  CHECK(s.group_events[0].inbox == 1);
}

TEST_CASE("credit.check_then_act acts on what its first step read") {
  Config c = TwoRelays({Strategy::kCreditCheckThenAct}, 2);
  c.budgets.lost_publish_acks = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "send_ack_lost(A)", "send(A)",
                          "consume(g1, 1, e1)", "consume(g1, 2, e1)"});
  CHECK(s.instances[0] == InstanceCells{InstancePhase::kMidway, 1, 0});
  const State both = Run(
      m, {"claim(A, e1)", "send_ack_lost(A)", "send(A)", "consume(g1, 1, e1)",
          "consume(g1, 2, e1)", "step(g1, 1)", "step(g1, 2)"});
  CHECK(both.group_events[0].effects == 2);
  CHECK(both.instances[0] == InstanceCells{InstancePhase::kHolding, 1, 0});
  // A later delivery reads the inbox row and does nothing.
  const State late = Run(
      m, {"claim(A, e1)", "send_ack_lost(A)", "send(A)", "consume(g1, 1, e1)",
          "step(g1, 1)", "consume(g1, 2, e1)", "step(g1, 2)"});
  CHECK(late.group_events[0].effects == 1);
}

TEST_CASE("credit.effect_then_inbox commits the effect before the inbox row") {
  OutboxModel m(TwoRelays({Strategy::kCreditEffectThenInbox}));
  const State s = Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)"});
  CHECK(s.group_events[0].effects == 1);
  CHECK(s.group_events[0].inbox == 0);
  const State done =
      Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)", "step(g1, 1)"});
  CHECK(done.group_events[0].inbox == 1);
}

TEST_CASE(
    "projection strategies: lww overwrites, monotonic only moves forward") {
  Config c = testing::MakeConfig(
      1, 2, {Strategy::kProjectionLww, Strategy::kProjectionMonotonic});
  OutboxModel m(c);
  const State s =
      Run(m, {"claim(r1, e2)", "send(r1)", "complete(r1)", "claim(r1, e1)",
              "send(r1)", "consume(g1, 1, e2)", "acknowledge(g1, 1)",
              "consume(g1, 1, e1)", "consume(g2, 1, e2)", "acknowledge(g2, 1)",
              "consume(g2, 1, e1)"});
  CHECK(s.group_keys[0].version == 1);  // lww moved back to e1's version
  CHECK(s.group_keys[1].version == 2);  // monotonic kept version 2
}

TEST_CASE("notification strategies order the ledger and the send differently") {
  Config c = TwoRelays({Strategy::kNotificationLedgerThenSend,
                        Strategy::kNotificationSendThenLedger});
  c.budgets.consumer_crashes = 2;
  OutboxModel m(c);
  const State s =
      Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)",
              "crash_consumer(g1, 1)", "consume(g1, 1, e1)", "step(g1, 1)",
              "consume(g2, 1, e1)", "crash_consumer(g2, 1)",
              "consume(g2, 1, e1)", "step(g2, 1)"});
  // ledger first: the redelivery sees the row and never sends.
  CHECK(s.group_events[0].ledger == 1);
  CHECK(s.group_events[0].sent == 0);
  // send first: the redelivery sends again.
  CHECK(s.group_events[1].ledger == 1);
  CHECK(s.group_events[1].sent == 2);
  const State midway =
      Run(m, {"claim(A, e1)", "send(A)", "consume(g1, 1, e1)"});
  CHECK(midway.instances[0].memo == 1);  // the ledger row was new
}

TEST_CASE("cache.invalidate makes the entry fresh") {
  OutboxModel m(testing::MakeConfig(1, 1, {Strategy::kCacheInvalidate}));
  CHECK(m.InitialStates().front().group_keys[0].cache == 0);
  const State s = Run(m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)"});
  CHECK(s.group_keys[0].cache == 1);
}

TEST_CASE("successors come in the documented order") {
  Config c = TwoRelays();
  c.budgets.premature_expiries = 1;
  OutboxModel m(c);
  const State s = Run(m, {"claim(A, e1)", "send(A)"});
  std::vector<std::pair<Action, State>> next;
  m.Successors(s, next);
  std::vector<std::string> texts;
  for (const auto& [a, _] : next) texts.push_back(FormatAction(c, a));
  CHECK(texts == std::vector<std::string>{"complete(A)", "expire(e1)",
                                          "consume(g1, 1, e1)"});
}

TEST_CASE("each action kind's coverage class is the class of its name") {
  // Every kind but send, complete and expire has one class, named as the
  // kind is; those three have two each, told apart by the states.
  OutboxModel m(TwoRelays());
  const State s = m.InitialStates().front();
  const std::vector<std::string> names = OutboxModel::ActionClassNames();
  for (int k = 0; k < kActionKindCount; ++k) {
    const auto kind = static_cast<ActionKind>(k);
    if (kind == ActionKind::kSend || kind == ActionKind::kComplete ||
        kind == ActionKind::kExpire) {
      continue;
    }
    CAPTURE(k);
    const std::size_t c = m.ActionClass(s, Action{kind, 0, 0, 0, 0}, s);
    REQUIRE(c < names.size());
    CHECK(names[c] == ActionKindName(kind));
  }
  // The three that look at the states: a send that adds a copy, a complete
  // that publishes, an expire of a lease that is not premature.
  const State claimed = Run(m, {"claim(A, e1)"});
  const State sent = Run(m, {"claim(A, e1)", "send(A)"});
  const State done = Run(m, {"claim(A, e1)", "send(A)", "complete(A)"});
  const Action send{ActionKind::kSend, 0, 0, 0, 0};
  const Action complete{ActionKind::kComplete, 0, 0, 0, 0};
  CHECK(names[m.ActionClass(claimed, send, sent)] == "send");
  CHECK(names[m.ActionClass(sent, complete, done)] == "complete_published");
  CHECK(names[m.ActionClass(sent, complete, sent)] == "complete_rejected");
}

}  // namespace
}  // namespace oc
