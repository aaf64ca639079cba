// How a run is judged against [expect]: verdicts, lengths, counts, limits.

#include "scenarios/scenario_check.h"

#include <doctest/doctest.h>

#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

// The lease-expiry-after-send configuration, with `tail` appended ([check]
// and [expect] tables, and anything else a test wants).
ScenarioResult Check(const std::string& tail, int instances = 1) {
  const std::string text = R"x(relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = "credit.naive"
instances = )x" + std::to_string(instances) +
                           R"x(
[faults]
premature_expiries = 1
)x" + tail;
  const Result<Scenario> scenario = ParseScenario(text, "t.toml");
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const Result<ScenarioResult> result = CheckScenario(scenario.value());
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return result.value();
}

TEST_CASE("lease expiry after send: 8 steps with one instance, 7 with two") {
  const std::string tail = R"x([check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
)x";
  const ScenarioResult one = Check(tail, 1);
  REQUIRE(one.exploration.violations.size() == 1);
  CHECK(one.exploration.violations[0].trace.length() == 8);
  const ScenarioResult two = Check(tail, 2);
  REQUIRE(two.exploration.violations.size() == 1);
  CHECK(two.exploration.violations[0].trace.length() == 7);
  CHECK(one.outcome == Outcome::kAsExpected);
}

TEST_CASE("a violation the scenario does not expect is unexpected") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "holds"
)x");
  CHECK(r.outcome == Outcome::kUnexpected);
  CHECK(r.mismatches ==
        std::vector<std::string>{"'effect_at_most_once' is violated, but the "
                                 "scenario expects it to hold"});
}

TEST_CASE("an expected violation that never happens is unexpected") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once", "stale_completion_rejected"]
[expect]
verdict = "violated"
violated = ["effect_at_most_once", "stale_completion_rejected"]
)x");
  CHECK(r.outcome == Outcome::kUnexpected);
  CHECK(r.mismatches ==
        std::vector<std::string>{"'stale_completion_rejected' holds, but the "
                                 "scenario expects it violated"});
}

TEST_CASE("a wrong trace length or state count is unexpected") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 7
states = 94
)x");
  CHECK(r.outcome == Outcome::kUnexpected);
  CHECK(r.mismatches == std::vector<std::string>{
                            "the shortest violation has 8 steps; expected 7",
                            "95 distinct states; expected 94"});
}

TEST_CASE("a search stopped by a limit never proves holds") {
  const ScenarioResult r = Check(R"x([bounds]
max_states = 10
[check]
invariants = ["stale_completion_rejected"]
[expect]
verdict = "holds"
)x");
  CHECK_FALSE(r.exploration.complete());
  CHECK(r.outcome == Outcome::kInconclusive);
}

TEST_CASE("a violation found before a limit stopped the search still counts") {
  const ScenarioResult r = Check(R"x([bounds]
max_depth = 9
[check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
)x");
  CHECK_FALSE(r.exploration.complete());
  CHECK(r.outcome == Outcome::kAsExpected);
}

TEST_CASE("stop at first violation reports the shortest one only") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["stale_completion_rejected", "effect_at_most_once"]
stop_at_first_violation = true
[expect]
verdict = "violated"
violated = "effect_at_most_once"
)x");
  REQUIRE(r.exploration.violations.size() == 1);
  CHECK(r.exploration.violations[0].property == "effect_at_most_once");
  CHECK(r.outcome == Outcome::kAsExpected);
  CHECK(r.exploration.stats.states < 95);
}

TEST_CASE("a pinned order reports the step at which each invariant broke") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once"]
order = ["claim(A, e1)", "send(A)", "expire(e1)", "claim(B, e1)", "send(B)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)"]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 8
)x");
  CHECK(r.outcome == Outcome::kAsExpected);
  REQUIRE(r.replay.has_value());
  CHECK(r.replay->length() == 9);
  CHECK_FALSE(r.replay_ends_at_rest);  // relays A and B have not completed
}

TEST_CASE("exit codes: unexpected wins over inconclusive") {
  CHECK(ExitCodeFor({}) == 0);
  CHECK(ExitCodeFor({Outcome::kAsExpected}) == 0);
  CHECK(ExitCodeFor({Outcome::kInconclusive, Outcome::kAsExpected}) == 3);
  CHECK(ExitCodeFor({Outcome::kInconclusive, Outcome::kUnexpected}) == 1);
}

}  // namespace
}  // namespace oc
