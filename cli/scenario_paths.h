// Turning the paths given on the command line into scenario files.

#ifndef OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_
#define OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/scenario.h"
#include "common/status.h"
#include "scenarios/scenario_loader.h"

namespace oc {

// Each path that is a file is taken as it is; each folder contributes every
// `*.toml` file below it, recursively, in byte order of their paths (so the
// order never depends on the file system). Files found twice are listed
// once. Fails on a path that does not exist or a folder with no scenario.
Result<std::vector<std::string>> ScenarioFiles(
    const std::vector<std::string>& paths);

// Loads the scenario files of `paths` (ScenarioFiles), printing every
// error to `err` ("PREFIX: ..." for a bad path, the loader's file:line:col
// message for a bad file); nullopt if any failed, which is exit code 2.
// `expect` says whether the files' [expect] tables are read (the default)
// or left unread.
std::optional<std::vector<Scenario>> LoadScenarios(
    const std::vector<std::string>& paths, std::string_view prefix,
    std::FILE* err, ExpectTable expect = ExpectTable::kRead);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_SCENARIO_PATHS_H_
