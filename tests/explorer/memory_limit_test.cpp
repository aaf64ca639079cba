// The memory limit measured on the heap itself, not on what the search says
// it counted: this executable replaces operator new and delete to keep the
// bytes allocated now and the most ever allocated at once.

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "explorer/breadth_first_search.h"

namespace {

std::atomic<std::size_t> live{0};
std::atomic<std::size_t> peak{0};

// Each block carries its size in front, padded to keep the alignment of
// what operator new returns.
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* Allocate(std::size_t n) {
  void* block = std::malloc(n + kHeader);
  if (block == nullptr) throw std::bad_alloc();
  std::memcpy(block, &n, sizeof n);
  const std::size_t now = live += n;
  std::size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return static_cast<char*>(block) + kHeader;
}

void Free(void* p) {
  if (p == nullptr) return;
  void* block = static_cast<char*>(p) - kHeader;
  std::size_t n;
  std::memcpy(&n, block, sizeof n);
  live -= n;
  std::free(block);
}

}  // namespace

void* operator new(std::size_t n) { return Allocate(n); }
void* operator new[](std::size_t n) { return Allocate(n); }
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, std::size_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t) noexcept { Free(p); }

namespace {

// State x has `width` children, x * width + 1 ..., all new: a level of a
// few thousand states has millions of successors.
struct WideTree {
  using State = std::uint32_t;
  using Action = std::uint32_t;
  std::uint32_t width = 3000;
  std::vector<State> InitialStates() const { return {0}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    const std::uint64_t first = std::uint64_t{s} * width + 1;
    if (first + width > (std::uint64_t{1} << 32)) return;
    for (std::uint32_t k = 0; k < width; ++k) {
      out.push_back({k, static_cast<State>(first + k)});
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 4; }
  void Encode(const State& s, std::uint8_t* out) const {
    std::memcpy(out, &s, 4);
  }
  State Decode(const std::uint8_t* in) const {
    State s;
    std::memcpy(&s, in, 4);
    return s;
  }
};

TEST_CASE("the heap stays within a few percent of the memory limit") {
  constexpr std::size_t kCap = 8 << 20;
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    oc::explorer::Options options;
    options.max_bytes = kCap;
    options.threads = threads;
    const std::size_t before = live.load();
    peak = before;
    const auto result =
        oc::explorer::Explore<WideTree>(WideTree{}, {}, options);
    CHECK(result.stop == oc::explorer::Stop::kMaxMemory);
    // A few percent, and what the search holds besides its buffers (the
    // worker pool, each thread's share of one state's successors).
    CHECK(peak.load() - before <= kCap + kCap / 20 + (256 << 10));
    CHECK(result.stats.stored_states > 100'000);
  }
}

}  // namespace
