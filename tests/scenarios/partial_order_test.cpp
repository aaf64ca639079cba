// Partial-order reduction through the check layer: when it is used, what it
// keeps (verdicts, terminal states, the shortest traces after a violation),
// and that the thread count changes nothing it reports.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

using Use = CheckOptions::PartialOrderUse;

Scenario Load(const std::string& relative) {
  Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/" + relative);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  return std::move(s).value();
}

ScenarioResult Check(const Scenario& scenario, Use use, int threads = 2) {
  CheckOptions options;
  options.partial_order = use;
  options.threads = threads;
  Result<ScenarioResult> result = CheckScenario(scenario, options);
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return std::move(result).value();
}

std::vector<std::string> Violated(const ScenarioResult& r) {
  std::vector<std::string> names = r.ViolatedInvariants();
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE(
    "a reduced search keeps verdicts and terminal states, stores "
    "fewer states, and does not depend on the thread count") {
  Scenario s = Load("scenarios/bench/3-large.toml");
  s.expect.reset();  // explore: no pinned count, so the reduction applies
  const ScenarioResult full = Check(s, Use::kOff);
  const ScenarioResult one = Check(s, Use::kAuto, 1);
  const ScenarioResult two = Check(s, Use::kAuto, 2);
  REQUIRE(one.exploration.partial_order.has_value());
  CHECK(Violated(one) == Violated(full));
  CHECK(one.exploration.stats.terminal_states ==
        full.exploration.stats.terminal_states);
  CHECK(one.exploration.stats.stored_states * 4 <
        full.exploration.stats.stored_states);
  CHECK(one.exploration.stats.stored_states ==
        two.exploration.stats.stored_states);
  CHECK(one.exploration.stats.transitions == two.exploration.stats.transitions);
  CHECK(one.exploration.stats.depth == two.exploration.stats.depth);
}

TEST_CASE(
    "a violation found under the reduction is reported from the "
    "unreduced search, with its counts and shortest traces") {
  const Scenario s = Load("scenarios/bench/7-mixed-faults.toml");
  const ScenarioResult full = Check(s, Use::kOff);
  const ScenarioResult on = Check(s, Use::kOn);
  CHECK(on.partial_order_rerun.has_value());
  CHECK_FALSE(on.exploration.partial_order.has_value());
  CHECK(on.exploration.stats.states == full.exploration.stats.states);
  REQUIRE(on.exploration.violations.size() ==
          full.exploration.violations.size());
  for (std::size_t i = 0; i < on.exploration.violations.size(); ++i) {
    CHECK(on.exploration.violations[i].trace.actions ==
          full.exploration.violations[i].trace.actions);
  }
  CHECK(on.outcome == Outcome::kAsExpected);
}

TEST_CASE("by default the reduction is left out where it cannot serve") {
  // A pinned state count needs the distinct states counted.
  const ScenarioResult pinned =
      Check(Load("scenarios/bench/1-small.toml"), Use::kAuto);
  CHECK_FALSE(pinned.exploration.partial_order.has_value());
  CHECK(pinned.outcome == Outcome::kAsExpected);
  // Asked for anyway, the count is not compared.
  const ScenarioResult forced =
      Check(Load("scenarios/bench/1-small.toml"), Use::kOn);
  CHECK(forced.exploration.partial_order.has_value());
  CHECK(forced.outcome == Outcome::kAsExpected);
  // A timed scenario, and one with a relay style beyond the seed's: the
  // model does not offer it, and says why.
  for (const char* file :
       {"scenarios/presets/sqs-fifo.inbox-5m.toml",
        "scenarios/presets/watermill-sequence-cursor.toml"}) {
    CAPTURE(file);
    const ScenarioResult t = Check(Load(file), Use::kOn);
    CHECK_FALSE(t.exploration.partial_order.has_value());
    CHECK(t.model->PartialOrderDescription().rfind("off: ", 0) == 0);
  }
}

TEST_CASE(
    "every bundled scenario keeps its verdict with the reduction "
    "forced on, and the comparison with the unreduced search agrees") {
  for (const std::string& file : testing::BundledScenarioFiles()) {
    CAPTURE(file);
    Result<Scenario> s = LoadScenario(file);
    REQUIRE_MESSAGE(s.ok(), s.status().message());
    CheckOptions options;
    options.partial_order = Use::kOn;
    options.partial_order_check = true;
    options.threads = 2;
    Result<ScenarioResult> r = CheckScenario(s.value(), options);
    REQUIRE_MESSAGE(r.ok(), r.status().message());
    CHECK(r.value().outcome == Outcome::kAsExpected);
    if (r.value().partial_order_check) {
      const std::string& said = *r.value().partial_order_check;
      CHECK((said.rfind("same verdicts", 0) == 0 ||
             said.rfind("not compared", 0) == 0));
    }
  }
}

}  // namespace
}  // namespace oc
