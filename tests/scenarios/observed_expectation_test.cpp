// The expectation --bless writes: what a check found, and nothing it did
// not prove.

#include "check/observed_expectation.h"

#include <doctest/doctest.h>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

// Lease expiry after send, naive credit, checked without an expectation,
// with `tail` appended ([check], [bounds]).
ScenarioResult Found(const std::string& tail,
                     const std::string& strategy = "credit.naive") {
  const std::string text = R"x(relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = ")x" + strategy +
                           R"x("
[faults]
premature_expiries = 1
)x" + tail;
  const Result<Scenario> scenario = ParseScenario(text, "t.toml");
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  REQUIRE_FALSE(scenario.value().expect.has_value());
  const Result<ScenarioResult> result = CheckScenario(scenario.value());
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return result.value();
}

TEST_CASE("a violation is expected with its invariants, length and count") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([check]
invariants = ["stale_completion_rejected", "effect_at_most_once"]
)x"));
  REQUIRE(e.ok());
  CHECK(e.value().verdict == Verdict::kViolated);
  CHECK(e.value().violated == std::vector<std::string>{"effect_at_most_once"});
  CHECK(e.value().trace_length == 8);
  CHECK(e.value().states == 95u);
}

TEST_CASE(
    "violated invariants are listed in the order the scenario checks "
    "them") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([switches]
fencing = false
[check]
invariants = ["effect_at_most_once", "stale_completion_rejected"]
)x"));
  REQUIRE(e.ok());
  CHECK(e.value().violated ==
        std::vector<std::string>{"effect_at_most_once",
                                 "stale_completion_rejected"});
}

TEST_CASE("holding is expected with the unreduced count, symmetry or not") {
  ScenarioResult r = Found(R"x([check]
invariants = ["effect_at_most_once"]
)x",
                           "credit.inbox");
  const Result<Expectation> e = ObservedExpectation(r);
  REQUIRE(e.ok());
  CHECK(e.value().verdict == Verdict::kHolds);
  CHECK(e.value().violated.empty());
  CHECK_FALSE(e.value().trace_length.has_value());
  CHECK(e.value().states == r.exploration.stats.states);
  CHECK(r.exploration.stats.stored_states < r.exploration.stats.states);
}

TEST_CASE("a search that stopped at its first violation pins no count") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([check]
invariants = ["effect_at_most_once"]
stop_at_first_violation = true
)x"));
  REQUIRE(e.ok());
  CHECK(e.value().trace_length == 8);
  CHECK_FALSE(e.value().states.has_value());
}

TEST_CASE("a pinned order pins the step of the first break and no count") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([check]
invariants = ["effect_at_most_once"]
order = ["claim(A, e1)", "send(A)", "expire(e1)", "claim(B, e1)", "send(B)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)"]
)x"));
  REQUIRE(e.ok());
  CHECK(e.value().trace_length == 8);
  CHECK_FALSE(e.value().states.has_value());
}

TEST_CASE("a search a limit stopped proves nothing to expect") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([bounds]
max_depth = 9
[check]
invariants = ["effect_at_most_once"]
)x"));
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().message() ==
        "the search stopped at the depth limit (bounds.max_depth or "
        "--max-depth), so nothing was proved and there is nothing to "
        "expect; raise the limit");
}

TEST_CASE("a must_fire that never fired fails whatever [expect] says") {
  const Result<Expectation> e = ObservedExpectation(Found(R"x([check]
invariants = ["stale_completion_rejected"]
must_fire = ["crash_relay"]
)x"));
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().message().rfind(
            "it fails whatever its [expect] says: 'crash_relay' never fired",
            0) == 0);
}

}  // namespace
}  // namespace oc
