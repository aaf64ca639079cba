// The Markdown index and the JUnit XML over several results.

#include "reports/index_report.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;
using testing::Count;

using testing::Holding;
using testing::Unexpected;
using testing::Violated;

// One result of each outcome: ok, UNEXPECTED, INCONCLUSIVE (a depth limit
// stops the search before the violation).
std::vector<ScenarioResult> Results() {
  ScenarioResult ok = Violated();
  ScenarioResult unexpected = Unexpected();
  unexpected.scenario.name = "wrong-expectation";
  unexpected.scenario.path = "wrong.toml";
  ScenarioResult inconclusive =
      testing::CheckText(testing::LeaseExpiryText("credit.naive", R"x([bounds]
max_depth = 3
[expect]
verdict = "holds"
)x"),
                         "limited.toml");
  inconclusive.scenario.name = "depth-limited";
  REQUIRE(unexpected.outcome == Outcome::kUnexpected);
  REQUIRE(inconclusive.outcome == Outcome::kInconclusive);
  return {ok, unexpected, inconclusive};
}

const std::vector<std::string> kStems = {"lease-expiry-after-send",
                                         "wrong-expectation", "depth-limited"};

TEST_CASE("the index has one linked row per scenario and the exit code") {
  const std::string md = MarkdownIndex(
      Results(), kStems, {.wall_clock = false, .command_line = {}});
  CHECK(md.rfind("# outbox-check results\n\n3 scenarios: 1 as expected, 1 "
                 "unexpected, 1 inconclusive. Exit code 1: ",
                 0) == 0);
  CHECK(Contains(md,
                 "| Scenario | Verdict | Expected | Outcome | States | "
                 "Transitions |\n|---|---|---|---|---:|---:|\n"));
  CHECK(Contains(md,
                 "| [lease-expiry-after-send](lease-expiry-after-send.md) "
                 "| violated: effect_at_most_once (8 steps) | violated: "
                 "effect_at_most_once (8 steps) | ok | 95 | 178 |\n"));
  CHECK(Contains(md, "| [wrong-expectation](wrong-expectation.md) | "));
  CHECK(Contains(md, "| **UNEXPECTED** |"));
  CHECK(Contains(md, "| **INCONCLUSIVE** |"));
  CHECK(Count(md, "](") == 3);
}

TEST_CASE("the index has seconds only with timing") {
  const std::vector<ScenarioResult> results = Results();
  CHECK(!Contains(
      MarkdownIndex(results, kStems, {.wall_clock = false, .command_line = {}}),
      "Seconds"));
  const std::string timed =
      MarkdownIndex(results, kStems, {.wall_clock = true, .command_line = {}});
  CHECK(Contains(timed, "| Transitions | Seconds |"));
  CHECK(std::regex_search(timed, std::regex(R"(\| 178 \| \d+\.\d\d \|)")));
}

TEST_CASE("the index escapes names and link targets") {
  std::vector<ScenarioResult> results = {Holding()};
  results[0].scenario.name = "a|b [c]";
  const std::string md = MarkdownIndex(
      results, {"a b"}, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "| [a\\|b \\[c\\]](a%20b.md) |"));
}

TEST_CASE("JUnit has one testcase per scenario and counts every failure") {
  const std::string xml =
      JunitXml(Results(), kStems, {.wall_clock = false, .command_line = {}});
  CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
  CHECK(Contains(xml,
                 "<testsuite name=\"outbox-check\" tests=\"3\" "
                 "failures=\"2\" errors=\"0\" skipped=\"0\">\n"));
  CHECK(Count(xml, "<testcase ") == 3);
  CHECK(Contains(xml,
                 "  <testcase classname=\"outbox-check\" "
                 "name=\"lease-expiry-after-send\" file=\"lease.toml\"/>"));
  CHECK(Count(xml, "<failure ") == 2);
  CHECK(xml.size() >= 13);
  CHECK(xml.substr(xml.size() - 13) == "</testsuite>\n");
}

TEST_CASE("an unexpected outcome is a failure whose body holds the trace") {
  const std::string xml =
      JunitXml(Results(), kStems, {.wall_clock = false, .command_line = {}});
  CHECK(
      Contains(xml,
               "<failure type=\"unexpected\" message=\"UNEXPECTED: "
               "'effect_at_most_once' is violated, but the scenario expects it "
               "to hold\">"));
  const std::size_t start = xml.find("<failure type=\"unexpected\"");
  const std::string body =
      xml.substr(start, xml.find("</failure>", start) - start);
  CHECK(Contains(body,
                 "effect_at_most_once (safety) violated; shortest "
                 "trace, 8 steps:"));
  CHECK(Contains(body, " 4. claim(B, e1)  [token 2]"));
  CHECK(Contains(body, "outbox[e1].owner: A -&gt; B"));  // '>' escaped
  CHECK(Contains(body, " 8. consume(billing, 1, e1)"));
  CHECK(Contains(body, "report: wrong-expectation.md"));
}

TEST_CASE("an inconclusive outcome fails too, with its own type") {
  const std::string xml =
      JunitXml(Results(), kStems, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(xml,
                 "<failure type=\"inconclusive\" message=\"INCONCLUSIVE: "
                 "the search stopped at a limit"));
  CHECK(!Contains(xml, "<skipped"));
}

TEST_CASE("JUnit has time attributes only with timing") {
  const std::vector<ScenarioResult> results = Results();
  CHECK(!Contains(
      JunitXml(results, kStems, {.wall_clock = false, .command_line = {}}),
      "time="));
  const std::string timed =
      JunitXml(results, kStems, {.wall_clock = true, .command_line = {}});
  CHECK(Count(timed, " time=\"") == 4);  // the suite and each testcase
}

TEST_CASE("JUnit escapes '<', '&' and '\"' in attributes and text") {
  std::vector<ScenarioResult> results = {Unexpected()};
  results[0].scenario.name = "a<b & \"c\"";
  results[0].scenario.path = "dir/<x>&\"y\".toml";
  results[0].mismatches = {"1 < 2 & \"3\"\nnext line"};
  const std::string xml =
      JunitXml(results, {"a-b"}, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(xml, "name=\"a&lt;b &amp; &quot;c&quot;\""));
  CHECK(Contains(xml, "file=\"dir/&lt;x&gt;&amp;&quot;y&quot;.toml\""));
  CHECK(Contains(xml,
                 "message=\"UNEXPECTED: 1 &lt; 2 &amp; &quot;3&quot;"
                 "&#10;next line\""));
  CHECK(Contains(xml, "a&lt;b &amp; \"c\" (dir/&lt;x&gt;&amp;\"y\".toml)\n"));
  // No raw '<' or '&' outside markup: every '&' starts a reference.
  CHECK(!std::regex_search(xml, std::regex("&(?!(amp|lt|gt|quot|#[0-9]+);)")));
}

TEST_CASE("the index and JUnit are pure functions of the results") {
  CHECK(MarkdownIndex(Results(), kStems,
                      {.wall_clock = false, .command_line = {}}) ==
        MarkdownIndex(Results(), kStems,
                      {.wall_clock = false, .command_line = {}}));
  CHECK(
      JunitXml(Results(), kStems, {.wall_clock = false, .command_line = {}}) ==
      JunitXml(Results(), kStems, {.wall_clock = false, .command_line = {}}));
}

}  // namespace
}  // namespace oc::reports
