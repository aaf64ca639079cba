// Plain-text reports for a terminal or a CI log. Pure functions of results:
// the same results and options give the same text.

#ifndef OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_
#define OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_

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
};

// The verdict block of one scenario: verdict, expectation, outcome and why,
// search statistics; then traces if asked.
std::string FormatResult(const ScenarioResult& result,
                         const TextOptions& options);

// One line per scenario: name, verdict, expected, states, transitions,
// seconds, outcome.
std::string FormatSummary(const std::vector<ScenarioResult>& results,
                          const TextOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_TEXT_REPORT_H_
