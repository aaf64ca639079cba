// What the two TOML readers (scenario_loader.cpp, strategy_loader.cpp) say
// the same way: the word for a value's type and the "FILE:LINE:COLUMN:
// FIELD: WHAT" form of an error. Private to scenarios/.

#ifndef OUTBOX_CHECK_SCENARIOS_TOML_WORDS_H_
#define OUTBOX_CHECK_SCENARIOS_TOML_WORDS_H_

#include <toml++/toml.h>

#include <string>
#include <string_view>

namespace oc {

// "a table", "an integer", ..., "a date-time"; "nothing" for none.
std::string_view TypeName(toml::node_type type);

// "PATH:LINE:COLUMN: FIELD: WHAT", at the start of `region`.
std::string ErrorAt(std::string_view path, const toml::source_region& region,
                    std::string_view field, std::string_view what);

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_TOML_WORDS_H_
