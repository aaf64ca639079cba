// check --simulate at the check layer: the verdict a simulation may give,
// determinism over threads, regression scenarios that replay, and the walk
// weights a scenario gives.

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "check/regression_scenario.h"
#include "check/scenario_check.h"
#include "model/outbox_model.h"
#include "reports/wording.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

Scenario Load(const std::string& relative) {
  Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/" + relative);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  return s.value();
}

CheckOptions Simulating(std::uint64_t seed, bool swarm, int threads) {
  CheckOptions options;
  SimulationOptions& simulate = options.simulate.emplace();
  simulate.seed = seed;
  simulate.swarm = swarm;
  simulate.walks = 200;
  options.threads = threads;
  return options;
}

// Replays the regression scenario of `result`'s first violation through the
// file format, with the exhaustive checker, and checks it breaks the same
// invariant as expected.
void ReplaysToSameViolation(const ScenarioResult& result) {
  REQUIRE(!result.exploration.violations.empty());
  const std::string& property = result.exploration.violations.front().property;
  const Result<Scenario> saved = RegressionScenario(result, 0, "traces");
  REQUIRE_MESSAGE(saved.ok(), saved.status().message());
  const Result<Scenario> reread =
      ParseScenario(FormatScenario(saved.value()), "saved.toml");
  REQUIRE_MESSAGE(reread.ok(), reread.status().message());
  const ScenarioResult replay = CheckScenario(reread.value()).value();
  CHECK(replay.outcome == Outcome::kAsExpected);
  CHECK(replay.ViolatedInvariants().front() == property);
  CHECK(replay.replay->length() ==
        result.exploration.violations.front().trace.length());
}

TEST_CASE("a simulation never says holds: no violation found is exit code 3") {
  const Scenario s = Load("scenarios/seed/1-send-crash-resend.inbox.toml");
  const ScenarioResult r = CheckScenario(s, Simulating(1, false, 2)).value();
  CHECK(r.exploration.violations.empty());
  CHECK(r.outcome == Outcome::kInconclusive);
  CHECK(ExitCodeOf(r.outcome) == 3);
  CHECK(r.simulation->walks == 200);
  CHECK(reports::VerdictText(r) ==
        "no violation found in 200 walks, " +
            std::to_string(r.exploration.stats.states) +
            " distinct states seen");
  CHECK(r.mismatches.back() ==
        "no violation found in 200 random walks; a simulation never proves "
        "that an invariant holds");
  // Without an expectation it is no different.
  Scenario bare = s;
  bare.expect.reset();
  CHECK(CheckScenario(bare, Simulating(1, false, 2)).value().outcome ==
        Outcome::kInconclusive);
}

TEST_CASE(
    "a memory cap bounds the set of distinct states a simulation counts") {
  const Scenario s = Load("scenarios/bench/3-large.toml");
  CheckOptions free = Simulating(1, false, 1);
  const ScenarioResult all = CheckScenario(s, free).value();
  REQUIRE_FALSE(all.simulation->distinct_capped);
  // 64 KiB: a quarter of it holds a few hundred states of this scenario.
  CheckOptions capped = free;
  capped.max_bytes = 64 * 1024;
  const ScenarioResult some = CheckScenario(s, capped).value();
  CHECK(some.simulation->distinct_capped);
  CHECK(some.exploration.stats.states < all.exploration.stats.states);
  CHECK(some.exploration.stats.states * 30 <= 16 * 1024);
  CHECK(reports::VerdictText(some).find("at least") != std::string::npos);
}

TEST_CASE(
    "the same seed gives the same simulation on 1 and 3 threads, another "
    "seed other walks") {
  const Scenario s = Load("scenarios/bench/7-mixed-faults.toml");
  for (bool swarm : {false, true}) {
    const ScenarioResult one =
        CheckScenario(s, Simulating(5, swarm, 1)).value();
    const ScenarioResult three =
        CheckScenario(s, Simulating(5, swarm, 3)).value();
    CHECK(one.simulation->walk == three.simulation->walk);
    CHECK(one.simulation->walks == three.simulation->walks);
    CHECK(one.exploration.stats.states == three.exploration.stats.states);
    CHECK(one.exploration.stats.transitions ==
          three.exploration.stats.transitions);
    CHECK(one.exploration.action_counts == three.exploration.action_counts);
    REQUIRE(one.exploration.violations.size() ==
            three.exploration.violations.size());
    if (!one.exploration.violations.empty()) {
      CHECK(one.exploration.violations.front().trace.actions ==
            three.exploration.violations.front().trace.actions);
    }
    const ScenarioResult other =
        CheckScenario(s, Simulating(6, swarm, 1)).value();
    CHECK(other.exploration.stats.transitions !=
          one.exploration.stats.transitions);
  }
}

