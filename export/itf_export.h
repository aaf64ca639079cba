// A counterexample in the Informal Trace Format (ITF), the JSON trace format
// of Apalache's ADR-015 that Apalache, Quint and their libraries read, so
// that a trace the checker found can drive another tool: a model-based
// test, a viewer, a replay against an implementation.
//
// The document, keys in this order:
//  - "#meta": "format" ("ITF"), "format-description" (the ADR's address),
//    "source" (the scenario file, as given), "description" (a sentence),
//    and the checker's own: "scenario", "invariant", "kind" ("safety",
//    "transition", "at_rest"), "search" ("exhaustive" or "pinned") and
//    "length" (the number of steps).
//  - "vars": the durable cells of the model, named as every report names
//    them (model/state_cells.h Cells: "outbox[e1].owner", "relay[A]",
//    "billing.effects[e1]", ...), in Cells order.
//  - "states": the initial state, then the state after each step, so one
//    more than the trace has steps. Each has "#meta" ("index", from 0, and
//    for every state but the first the step that led to it: "action", as
//    pinned orders write it, "detail", and "step", the model's words for it
//    in the sequence diagrams) and one value per variable.
//  - for a lasso, "loop": the index of the state the run goes back to
//    after the last one (the stem's end), as the ADR defines it; the
//    states are the stem's, then the loop's but its last, and "#meta"
//    adds "loop_length" and "loop_closing_action", the step from the last
//    state back to state "loop" ("length" is the stem's).
// A variable whose value is a decimal integer in every state of the trace
// is an ITF integer, written {"#bigint": "N"} (the ADR allows that form for
// any integer; Apalache and Quint write every integer so, and a typed
// reader then meets one form); any other variable is a string in every
// state ("-", "active", "claimed(e1, token 1)", "10m"). Cells are single
// values, so no set, map, tuple or record appears.
//
// Written with common/json_writer.h. Pure and deterministic: no time, no
// version.

#ifndef OUTBOX_CHECK_EXPORT_ITF_EXPORT_H_
#define OUTBOX_CHECK_EXPORT_ITF_EXPORT_H_

#include <cstddef>
#include <string>

#include "check/scenario_check.h"

namespace oc::exports {

// The trace of violation `violation` of `result`.
// REQUIRES: `result` came from CheckScenario, and violation <
// result.exploration.violations.size().
std::string ItfTrace(const ScenarioResult& result, std::size_t violation);

}  // namespace oc::exports

#endif  // OUTBOX_CHECK_EXPORT_ITF_EXPORT_H_
