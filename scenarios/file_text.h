// Reading a whole input file (a scenario, a strategy file, an invariant
// definition) into memory and parsing it as TOML, with the messages the
// loaders print when it cannot be read or parsed.

#ifndef OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_
#define OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_

#include <toml++/toml.h>

#include <string>
#include <string_view>

#include "common/status.h"

namespace oc {

// The bytes of the file at `path`, or "PATH: cannot read file: REASON".
Result<std::string> ReadFileText(const std::string& path);

// `text` parsed as TOML, or "PATH:LINE:COLUMN: invalid TOML: WHAT". (toml++
// is built with exceptions: the Debian library exports only its throwing
// ABI; the parse error is turned into a value here.)
Result<toml::table> ParseTomlText(std::string_view text,
                                  const std::string& path);

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_
