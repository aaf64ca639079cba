// Reports over all the scenarios of a run: a Markdown index linking each
// scenario's own report, and JUnit XML for CI.
//
// `stems[i]` is the file stem of the reports of `results[i]` (see
// UniqueStems in reports/report_set.h): the index links "STEMS[i].md", and
// a JUnit failure names it.
//
// Determinism: pure functions of their arguments; the same input gives the
// same bytes. Wall-clock seconds appear only with `options.wall_clock`.

#ifndef OUTBOX_CHECK_REPORTS_INDEX_REPORT_H_
#define OUTBOX_CHECK_REPORTS_INDEX_REPORT_H_

#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

// A Markdown page: a one-sentence tally of outcomes (naming scenarios
// without an expectation only when there are) with the run's exit code,
// then one table row per scenario, in order: name (a link to its
// report), verdict, expected, outcome, distinct states, transitions, and
// seconds when wall_clock is set.
// REQUIRES: stems.size() == results.size().
std::string MarkdownIndex(const std::vector<ScenarioResult>& results,
                          const std::vector<std::string>& stems,
                          const ReportOptions& options);

// JUnit XML: one <testsuite name="outbox-check"> with `tests` and
// `failures` counts, and per scenario a <testcase classname="outbox-check"
// name="NAME" file="PATH">. A scenario whose outcome fails the run fails
// the suite: UNEXPECTED is a <failure type="unexpected">, INCONCLUSIVE a
// <failure type="inconclusive"> (a limit stopped the search, exit code 3,
// and CI must not pass it), a violated invariant of a scenario without an
// expectation a <failure type="violated">. The failure's message is the
// outcome (with what was found, for a scenario without an expectation)
// and the mismatches; its body holds the terminal
// report of the scenario with every trace (step number, action, changed
// cells) and the name of its Markdown report. `time` attributes only with
// `options.wall_clock`.
// REQUIRES: stems.size() == results.size().
std::string JunitXml(const std::vector<ScenarioResult>& results,
                     const std::vector<std::string>& stems,
                     const ReportOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_INDEX_REPORT_H_
