// A pinned lasso (check.order and check.loop): the order, then two turns of
// the loop, every step enabled at its turn; an at-rest invariant that fails
// in every state of both turns of a fair loop is violated by the lasso, and
// a lasso the search found replays so through the file format.

#include <doctest/doctest.h>

#include <string>

#include "check/regression_scenario.h"
#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

// Two relays, one event, no lease, fencing on: relays can claim and send
// the event in turns for ever while every completion is rejected.
std::string NoLease(const std::string& check,
                    const std::string& faults = "relay_crashes = \"any\"") {
  return R"x(relays = ["A", "B"]
events = 1
[switches]
lease = false
fencing = true
[faults]
)x" + faults +
         R"x(
[check]
invariants = ["stale_completion_rejected", "eventually_offered"]
)x" + check;
}

Result<ScenarioResult> Run(const std::string& text) {
  const Result<Scenario> s = ParseScenario(text, "loop.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  return CheckScenario(s.value());
}

constexpr std::string_view kStem =
    "order = [\"claim(A, e1)\", \"send(A)\", \"claim(B, e1)\", \"send(B)\"]\n";
constexpr std::string_view kLoop =
    "loop = [\"complete(A)\", \"claim(A, e1)\", \"complete(B)\", "
    "\"send(A)\",\n        \"claim(B, e1)\", \"send(B)\"]\n";

TEST_CASE("a fair loop where an at-rest invariant always fails violates it") {
  const Result<ScenarioResult> r =
      Run(NoLease(std::string(kStem) + std::string(kLoop)));
  REQUIRE(r.ok());
  const ScenarioResult& result = r.value();
  CHECK(result.replay->length() == 4 + 2 * 6);
  CHECK(result.exploration.stats.states == 17);
  REQUIRE(result.ViolatedInvariants() ==
          std::vector<std::string>{"eventually_offered"});
  const Violation& v = result.exploration.violations.front();
  CHECK(v.kind == explorer::PropertyKind::kAtRest);
  CHECK(v.lasso());
  CHECK(v.trace.length() == 4);
  CHECK(v.loop.length() == 6);
  CHECK(v.loop.states.front() == v.trace.states.back());
  CHECK(result.outcome == Outcome::kNoExpectationViolated);
}

TEST_CASE("a loop step not enabled on the first turn says so, with its place") {
  // A's completion with the current token publishes the event, which is
  // then claimed no more.
  const Result<ScenarioResult> r =
      Run(NoLease("order = [\"claim(A, e1)\", \"send(A)\"]\n"
                  "loop = [\"complete(A)\", \"claim(B, e1)\"]\n"));
  REQUIRE(!r.ok());
  CHECK(r.status().message().rfind(
            "loop.toml:11:24: check.loop step 2 'claim(B, e1)' is not "
            "enabled: ",
            0) == 0);
}

TEST_CASE("an unfair loop is warned about and violates nothing") {
  // A alone claims and sends, crashing each time; B, idle throughout, could
  // claim in every state of the loop but never does, and crashes are
  // faults besides.
  const Result<ScenarioResult> r =
      Run(NoLease("order = [\"claim(A, e1)\"]\n"
                  "loop = [\"crash_relay(A)\", \"claim(A, e1)\"]\n"));
  REQUIRE(r.ok());
  CHECK(r.value().exploration.violations.empty());
  bool warned = false;
  for (const std::string& w : r.value().warnings) {
    warned =
        warned || w == "eventually_offered fails in every state of check.loop, "
                       "but the loop is not a fair cycle (it takes the fault "
                       "crash_relay(A)), so it shows no violation";
  }
  CHECK(warned);
}

TEST_CASE("a loop that leaves an always enabled action untaken is unfair") {
  // The lasso of two relays, with a third that could claim in every state
  // of the loop but never does.
  std::string text = NoLease(std::string(kStem) + std::string(kLoop));
  text.replace(text.find("[\"A\", \"B\"]"), 10, "[\"A\", \"B\", \"C\"]");
  const Result<ScenarioResult> r = Run(text);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  CHECK(r.value().exploration.violations.empty());
  REQUIRE_FALSE(r.value().warnings.empty());
  CHECK(r.value().warnings.back() ==
        "eventually_offered fails in every state of check.loop, but the loop "
        "is not a fair cycle (claim(C, e1) is enabled in every state of it "
        "but never taken, which weak fairness rules out), so it shows no "
        "violation");
}

TEST_CASE(
    "a loop step not enabled on the second turn says so, with its place") {
  const Result<ScenarioResult> r =
      Run(NoLease("order = [\"claim(A, e1)\"]\n"
                  "loop = [\"crash_relay(A)\", \"claim(A, e1)\"]\n",
                  "relay_crashes = 1"));
  REQUIRE(!r.ok());
  CHECK(r.status().message().rfind(
            "loop.toml:11:9: check.loop step 1 'crash_relay(A)' is not "
            "enabled on the loop's second turn: ",
            0) == 0);
}

TEST_CASE("a lasso the search found is saved as order and loop, and replays") {
  const Result<ScenarioResult> found = Run(NoLease(""));
  REQUIRE(found.ok());
  const ScenarioResult& result = found.value();
  REQUIRE(result.exploration.violations.size() == 1);
  const Violation& v = result.exploration.violations.front();
  REQUIRE(v.lasso());
  const Result<Scenario> saved = RegressionScenario(result, 0, "traces");
  REQUIRE(saved.ok());
  CHECK(saved.value().order.size() == v.trace.length());
  CHECK(saved.value().loop.size() == v.loop.length());
  const std::string text = FormatScenario(saved.value());
  CHECK(text.find("loop = [\n  \"complete(A)\",\n") != std::string::npos);
  const Result<Scenario> reread = ParseScenario(text, "saved.toml");
  REQUIRE_MESSAGE(reread.ok(), reread.status().message());
  const ScenarioResult replay = CheckScenario(reread.value()).value();
  CHECK(replay.outcome == Outcome::kAsExpected);
  REQUIRE(replay.exploration.violations.size() == 1);
  CHECK(replay.exploration.violations.front().lasso());
  CHECK(replay.exploration.violations.front().loop.actions == v.loop.actions);
}

}  // namespace
}  // namespace oc
