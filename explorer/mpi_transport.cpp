#include "explorer/mpi_transport.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace oc::explorer {
namespace {

MPI_Request& Request(void* p) { return *static_cast<MPI_Request*>(p); }

// MPI counts bytes in int: an exchange past 2 GiB from one rank cannot be
// sent in one call, and the search's rounds stay far below it.
int CountOf(std::size_t n, MpiTransport& net) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    std::fprintf(stderr,
                 "outbox-check: rank %d: one exchange of %zu bytes is past "
                 "MPI's 2 GiB per call\n",
                 net.rank(), n);
    net.Abort(3);
  }
  return static_cast<int>(n);
}

}  // namespace

MpiTransport::MpiTransport() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm here;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_,
                      MPI_INFO_NULL, &here);
  MPI_Comm_size(here, &ranks_here_);
  MPI_Comm_free(&here);
  request_ = new MPI_Request(MPI_REQUEST_NULL);
  const auto n = static_cast<std::size_t>(size_);
  send_counts_.assign(n, 0);
  send_offsets_.assign(n, 0);
  receive_counts_.assign(n, 0);
  receive_offsets_.assign(n, 0);
}

MpiTransport::~MpiTransport() {
  if (Request(request_) != MPI_REQUEST_NULL) {
    MPI_Wait(&Request(request_), MPI_STATUS_IGNORE);
  }
  delete static_cast<MPI_Request*>(request_);
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

void MpiTransport::Abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // not reached
}

void MpiTransport::StartExchange(
    const std::vector<std::vector<std::uint8_t>>& to) {
  std::size_t total = 0;
  for (int r = 0; r < size_; ++r) {
    const std::size_t n = to[static_cast<std::size_t>(r)].size();
    send_counts_[static_cast<std::size_t>(r)] = CountOf(n, *this);
    send_offsets_[static_cast<std::size_t>(r)] = CountOf(total, *this);
    total += n;
    if (r != rank_) bytes_sent_ += n;
  }
  send_.resize(total);
  for (int r = 0; r < size_; ++r) {
    const auto& bytes = to[static_cast<std::size_t>(r)];
    if (!bytes.empty()) {
      std::copy(bytes.begin(), bytes.end(),
                send_.begin() + send_offsets_[static_cast<std::size_t>(r)]);
    }
  }
  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1,
               MPI_INT, MPI_COMM_WORLD);
  std::size_t received = 0;
  for (int r = 0; r < size_; ++r) {
    receive_offsets_[static_cast<std::size_t>(r)] = CountOf(received, *this);
    received +=
        static_cast<std::size_t>(receive_counts_[static_cast<std::size_t>(r)]);
  }
  CountOf(received, *this);
  receive_.resize(received);
  // An empty vector's data() may be null, which MPI accepts with counts 0.
  MPI_Ialltoallv(send_.data(), send_counts_.data(), send_offsets_.data(),
                 MPI_BYTE, receive_.data(), receive_counts_.data(),
                 receive_offsets_.data(), MPI_BYTE, MPI_COMM_WORLD,
                 &Request(request_));
}

void MpiTransport::FinishExchange(
    std::vector<std::vector<std::uint8_t>>& from) {
  MPI_Wait(&Request(request_), MPI_STATUS_IGNORE);
  from.resize(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    const auto i = static_cast<std::size_t>(r);
    from[i].assign(receive_.begin() + receive_offsets_[i],
                   receive_.begin() + receive_offsets_[i] + receive_counts_[i]);
  }
}

void MpiTransport::SumAll(std::span<std::uint64_t> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

void MpiTransport::MaxAll(std::span<std::uint64_t> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
}

void MpiTransport::MinAll(std::span<std::uint64_t> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
}

std::uint64_t MpiTransport::SumBelow(std::uint64_t value) {
  std::uint64_t below = 0;
  MPI_Exscan(&value, &below, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return rank_ == 0 ? 0 : below;  // rank 0's result is undefined
}

std::vector<std::vector<std::uint8_t>> MpiTransport::GatherAll(
    std::span<const std::uint8_t> mine) {
  const auto n = static_cast<std::size_t>(size_);
  std::vector<int> counts(n), offsets(n);
  const int count = CountOf(mine.size(), *this);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    offsets[r] = CountOf(total, *this);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<std::uint8_t> all(CountOf(total, *this));
  MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(),
                 offsets.data(), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<std::vector<std::uint8_t>> by_rank(n);
  for (std::size_t r = 0; r < n; ++r) {
    by_rank[r].assign(all.begin() + offsets[r],
                      all.begin() + offsets[r] + counts[r]);
  }
  return by_rank;
}

void MpiTransport::Broadcast(std::vector<std::uint8_t>& bytes, int root) {
  std::uint64_t n = bytes.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
  bytes.resize(static_cast<std::size_t>(n));
  MPI_Bcast(bytes.data(), CountOf(static_cast<std::size_t>(n), *this), MPI_BYTE,
            root, MPI_COMM_WORLD);
}

bool StartedByMpiLauncher() {
  // Open MPI's mpirun and PMIx-based launchers (Slurm's srun among them)
  // set these in every process they start.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

}  // namespace oc::explorer
