// HTML reports for design reviews: one self-contained page per scenario and
// an index over a run. Pure functions of results: the same results and
// options give the same bytes.
//
// Self-contained means a page works offline from a file: its CSS and script
// are inline (reports/html_page.h), its diagrams are inline SVG drawn by
// reports/svg_sequence.h, and it references nothing outside itself (no
// network, font, script or image). Text from scenario files is escaped.
//
// A scenario page shows, in this order: the name, file and description; a
// summary (verdict, expectation, outcome and why, bounds, each invariant
// held or broken, warnings); for each violation (ids "t1".."tN") and for the
// replayed order of a pinned scenario (id "replay") a sequence diagram,
// marking the point of no return and the breaking step, beside a
// step-through showing every cell of durable state at the current step, the
// cells that step changed marked (a lasso's loop, and each turn of a pinned
// check.loop, sits in a dashed box; stepping on from a lasso's last step
// goes back to its loop's first); the configuration; search statistics
// (with the leads-to check's sentence; seconds only with
// ReportOptions::wall_clock) and the coverage of action
// classes, those that never fired highlighted.
//
// The step-through's script, the JSON it reads (embedded in the page) and
// the page's self-test hook are described in reports/html_page.h.

#ifndef OUTBOX_CHECK_REPORTS_HTML_REPORT_H_
#define OUTBOX_CHECK_REPORTS_HTML_REPORT_H_

#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

// The page of one scenario.
// REQUIRES: result.model is set, and result.points_of_no_return has one
// entry per violation.
std::string HtmlReport(const ScenarioResult& result,
                       const ReportOptions& options);

// One table over a run, each scenario linking to "STEM.html" (stems[i] for
// results[i], normally ReportStem or a de-duplicated variant of it).
// REQUIRES: stems.size() == results.size().
std::string HtmlIndex(const std::vector<ScenarioResult>& results,
                      const std::vector<std::string>& stems,
                      const ReportOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_HTML_REPORT_H_
