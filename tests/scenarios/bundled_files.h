// The bundled scenario files the scenario tests run: every *.toml below
// scenarios/, but the benchmarks (`outbox-check bench` runs those; they are
// far too big for unit tests), strategy files (scenarios name them; they
// are not scenarios) and invariant definitions (scenarios/invariants/). Sorted,
// so tests run them in a fixed order.

#ifndef OUTBOX_CHECK_TESTS_SCENARIOS_BUNDLED_FILES_H_
#define OUTBOX_CHECK_TESTS_SCENARIOS_BUNDLED_FILES_H_

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace oc::testing {

inline std::vector<std::string> BundledScenarioFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::string(OC_SOURCE_DIR) + "/scenarios")) {
    const auto folder = entry.path().parent_path().filename();
    // Benchmarks and simulation targets are too large to search here.
    if (folder == "bench" || folder == "simulation" || folder == "strategies" ||
        folder == "invariants") {
      continue;
    }
    if (entry.is_regular_file() && entry.path().extension() == ".toml") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace oc::testing

#endif  // OUTBOX_CHECK_TESTS_SCENARIOS_BUNDLED_FILES_H_
