#include "model/action.h"

#include <doctest/doctest.h>

#include "model_test_util.h"

namespace oc {
namespace {

TEST_CASE("every action's text form parses back to the same action") {
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditInbox}, 2);
  c.relays = {"A", "B"};
  c.groups[0].name = "billing";
  const std::vector<Action> actions = {
      {ActionKind::kClaim, 1, 1, 0, 0},
      {ActionKind::kSend, 1, 0, 0, 0},
      {ActionKind::kSendAckLost, 0, 0, 0, 0},
      {ActionKind::kComplete, 1, 0, 0, 0},
      {ActionKind::kExpire, 0, 1, 0, 0},
      {ActionKind::kCrashRelay, 0, 0, 0, 0},
      {ActionKind::kConsume, 0, 1, 0, 1},
      {ActionKind::kStep, 0, 0, 0, 1},
      {ActionKind::kAcknowledge, 0, 0, 0, 0},
      {ActionKind::kAckLost, 0, 0, 0, 1},
      {ActionKind::kCrashConsumer, 0, 0, 0, 0},
      {ActionKind::kRedeliver, 0, 0, 0, 1},
  };
  for (const Action& a : actions) {
    const std::string text = FormatAction(c, a);
    const Result<Action> parsed = ParseAction(c, text);
    REQUIRE_MESSAGE(parsed.ok(), text);
    CHECK_MESSAGE(parsed.value() == a, text);
  }
  CHECK(FormatAction(c, actions[0]) == "claim(B, e2)");
  CHECK(FormatAction(c, actions[6]) == "consume(billing, 2, e2)");
}

TEST_CASE("actions parse with or without spaces") {
  Config c = testing::MakeConfig(1, 1, {Strategy::kCreditNaive});
  const Result<Action> a = ParseAction(c, "  consume( g1 ,1,e1 ) ");
  REQUIRE(a.ok());
  CHECK(a.value() == Action{ActionKind::kConsume, 0, 0, 0, 0});
}

TEST_CASE("bad action text gets a message saying what is allowed") {
  Config c = testing::MakeConfig(2, 1, {Strategy::kCreditNaive});
  c.relays = {"A", "B"};
  CHECK(ParseAction(c, "claim(C, e1)").status().message() ==
        "unknown relay 'C' in 'claim(C, e1)'; relays are A, B");
  CHECK(ParseAction(c, "clam(A, e1)").status().message() ==
        "unknown action 'clam' in 'clam(A, e1)'; did you mean 'claim'?");
  CHECK(ParseAction(c, "publish(A)").status().message() ==
        "unknown action 'publish' in 'publish(A)'; actions are claim, send, "
        "send_ack_lost, complete, expire, crash_relay, consume, step, "
        "acknowledge, ack_lost, crash_consumer, redeliver, tick, retry, "
        "redrive, dead_letter_expire, cleanup, consumer_outage, "
        "database_outage, source_commit, commit_fails, flush_offset, "
        "lose_write, rebalance, send_fails, retry_send, consume_fails, "
        "consume_retry");
  CHECK(ParseAction(c, "send(A, e1)").status().message() ==
        "'send(A, e1)' has 2 arguments; write send(RELAY)");
  CHECK(ParseAction(c, "consume(g1, 2, e1)").status().message() ==
        "instance '2' in 'consume(g1, 2, e1)' is not a number from 1 to 1 "
        "(group 'g1' has 1 instance)");
  CHECK(
      ParseAction(c, "send A").status().message() ==
      "'send A' is not an action; write NAME(ARGUMENTS), e.g. 'claim(A, e1)'");
}

}  // namespace
}  // namespace oc
