// The JSON report of one scenario, for tools: everything the Markdown report
// says, as data; and the run document of `check --format json`, which holds
// the report of every scenario of a run. The schema is versioned (top-level
// "schema_version", now 2) and described field by field in
// reports/JSON_SCHEMA.md; a change that removes or renames a field, or changes
// its type or meaning, bumps the version.
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
#include <vector>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

inline constexpr int kJsonSchemaVersion = 2;

// REQUIRES: `result` came from CheckScenario (its model is set, and there is
// one point of no return per violation).
std::string JsonReport(const ScenarioResult& result,
                       const ReportOptions& options);

// What the run document says about the run beyond its results.
struct JsonRun {
  std::string tool_version;  // "0.1.0"; the caller knows it, reports do not
  int exit_code = 0;         // the run's exit code: 0, 1 or 3
  // True when a signal stopped the run: `scenarios` may then lack the ones
  // not reached, and the last one's search may be cut short (stats.stop
  // "interrupted").
  bool interrupted = false;
};

// The run document: "schema_version" (kJsonSchemaVersion, which versions
// the per-scenario layout too), "tool" {"name", "version"}, "exit_code",
// "interrupted", and "scenarios", the JsonReport of each result in order,
// each with its own "schema_version". Same layout and determinism as
// JsonReport; the tool version is the one thing that changes between
// builds. REQUIRES: as JsonReport, for every result.
std::string JsonRunReport(const std::vector<ScenarioResult>& results,
                          const JsonRun& run, const ReportOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_JSON_REPORT_H_
