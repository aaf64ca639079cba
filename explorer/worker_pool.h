// A fixed set of threads that run one parallel loop at a time.
//
// ForEach(n, f) calls f(worker, i) once for every i in [0, n), spread over
// the calling thread (worker 0) and size() - 1 workers (1 .. size() - 1),
// and returns when every call has returned. `worker` lets a caller keep
// buffers per thread in a vector of size() it owns, instead of in
// thread_local storage. Which thread runs which i is not deterministic;
// callers write results indexed by i, so what they compute does not depend
// on it.
//
// Each thread starts on a share of its own, the same for the same n in
// every loop: thread w takes i from [w n / size(), (w + 1) n / size()) in
// order, and only when that is done takes what is left of the others'.
// A search's loops over the visited store's shards thus find each shard's
// table in the cache of the core that used it last: a cache line taken
// from another core's cache costs hundreds of nanoseconds here.
//
// A search runs thousands of loops a second, with a few microseconds of
// serial work between them. A thread that waits for the next loop, or the
// caller for the last call of one, therefore first waits busily for a
// while (kSpins), and only then sleeps on a condition variable: waking a
// sleeping thread takes tens of microseconds, and paired two-thread
// searches ran 2 to 10% faster with the busy wait.

#ifndef OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_
#define OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace oc::explorer {

class WorkerPool {
 public:
  // REQUIRES: threads >= 1.
  explicit WorkerPool(int threads)
      : shares_(static_cast<std::size_t>(threads)) {
    for (int t = 1; t < threads; ++t) {
      workers_.emplace_back([this, t] { Work(t); });
    }
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // The share of a loop of n calls that `worker` starts on: it takes
  // [first, second) in order before any other.
  std::pair<std::size_t, std::size_t> ShareOf(std::size_t n, int worker) const {
    const std::size_t threads = workers_.size() + 1;
    const auto w = static_cast<std::size_t>(worker);
    return {w * n / threads, (w + 1) * n / threads};
  }
  void ForEach(std::size_t n, const std::function<void(int, std::size_t)>& f) {
    if (workers_.empty() || n <= 1) {
      for (std::size_t i = 0; i < n; ++i) f(0, i);
      return;
    }
    job_ = &f;
    const std::size_t threads = workers_.size() + 1;
    for (std::size_t w = 0; w < threads; ++w) {
      const auto [first, end] = ShareOf(n, static_cast<int>(w));
      shares_[w].next.store(first, std::memory_order_relaxed);
      shares_[w].end = end;
    }
    busy_.store(workers_.size(), std::memory_order_relaxed);
    {
      // Under the lock, so that a worker about to sleep either sees the
      // new generation or is woken.
      std::lock_guard lock(mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    if (sleeping_.load(std::memory_order_relaxed) > 0) wake_.notify_all();
    Run(f, 0);
    for (int spin = 0; spin < kSpins; ++spin) {
      if (busy_.load(std::memory_order_acquire) == 0) return;
      Pause();
    }
    std::unique_lock lock(mutex_);
    done_.wait(lock,
               [&] { return busy_.load(std::memory_order_acquire) == 0; });
  }

 private:
  // How long a thread waits busily, in pauses (4,096 took 79 us on this
  // project's machine), before it sleeps: the loops of a search follow
  // one another within microseconds, far sooner than a sleeping thread
  // wakes.
  static constexpr int kSpins = 4096;
  static void Pause() {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_ia32_pause();
#endif
  }

  // Runs the calls of worker's share, then those left of the others'.
  void Run(const std::function<void(int, std::size_t)>& f, int worker) {
    const std::size_t threads = workers_.size() + 1;
    for (std::size_t k = 0; k < threads; ++k) {
      Share& share = shares_[(static_cast<std::size_t>(worker) + k) % threads];
      for (std::size_t i = share.next.fetch_add(1); i < share.end;
           i = share.next.fetch_add(1)) {
        f(worker, i);
      }
    }
  }

  void Work(int worker) {
    std::uint64_t seen = 0;
    for (;;) {
      int spin = 0;
      while (generation_.load(std::memory_order_acquire) == seen &&
             spin < kSpins) {
        Pause();
        ++spin;
      }
      if (generation_.load(std::memory_order_acquire) == seen) {
        std::unique_lock lock(mutex_);
        sleeping_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(lock, [&] {
          return generation_.load(std::memory_order_acquire) != seen;
        });
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
      }
      seen = generation_.load(std::memory_order_acquire);
      if (closing_) return;
      Run(*job_, worker);
      if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(mutex_);
        done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, std::size_t)>* job_ = nullptr;
  std::atomic<std::size_t> busy_{0};
  std::atomic<int> sleeping_{0};
  std::atomic<std::uint64_t> generation_{0};
  bool closing_ = false;
  // Each thread's share of the loop: the next i to take, and its end.
  struct alignas(64) Share {
    std::atomic<std::size_t> next{0};
    std::size_t end = 0;
  };
  std::vector<Share> shares_;  // by worker
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_
