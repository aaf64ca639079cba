// Plain-text reports for a terminal or a CI log. Pure functions of results:
// the same results and options give the same text.

#ifndef OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_
#define OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "reports/wording.h"

namespace oc::reports {

struct TextOptions {
  // Print the trace of every violation (and the replayed order of a pinned
  // scenario) step by step, with the cells each step changed. Default off:
  // just the verdict block.
  bool traces = false;
  // Include wall-clock seconds (not deterministic). Default on.
  bool wall_clock = true;
  // Colour the outcomes with ANSI escapes (for a terminal; the caller
  // decides). Default off.
  bool colour = false;
};

// The summary's width in columns: its table never exceeds it.
inline constexpr std::size_t kSummaryWidth = 100;

// The verdict block of one scenario: verdict, expectation, outcome and why,
// search statistics; then traces if asked.
std::string FormatResult(const ScenarioResult& result,
                         const TextOptions& options);

// A table of one line per scenario, at most kSummaryWidth columns: name,
// verdict in short ("holds", "2 violated, 5 steps", "1 violated, fair
// cycle" when the shortest is a lasso, "none found, incomplete"), distinct
// states, seconds, outcome. A name too long for the table is cut with
// "...". Below it, the details: for each scenario whose outcome fails the
// run (ExitCodeOf not 0), its full verdict, its expectation and why they
// differ; then every scenario's warnings.
std::string FormatSummary(const std::vector<ScenarioResult>& results,
                          const TextOptions& options);

// `outcome`'s word (OutcomeText) padded to `width`, coloured when
// `options.colour`: green ok, red UNEXPECTED, yellow INCONCLUSIVE; "no
// expectation" cyan when everything held, red when something broke.
std::string OutcomeCell(Outcome outcome, std::size_t width,
                        const TextOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_
