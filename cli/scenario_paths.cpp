#include "cli/scenario_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "scenarios/scenario_loader.h"

namespace oc {

Result<std::vector<std::string>> ScenarioFiles(
    const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      return Status::Error(fmt::format("{}: no such file or folder", path));
    }
    if (!fs::is_directory(status)) {
      if (seen.insert(path).second) files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      // A folder named `strategies` holds strategy files, and one named
      // `invariants` invariant definitions: not scenarios.
      if (it->is_directory() && (it->path().filename() == "strategies" ||
                                 it->path().filename() == "invariants")) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && it->path().extension() == ".toml") {
        found.push_back(it->path().generic_string());
      }
    }
    if (ec) {
      return Status::Error(
          fmt::format("{}: cannot list folder: {}", path, ec.message()));
    }
    if (found.empty()) {
      return Status::Error(
          fmt::format("{}: folder holds no scenario (*.toml) file", path));
    }
    std::sort(found.begin(), found.end());
    for (std::string& f : found) {
      if (seen.insert(f).second) files.push_back(std::move(f));
    }
  }
  return files;
}

std::optional<std::vector<Scenario>> LoadScenarios(
    const std::vector<std::string>& paths, std::string_view prefix,
    std::FILE* err, ExpectTable expect) {
  Result<std::vector<std::string>> files = ScenarioFiles(paths);
  if (!files.ok()) {
    fmt::print(err, "{}: {}\n", prefix, files.status().message());
    return std::nullopt;
  }
  std::vector<Scenario> scenarios;
  bool bad_input = false;
  for (const std::string& file : files.value()) {
    Result<Scenario> scenario = LoadScenario(file, expect);
    if (!scenario.ok()) {
      fmt::print(err, "{}\n", scenario.status().message());
      bad_input = true;
      continue;
    }
    scenarios.push_back(std::move(scenario).value());
  }
  if (bad_input) return std::nullopt;
  return scenarios;
}

}  // namespace oc
