// How a run is judged against [expect]: verdicts, lengths, counts, limits.

#include "check/scenario_check.h"

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

TEST_CASE("exit codes without an expectation follow what was found") {
  CHECK(ExitCodeOf(Outcome::kNoExpectationHolds) == 0);
  CHECK(ExitCodeOf(Outcome::kNoExpectationViolated) == 1);
  CHECK(ExitCodeFor({Outcome::kNoExpectationHolds, Outcome::kAsExpected}) == 0);
  CHECK(ExitCodeFor(
            {Outcome::kInconclusive, Outcome::kNoExpectationViolated}) == 1);
  CHECK(ExitCodeFor({Outcome::kInconclusive, Outcome::kNoExpectationHolds}) ==
        3);
}

// ---------------------------------------------------------------------------
// Without [expect]: the outcome is what the check found.

TEST_CASE("without an expectation, invariants that all hold exit 0") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["stale_completion_rejected"]
)x");
  CHECK(r.outcome == Outcome::kNoExpectationHolds);
  CHECK(r.mismatches.empty());
  CHECK(ExitCodeOf(r.outcome) == 0);
}

TEST_CASE("without an expectation, a violated invariant exits 1") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once", "stale_completion_rejected"]
)x");
  CHECK(r.outcome == Outcome::kNoExpectationViolated);
  CHECK(r.mismatches.empty());
  CHECK(r.ViolatedInvariants() ==
        std::vector<std::string>{"effect_at_most_once"});
}

TEST_CASE("without an expectation, a violation before a limit still exits 1") {
  const ScenarioResult r = Check(R"x([bounds]
max_depth = 9
[check]
invariants = ["effect_at_most_once"]
)x");
  CHECK_FALSE(r.exploration.complete());
  CHECK(r.outcome == Outcome::kNoExpectationViolated);
}

TEST_CASE(
    "without an expectation, a limit before any violation proves "
    "nothing") {
  const ScenarioResult r = Check(R"x([bounds]
max_states = 10
[check]
invariants = ["stale_completion_rejected"]
)x");
  CHECK(r.outcome == Outcome::kInconclusive);
  CHECK(r.mismatches ==
        std::vector<std::string>{
            "the search stopped at a limit, so no invariant is proved to "
            "hold"});
}

TEST_CASE("without an expectation, must_fire still fails the scenario") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["stale_completion_rejected"]
must_fire = ["crash_relay"]
)x");
  CHECK(r.outcome == Outcome::kUnexpected);
  CHECK(r.mismatches.size() == 1);
}

TEST_CASE("without an expectation, a pinned order is judged by what broke") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["effect_at_most_once"]
order = ["claim(A, e1)", "send(A)", "expire(e1)", "claim(B, e1)", "send(B)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)",
         "consume(billing, 1, e1)"]
)x");
  CHECK(r.outcome == Outcome::kNoExpectationViolated);
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

const std::string kLeaseExpiryCheck = R"x([check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
)x";

TEST_CASE("the point of no return of lease expiry after send is B's claim") {
  const ScenarioResult r = Check(kLeaseExpiryCheck);
  REQUIRE(r.points_of_no_return.size() == 1);
  const PointOfNoReturn& p = r.points_of_no_return[0];
  REQUIRE(p.step.has_value());
  CHECK(*p.step == 4);
  const Trace& t = r.exploration.violations[0].trace;
  CHECK(FormatAction(r.model->config(), t.actions[3]) == "claim(B, e1)");
  std::vector<std::string> safe;
  for (const Action& a : p.safe_alternatives) {
    safe.push_back(FormatAction(r.model->config(), a));
  }
  // After the expiry, A's completion still publishes the row and keeps B
  // out; B's claim, the step taken, is not among the safe choices.
  CHECK(std::find(safe.begin(), safe.end(), "complete(A)") != safe.end());
  CHECK(std::find(safe.begin(), safe.end(), "claim(B, e1)") == safe.end());
}

