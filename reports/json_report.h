// The JSON report of one scenario, for tools: everything the Markdown report
// says, as data. The schema is versioned (top-level "schema_version", now
// 1) and described field by field in reports/JSON_SCHEMA.md; a change that
// removes or renames a field, or changes its type or meaning, bumps the
// version.
//
// Layout: keys in a fixed order, two-space indentation, one trailing
// newline; strings are UTF-8 with '"', '\' and control characters escaped.
//
// Determinism: a pure function of `result` and `options`; the same input
// gives the same bytes. Wall-clock seconds appear only with
// `options.wall_clock`, in a top-level "timing" object that is otherwise
// absent.

#ifndef OUTBOX_CHECK_REPORTS_JSON_REPORT_H_
#define OUTBOX_CHECK_REPORTS_JSON_REPORT_H_

#include <string>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

inline constexpr int kJsonSchemaVersion = 1;

// REQUIRES: `result` came from CheckScenario (its model is set, and there is
// one point of no return per violation).
std::string JsonReport(const ScenarioResult& result,
                       const ReportOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_JSON_REPORT_H_
