// What a search spread over several processes (distributed_search.h) needs
// from the network, and nothing more: every process ("rank") runs the same
// program, and each call below is collective, made by every rank in the
// same order. The search never names MPI; mpi_transport.h carries these
// calls over MPI, and a test may carry them over threads.

#ifndef OUTBOX_CHECK_EXPLORER_TRANSPORT_H_
#define OUTBOX_CHECK_EXPLORER_TRANSPORT_H_

#include <cstdint>
#include <span>
#include <vector>

namespace oc::explorer {

class Transport {
 public:
  virtual ~Transport() = default;

  virtual int rank() const = 0;  // this process, 0 .. size() - 1
  virtual int size() const = 0;  // how many processes search together

  // An all-to-all exchange of bytes, started here and finished by
  // FinishExchange, so that a caller can do other work while the bytes
  // travel: `to[r]` goes to rank r (the transport keeps its own copy, so
  // `to` may be reused at once). At most one exchange is in flight.
  virtual void StartExchange(
      const std::vector<std::vector<std::uint8_t>>& to) = 0;
  // What each rank sent this one in the exchange started last: `from[r]`
  // from rank r.
  virtual void FinishExchange(std::vector<std::vector<std::uint8_t>>& from) = 0;

  // Element-wise over every rank's `values`, in place (every rank passes
  // as many).
  virtual void SumAll(std::span<std::uint64_t> values) = 0;
  virtual void MaxAll(std::span<std::uint64_t> values) = 0;
  virtual void MinAll(std::span<std::uint64_t> values) = 0;
  // The sum of `value` over the ranks below this one.
  virtual std::uint64_t SumBelow(std::uint64_t value) = 0;
  // Every rank's bytes, by rank, on every rank.
  virtual std::vector<std::vector<std::uint8_t>> GatherAll(
      std::span<const std::uint8_t> mine) = 0;
  // Rank `root`'s `bytes` on every rank (others' are replaced).
  virtual void Broadcast(std::vector<std::uint8_t>& bytes, int root) = 0;

  // The bytes this rank has sent to other ranks so far (for statistics).
  virtual std::uint64_t BytesSent() const = 0;

  // Convenience: an exchange with nothing to do meanwhile.
  void Exchange(const std::vector<std::vector<std::uint8_t>>& to,
                std::vector<std::vector<std::uint8_t>>& from) {
    StartExchange(to);
    FinishExchange(from);
  }
  std::uint64_t SumAll(std::uint64_t value) {
    SumAll(std::span<std::uint64_t>(&value, 1));
    return value;
  }
  std::uint64_t MaxAll(std::uint64_t value) {
    MaxAll(std::span<std::uint64_t>(&value, 1));
    return value;
  }
  std::uint64_t MinAll(std::uint64_t value) {
    MinAll(std::span<std::uint64_t>(&value, 1));
    return value;
  }
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_TRANSPORT_H_
