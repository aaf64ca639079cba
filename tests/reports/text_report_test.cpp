// The plain-text summary and verdict block: the summary table's width and
// details, colour only when asked, and "incomplete" for a search a limit
// cut.

#include "reports/text_report.h"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "reports/markdown_report.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::CheckText;
using testing::Contains;
using testing::LeaseExpiryText;

std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lease-expiry scenario with naive credit, named `name`, expecting
// `expect`.
ScenarioResult Named(const std::string& name, const std::string& expect) {
  std::string text = LeaseExpiryText("credit.naive", expect);
  text.replace(text.find("lease-expiry-after-send"),
               std::string("lease-expiry-after-send").size(), name);
  return CheckText(text);
}

// The holding lease-expiry scenario under a state limit of 3.
ScenarioResult Limited() {
  const Result<Scenario> scenario =
      ParseScenario(LeaseExpiryText("credit.inbox",
                                    "[expect]\n"
                                    "verdict = \"holds\"\n"),
                    "limited.toml");
  REQUIRE(scenario.ok());
  CheckOptions options;
  options.max_states = 3;
  const Result<ScenarioResult> result =
      CheckScenario(scenario.value(), options);
  REQUIRE(result.ok());
  return result.value();
}

constexpr const char* kViolatedInEight =
    "[expect]\nverdict = \"violated\"\nviolated = \"effect_at_most_once\"\n"
    "trace_length = 8\n";

TEST_CASE("the summary table fits 100 columns, whatever the names") {
  std::vector<ScenarioResult> results;
  results.push_back(Named(std::string(150, 'n'), kViolatedInEight));
  results.push_back(Named("short", "[expect]\nverdict = \"holds\"\n"));
  results.push_back(Limited());
  for (bool wall_clock : {true, false}) {
    TextOptions options;
    options.wall_clock = wall_clock;
    const std::vector<std::string> lines =
        LinesOf(FormatSummary(results, options));
    REQUIRE(lines.size() > results.size());
    // The heading and one row per scenario.
    for (std::size_t i = 0; i <= results.size(); ++i) {
      CHECK_MESSAGE(lines[i].size() <= kSummaryWidth, lines[i]);
      CHECK(lines[i].back() != ' ');
    }
    CHECK(Contains(lines[1], "..."));
    CHECK(Contains(lines[1], "1 violated, 8 steps"));
    CHECK(Contains(lines[2], "UNEXPECTED"));
    CHECK(Contains(lines[3], "none found, incomplete"));
    CHECK(Contains(lines[3], "INCONCLUSIVE"));
  }
}

TEST_CASE("below the table, each scenario not as expected says why") {
  const std::vector<ScenarioResult> results = {
      Named("as-expected", kViolatedInEight),
      Named("wrong", "[expect]\nverdict = \"holds\"\n")};
  const std::string summary = FormatSummary(results, TextOptions{});
  CHECK(Contains(summary,
                 "\nwrong: UNEXPECTED: violated: effect_at_most_once (8 "
                 "steps); expected holds\n  - "));
  CHECK_FALSE(Contains(summary, "as-expected: "));
}

TEST_CASE("the summary is coloured only when asked") {
  const std::vector<ScenarioResult> results = {
      Named("ok", kViolatedInEight),
      Named("wrong", "[expect]\nverdict = \"holds\"\n")};
  TextOptions options;
  CHECK_FALSE(Contains(FormatSummary(results, options), "\033"));
  options.colour = true;
  const std::string coloured = FormatSummary(results, options);
  CHECK(Contains(coloured, "\033[32mok\033[0m"));
  CHECK(Contains(coloured, "\033[1;31mUNEXPECTED\033[0m"));
}

TEST_CASE(
    "a simulation's text and Markdown reports name the walk weights it "
    "used") {
  const std::string weights =
      "walk_weights = { consume = 0, expire_premature = 5 }";
  const ScenarioResult plain = testing::Simulated(weights);
  CHECK(Contains(FormatResult(plain, TextOptions{}),
                 "\n  weights:   check.walk_weights expire_premature 5, "
                 "consume 0, every other class 1\n"));
  CHECK(
      Contains(MarkdownReport(plain, {.wall_clock = false, .command_line = {}}),
               "| Walk weights | check.walk_weights expire_premature 5, "
               "consume 0, every other class 1 |"));
  CHECK(Contains(FormatResult(testing::Simulated(weights, true), TextOptions{}),
                 "\n  weights:   check.walk_weights expire_premature 5, "
                 "consume 0, every other class 1; each walk multiplies them "
                 "by the weights it drew\n"));
  // Without weights, or without a simulation, no line.
  CHECK_FALSE(Contains(FormatResult(testing::Simulated(""), TextOptions{}),
                       "weights:"));
  const ScenarioResult searched =
      CheckText(LeaseExpiryText("credit.inbox", weights + "\n"));
  CHECK_FALSE(Contains(FormatResult(searched, TextOptions{}), "weights:"));
}

TEST_CASE("a search a limit cut is called incomplete, never exhaustive") {
  const ScenarioResult limited = Limited();
  CHECK(BoundsText(limited).rfind("incomplete, within at most ", 0) == 0);
  const std::string block = FormatResult(limited, TextOptions{});
  CHECK(Contains(block,
                 "search:    incomplete breadth-first, stopped at the "
                 "state limit: "));
  CHECK_FALSE(Contains(block, "exhaustive"));
  const std::string markdown = MarkdownReport(limited, ReportOptions{});
  CHECK(Contains(markdown, "| Search | incomplete, breadth-first |"));
  CHECK_FALSE(Contains(markdown, "exhaustive"));

  const ScenarioResult complete = testing::Holding();
  CHECK(BoundsText(complete).rfind("exhaustive for at most ", 0) == 0);
  CHECK(Contains(FormatResult(complete, TextOptions{}),
                 "search:    exhaustive breadth-first, complete: "));
}

}  // namespace
}  // namespace oc::reports
