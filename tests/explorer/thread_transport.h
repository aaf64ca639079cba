// An in-process Transport, for testing the distributed search
// (distributed_search.h) without MPI: each rank is a std::thread of this
// process, and the collective calls meet in a shared Rendezvous.
// RunRanks(n, f) runs f on n ranks at once and returns their results by
// rank.
//
// Ranks that disagree (one calls SumAll while another calls MaxAll, or
// returns while the others wait in a collective call) make every rank
// throw RankMismatch instead of hanging, so that the test fails.

#ifndef OUTBOX_CHECK_TESTS_EXPLORER_THREAD_TRANSPORT_H_
#define OUTBOX_CHECK_TESTS_EXPLORER_THREAD_TRANSPORT_H_

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "explorer/transport.h"

namespace oc::explorer::testing {

struct RankMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the ranks of one run share: a barrier that counts its generations,
// a slot per rank for the bytes of the collective call being made, and a
// mailbox per rank for the exchange in flight.
class Rendezvous {
 public:
  explicit Rendezvous(int ranks)
      : ranks_(ranks), slots_(Size()), calls_(Size()), mail_(Size()) {}

  int ranks() const { return ranks_; }

  // Every rank's `mine`, by rank, once every rank made the call `call`.
  std::vector<std::vector<std::uint8_t>> Gather(
      int rank, const std::string& call, std::span<const std::uint8_t> mine) {
    return Meet(rank, call, mine, [&] { return slots_; });
  }

  // An exchange: Post leaves what rank `rank` sends (`to[r]` for rank r);
  // Collect waits for every rank's post and returns what was sent to
  // `rank` (`from[r]` from rank r). A post is read only after the next
  // meeting, and the one before was read by then, so Post needs no wait.
  void Post(int rank, const std::vector<std::vector<std::uint8_t>>& to) {
    if (to.size() != Size()) throw std::logic_error("an exchange to no rank");
    mail_[static_cast<std::size_t>(rank)] = to;
  }
  std::vector<std::vector<std::uint8_t>> Collect(int rank) {
    return Meet(rank, "FinishExchange", {}, [&] {
      std::vector<std::vector<std::uint8_t>> from;
      for (const auto& box : mail_) {
        from.push_back(box[static_cast<std::size_t>(rank)]);
      }
      return from;
    });
  }

  // Rank `rank` returned (or threw): ranks waiting now or later throw.
  void Leave() {
    std::lock_guard lock(mutex_);
    ++left_;
    changed_.notify_all();
  }

 private:
  std::size_t Size() const { return static_cast<std::size_t>(ranks_); }

  // Writes this rank's slot, waits for every rank, checks that they all
  // made the same call, reads (`read`), and waits again so that no slot is
  // written while another rank reads it.
  template <class Read>
  std::vector<std::vector<std::uint8_t>> Meet(
      int rank, const std::string& call, std::span<const std::uint8_t> mine,
      Read read) {
    slots_[static_cast<std::size_t>(rank)].assign(mine.begin(), mine.end());
    calls_[static_cast<std::size_t>(rank)] = call;
    Wait();
    for (const std::string& other : calls_) {
      if (other != call) {
        throw RankMismatch("ranks disagree: " + call + " and " + other);
      }
    }
    auto result = read();
    Wait();
    return result;
  }

  // A barrier for every rank, reusable: the last to arrive starts the next
  // generation.
  void Wait() {
    std::unique_lock lock(mutex_);
    const std::uint64_t generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation || left_ > 0; });
    if (generation_ == generation) {
      throw RankMismatch("a rank returned while the others wait in a call");
    }
  }

  const int ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  int left_ = 0;
  std::vector<std::vector<std::uint8_t>> slots_;
  std::vector<std::string> calls_;
  std::vector<std::vector<std::vector<std::uint8_t>>> mail_;
};