TEST_CASE("the point of no return is unknown above the graph limit") {
  const Result<Scenario> scenario = ParseScenario(R"x(relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = "credit.naive"
[faults]
premature_expiries = 1
)x" + kLeaseExpiryCheck,
                                                  "t.toml");
  REQUIRE(scenario.ok());
  CheckOptions options;
  options.graph_limit = 50;
  const ScenarioResult r = CheckScenario(scenario.value(), options).value();
  REQUIRE(r.points_of_no_return.size() == 1);
  CHECK_FALSE(r.points_of_no_return[0].step.has_value());
  CHECK(r.points_of_no_return[0].unknown_because ==
        "the search reached 95 states, over the graph limit of 50");
}

TEST_CASE("the point of no return is unknown when the graph would not fit") {
  const Result<Scenario> scenario = ParseScenario(R"x(relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = "credit.naive"
[faults]
premature_expiries = 1
)x" + kLeaseExpiryCheck,
                                                  "t.toml");
  REQUIRE(scenario.ok());
  CheckOptions options;
  const ScenarioResult kept = CheckScenario(scenario.value(), options).value();
  REQUIRE(kept.exploration.graph.has_value());
  CHECK(kept.points_of_no_return[0].step.has_value());
  const std::uint64_t bytes = kept.exploration.graph->Bytes();
  CHECK(kept.exploration.stats.graph_bytes == bytes);
  // The whole graph of 95 states and their transitions, compactly.
  CHECK(bytes < 8 * 1024);
  options.graph_bytes_limit = bytes - 1;
  const ScenarioResult r = CheckScenario(scenario.value(), options).value();
  CHECK(r.exploration.complete());
  CHECK_FALSE(r.exploration.graph.has_value());
  REQUIRE(r.points_of_no_return.size() == 1);
  CHECK_FALSE(r.points_of_no_return[0].step.has_value());
  CHECK(r.points_of_no_return[0].unknown_because ==
        "the graph would exceed the memory limit");
}

TEST_CASE("coverage counts every transition once, by class") {
  const ScenarioResult r = Check(kLeaseExpiryCheck);
  const Exploration& e = r.exploration;
  std::uint64_t total = 0;
  for (std::uint64_t n : e.action_counts) total += n;
  CHECK(total == e.stats.transitions);
  auto count = [&](std::string_view name) {
    const auto it =
        std::find(e.action_classes.begin(), e.action_classes.end(), name);
    REQUIRE(it != e.action_classes.end());
    return e.action_counts[it - e.action_classes.begin()];
  };
  CHECK(count("expire_premature") > 0);
  CHECK(count("expire_orphaned") == 0);   // no crash: never orphaned
  CHECK(count("complete_rejected") > 0);  // A fenced out after B's claim
  CHECK(count("crash_relay") == 0);
}

TEST_CASE("must_fire fails a scenario whose hazard never happened") {
  const ScenarioResult r = Check(R"x([check]
invariants = ["stale_completion_rejected"]
must_fire = ["expire", "crash_relay"]
[expect]
verdict = "holds"
)x");
  CHECK(r.outcome == Outcome::kUnexpected);
  CHECK(r.mismatches ==
        std::vector<std::string>{
            "'crash_relay' never fired (check.must_fire): the hazard this "
            "scenario is about never happened, so its verdict proves nothing "
            "about it"});
}

TEST_CASE("fault budgets that nothing spent are warned about") {
  const std::string text = R"x(relays = ["A"]
events = 1
[faults]
premature_expiries = 1
consumer_crashes = 2
[check]
invariants = ["eventually_offered"]
[expect]
verdict = "holds"
)x";
  CheckOptions unreduced;
  unreduced.partial_order = CheckOptions::PartialOrderUse::kOff;
  const ScenarioResult r =
      CheckScenario(ParseScenario(text, "t.toml").value(), unreduced).value();
  // There is no consumer group, so no consumer can crash.
  CHECK(r.warnings == std::vector<std::string>{
                          "faults.consumer_crashes = 2 was never used: no "
                          "crash_consumer fired"});
  CHECK(r.outcome == Outcome::kAsExpected);
  // A search reduced by partial order says what its coverage is of.
  const ScenarioResult reduced =
      CheckScenario(ParseScenario(text, "t.toml").value()).value();
  REQUIRE(reduced.exploration.partial_order.has_value());
  REQUIRE(reduced.warnings.size() == 1);
  CHECK(reduced.warnings[0].find("never used in the reduced search") !=
        std::string::npos);
}

}  // namespace
}  // namespace oc
