// Prints a Scenario as a scenario file (format: scenarios/FORMAT.md), in the
// canonical form that section of FORMAT.md describes: keys in the order the
// format lists them, one table per section, the short forms `relays = N` and
// `events = N` whenever they say exactly the same thing, pinned steps
// written as FormatAction() writes them.
//
// Round trip: for a Scenario `s` returned by ParseScenario(),
// ParseScenario(FormatScenario(s), p) returns `s` again, except for `path`
// (it is `p`), source positions, and the `text` of pinned steps (now
// FormatAction's spelling; the actions are equal). Printing that result
// again gives the same bytes: the canonical form is a fixed point.
//
// The output is a pure function of the Scenario.

#ifndef OUTBOX_CHECK_SCENARIOS_SCENARIO_WRITER_H_
#define OUTBOX_CHECK_SCENARIOS_SCENARIO_WRITER_H_

#include <string>
#include <vector>

#include "check/scenario.h"

namespace oc {

// REQUIRES: `scenario` is consistent the way a loaded one is: its Config
// passed Validate(), its pinned actions are within that Config.
std::string FormatScenario(const Scenario& scenario);

// A key of a TOML table and its value, written as TOML.
struct TomlKey {
  std::string name;
  std::string value;
};

// The keys of the [expect] table that says `expect`, in canonical order and
// spelling: `verdict`; with a violation, `violated` (a string for one
// invariant, an array for more); then `trace_length` and `states` when set.
// FormatScenario writes these, and so does RewriteExpectTable
// (scenarios/expect_table_rewrite.h).
std::vector<TomlKey> ExpectTableKeys(const Expectation& expect);

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_SCENARIO_WRITER_H_
