// Loads scenario files (format: scenarios/FORMAT.md).
//
// Every error is a Status whose message starts with "FILE:LINE:COLUMN: " (or
// "FILE: " when no position applies), names the field in dotted form
// ("faults.premature_expiries", "groups[2].strategy"), says what is allowed
// and, for a misspelt name, suggests the closest one. Unknown keys are
// errors, never ignored. The loaded Config has passed Validate().

#ifndef OUTBOX_CHECK_SCENARIOS_SCENARIO_LOADER_H_
#define OUTBOX_CHECK_SCENARIOS_SCENARIO_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "check/scenario.h"
#include "common/status.h"
#include "scenarios/key_tables.h"

namespace oc {

// What the loader does with a file's [expect] table.
enum class ExpectTable {
  kRead,    // the default: read and check it; a file without one has no
            // expectation
  kIgnore,  // leave it unread, whatever it says (to explore a scenario, or
            // to bless it with what a check finds): no expectation
};

// Parses `text` as the contents of the file `path` (used for messages and
// for the default scenario name, the file's stem).
Result<Scenario> ParseScenario(std::string_view text, const std::string& path,
                               ExpectTable expect = ExpectTable::kRead);

// Reads and parses the file at `path`.
Result<Scenario> LoadScenario(const std::string& path,
                              ExpectTable expect = ExpectTable::kRead);

// A built-in invariant restated as an expression (scenarios/invariants/):
// a file with `name` (the built-in's), `description`, `kind`, `groups` and
// `holds`, as a scenario's [[invariants]] entry, compiled against `config`.
Result<InvariantExpression> ParseInvariantDefinition(std::string_view text,
                                                     const std::string& path,
                                                     const Config& config);
Result<InvariantExpression> LoadInvariantDefinition(const std::string& path,
                                                    const Config& config);

// The loader's own lists, for tools that must agree with it (the JSON
// Schemas of scenarios/schema/): the keys of every table of a scenario file,
// top level ("") first, in FORMAT.md's order; and the words of every field
// that takes one of a fixed set. Fields whose values depend on the file
// (invariant names, which a scenario may declare) are not word lists.
std::vector<KeyTable> ScenarioKeyTables();
std::vector<WordList> ScenarioWordLists();

// The same for an invariant definition file (one table, at the top level).
std::vector<KeyTable> InvariantDefinitionKeyTables();
std::vector<WordList> InvariantDefinitionWordLists();

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_SCENARIO_LOADER_H_