TEST_CASE(
    "a violation found by a walk is shortened, saved and replays with the "
    "exhaustive checker") {
  const Scenario s = Load("scenarios/seed/lease-expiry-after-send.toml");
  const ScenarioResult r = CheckScenario(s, Simulating(1, false, 2)).value();
  REQUIRE(r.exploration.violations.size() == 1);
  CHECK(r.outcome == Outcome::kAsExpected);
  CHECK(r.exploration.violations.front().property == "effect_at_most_once");
  // The breadth-first search to the walk's depth finds the shortest, 8.
  CHECK(r.simulation->shortest);
  CHECK(r.exploration.violations.front().trace.length() == 8);
  CHECK(r.simulation->walk_length >= 8);
  ReplaysToSameViolation(r);
}

TEST_CASE("a swarm walk's drawn budgets are reported and its trace replays") {
  const Scenario s = Load("scenarios/bench/7-mixed-faults.toml");
  const ScenarioResult r = CheckScenario(s, Simulating(2, true, 2)).value();
  REQUIRE(r.simulation->budgets);
  const FaultBudgets& drawn = *r.simulation->budgets;
  const FaultBudgets& pools = s.config.budgets;
  CHECK(drawn.premature_expiries <= pools.premature_expiries);
  CHECK(drawn.lost_consumer_acks <= pools.lost_consumer_acks);
  CHECK(drawn.consumer_crashes <= pools.consumer_crashes);
  CHECK(drawn.relay_crashes == 0);  // the scenario sets none
  const std::optional<std::string> text = reports::SwarmDrawText(r);
  REQUIRE(text);
  CHECK(text->find("faults.lost_consumer_acks = " +
                   std::to_string(drawn.lost_consumer_acks)) !=
        std::string::npos);
  const Result<Scenario> saved = RegressionScenario(r, 0, "traces");
  REQUIRE(saved.ok());
  CHECK(saved.value().config.budgets == drawn);
  ReplaysToSameViolation(r);
}

// Steps the walks took of action class `name` (0 when the coverage leaves
// the class out: it cannot fire in the configuration).
std::uint64_t Fired(const ScenarioResult& r, const std::string& name) {
  const std::vector<std::string>& classes = r.exploration.action_classes;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (classes[c] == name) return r.exploration.action_counts[c];
  }
  return 0;
}

// Seed row 1 with room for fifteen relay crashes: a claimed relay may crash
// (then its orphaned lease expires and a relay claims again) or go on, so
// how often relays crash is up to the walk's choices. `weights` is the
// check.walk_weights line, if any.
Scenario CrashesAtWill(const std::string& weights) {
  const std::string text = R"toml(relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = "credit.inbox"
[faults]
relay_crashes = 15
[check]
invariants = ["effect_at_most_once", "eventually_offered"]
)toml" + weights + "\n";
  Result<Scenario> s = ParseScenario(text, "crashes.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  return s.value();
}

