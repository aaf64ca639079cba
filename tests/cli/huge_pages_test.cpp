// When the tool starts itself again with huge pages asked for, and with
// what GLIBC_TUNABLES.

#include "cli/huge_pages.h"

#include <doctest/doctest.h>

#if defined(__GLIBC__)
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#endif

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

#if defined(__GLIBC__)
// How many arenas glibc's allocator has, from the heaps malloc_info lists.
int Arenas() {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  REQUIRE(out != nullptr);
  malloc_info(0, out);
  std::fclose(out);
  const std::string info(text, size);
  std::free(text);
  int arenas = 0;
  for (std::size_t at = info.find("<heap nr="); at != std::string::npos;
       at = info.find("<heap nr=", at + 1)) {
    ++arenas;
  }
  return arenas;
}

TEST_CASE("a second thread allocates from the first thread's arena") {
  if (!AllocateFromOneArena()) {
    MESSAGE("the allocator is not glibc's own here: nothing to check");
    return;
  }
  // Small blocks, which glibc serves from an arena rather than mapping.
  std::thread([] {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 64; ++i) blocks.emplace_back(new char[512]);
  }).join();
  CHECK(Arenas() == 1);
}
#endif

}  // namespace
}  // namespace oc
