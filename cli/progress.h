// Progress of a long search on standard error, for a person at a terminal.

#ifndef OUTBOX_CHECK_CLI_PROGRESS_H_
#define OUTBOX_CHECK_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "explorer/exploration.h"

namespace oc {

// Resident memory of this process in bytes (from /proc), or 0 if unknown.
std::size_t ResidentBytes();

// Memory the system could give this process now without swapping
// (MemAvailable in /proc/meminfo), in bytes, or 0 if unknown.
std::size_t AvailableMemoryBytes();

// The default --max-memory: three quarters of the available memory, or no
// limit (nullopt) when that is unknown.
std::optional<std::uint64_t> DefaultMemoryLimit();

// Prints "states N, depth D, R states/s, M MiB" on one rewritten line of
// `out`, at most a few times a second and only after the search has run
// for a second. Silent when `enabled` is false (output not a terminal).
class ProgressLine {
 public:
  ProgressLine(std::FILE* out, bool enabled, std::string label);
  ~ProgressLine();  // clears the line if anything was printed
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Update(const explorer::Stats& stats);

 private:
  std::FILE* out_;
  bool enabled_;
  std::string label_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_PROGRESS_H_
