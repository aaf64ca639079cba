// The bundled data is found from the binary's location, never from the
// working folder.

#include "cli/data_folder.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace oc {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system's temporary folder, removed afterwards.
struct TempTree {
  fs::path root;
  TempTree() {
    root = fs::temp_directory_path() /
           ("oc-data-folder-test-" + std::to_string(getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~TempTree() { fs::remove_all(root); }
  void Data(const fs::path& folder) const {
    fs::create_directories(root / folder / "scenarios" / "presets");
  }
  std::string operator/(const std::string& p) const { return (root / p); }
};

TEST_CASE("an installed binary finds the data beside it") {
  TempTree t;
  t.Data("prefix/share/outbox-check");
  t.Data("checkout");
  fs::create_directories(t.root / "build");
  const DataPlaces places{"../share/outbox-check", t / "checkout", t / "build"};
  const Result<std::string> found =
      FindDataFolder(t / "prefix/bin/outbox-check", places);
  REQUIRE(found.ok());
  CHECK(fs::equivalent(found.value(), t / "prefix/share/outbox-check"));
}

TEST_CASE("a binary in its build folder finds the checkout it came from") {
  TempTree t;
  t.Data("checkout");
  fs::create_directories(t.root / "build");
  const DataPlaces places{"../share/outbox-check", t / "checkout", t / "build"};
  const Result<std::string> found =
      FindDataFolder(t / "build/outbox-check", places);
  REQUIRE(found.ok());
  CHECK(found.value() == t / "checkout");
}

TEST_CASE("a binary copied elsewhere names the places it looked in") {
  TempTree t;
  t.Data("checkout");
  fs::create_directories(t.root / "build");
  fs::create_directories(t.root / "elsewhere");
  const DataPlaces places{"../share/outbox-check", t / "checkout", t / "build"};
  const Result<std::string> found =
      FindDataFolder(t / "elsewhere/outbox-check", places);
  REQUIRE_FALSE(found.ok());
  CHECK(found.status().message().find("share/outbox-check") !=
        std::string::npos);
  // The checkout is only for the build folder's own binary.
  CHECK(found.status().message().find("checkout") == std::string::npos);
}

}  // namespace
}  // namespace oc