// Rank `rank` of a Rendezvous.
class ThreadTransport final : public Transport {
 public:
  ThreadTransport(Rendezvous& shared, int rank)
      : shared_(shared), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return shared_.ranks(); }

  void StartExchange(
      const std::vector<std::vector<std::uint8_t>>& to) override {
    if (in_flight_) throw std::logic_error("two exchanges in flight");
    shared_.Post(rank_, to);
    for (std::size_t r = 0; r < to.size(); ++r) {
      if (r != static_cast<std::size_t>(rank_)) bytes_sent_ += to[r].size();
    }
    in_flight_ = true;
  }
  void FinishExchange(std::vector<std::vector<std::uint8_t>>& from) override {
    if (!in_flight_) throw std::logic_error("no exchange in flight");
    in_flight_ = false;
    from = shared_.Collect(rank_);
  }

  void SumAll(std::span<std::uint64_t> values) override {
    Reduce(values, "SumAll", [](auto a, auto b) { return a + b; });
  }
  void MaxAll(std::span<std::uint64_t> values) override {
    Reduce(values, "MaxAll", [](auto a, auto b) { return std::max(a, b); });
  }
  void MinAll(std::span<std::uint64_t> values) override {
    Reduce(values, "MinAll", [](auto a, auto b) { return std::min(a, b); });
  }
  std::uint64_t SumBelow(std::uint64_t value) override {
    const auto all = shared_.Gather(rank_, "SumBelow", BytesOf({&value, 1}));
    std::uint64_t sum = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(rank_); ++r) {
      sum += Word(all[r], 0);
    }
    return sum;
  }
  std::vector<std::vector<std::uint8_t>> GatherAll(
      std::span<const std::uint8_t> mine) override {
    return shared_.Gather(rank_, "GatherAll", mine);
  }
  void Broadcast(std::vector<std::uint8_t>& bytes, int root) override {
    std::span<const std::uint8_t> mine;
    if (rank_ == root) mine = bytes;
    auto all =
        shared_.Gather(rank_, "Broadcast from " + std::to_string(root), mine);
    bytes = std::move(all.at(static_cast<std::size_t>(root)));
  }

  std::uint64_t BytesSent() const override { return bytes_sent_; }

 private:
  static std::span<const std::uint8_t> BytesOf(
      std::span<const std::uint64_t> values) {
    return {reinterpret_cast<const std::uint8_t*>(values.data()),
            values.size_bytes()};
  }
  static std::uint64_t Word(const std::vector<std::uint8_t>& bytes,
                            std::size_t i) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i * 8, 8);
    return word;
  }
  // Element-wise `op` over every rank's values (rank order).
  template <class Op>
  void Reduce(std::span<std::uint64_t> values, const std::string& call, Op op) {
    const auto all = shared_.Gather(rank_, call, BytesOf(values));
    for (const auto& bytes : all) {
      if (bytes.size() != values.size_bytes()) {
        throw RankMismatch(call + " of different lengths");
      }
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = Word(all[0], i);
      for (std::size_t r = 1; r < all.size(); ++r) {
        values[i] = op(values[i], Word(all[r], i));
      }
    }
  }

  Rendezvous& shared_;
  const int rank_;
  bool in_flight_ = false;
  std::uint64_t bytes_sent_ = 0;
};

// Runs f(transport) on `ranks` threads, rank i's transport on the i-th,
// and returns what each returned, by rank. If a rank threw, rethrows its
// exception (one that is not the others' RankMismatch, when there is one).
template <class F>
auto RunRanks(int ranks, F f) {
  using Result = std::invoke_result_t<F&, Transport&>;
  Rendezvous shared(ranks);
  std::vector<Result> results(static_cast<std::size_t>(ranks));
  std::vector<std::exception_ptr> errors(results.size());
  std::vector<std::exception_ptr> mismatches(results.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t r = 0; r < results.size(); ++r) {
      threads.emplace_back([&, r] {
        ThreadTransport net(shared, static_cast<int>(r));
        try {
          results[r] = f(static_cast<Transport&>(net));
        } catch (const RankMismatch&) {
          mismatches[r] = std::current_exception();
        } catch (...) {
          errors[r] = std::current_exception();
        }
        shared.Leave();
      });
    }
  }  // joins every thread
  for (const auto* list : {&errors, &mismatches}) {
    for (const std::exception_ptr& e : *list) {
      if (e) std::rethrow_exception(e);
    }
  }
  return results;
}

}  // namespace oc::explorer::testing

#endif  // OUTBOX_CHECK_TESTS_EXPLORER_THREAD_TRANSPORT_H_
