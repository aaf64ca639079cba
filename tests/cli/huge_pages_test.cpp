// When the tool starts itself again with huge pages asked for, and with
// what GLIBC_TUNABLES.

#include "cli/huge_pages.h"

#include <doctest/doctest.h>

namespace oc {
namespace {

constexpr const char* kMadvise = "always [madvise] never\n";

TEST_CASE("huge pages are asked for once, where the kernel gives them") {
  CHECK(HugePageTunables(nullptr, kMadvise) == "glibc.malloc.hugetlb=1");
  CHECK(HugePageTunables(nullptr, "[always] madvise never\n") ==
        "glibc.malloc.hugetlb=1");
  // The user's other tunables are kept, this one added after them.
  CHECK(HugePageTunables("glibc.malloc.arena_max=2", kMadvise) ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  CHECK(HugePageTunables("", kMadvise) == "glibc.malloc.hugetlb=1");
  // Already named, by the user (0 keeps normal pages) or by the start
  // before this one: no further start, so no loop.
  CHECK(HugePageTunables("glibc.malloc.hugetlb=0", kMadvise) == std::nullopt);
  CHECK(HugePageTunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1",
                         kMadvise) == std::nullopt);
  // The kernel gives none, or its setting is not known.
  CHECK(HugePageTunables(nullptr, "always madvise [never]\n") == std::nullopt);
  CHECK(HugePageTunables(nullptr, nullptr) == std::nullopt);
  CHECK(HugePageTunables(nullptr, "") == std::nullopt);
}

TEST_CASE("only the subcommands that search start again for huge pages") {
  CHECK(SearchesWithHugePages("check"));
  CHECK(SearchesWithHugePages("bench"));
  CHECK(SearchesWithHugePages("conform"));
  for (const char* other :
       {"list", "init", "export", "man-page", "--help", "--version", ""}) {
    CHECK_FALSE(SearchesWithHugePages(other));
  }
}

}  // namespace
}  // namespace oc
