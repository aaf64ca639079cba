// What every report says about a scenario without an expectation: the
// outcome "no expectation" with what was found, "none" where the
// expectation would be, and a failure only when an invariant is violated.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reports/html_report.h"
#include "reports/index_report.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"
#include "reports/wording.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;
using testing::WithoutExpectation;

const TextOptions kText{.traces = false, .wall_clock = false};
const ReportOptions kReport{.wall_clock = false, .command_line = {}};

TEST_CASE("the verdict block says no expectation and what was found") {
  const std::string held =
      FormatResult(WithoutExpectation("credit.inbox"), kText);
  CHECK(Contains(held, "  expected:  none\n"));
  CHECK(Contains(held, "  outcome:   no expectation: 2 invariants hold\n"));
  const std::string broke =
      FormatResult(WithoutExpectation("credit.naive"), kText);
  CHECK(Contains(broke,
                 "  outcome:   no expectation: effect_at_most_once violated "
                 "in 8 steps; 1 other invariant holds\n"));
}

TEST_CASE(
    "the last line of a run says what was found without an "
    "expectation") {
  CHECK(RunOutcomeText({WithoutExpectation("credit.inbox")}) ==
        "no expectation: 2 invariants hold");
  CHECK(RunOutcomeText({WithoutExpectation("credit.naive")}) ==
        "no expectation: effect_at_most_once violated in 8 steps; 1 other "
        "invariant holds");
  CHECK(RunOutcomeText(
            {WithoutExpectation("credit.inbox"), testing::Violated()}) ==
        "1 scenario as expected; no expectation: every checked invariant "
        "holds in 1 scenario");
  CHECK(RunOutcomeText(
            {WithoutExpectation("credit.naive"), testing::Unexpected()}) ==
        "some scenario differs from its expectation; no expectation: an "
        "invariant is violated in 1 scenario");
  // Every scenario expects something: the words of a run are unchanged.
  CHECK(RunOutcomeText({testing::Violated()}) == "all scenarios as expected");
}

TEST_CASE("the summary table reads none and no expectation") {
  const std::string table =
      FormatSummary({WithoutExpectation("credit.naive")}, kText);
  // The table has no expected column; the line below it says "none".
  CHECK(Contains(table, "  1 violated, 8 steps  "));
  CHECK(Contains(table, "  no expectation\n"));
  CHECK(Contains(table,
                 ": no expectation: violated: effect_at_most_once (8 "
                 "steps); expected none\n"));
}

TEST_CASE("the Markdown summary says no expectation and what was found") {
  const std::string md =
      MarkdownReport(WithoutExpectation("credit.inbox"), kReport);
  CHECK(Contains(md, "| Expected | none |\n"));
  CHECK(Contains(md, "| Outcome | **no expectation**: 2 invariants hold |\n"));
}

TEST_CASE(
    "the HTML summary says no expectation in a badge of the exit "
    "code's colour") {
  const std::string held =
      HtmlReport(WithoutExpectation("credit.inbox"), kReport);
  CHECK(Contains(held, "<tr><th>expected</th><td>none</td></tr>"));
  CHECK(Contains(held,
                 "<span class=\"badge ok\">no expectation</span>: 2 "
                 "invariants hold"));
  const std::string broke =
      HtmlReport(WithoutExpectation("credit.naive"), kReport);
  CHECK(Contains(broke, "<span class=\"badge bad\">no expectation</span>"));
}

TEST_CASE("JSON has a null expectation and the no_expectation outcome") {
  const std::string held =
      JsonReport(WithoutExpectation("credit.inbox"), kReport);
  CHECK(Contains(held, "\"expectation\": null,\n"));
  CHECK(Contains(held, "\"outcome\": \"no_expectation\",\n"));
  CHECK(Contains(held, "\"exit_code\": 0,\n"));
  const std::string broke =
      JsonReport(WithoutExpectation("credit.naive"), kReport);
  CHECK(Contains(broke, "\"outcome\": \"no_expectation\",\n"));
  CHECK(Contains(broke, "\"exit_code\": 1,\n"));
}

TEST_CASE("the index counts scenarios without an expectation") {
  const std::vector<ScenarioResult> results = {
      WithoutExpectation("credit.inbox"), WithoutExpectation("credit.naive")};
  const std::string md = MarkdownIndex(results, {"held", "broke"}, kReport);
  CHECK(Contains(md,
                 "2 scenarios: 0 as expected, 0 unexpected, 0 inconclusive, "
                 "2 without an expectation (1 with a violation). Exit code "
                 "1: no expectation: an invariant is violated in 1 "
                 "scenario.\n"));
  CHECK(Contains(md, "| none | no expectation |"));
  CHECK(Contains(md, "| none | **no expectation** |"));
  CHECK(Contains(HtmlIndex(results, {"held", "broke"}, kReport),
                 "2 scenarios, 0 as expected, 2 without an expectation."));
}

TEST_CASE(
    "JUnit fails a scenario without an expectation only when an "
    "invariant is violated") {
  const std::vector<ScenarioResult> results = {
      WithoutExpectation("credit.inbox"), WithoutExpectation("credit.naive")};
  const std::string xml = JunitXml(results, {"held", "broke"}, kReport);
  CHECK(Contains(xml, "tests=\"2\" failures=\"1\""));
  CHECK(Contains(xml,
                 "name=\"lease-expiry-after-send\" "
                 "file=\"lease.credit.inbox.toml\"/>\n"));
  CHECK(Contains(xml,
                 "<failure type=\"violated\" message=\"no expectation: "
                 "effect_at_most_once violated in 8 steps; 1 other invariant "
                 "holds\">"));
}

TEST_CASE(
    "SARIF reports a violation without an expectation as an error, "
    "and no outcome result") {
  const std::string held =
      SarifReport({WithoutExpectation("credit.inbox")}, "1.2.3");
  CHECK(testing::Contains(held, "\"results\": []"));
  CHECK(testing::Contains(held, "\"exitCode\": 0"));
  const std::string broke =
      SarifReport({WithoutExpectation("credit.naive")}, "1.2.3");
  CHECK(testing::Count(broke, "\"ruleId\": ") == 1);
  CHECK(testing::Count(broke, "\"level\": \"error\",") == 1);
  CHECK(testing::Contains(broke,
                          "Scenario 'lease-expiry-after-send': "
                          "effect_at_most_once (safety) is violated; the "
                          "shortest trace has 8 steps. The scenario has no "
                          "expectation."));
  CHECK(testing::Contains(broke, "\"exitCode\": 1"));
}

}  // namespace
}  // namespace oc::reports
