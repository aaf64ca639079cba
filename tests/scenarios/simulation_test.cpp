// check --simulate at the check layer: the verdict a simulation may give,
// determinism over threads, and regression scenarios that replay.

#include <doctest/doctest.h>

#include <string>

#include "check/regression_scenario.h"
#include "check/scenario_check.h"
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

}  // namespace
}  // namespace oc
