// Liveness and unbounded budgets on the bundled scenarios: bounded budgets
// leave no cycle (so checking at-rest invariants in terminal states is the
// whole liveness check there), and raising a scenario's budgets to "any"
// agrees with the bounded verdicts once those have stabilised, except where
// docs/SEMANTICS.md section 15 says why not.

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "explorer/fair_cycles.h"
#include "explorer/state_graph.h"
#include "model/fault_budgets.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

TEST_CASE("bounded budgets leave no cycle in any bundled scenario") {
  int searched = 0;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    const Result<Scenario> scenario = LoadScenario(file);
    REQUIRE_MESSAGE(scenario.ok(), file);
    if (CountsAbstracted(scenario.value().config)) continue;
    const OutboxModel model(scenario.value().config);
    // Small enough to build here; the bigger presets are the same rules.
    const auto graph =
        explorer::BuildStateGraph(model, std::uint64_t{64} << 20);
    if (!graph) continue;
    ++searched;
    INFO(file);
    CHECK_FALSE(explorer::HasNonFaultCycle(*graph, [](std::size_t) {
      return false;  // any cycle at all
    }));
  }
  CHECK(searched >= 40);
}

// The verdicts of `scenario` with every budget it sets raised to `pool`
// (a number or kAnyBudget); nullopt when the search could not finish.
std::optional<std::set<std::string>> VerdictsWith(Scenario scenario, int pool) {
  for (const FaultBudget& budget : kFaultBudgets) {
    int& p = scenario.config.budgets.*budget.pool;
    if (p != 0) p = pool;
  }
  if (!Validate(scenario.config).ok()) return std::nullopt;
  scenario.expect.reset();
  scenario.must_fire.clear();
  CheckOptions options;
  options.max_states = 400'000;
  options.threads = 1;
  const Result<ScenarioResult> result = CheckScenario(scenario, options);
  if (!result.ok()) return std::nullopt;
  const ScenarioResult& r = result.value();
  if (!r.exploration.complete() || !r.unconfirmed.empty() ||
      r.outcome == Outcome::kInconclusive) {
    return std::nullopt;
  }
  const std::vector<std::string> names = r.ViolatedInvariants();
  return std::set<std::string>(names.begin(), names.end());
}

TEST_CASE("\"any\" agrees with bounded verdicts that have stabilised" *
          doctest::timeout(1200)) {
  // Scenario name -> the properties "any" decides differently, each for a
  // reason docs/SEMANTICS.md section 15 gives.
  std::map<std::string, std::set<std::string>> differ;
  int compared = 0;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    const Result<Scenario> loaded = LoadScenario(file);
    REQUIRE(loaded.ok());
    const Scenario& s = loaded.value();
    if (!s.order.empty() || AnyUnboundedBudget(s.config)) continue;
    bool sets_budget = false;
    for (const FaultBudget& budget : kFaultBudgets) {
      sets_budget = sets_budget || Pool(s.config, budget) != 0;
    }
    if (!sets_budget) continue;
    const auto two = VerdictsWith(s, 2);
    const auto three = VerdictsWith(s, 3);
    if (!two || !three || *two != *three) continue;  // not stabilised
    const auto any = VerdictsWith(s, kAnyBudget);
    if (!any) continue;
    ++compared;
    std::set<std::string> diff;
    for (const std::string& p : *any) {
      if (!three->count(p)) diff.insert(p);
    }
    for (const std::string& p : *three) {
      if (!any->count(p)) diff.insert(p);
    }
    if (!diff.empty()) differ[s.name] = diff;
  }
  MESSAGE("compared " << compared << " scenarios");
  for (const auto& [name, props] : differ) {
    std::string list;
    for (const std::string& p : props) list += " " + p;
    MESSAGE(name << ":" << list);
  }
  CHECK(compared >= 10);
  const std::map<std::string, std::set<std::string>> expected = {};
  CHECK(differ == expected);
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

Scenario Bundled(const std::string& file) {
  const Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/scenarios/" + file);
  REQUIRE_MESSAGE(s.ok(), file);
  return s.value();
}

TEST_CASE("declared number tables are refused where counts are abstracted") {
  // Their own counts are not abstracted: with "any", or without a lease
  // and a claim bound, they could grow for ever.
  Scenario transfer = Bundled("consumers/transfer.naive.toml");
  transfer.config.budgets.relay_crashes = kAnyBudget;
  const Status any = Validate(transfer.config);
  REQUIRE_FALSE(any.ok());
  CHECK(any.message().find("faults.relay_crashes") != std::string::npos);
  transfer.config.budgets.relay_crashes = 0;
  transfer.config.lease = false;
  transfer.config.claim_bound = 0;
  const Status unbounded = Validate(transfer.config);
  REQUIRE_FALSE(unbounded.ok());
  CHECK(unbounded.message().find("bounds.claims") != std::string::npos);
  transfer.config.claim_bound = 3;
  CHECK(Validate(transfer.config).ok());
}

TEST_CASE("outages may be \"any\" too") {
  Scenario down = Bundled("presets/wolverine.inbox-5m.consumer-down-3h.toml");
  down.config.budgets.consumer_outages = kAnyBudget;
  REQUIRE(Validate(down.config).ok());
  CHECK(CountsAbstracted(down.config));
}

}  // namespace
}  // namespace oc
