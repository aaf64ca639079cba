#include "cli/data_folder.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace oc {
namespace {

namespace fs = std::filesystem;

bool HoldsData(const fs::path& folder) {
  std::error_code ec;
  return fs::is_directory(folder / "scenarios" / "presets", ec);
}

bool SameFolder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

Result<std::string> FindDataFolder(const std::string& binary,
                                   const DataPlaces& places) {
  const fs::path folder = fs::path(binary).parent_path();
  const fs::path installed = (folder / places.installed).lexically_normal();
  if (HoldsData(installed)) return installed.string();
  std::string looked = installed.string();
  if (!places.source.empty() && !places.build.empty() &&
      SameFolder(folder, places.build)) {
    if (HoldsData(places.source)) return places.source;
    looked += " and " + places.source;
  }
  return Status::Error(fmt::format(
      "the bundled scenarios are not beside {} (looked in {}); install "
      "outbox-check with `cmake --install`, or give the paths yourself",
      binary, looked));
}

Result<std::string> DataFolder() {
  std::error_code ec;
  const fs::path binary = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return Status::Error(fmt::format(
        "cannot tell where this binary is (/proc/self/exe: {}), so not "
        "where its bundled scenarios are; give the paths yourself",
        ec.message()));
  }
  return FindDataFolder(
      binary.string(),
      DataPlaces{OC_INSTALLED_DATA, OC_BUILD_SOURCE_DIR, OC_BUILD_BINARY_DIR});
}

Result<std::string> BundledPath(std::string_view relative) {
  Result<std::string> folder = DataFolder();
  if (!folder.ok()) return folder.status();
  return (fs::path(folder.value()) / "scenarios" / relative).string();
}

}  // namespace oc
