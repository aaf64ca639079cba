// A prefetch the compiler keeps.
//
// GCC 12 at -O2 deletes some __builtin_prefetch calls: one behind a branch
// whose address needs a load of its own (an index slot behind a test of
// the table's size, a stored record behind a test of its id) compiles to
// nothing. The visited store's lookups were meant to overlap their memory
// reads that way and did not. On x86-64 the hint is therefore written as
// the instruction itself, which the compiler cannot drop; elsewhere it is
// the builtin.

#ifndef OUTBOX_CHECK_EXPLORER_PREFETCH_H_
#define OUTBOX_CHECK_EXPLORER_PREFETCH_H_

#include <cstddef>

namespace oc::explorer {

// Asks the processor to bring the cache line holding `p` into its caches
// for a read soon. A hint: nothing is read, and no address can fault.
inline void PrefetchLine(const void* p) {
#if defined(__x86_64__) && defined(__GNUC__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// Asks for the cache lines of [p, p + bytes) to be written soon: each
// line is brought here and taken from any other core's cache at once,
// many lines at a time, instead of one line at a time at each write.
inline void PrefetchForWrite(const void* p, std::size_t bytes) {
  const auto* at = static_cast<const char*>(p);
  for (std::size_t o = 0; o < bytes; o += 64) {
#if defined(__x86_64__) && defined(__GNUC__)
    asm volatile("prefetchw %0" : : "m"(at[o]));
#else
    __builtin_prefetch(at + o, 1);
#endif
  }
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_PREFETCH_H_
