// The SARIF writer on small fixed results: which results it writes, at
// which level and rule, the steps of a code flow, file URIs. Its validity
// against the SARIF 2.1.0 schema is tests/cli/sarif_schema.sh's.

#include "reports/sarif_report.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;
using testing::Count;
using testing::Holding;
using testing::PinnedViolated;
using testing::Unexpected;
using testing::Violated;

TEST_CASE("SARIF file URIs keep relative paths relative and encode the rest") {
  CHECK(FileUri("scenarios/seed/x.toml") == "scenarios/seed/x.toml");
  CHECK(FileUri("./a/../b c#1.toml") == "b%20c%231.toml");
  CHECK(FileUri("/work/x.toml") == "file:///work/x.toml");
  CHECK(FileUri("a:b/caf\xC3\xA9.toml") == "a%3Ab/caf%C3%A9.toml");
}

TEST_CASE(
    "an expected violation is a note, an unexpected one an error, and "
    "the unexpected outcome another error at [expect]") {
  const std::string log =
      SarifReport({Violated(), Holding(), Unexpected()}, "1.2.3");
  CHECK(Count(log, "\"ruleId\": ") == 3);
  CHECK(Count(log, "\"level\": \"note\",") == 1);  // results only
  CHECK(Count(log, "\"level\": \"error\",") == 2);
  CHECK(Contains(log, "\"version\": \"1.2.3\""));
  CHECK(Contains(log, "\"exitCode\": 1"));
  CHECK(Contains(log,
                 "Scenario 'lease-expiry-after-send' is not as expected: "
                 "violated: effect_at_most_once (8 steps) (expected holds). "
                 "'effect_at_most_once' is violated, but the scenario "
                 "expects it to hold."));
  // Three code flows of 8 steps: the note's, the error's, the outcome's.
  CHECK(Count(log,
              "\"Step 1 of 8: claim(A, e1) [token 1]; relay A -> "
              "outbox database: claim e1 (token 1)\"") == 3);
  CHECK(Count(log, "\"executionOrder\": 8") == 3);
  CHECK(Count(log, "\"executionOrder\": 9") == 0);
}

TEST_CASE("a run with nothing to report has rules and no result") {
  const std::string log = SarifReport({Holding()}, "1.2.3");
  CHECK(Contains(log, "\"results\": []"));
  CHECK(Contains(log, "\"id\": \"effect_at_most_once\""));
  CHECK(Contains(log, "\"id\": \"outbox-check/expectation\""));
  CHECK(Contains(log, "\"exitCode\": 0"));
}

TEST_CASE("a pinned order's steps point at their lines of check.order") {
  const ScenarioResult r = PinnedViolated();
  const std::string log = SarifReport({r}, "1.2.3");
  REQUIRE(r.scenario.order.size() > 1);
  const int first = r.scenario.order.front().position.line;
  CHECK(first > 0);
  CHECK(Contains(log, "breaks at step 8 of the pinned order"));
  CHECK(Contains(log, "\"startLine\": " + std::to_string(first) + "\n"));
}

TEST_CASE("the SARIF log is a pure function of the results") {
  CHECK(SarifReport({Violated(), Unexpected()}, "1") ==
        SarifReport({Violated(), Unexpected()}, "1"));
}

}  // namespace
}  // namespace oc::reports
