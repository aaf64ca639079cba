// Huge pages for the allocator's memory.
//
// A search grows its visited store's tables and its batches' buffers from
// nothing, megabytes at a time; with the kernel's transparent huge pages
// (2 MiB) it takes far fewer page faults on that new memory than with
// 4 KiB pages. On this project's bench scenarios that was 4 to 12% of the
// time of searches under a second, and nothing measurable on the largest
// (docs/PERFORMANCE.md). Where the kernel
// gives huge pages only to memory that asks for them ("madvise", the
// usual setting), glibc's allocator asks for them when its
// glibc.malloc.hugetlb tunable is 1, and it reads its tunables only when a
// program starts. So a subcommand that searches starts the tool once more
// with that tunable added to GLIBC_TUNABLES, before it does anything else
// (about 20 ms, which the other subcommands do not pay).
//
// It does not when GLIBC_TUNABLES already names glibc.malloc.hugetlb (set
// it to 0 to keep normal pages), when the kernel's setting is "never" or
// cannot be read, in a build with a sanitizer (whose allocator is not
// glibc's), or where this is not Linux with glibc. If starting again
// fails, the tool goes on as it is. The second start has the same
// arguments and process id, the same environment but for that tunable,
// and gives the same results.

#ifndef OUTBOX_CHECK_CLI_HUGE_PAGES_H_
#define OUTBOX_CHECK_CLI_HUGE_PAGES_H_

#include <optional>
#include <string>
#include <string_view>

namespace oc {

// The GLIBC_TUNABLES value to start again with, given its value now (null
// when unset) and the kernel's transparent_hugepage/enabled text (null
// when it cannot be read); nullopt to go on without starting again.
std::optional<std::string> HugePageTunables(const char* tunables,
                                            const char* kernel_setting);

// Whether `subcommand` (argv[1]) searches, and so grows enough memory to
// repay a second start: check, bench and conform.
bool SearchesWithHugePages(std::string_view subcommand);

// Starts the program again with huge pages asked for, as above; returns
// only when it does not. Call before anything else in main, with main's
// argv.
void RestartWithHugePages(char** argv);

// Has every thread allocate from glibc's main arena. By default a second
// thread gets an arena of its own, which grows a page or a few at a time,
// too little at once for the kernel to back it with huge pages: on two
// threads, bench-2-medium then took about 800 more page faults than on
// one (some 17 us each on this project's machine, more than a tenth of
// the search), and two-thread searches of the bench scenarios ran 1 to 6%
// faster from one arena. A search's threads allocate only as their
// buffers grow, in its first batches, so they seldom wait for the
// arena's lock. Call in main before any thread starts. Returns whether
// it did: not where the allocator is not glibc's.
bool AllocateFromOneArena();

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_HUGE_PAGES_H_
