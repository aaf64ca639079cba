// A counterexample saved as a pinned-order scenario replays to the same
// violation, through the printed file format.

#include "check/regression_scenario.h"

#include <doctest/doctest.h>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

TEST_CASE("a saved counterexample replays to the same violation") {
  const Result<Scenario> original =
      LoadScenario(std::string(OC_SOURCE_DIR) +
                   "/scenarios/seed/6-projection-reorder.lww.toml");
  REQUIRE(original.ok());
  const ScenarioResult result = CheckScenario(original.value()).value();
  REQUIRE(result.exploration.violations.size() == 2);
  for (std::size_t i = 0; i < result.exploration.violations.size(); ++i) {
    const Violation& v = result.exploration.violations[i];
    const Result<Scenario> saved = RegressionScenario(result, i, "traces");
    REQUIRE(saved.ok());
    CHECK(saved.value().name == "projection-reorder.lww." + v.property);
    CHECK(saved.value().order.size() == v.trace.length());
    // Through the file format and back, as `check` would read it.
    const Result<Scenario> reread =
        ParseScenario(FormatScenario(saved.value()), "saved.toml");
    REQUIRE_MESSAGE(reread.ok(), reread.status().message());
    const ScenarioResult replay = CheckScenario(reread.value()).value();
    CHECK(replay.outcome == Outcome::kAsExpected);
    const std::vector<std::string> broke = replay.ViolatedInvariants();
    CHECK(std::find(broke.begin(), broke.end(), v.property) != broke.end());
  }
}

TEST_CASE(
    "a saved counterexample names its strategy file from its own folder") {
  const std::string source = OC_SOURCE_DIR;
  const Result<Scenario> original =
      LoadScenario(source + "/scenarios/consumers/loyalty.naive.toml");
  REQUIRE(original.ok());
  const ScenarioResult result = CheckScenario(original.value()).value();
  REQUIRE(!result.exploration.violations.empty());
  // A trailing separator names the same folder.
  for (const std::string& folder :
       {source + "/saved/traces", source + "/saved/traces/"}) {
    CAPTURE(folder);
    const Result<Scenario> saved = RegressionScenario(result, 0, folder);
    REQUIRE(saved.ok());
    REQUIRE(saved.value().config.groups.size() == 1);
    REQUIRE(saved.value().config.groups[0].declared);
    CHECK(saved.value().config.groups[0].declared->file ==
          "../../scenarios/consumers/strategies/loyalty.naive.toml");
    // Read back from that folder, it finds the strategy file and replays.
    const Result<Scenario> reread = ParseScenario(
        FormatScenario(saved.value()), source + "/saved/traces/saved.toml");
    REQUIRE_MESSAGE(reread.ok(), reread.status().message());
    CHECK(CheckScenario(reread.value()).value().outcome ==
          Outcome::kAsExpected);
  }
}

}  // namespace
}  // namespace oc
