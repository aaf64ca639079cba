// The Transport of a distributed search over MPI (Open MPI, through its C
// API): started under `mpirun`, each process is one rank of
// MPI_COMM_WORLD.

#ifndef OUTBOX_CHECK_EXPLORER_MPI_TRANSPORT_H_
#define OUTBOX_CHECK_EXPLORER_MPI_TRANSPORT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "explorer/transport.h"

namespace oc::explorer {

class MpiTransport final : public Transport {
 public:
  // Initialises MPI for this process (once; MPI_Finalize runs when the
  // transport is destroyed). Any MPI error aborts every rank, with MPI's
  // message: a rank never waits for one that died.
  MpiTransport();
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void StartExchange(const std::vector<std::vector<std::uint8_t>>& to) override;
  void FinishExchange(std::vector<std::vector<std::uint8_t>>& from) override;
  void SumAll(std::span<std::uint64_t> values) override;
  void MaxAll(std::span<std::uint64_t> values) override;
  void MinAll(std::span<std::uint64_t> values) override;
  std::uint64_t SumBelow(std::uint64_t value) override;
  std::vector<std::vector<std::uint8_t>> GatherAll(
      std::span<const std::uint8_t> mine) override;
  void Broadcast(std::vector<std::uint8_t>& bytes, int root) override;
  std::uint64_t BytesSent() const override { return bytes_sent_; }

  // How many ranks run on this machine (sharing its memory), this one
  // among them.
  int ranks_here() const { return ranks_here_; }

  // Ends every rank at once with `code` (MPI_Abort), for a rank that
  // cannot go on while the others wait for it.
  [[noreturn]] void Abort(int code);

 private:
  int rank_ = 0;
  int size_ = 1;
  int ranks_here_ = 1;
  std::uint64_t bytes_sent_ = 0;
  // The exchange in flight: what this rank sends and receives, flat, with
  // counts and offsets by rank.
  std::vector<std::uint8_t> send_, receive_;
  std::vector<int> send_counts_, send_offsets_, receive_counts_,
      receive_offsets_;
  void* request_ = nullptr;  // an MPI_Request, kept out of this header
};

// Whether this process was started by mpirun (or another MPI launcher), so
// that a distributed search can find its peers.
bool StartedByMpiLauncher();

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_MPI_TRANSPORT_H_
