#include "reports/index_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cctype>

#include "common/text.h"
#include "reports/markdown_report.h"
#include "reports/text_report.h"
#include "reports/wording.h"

namespace oc::reports {
namespace {

// What the exit code of a run means, as in `outbox-check --help`.
std::string_view ExitCodeMeaning(int code) {
  switch (code) {
    case 0:
      return "every scenario as expected";
    case 1:
      return "a verdict, trace length or state count differs from what a "
             "scenario expects";
    case 3:
      return "a limit stopped a search, so a \"holds\" was not proved";
  }
  return "?";
}

// A relative link target: everything but unreserved URL characters
// percent-encoded.
std::string LinkTarget(std::string_view file) {
  std::string out;
  for (char c : file) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.' || c == '_' || c == '-' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", u);
    }
  }
  return out;
}

// `text` as XML character data, or (with `attribute`) as the inside of a
// double-quoted attribute value, where line breaks and tabs must be
// character references to survive attribute normalisation. Control
// characters XML 1.0 cannot carry become U+FFFD.
std::string XmlText(std::string_view text) { return EscapeXml(text, false); }
std::string XmlAttribute(std::string_view text) {
  return EscapeXml(text, true);
}

// The JUnit failure type of an outcome that fails the run.
std::string_view FailureType(Outcome outcome) {
  switch (outcome) {
    case Outcome::kInconclusive:
      return "inconclusive";
    case Outcome::kNoExpectationViolated:
      return "violated";
    case Outcome::kAsExpected:
    case Outcome::kNoExpectationHolds:
    case Outcome::kUnexpected:
      break;
  }
  return "unexpected";
}

std::vector<Outcome> Outcomes(const std::vector<ScenarioResult>& results) {
  std::vector<Outcome> outcomes;
  for (const ScenarioResult& r : results) outcomes.push_back(r.outcome);
  return outcomes;
}

}  // namespace

std::string MarkdownIndex(const std::vector<ScenarioResult>& results,
                          const std::vector<std::string>& stems,
                          const ReportOptions& options) {
  assert(stems.size() == results.size());
  const std::vector<Outcome> outcomes = Outcomes(results);
  auto count = [&](Outcome o) {
    return static_cast<std::uint64_t>(
        std::count(outcomes.begin(), outcomes.end(), o));
  };
  const int exit_code = ExitCodeFor(outcomes);
  const std::uint64_t without = count(Outcome::kNoExpectationHolds) +
                                count(Outcome::kNoExpectationViolated);
  std::string out = "# outbox-check results\n\n";
  out += fmt::format("{}: {} as expected, {} unexpected, {} inconclusive",
                     Plural(results.size(), "scenario"),
                     count(Outcome::kAsExpected), count(Outcome::kUnexpected),
                     count(Outcome::kInconclusive));
  // Named only when there are, so that a run of scenarios that all expect
  // something reads as it always did.
  if (without > 0) {
    out += fmt::format(", {} without an expectation ({} with a violation)",
                       without, count(Outcome::kNoExpectationViolated));
  }
  if (options.wall_clock) {
    double seconds = 0;
    for (const ScenarioResult& r : results) {
      seconds += r.exploration.stats.seconds;
    }
    out += fmt::format(", in {:.2f} s", seconds);
  }
  out += fmt::format(
      ". Exit code {}: {}.\n\n", exit_code,
      MarkdownText(without > 0 ? RunOutcomeText(results)
                               : std::string(ExitCodeMeaning(exit_code))));

  out += "| Scenario | Verdict | Expected | Outcome | States | Transitions |";
  if (options.wall_clock) out += " Seconds |";
  out += "\n|---|---|---|---|---:|---:|";
  if (options.wall_clock) out += "---:|";
  out += "\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    const explorer::Stats& s = r.exploration.stats;
    const std::string outcome = MarkdownText(OutcomeText(r.outcome));
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} |",
        MarkdownCell(fmt::format("[{}]({})", MarkdownText(r.scenario.name),
                                 LinkTarget(stems[i] + ".md"))),
        MarkdownCell(MarkdownText(VerdictText(r))),
        MarkdownCell(MarkdownText(ExpectedText(r.scenario))),
        ExitCodeOf(r.outcome) == 0 ? outcome : "**" + outcome + "**", s.states,
        s.transitions);
    if (options.wall_clock) out += fmt::format(" {:.2f} |", s.seconds);
    out += "\n";
  }
  return out + "\n" + MarkdownWrittenBy(options);
}

std::string JunitXml(const std::vector<ScenarioResult>& results,
                     const std::vector<std::string>& stems,
                     const ReportOptions& options) {
  assert(stems.size() == results.size());
  std::size_t failures = 0;
  double seconds = 0;
  for (const ScenarioResult& r : results) {
    if (ExitCodeOf(r.outcome) != 0) ++failures;
    seconds += r.exploration.stats.seconds;
  }
  auto time = [&](double s) {
    return options.wall_clock ? fmt::format(" time=\"{:.3f}\"", s)
                              : std::string();
  };
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuite name=\"outbox-check\" tests=\"{}\" failures=\"{}\" "
      "errors=\"0\" skipped=\"0\"{}>\n",
      results.size(), failures, time(seconds));
  TextOptions text_options;
  text_options.traces = true;
  text_options.wall_clock = options.wall_clock;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    out += fmt::format(
        "  <testcase classname=\"outbox-check\" name=\"{}\" file=\"{}\"{}",
        XmlAttribute(r.scenario.name), XmlAttribute(r.scenario.path),
        time(r.exploration.stats.seconds));
    if (ExitCodeOf(r.outcome) == 0) {
      out += "/>\n";
      continue;
    }
    std::string message = OutcomeSentence(r);
    if (!r.mismatches.empty()) {
      message += fmt::format(": {}", fmt::join(r.mismatches, "; "));
    }
    const std::string body = fmt::format(
        "{}\nreport: {}.md\n", FormatResult(r, text_options), stems[i]);
    out += fmt::format(
        ">\n    <failure type=\"{}\" message=\"{}\">{}</failure>\n"
        "  </testcase>\n",
        FailureType(r.outcome), XmlAttribute(message), XmlText(body));
  }
  out += "</testsuite>\n";
  return out;
}

}  // namespace oc::reports
