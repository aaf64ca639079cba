// Turning the paths given on the command line into scenario files.

#ifndef OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_
#define OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_

#include <string>
#include <vector>

#include "model/status.h"

namespace oc {

// Each path that is a file is taken as it is; each folder contributes every
// `*.toml` file below it, recursively, in byte order of their paths (so the
// order never depends on the file system). Files found twice are listed
// once. Fails on a path that does not exist or a folder with no scenario.
Result<std::vector<std::string>> ScenarioFiles(
    const std::vector<std::string>& paths);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_
