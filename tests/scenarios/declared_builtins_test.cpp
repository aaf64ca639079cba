// The nine built-in strategies, written in the handler language in
// scenarios/strategies/, are the built-ins: on every bundled scenario the
// declared form gives the same verdicts, unreduced counts and shortest
// traces (actions and states) as the native one.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/strategy_loader.h"

namespace oc {
namespace {

const std::string kStrategies =
    std::string(OC_SOURCE_DIR) + "/scenarios/strategies";

std::vector<std::string> BundledWithBuiltins() {
  std::vector<std::string> files;
  for (const char* folder :
       {"/scenarios/seed", "/scenarios/examples", "/scenarios/presets"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             std::string(OC_SOURCE_DIR) + folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".toml") {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

ScenarioResult Check(const Scenario& scenario, bool symmetry) {
  CheckOptions options;
  options.threads = 2;
  options.symmetry = symmetry;
  Result<ScenarioResult> result = CheckScenario(scenario, options);
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return std::move(result).value();
}

void CheckSameResult(const ScenarioResult& a, const ScenarioResult& b) {
  CHECK(a.outcome == b.outcome);
  CHECK(a.ViolatedInvariants() == b.ViolatedInvariants());
  const Exploration& x = a.exploration;
  const Exploration& y = b.exploration;
  CHECK(x.stop == y.stop);
  CHECK(x.stats.states == y.stats.states);
  CHECK(x.stats.stored_states == y.stats.stored_states);
  CHECK(x.stats.transitions == y.stats.transitions);
  CHECK(x.stats.terminal_states == y.stats.terminal_states);
  CHECK(x.stats.depth == y.stats.depth);
  CHECK(x.action_counts == y.action_counts);
  REQUIRE(x.violations.size() == y.violations.size());
  for (std::size_t i = 0; i < x.violations.size(); ++i) {
    CHECK(x.violations[i].property == y.violations[i].property);
    CHECK(x.violations[i].trace.actions == y.violations[i].trace.actions);
    CHECK(x.violations[i].trace.states == y.violations[i].trace.states);
  }
}

TEST_CASE(
    "every built-in strategy's declared definition gives the native "
    "verdicts, counts and traces on every bundled scenario") {
  const std::vector<std::string> files = BundledWithBuiltins();
  REQUIRE(files.size() >= 25);
  std::vector<std::string> seen;
  for (const std::string& file : files) {
    CAPTURE(file);
    const Result<Scenario> native = LoadScenario(file);
    REQUIRE(native.ok());
    Scenario declared = native.value();
    for (const Group& g : declared.config.groups) {
      if (!g.declared) seen.emplace_back(StrategyName(g.strategy));
    }
    const Status replaced = UseBuiltinDefinitions(declared.config, kStrategies);
    REQUIRE_MESSAGE(replaced.ok(), replaced.message());
    for (const Group& g : declared.config.groups) REQUIRE(g.declared);
    CheckSameResult(Check(native.value(), false), Check(declared, false));
    CheckSameResult(Check(native.value(), true), Check(declared, true));
  }
  // The bundled scenarios use every built-in strategy.
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  CHECK(seen.size() == std::size(kAllStrategies));
}

}  // namespace
}  // namespace oc
