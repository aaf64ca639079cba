// Thread count and symmetry reduction are settings of the search, not of
// the question: on every bundled scenario they change no verdict, no count
// of the (unreduced) state space and no shortest trace length; and for a
// given symmetry setting, the thread count changes not even the traces.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

ScenarioResult Check(const Scenario& scenario, int threads, bool symmetry) {
  CheckOptions options;
  options.threads = threads;
  options.symmetry = symmetry;
  // The unreduced counts are compared: partial-order reduction, which does
  // not count them, has its own test.
  options.partial_order = CheckOptions::PartialOrderUse::kOff;
  Result<ScenarioResult> result = CheckScenario(scenario, options);
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return std::move(result).value();
}

std::map<std::string, std::size_t> TraceLengths(const Exploration& e) {
  std::map<std::string, std::size_t> lengths;
  for (const Violation& v : e.violations)
    lengths[v.property] = v.trace.length();
  return lengths;
}

void CheckSameSpace(const Exploration& a, const Exploration& b) {
  CHECK(a.stop == b.stop);
  CHECK(a.stats.states == b.stats.states);
  CHECK(a.stats.transitions == b.stats.transitions);
  CHECK(a.stats.terminal_states == b.stats.terminal_states);
  CHECK(a.stats.bounded_dead_ends == b.stats.bounded_dead_ends);
  CHECK(a.stats.depth == b.stats.depth);
  CHECK(a.action_counts == b.action_counts);
  CHECK(TraceLengths(a) == TraceLengths(b));
}

void CheckSameTraces(const Exploration& a, const Exploration& b) {
  CHECK(a.stats.stored_states == b.stats.stored_states);
  REQUIRE(a.violations.size() == b.violations.size());
  for (std::size_t i = 0; i < a.violations.size(); ++i) {
    CHECK(a.violations[i].property == b.violations[i].property);
    CHECK(a.violations[i].trace.actions == b.violations[i].trace.actions);
    CHECK(a.violations[i].trace.states == b.violations[i].trace.states);
  }
}

TEST_CASE(
    "thread count and symmetry change no verdict, count or trace length on "
    "any bundled scenario") {
  const std::vector<std::string> files = testing::BundledScenarioFiles();
  REQUIRE(files.size() >= 25);
  int reduced = 0;
  for (const std::string& file : files) {
    CAPTURE(file);
    const Result<Scenario> scenario = LoadScenario(file);
    REQUIRE(scenario.ok());
    if (!scenario.value().order.empty()) continue;  // a replay, not a search
    const ScenarioResult plain = Check(scenario.value(), 1, false);
    CHECK(plain.exploration.reduction == "none");
    CHECK(plain.exploration.stats.stored_states ==
          plain.exploration.stats.states);
    const ScenarioResult plain3 = Check(scenario.value(), 3, false);
    CheckSameSpace(plain.exploration, plain3.exploration);
    CheckSameTraces(plain.exploration, plain3.exploration);

    const ScenarioResult sym1 = Check(scenario.value(), 1, true);
    const ScenarioResult sym3 = Check(scenario.value(), 3, true);
    CheckSameSpace(plain.exploration, sym1.exploration);
    CheckSameSpace(plain.exploration, sym3.exploration);
    CheckSameTraces(sym1.exploration, sym3.exploration);
    CHECK(sym1.outcome == plain.outcome);
    CHECK(sym1.ViolatedInvariants().size() ==
          plain.ViolatedInvariants().size());
    if (sym1.exploration.stats.stored_states <
        plain.exploration.stats.stored_states) {
      ++reduced;
      CHECK(sym1.exploration.reduction != "none");
    }
  }
  // Most bundled scenarios have two relays or two instances.
  CHECK(reduced >= 10);
}

TEST_CASE(
    "levels wider than a batch give the same results on any thread count") {
  // bench-2-medium's widest levels hold tens of thousands of states, so
  // they are cut into several batches of many chunks.
  const Result<Scenario> scenario = LoadScenario(
      std::string(OC_SOURCE_DIR) + "/scenarios/bench/2-medium.toml");
  REQUIRE(scenario.ok());
  const ScenarioResult a = Check(scenario.value(), 1, false);
  const ScenarioResult b = Check(scenario.value(), 3, false);
  const ScenarioResult c = Check(scenario.value(), 2, true);
  CHECK(a.exploration.stats.states == 328969);
  CheckSameSpace(a.exploration, b.exploration);
  CheckSameTraces(a.exploration, b.exploration);
  CheckSameSpace(a.exploration, c.exploration);
  CHECK(a.outcome == Outcome::kAsExpected);
  CHECK(c.outcome == Outcome::kAsExpected);
}

}  // namespace
}  // namespace oc