TEST_CASE(
    "walk weights: a class of weight 0 never fires while another action is "
    "enabled, a heavy one fires far more often, on the same seed") {
  const CheckOptions options = Simulating(3, false, 2);
  const ScenarioResult plain =
      CheckScenario(CrashesAtWill(""), options).value();
  const ScenarioResult never =
      CheckScenario(CrashesAtWill("walk_weights = { crash_relay = 0 }"),
                    options)
          .value();
  const ScenarioResult heavy =
      CheckScenario(CrashesAtWill("walk_weights = { crash_relay = 20 }"),
                    options)
          .value();
  for (const ScenarioResult* r : {&plain, &never, &heavy}) {
    REQUIRE(r->exploration.violations.empty());
    REQUIRE(r->simulation->walks == 200);
  }
  // A claimed relay can always send or complete instead of crashing.
  CHECK(Fired(plain, "crash_relay") > 0);
  CHECK(Fired(never, "crash_relay") == 0);
  CHECK(Fired(never, "expire_orphaned") == 0);  // no crash, no orphan
  CHECK(Fired(never, "complete_published") ==
        Fired(plain, "complete_published"));
  CHECK(Fired(heavy, "crash_relay") >= 3 * Fired(plain, "crash_relay"));
  // The weights are the scenario's, by class index, in the result.
  CHECK(plain.simulation->walk_weights.empty());
  CHECK(heavy.simulation->walk_weights ==
        CrashesAtWill("walk_weights = { crash_relay = 20 }").walk_weights);
}

TEST_CASE(
    "walk weights: the same seed gives the same walks twice and on any "
    "thread count, and weights of 1 give the walks of none") {
  const Scenario weighted =
      CrashesAtWill("walk_weights = { crash_relay = 5, consume = 0 }");
  for (bool swarm : {false, true}) {
    INFO("swarm: ", swarm);
    const ScenarioResult once =
        CheckScenario(weighted, Simulating(8, swarm, 2)).value();
    for (int threads : {2, 1, 3}) {
      INFO("threads: ", threads);
      const ScenarioResult again =
          CheckScenario(weighted, Simulating(8, swarm, threads)).value();
      CHECK(once.exploration.action_counts == again.exploration.action_counts);
      CHECK(once.exploration.stats.states == again.exploration.stats.states);
      CHECK(once.exploration.stats.transitions ==
            again.exploration.stats.transitions);
      CHECK(once.exploration.stats.depth == again.exploration.stats.depth);
    }
    // And the weights changed the walks.
    const ScenarioResult plain =
        CheckScenario(CrashesAtWill(""), Simulating(8, swarm, 2)).value();
    CHECK(plain.exploration.action_counts != once.exploration.action_counts);
  }
  // A weight of 1 is the default: the walks are those of no weights. (The
  // loader keeps no weights then; set them here as a caller could.)
  Scenario ones = CrashesAtWill("");
  ones.walk_weights.assign(OutboxModel::ActionClassNames().size(), 1);
  const ScenarioResult with_ones =
      CheckScenario(ones, Simulating(8, false, 2)).value();
  const ScenarioResult none =
      CheckScenario(CrashesAtWill(""), Simulating(8, false, 2)).value();
  CHECK(with_ones.exploration.action_counts == none.exploration.action_counts);
  CHECK(with_ones.exploration.stats.transitions ==
        none.exploration.stats.transitions);
}

TEST_CASE(
    "walk weights under --swarm multiply each walk's drawn weights, and the "
    "reports say so") {
  const CheckOptions options = Simulating(3, true, 2);
  const ScenarioResult plain =
      CheckScenario(CrashesAtWill(""), options).value();
  const ScenarioResult heavy =
      CheckScenario(CrashesAtWill("walk_weights = { crash_relay = 20 }"),
                    options)
          .value();
  const ScenarioResult light =
      CheckScenario(CrashesAtWill("walk_weights = { crash_relay = 0 }"),
                    options)
          .value();
  CHECK(Fired(heavy, "crash_relay") >= 3 * Fired(plain, "crash_relay") / 2);
  // A weight of 0 times any draw is 0: such a crash is taken only where
  // the walk drew 0 for every other enabled action too.
  CHECK(Fired(light, "crash_relay") < Fired(plain, "crash_relay"));
  CHECK(reports::WalkWeightsText(plain) == std::nullopt);
  CHECK(reports::WalkWeightsText(heavy) ==
        "check.walk_weights crash_relay 20, every other class 1; each walk "
        "multiplies them by the weights it drew");
  const ScenarioResult alone =
      CheckScenario(CrashesAtWill("walk_weights = { crash_relay = 20 }"),
                    Simulating(3, false, 2))
          .value();
  CHECK(reports::WalkWeightsText(alone) ==
        "check.walk_weights crash_relay 20, every other class 1");
}

}  // namespace
}  // namespace oc
