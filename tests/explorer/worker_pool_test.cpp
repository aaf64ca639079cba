// The pool's loops: every index run exactly once, on a worker number below
// size(), for loops that follow one another at once (the workers still
// waiting busily) and after a pause (the workers asleep); each thread
// starting on its own share; and a pool destroyed in either state.

#include "explorer/worker_pool.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

namespace {

using oc::explorer::WorkerPool;

// Runs one loop of `n` on `pool` and checks that each index ran once.
void CheckLoop(WorkerPool& pool, std::size_t n) {
  std::vector<std::atomic<int>> runs(n);
  std::atomic<bool> bad_worker{false};
  pool.ForEach(n, [&](int worker, std::size_t i) {
    if (worker < 0 || worker >= pool.size()) bad_worker = true;
    runs[i].fetch_add(1);
  });
  for (std::size_t i = 0; i < n; ++i) REQUIRE(runs[i].load() == 1);
  CHECK_FALSE(bad_worker.load());
}

TEST_CASE("every index runs once, loop after loop") {
  for (int threads : {1, 2, 3, 4}) {
    CAPTURE(threads);
    WorkerPool pool(threads);
    CHECK(pool.size() == threads);
    for (int loop = 0; loop < 2000; ++loop) {
      CheckLoop(pool, static_cast<std::size_t>(loop % 7) * 5);
    }
  }
}

TEST_CASE("loops after the workers have gone to sleep") {
  WorkerPool pool(3);
  for (int loop = 0; loop < 5; ++loop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CheckLoop(pool, 64);
  }
}

TEST_CASE("the workers share a loop") {
  // Each call waits until another worker has joined the loop, or gives up
  // after a while: a pool whose workers never woke would run it alone.
  WorkerPool pool(2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::atomic<int> mask{0};
  pool.ForEach(2, [&](int worker, std::size_t) {
    mask.fetch_or(1 << worker);
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (mask.load() != 3 && std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
    }
  });
  CHECK(mask.load() == 3);
}

TEST_CASE("each thread starts on its own share, in order") {
  // Worker w takes from [w n / 3, (w + 1) n / 3) first, in increasing
  // order, and takes from other shares only after its own is used up (the
  // others may have taken part of it first, or all of it before it woke).
  WorkerPool pool(3);
  constexpr std::size_t kN = 300;
  for (int loop = 0; loop < 200; ++loop) {
    std::vector<std::vector<std::size_t>> taken(3);
    pool.ForEach(kN, [&](int worker, std::size_t i) {
      taken[static_cast<std::size_t>(worker)].push_back(i);
    });
    for (std::size_t w = 0; w < 3; ++w) {
      CAPTURE(w);
      const auto share = pool.ShareOf(kN, static_cast<int>(w));
      const std::size_t begin = share.first, end = share.second;
      auto own = [&](std::size_t i) { return i >= begin && i < end; };
      std::size_t k = 0;
      for (; k < taken[w].size() && own(taken[w][k]); ++k) {
        if (k > 0) REQUIRE(taken[w][k - 1] < taken[w][k]);
      }
      for (; k < taken[w].size(); ++k) REQUIRE_FALSE(own(taken[w][k]));
    }
  }
}

TEST_CASE("the shares of a loop follow one another and cover it") {
  for (int threads = 1; threads <= 4; ++threads) {
    WorkerPool pool(threads);
    for (std::size_t n = 0; n < 20; ++n) {
      CAPTURE(threads);
      CAPTURE(n);
      std::size_t at = 0;
      for (int w = 0; w < threads; ++w) {
        const auto [first, end] = pool.ShareOf(n, w);
        CHECK(first == at);
        CHECK(first <= end);
        CHECK(end - first <= n / static_cast<std::size_t>(threads) + 1);
        at = end;
      }
      CHECK(at == n);
    }
  }
}

TEST_CASE("a pool is destroyed with its workers waiting or asleep") {
  { WorkerPool pool(4); }
  {
    WorkerPool pool(4);
    CheckLoop(pool, 100);
  }
  {
    WorkerPool pool(4);
    CheckLoop(pool, 100);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace
