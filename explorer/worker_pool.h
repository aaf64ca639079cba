// A fixed set of threads that run one parallel loop at a time.
//
// ForEach(n, f) calls f(worker, i) once for every i in [0, n), spread over
// the calling thread (worker 0) and size() - 1 workers (1 .. size() - 1),
// and returns when every call has returned. `worker` lets a caller keep
// buffers per thread in a vector of size() it owns, instead of in
// thread_local storage. Which thread runs which i is not deterministic;
// callers write results indexed by i, so what they compute does not depend
// on it.

#ifndef OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_
#define OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace oc::explorer {

class WorkerPool {
 public:
  // REQUIRES: threads >= 1.
  explicit WorkerPool(int threads) {
    for (int t = 1; t < threads; ++t) {
      workers_.emplace_back([this, t] { Work(t); });
    }
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void ForEach(std::size_t n, const std::function<void(int, std::size_t)>& f) {
    if (workers_.empty() || n <= 1) {
      for (std::size_t i = 0; i < n; ++i) f(0, i);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      job_ = &f;
      count_ = n;
      next_.store(0);
      busy_ = workers_.size();
      ++generation_;
    }
    wake_.notify_all();
    Run(f, n, 0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    job_ = nullptr;
  }

 private:
  void Run(const std::function<void(int, std::size_t)>& f, std::size_t n,
           int worker) {
    for (std::size_t i = next_.fetch_add(1); i < n; i = next_.fetch_add(1)) {
      f(worker, i);
    }
  }

  void Work(int worker) {
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(int, std::size_t)>* job;
      std::size_t n;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return closing_ || generation_ != seen; });
        if (closing_) return;
        seen = generation_;
        job = job_;
        n = count_;
      }
      Run(*job, n, worker);
      {
        std::lock_guard lock(mutex_);
        if (--busy_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, std::size_t)>* job_ = nullptr;
  std::size_t count_ = 0;
  std::size_t busy_ = 0;
  std::uint64_t generation_ = 0;
  bool closing_ = false;
  std::atomic<std::size_t> next_{0};
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_WORKER_POOL_H_
