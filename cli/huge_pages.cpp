#include "cli/huge_pages.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

// Whether the allocator is glibc's, whose tunables and mallopt apply.
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#define OC_GLIBC_MALLOC 1
#else
#define OC_GLIBC_MALLOC 0
#endif

// A sanitizer's allocator replaces glibc's and ignores its tunables.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#undef OC_GLIBC_MALLOC
#define OC_GLIBC_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#undef OC_GLIBC_MALLOC
#define OC_GLIBC_MALLOC 0
#endif
#endif

namespace oc {

namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

}  // namespace

std::optional<std::string> HugePageTunables(const char* tunables,
                                            const char* kernel_setting) {
  // The user's own choice, or this program's on its second start.
  if (tunables != nullptr &&
      std::string_view(tunables).find(kTunable) != std::string_view::npos) {
    return std::nullopt;
  }
  // The kernel's choice is the bracketed word: "always [madvise] never".
  if (kernel_setting == nullptr ||
      std::string_view(kernel_setting).find("[never]") !=
          std::string_view::npos ||
      std::string_view(kernel_setting).find('[') == std::string_view::npos) {
    return std::nullopt;
  }
  std::string value = tunables != nullptr ? tunables : "";
  if (!value.empty()) value += ':';
  value += kTunable;
  value += "=1";
  return value;
}

bool SearchesWithHugePages(std::string_view subcommand) {
  return subcommand == "check" || subcommand == "bench" ||
         subcommand == "conform";
}

void RestartWithHugePages(char** argv) {
#if OC_GLIBC_MALLOC
  char setting[128] = {};
  const char* kernel_setting = nullptr;
  if (std::FILE* f =
          std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r")) {
    if (std::fgets(setting, sizeof setting, f) != nullptr) {
      kernel_setting = setting;
    }
    std::fclose(f);
  }
  const char* before = std::getenv("GLIBC_TUNABLES");
  const std::string kept = before != nullptr ? before : "";
  const std::optional<std::string> value =
      HugePageTunables(before, kernel_setting);
  if (!value) return;
  // By the file's own path, not /proc/self/exe: the kernel names a process
  // after the file it runs (ps and pgrep show "exe" otherwise).
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return;
  path[length] = '\0';
  if (setenv("GLIBC_TUNABLES", value->c_str(), 1) != 0) return;
  execv(path, argv);
  // Not started again: go on with the environment as it was.
  if (before != nullptr) {
    setenv("GLIBC_TUNABLES", kept.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
#else
  (void)argv;
#endif
}

bool AllocateFromOneArena() {
#if OC_GLIBC_MALLOC
  return mallopt(M_ARENA_MAX, 1) == 1;
#else
  return false;
#endif
}

}  // namespace oc
