// The results of a run as SARIF 2.1.0 (the OASIS Static Analysis Results
// Interchange Format), for code-scanning services and editors that show
// findings against the lines of a file: here, the scenario files.
//
// One log with one run. Its tool.driver lists one rule per invariant that
// some scenario checks (id: the invariant's name), in the order the run
// first checks them, then two rules of the tool's own: "expectation" (a
// scenario's outcome differs from its [expect] table in something no single
// invariant explains, a state count or check.must_fire) and "inconclusive"
// (a limit stopped a search before it could decide). Those two ids are
// prefixed "outbox-check/", and get "-2", "-3", ... when an invariant is
// already called that, so that no two rules share an id.
//
// Results, scenario by scenario:
//  - one per violation found, ruleId the invariant, level "error" when the
//    scenario does not expect that invariant violated (or has no
//    expectation) and "note" when it does (a known bug the scenario
//    documents), located at the line that
//    names the invariant (Scenario::invariant_positions), with the
//    counterexample as codeFlows[0].threadFlows[0]: one location per step,
//    whose message is the step as the model presents it and whose `state`
//    holds the cells the step changed. A trace of no step (the initial
//    state already violates) has no codeFlows.
//  - one per unexpected outcome, level "error", located at the scenario's
//    [expect] table, its message the verdict, the expectation and every
//    mismatch; its ruleId is the invariant the mismatch is about (violated
//    but expected to hold, expected violated but holding, or the shortest
//    trace's length), else the expectation rule, and it carries that
//    invariant's counterexample when there is one.
//  - one per inconclusive outcome, level "warning", ruleId the
//    inconclusive rule, located at the [expect] table.
// A scenario without an expectation has only its violations (and an
// unexpected or inconclusive outcome, for check.must_fire or a limit),
// located at the file's first line where the [expect] table would be.
// Every location is the scenario file: a relative path stays relative (to
// the folder the run started in), an absolute one becomes a file: URI;
// bytes a URI may not hold are percent-encoded. A step of an exhaustive
// search is located at its result's line; a step of a pinned order at its
// element of check.order. An unknown line leaves the region out.
//
// Determinism: a pure function of its arguments (no time, no absolute path
// that the input did not give); key order fixed; written with
// common/json_writer.h.

#ifndef OUTBOX_CHECK_REPORTS_SARIF_REPORT_H_
#define OUTBOX_CHECK_REPORTS_SARIF_REPORT_H_

#include <string>
#include <string_view>
#include <vector>

#include "check/scenario_check.h"

namespace oc::reports {

// REQUIRES: every result came from CheckScenario.
std::string SarifReport(const std::vector<ScenarioResult>& results,
                        std::string_view tool_version);

// `path` as a URI reference, as SARIF's artifactLocation.uri wants it:
// "scenarios/a%20b.toml", "file:///work/x.toml". Exposed for its test.
std::string FileUri(std::string_view path);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_SARIF_REPORT_H_
