// Which paths a conformance run replays, without a database.

#include "conform/conform_paths.h"

#include <doctest/doctest.h>

#include "scenarios/scenario_loader.h"

namespace oc::conform {
namespace {

ScenarioResult Checked(const std::string& file,
                       const CheckOptions& options = {}) {
  Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/scenarios/" + file);
  REQUIRE(s.ok());
  Result<ScenarioResult> r = CheckScenario(s.value(), options);
  REQUIRE(r.ok());
  return std::move(r).value();
}

TEST_CASE("further paths cover every action class that fires in the graph") {
  for (const char* file :
       {"seed/5-concurrent-duplicate.check-then-act.toml",
        "examples/no-lease.fenced.toml", "examples/cache-invalidate.toml"}) {
    CAPTURE(file);
    const ScenarioResult r = Checked(file);
    const PathSelection p = SelectPaths(r, 8);
    CHECK(p.uncovered.empty());
    std::vector<std::string> fired;
    for (std::size_t c = 0; c < r.exploration.action_counts.size(); ++c) {
      if (r.exploration.action_counts[c] > 0) {
        fired.push_back(r.exploration.action_classes[c]);
      }
    }
    CHECK(p.covered == fired);
  }
}

TEST_CASE("counterexamples come first, then explored paths, at most N") {
  const ScenarioResult r = Checked("seed/lease-expiry-after-send.toml");
  const PathSelection p = SelectPaths(r, 1);
  REQUIRE(p.paths.size() == 2);
  CHECK(p.paths[0].label == "counterexample of effect_at_most_once");
  CHECK(p.paths[0].trace.length() == 8);
  CHECK(p.paths[1].label == "explored path 1");
  CHECK(SelectPaths(r, 0).paths.size() == 1);
}

// Every step of `t` is an enabled action of the model, leading to the
// trace's next state.
void CheckIsModelTrace(const OutboxModel& model, const Trace& t) {
  for (std::size_t s = 0; s < t.length(); ++s) {
    Result<State> next = model.Apply(t.states[s], t.actions[s]);
    REQUIRE(next.ok());
    CHECK(next.value() == t.states[s + 1]);
  }
}

TEST_CASE("path selection is deterministic and every path is a model trace") {
  const ScenarioResult r = Checked("seed/5-concurrent-duplicate.inbox.toml");
  const PathSelection a = SelectPaths(r, 8);
  const PathSelection b = SelectPaths(r, 8);
  REQUIRE(a.paths.size() == b.paths.size());
  for (std::size_t i = 0; i < a.paths.size(); ++i) {
    CHECK(a.paths[i].trace.actions == b.paths[i].trace.actions);
    CheckIsModelTrace(*r.model, a.paths[i].trace);
  }
}

TEST_CASE("a pinned scenario replays its order and nothing else") {
  const ScenarioResult r =
      Checked("seed/2-stale-completion.unfenced.order.toml");
  const PathSelection p = SelectPaths(r, 8);
  REQUIRE(p.paths.size() == 1);
  CHECK(p.paths[0].label == "pinned order");
  CHECK(p.paths[0].trace.length() == 7);
}

TEST_CASE("a pinned lasso replays its order and two turns of its loop") {
  Result<Scenario> s = LoadScenario(
      std::string(OC_SOURCE_DIR) + "/tests/cli/data/no-lease-lasso.order.toml");
  REQUIRE(s.ok());
  const ScenarioResult r = CheckScenario(s.value()).value();
  const PathSelection p = SelectPaths(r, 8);
  REQUIRE(p.paths.size() == 1);
  CHECK(p.paths[0].label == "pinned order and two turns of its loop");
  CHECK(p.paths[0].trace.length() == 4 + 2 * 6);
}

TEST_CASE("a lasso the search found replays as its stem and one turn") {
  Result<Scenario> s = LoadScenario(std::string(OC_SOURCE_DIR) +
                                    "/tests/cli/data/no-lease-unbounded.toml");
  REQUIRE(s.ok());
  const ScenarioResult r = CheckScenario(s.value()).value();
  const PathSelection p = SelectPaths(r, 0);
  REQUIRE(p.paths.size() == 1);
  CHECK(p.paths[0].label ==
        "counterexample of eventually_offered (stem and one turn of its "
        "loop)");
  CHECK(p.paths[0].trace.length() == 4 + 6);
}

TEST_CASE("without a graph, further paths are walked through the model") {
  CheckOptions no_graph;
  no_graph.graph_limit = 0;
  const ScenarioResult r = Checked("examples/cache-invalidate.toml", no_graph);
  REQUIRE_FALSE(r.exploration.graph);
  const PathSelection a = SelectPaths(r, 3);
  const PathSelection b = SelectPaths(r, 3);
  CHECK(a.no_graph);
  REQUIRE(a.paths.size() == 3);
  CHECK(a.paths[0].label == "walked path 1");
  for (std::size_t i = 0; i < a.paths.size(); ++i) {
    CHECK(a.paths[i].trace.actions == b.paths[i].trace.actions);
    CheckIsModelTrace(*r.model, a.paths[i].trace);
  }
  CHECK(a.covered.size() + a.uncovered.size() == 8);
}

}  // namespace
}  // namespace oc::conform
