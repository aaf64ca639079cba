// File names from names a scenario chooses: safe, stable, distinct.

#include "reports/file_names.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

namespace oc::reports {
namespace {

bool Plain(const std::string& stem) {
  if (stem.empty() || stem.size() > kMaxStemBytes || stem[0] == '.') {
    return false;
  }
  for (char c : stem) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

TEST_CASE("a safe short name is its own file stem") {
  CHECK(SafeFileStem("lease-expiry-after-send") == "lease-expiry-after-send");
  CHECK(SafeFileStem("a.b_c-D9") == "a.b_c-D9");
  CHECK(SafeFileStem("x..y") == "x..y");
}

TEST_CASE(
    "path-like, empty, hidden, NUL and non-ASCII names become plain "
    "stems with a hash of the name") {
  const std::vector<std::string> names = {"../",    "x/../../../escaped",
                                          "/tmp/x", std::string("a\0b", 3),
                                          "café",   "事件",
                                          "",       ".",
                                          "..",     ".hidden",
                                          "a b",    std::string(300, 'n')};
  std::set<std::string> stems;
  for (const std::string& name : names) {
    const std::string stem = SafeFileStem(name);
    INFO("name: " << name << " stem: " << stem);
    CHECK(Plain(stem));
    CHECK(stem.find('/') == std::string::npos);
    CHECK(stem.size() > 9);
    CHECK(stem[stem.size() - 9] == '-');
    CHECK(stems.insert(stem).second);
    CHECK(SafeFileStem(name) == stem);  // stable
  }
  CHECK(SafeFileStem("../") == "___-" + SafeFileStem("../").substr(4));
  CHECK(SafeFileStem(".hidden").rfind("_hidden-", 0) == 0);
  CHECK(SafeFileStem("café").rfind("caf__-", 0) == 0);
  CHECK(SafeFileStem(std::string(300, 'n')).size() == kMaxStemBytes);
}

TEST_CASE(
    "names that differ only where bytes were replaced or cut get "
    "different stems") {
  CHECK(SafeFileStem("a/b") != SafeFileStem("a:b"));
  CHECK(SafeFileStem("a/b") != SafeFileStem("a_b"));
  CHECK(SafeFileStem(std::string(100, 'n') + "1") !=
        SafeFileStem(std::string(100, 'n') + "2"));
}

TEST_CASE(
    "stems are unique ignoring case and avoid the reserved ones; a real "
    "x-2 keeps its name") {
  const std::vector<std::string> unique = UniqueFileStems(
      {"x", "X", "x-2", "index", "Index", "x", "junit"}, {"index", "junit"});
  CHECK(unique == std::vector<std::string>{"x", "X-3", "x-2", "index-2",
                                           "Index-3", "x-4", "junit-2"});
}

TEST_CASE("a repeat of a stem at the length limit stays within it") {
  const std::string stem(kMaxStemBytes, 'n');
  const std::vector<std::string> unique = UniqueFileStems({stem, stem}, {});
  CHECK(unique[0] == stem);
  CHECK(unique[1] == std::string(kMaxStemBytes - 2, 'n') + "-2");
}

TEST_CASE("a path is in its folder only for one plain component") {
  CHECK(PathInFolder("out", "x.md") == std::filesystem::path("out/x.md"));
  CHECK(PathInFolder("out/", "x.md").has_value());
  CHECK(PathInFolder(".", "x.md").has_value());
  CHECK(PathInFolder("/", "x.md").has_value());
  CHECK(PathInFolder("a/../out", "x.md").has_value());
  CHECK_FALSE(PathInFolder("out", "").has_value());
  CHECK_FALSE(PathInFolder("out", ".").has_value());
  CHECK_FALSE(PathInFolder("out", "..").has_value());
  CHECK_FALSE(PathInFolder("out", "../x.md").has_value());
  CHECK_FALSE(PathInFolder("out", "a/x.md").has_value());
  CHECK_FALSE(PathInFolder("out", "/tmp/x.md").has_value());
  CHECK_FALSE(PathInFolder("out", std::string("x\0.md", 5)).has_value());
}

}  // namespace
}  // namespace oc::reports
