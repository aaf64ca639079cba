// The Promela export: one indivisible option per concrete action, the
// state's variables and nothing else, the switches reflected in guards.
// That SPIN stores exactly our states is tests/reports/spin_counts_test.sh.

#include "export/promela_export.h"

#include <doctest/doctest.h>

#include <string>

#include "model/action.h"
#include "model/config.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::exports {
namespace {

using reports::testing::Contains;
using reports::testing::Count;

Event NamedEvent(const std::string& name) {
  Event e;
  e.name = name;
  e.type = "credit";
  return e;
}

Group NamedGroup(const std::string& name, Strategy strategy, int instances) {
  Group g;
  g.name = name;
  g.strategy = strategy;
  g.instances = instances;
  return g;
}

// Relays A and B, one event, one naive credit group with one instance, one
// premature expiry.
Scenario Tiny() {
  Scenario s;
  s.name = "tiny";
  s.config.relays = {"A", "B"};
  s.config.events = {NamedEvent("e1")};
  s.config.groups = {Group{
      .name = "billing", .strategy = Strategy::kCreditNaive, .instances = 1}};
  s.config.budgets.premature_expiries = 1;
  s.invariants = {"effect_at_most_once", "eventually_offered"};
  return s;
}

TEST_CASE("the promela export has one d_step option per concrete action") {
  const Scenario s = Tiny();
  const std::string model = PromelaModel(s);
  // R * (E + 4) relay actions, E expiries, K * (E + 5) instance actions.
  CHECK(Count(model, ":: d_step {") == 2 * 5 + 1 + 6);
  CHECK(Count(model, "active proctype main()") == 1);
  CHECK(Count(model, "proctype") == 1);
  CHECK(Contains(model, "end:\n  do\n"));
  for (const char* action :
       {"claim(A, e1)", "send(A)", "send_ack_lost(A)", "complete(A)",
        "crash_relay(A)", "claim(B, e1)", "send(B)", "send_ack_lost(B)",
        "complete(B)", "crash_relay(B)", "expire(e1)",
        "consume(billing, 1, e1)", "step(billing, 1)",
        "acknowledge(billing, 1)", "ack_lost(billing, 1)",
        "crash_consumer(billing, 1)", "redeliver(billing, 1)"}) {
    CAPTURE(action);
    CHECK(Count(model, std::string("/* ") + action + " */\n  :: d_step {") ==
          1);
  }
}

TEST_CASE("the promela export declares exactly the state's variables") {
  const std::string model = PromelaModel(Tiny());
  for (const char* declaration : {"bit published[1];",
                                  "byte owner[1];",
                                  "byte token[1];",
                                  "byte lease[1];",
                                  "byte completed_token[1];",
                                  "byte offered[1];",
                                  "byte relay_phase[2];",
                                  "byte relay_event[2];",
                                  "byte relay_token[2];",
                                  "byte instance_phase[1];",
                                  "byte instance_event[1];",
                                  "bit instance_memo[1];",
                                  "byte ready[1];",
                                  "byte effects[1];",
                                  "bit inbox[1];",
                                  "bit ledger[1];",
                                  "byte sent[1];",
                                  "byte premature_expiries = 1;",
                                  "byte relay_crashes = 0;",
                                  "byte lost_publish_acks = 0;",
                                  "byte lost_consumer_acks = 0;",
                                  "byte consumer_crashes = 0;",
                                  "byte redeliveries = 0;"}) {
    CAPTURE(declaration);
    CHECK(Count(model, std::string("\n") + declaration) == 1);
  }
  // No keys: no per-key tables; no local variables, channels or counters.
  CHECK_FALSE(Contains(model, " version["));
  CHECK_FALSE(Contains(model, " fresh["));
  CHECK_FALSE(Contains(model, "chan "));
  CHECK(Count(model, "\nbyte ") + Count(model, "\nbit ") == 23);
}

TEST_CASE("the promela export asserts the named safety invariants only") {
  const std::string model = PromelaModel(Tiny());
  CHECK(Contains(model, "#define effect_at_most_once (effects[0] <= 1)"));
  CHECK(Count(model, "assert(effect_at_most_once)") == 17);
  CHECK_FALSE(Contains(model, "#define stale_completion_rejected"));
  CHECK(Contains(model, "at-rest invariants left out: eventually_offered"));
}

TEST_CASE("the promela export follows the lease, fencing and bound switches") {
  Scenario s = Tiny();
  const std::string on = PromelaModel(s);
  CHECK(Contains(on, "lease[0] != LEASE_ACTIVE"));
  CHECK(Contains(on, "lease[0] = LEASE_ACTIVE"));
  CHECK(Contains(on,
                 "owner[relay_event[0] - 1] == 1 && "
                 "token[relay_event[0] - 1] == relay_token[0]"));
  s.config.lease = false;
  s.config.fencing = false;
  s.config.claim_bound = 3;
  const std::string off = PromelaModel(s);
  CHECK_FALSE(Contains(off, "lease[0] != LEASE_ACTIVE"));
  CHECK_FALSE(Contains(off, "lease[0] = LEASE_ACTIVE"));
  CHECK_FALSE(Contains(off, "owner[relay_event[0] - 1] =="));
  CHECK(Contains(off, "token[0] < 3"));
}

TEST_CASE(
    "the promela export unrolls a two-step strategy and resets its "
    "memo") {
  Scenario s = Tiny();
  s.config.groups = {
      NamedGroup("mail", Strategy::kNotificationLedgerThenSend, 2)};
  s.config.events.push_back(NamedEvent("e2"));
  const std::string model = PromelaModel(s);
  // Instance 2 of the group is index 1; event e2 of group 0 is cell 1.
  CHECK(Contains(model,
                 "if :: ledger[1] == 0 -> instance_memo[1] = 1 :: else -> "
                 "instance_memo[1] = 0 fi;\n       ledger[1] = 1;\n       "
                 "instance_phase[1] = INSTANCE_MIDWAY"));
  CHECK(Contains(model,
                 "if :: instance_memo[1] == 1 -> sent[instance_event[1] - 1]++ "
                 ":: else -> skip fi;\n       instance_phase[1] = "
                 "INSTANCE_HOLDING;\n       instance_memo[1] = 0"));
}

TEST_CASE("the promela export has no group tables without groups") {
  Scenario s = Tiny();
  s.config.groups.clear();
  s.invariants.clear();
  const std::string model = PromelaModel(s);
  CHECK_FALSE(Contains(model, "ready["));
  CHECK_FALSE(Contains(model, "instance_phase["));
  CHECK_FALSE(Contains(model, "assert("));
  CHECK(Count(model, ":: d_step {") == 2 * 5 + 1);
}

}  // namespace
}  // namespace oc::exports
