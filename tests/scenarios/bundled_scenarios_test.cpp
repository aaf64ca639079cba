// Every bundled scenario meets its expectation, and every counterexample it
// produces is concrete and replayable: each step is an enabled action of the
// model, and replaying the steps reproduces the violation.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "invariants/invariant.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

// Replays `v`'s actions from the initial state and checks that the model
// reaches the same states and that the last one breaks the invariant.
void CheckReplays(const OutboxModel& model, const Violation& v,
                  const std::vector<InvariantExpression>& expressions) {
  const Trace& t = v.trace;
  REQUIRE(t.states.size() == t.actions.size() + 1);
  REQUIRE(t.states.front() == model.InitialStates().front());
  State s = t.states.front();
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    Result<State> next = model.Apply(s, t.actions[i]);
    REQUIRE_MESSAGE(next.ok(), "step " << i + 1 << " of " << v.property);
    s = std::move(next).value();
    REQUIRE(s == t.states[i + 1]);
  }
  const auto x = std::find_if(
      expressions.begin(), expressions.end(),
      [&](const InvariantExpression& e) { return e.name == v.property; });
  if (x != expressions.end()) {  // declared in the scenario file
    if (x->kind == InvariantKind::kTransition) {
      REQUIRE(t.states.size() >= 2);
      CHECK_FALSE(x->HoldsOn(model, t.states[t.states.size() - 2], s));
    } else {
      CHECK_FALSE(x->Holds(model, s));
    }
    return;
  }
  const Invariant* inv = FindInvariant(v.property);
  REQUIRE(inv != nullptr);
  switch (inv->kind) {
    case InvariantKind::kSafety:
      CHECK_FALSE(inv->holds(model, s));
      break;
    case InvariantKind::kAtRest: {
      if (v.lasso()) {
        // The loop starts where the stem ends, every action on it is
        // enabled, and the property fails all the way round.
        const Trace& loop = v.loop;
        REQUIRE(loop.states.front() == s);
        State at = s;
        for (std::size_t i = 0; i < loop.actions.size(); ++i) {
          Result<State> next = model.Apply(at, loop.actions[i]);
          REQUIRE_MESSAGE(next.ok(), "loop step " << i + 1);
          at = std::move(next).value();
          CHECK(at == loop.states[i + 1]);
          CHECK_FALSE(inv->holds(model, at));
        }
        break;
      }
      CHECK_FALSE(inv->holds(model, s));
      std::vector<std::pair<Action, State>> next;
      model.Successors(s, next);
      CHECK(next.empty());
      break;
    }
    case InvariantKind::kTransition:
      REQUIRE(t.states.size() >= 2);
      CHECK_FALSE(inv->holds_on(model, t.states[t.states.size() - 2], s));
      break;
  }
}

TEST_CASE(
    "every bundled scenario meets its expectation with replayable traces") {
  const std::vector<std::string> files = testing::BundledScenarioFiles();
  REQUIRE(files.size() >= 23);
  for (const std::string& file : files) {
    CAPTURE(file);
    const Result<Scenario> scenario = LoadScenario(file);
    REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
    const Result<ScenarioResult> result = CheckScenario(scenario.value());
    REQUIRE_MESSAGE(result.ok(), result.status().message());
    const ScenarioResult& r = result.value();
    std::string why;
    for (const std::string& m : r.mismatches) why += m + "; ";
    CHECK_MESSAGE(r.outcome == Outcome::kAsExpected, why);
    // Traces are concrete also where the search abstracted counts.
    const OutboxModel concrete(r.scenario.config, /*concrete=*/true);
    for (const Violation& v : r.exploration.violations) {
      CAPTURE(v.property);
      CheckReplays(concrete, v, r.scenario.expressions);
    }
  }
}

TEST_CASE("the same scenario checked twice gives identical results") {
  const Result<Scenario> scenario = LoadScenario(
      std::string(OC_SOURCE_DIR) +
      "/scenarios/seed/5-concurrent-duplicate.check-then-act.toml");
  REQUIRE(scenario.ok());
  const ScenarioResult a = CheckScenario(scenario.value()).value();
  const ScenarioResult b = CheckScenario(scenario.value()).value();
  CHECK(a.exploration.stats.states == b.exploration.stats.states);
  CHECK(a.exploration.stats.transitions == b.exploration.stats.transitions);
  REQUIRE(a.exploration.violations.size() == b.exploration.violations.size());
  for (std::size_t i = 0; i < a.exploration.violations.size(); ++i) {
    CHECK(a.exploration.violations[i].trace.actions ==
          b.exploration.violations[i].trace.actions);
  }
}

}  // namespace
}  // namespace oc
