// Reading a whole input file (a scenario, a strategy file) into memory, with
// the message the loaders print when it cannot be read.

#ifndef OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_
#define OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_

#include <string>

#include "model/status.h"

namespace oc {

// The bytes of the file at `path`, or "PATH: cannot read file: REASON".
Result<std::string> ReadFileText(const std::string& path);

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_FILE_TEXT_H_
