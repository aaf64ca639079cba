// Loads declared handler strategies: strategy files (the language is in
// scenarios/strategies/LANGUAGE.md) that a scenario's group names with
// `strategy = { file = "PATH" }`.
//
// Every error is a Status whose message starts with "FILE:LINE:COLUMN: "
// (the strategy file's path as the scenario resolved it), names the field
// ("steps[2][1]") and says what is allowed, as the scenario loader's do.

#ifndef OUTBOX_CHECK_SCENARIOS_STRATEGY_LOADER_H_
#define OUTBOX_CHECK_SCENARIOS_STRATEGY_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/config.h"
#include "model/handler_program.h"
#include "scenarios/key_tables.h"

namespace oc {

// Parses `text` as the strategy file `path`; `written_as` is how the
// scenario wrote the path (kept in the program, for printing).
Result<HandlerProgram> ParseStrategyFile(std::string_view text,
                                         const std::string& path,
                                         const std::string& written_as);

// Reads and parses the strategy file at `path`.
Result<HandlerProgram> LoadStrategyFile(const std::string& path,
                                        const std::string& written_as);

// The `description` of the strategy file at `path` ("" when it has none),
// once the file has loaded as a strategy (else the loader's error).
Result<std::string> LoadStrategyDescription(const std::string& path);

// The file of scenarios/strategies/ that defines built-in `name` in the
// language ("credit.inbox" -> "STRATEGIES_DIR/credit.inbox.toml").
std::string BuiltinDefinitionPath(std::string_view strategies_dir,
                                  std::string_view name);

// Replaces the built-in strategy of every group of `config` by its
// definition in `strategies_dir` (for the equivalence test and `bench
// --declared`). Groups that already use a declared strategy stay as they
// are.
Status UseBuiltinDefinitions(Config& config, std::string_view strategies_dir);

// The loader's own lists, for tools that must agree with it (the JSON
// Schema scenarios/schema/strategy.schema.json): the keys of the top level
// ("") and of each declared table ("tables.*"), and the words of
// "tables.*.kind".
std::vector<KeyTable> StrategyKeyTables();
std::vector<WordList> StrategyWordLists();

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_STRATEGY_LOADER_H_
