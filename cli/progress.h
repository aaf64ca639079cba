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

// Resets the kernel's peak resident memory figure of this process (VmHWM),
// so that each search's peak can be read on its own. False if the kernel
// does not offer it; the figure then covers the process so far.
bool ResetPeakResident();

// Peak resident memory of this process since the last reset, in bytes.
std::uint64_t PeakResidentBytes();

// Resident memory of this process in bytes (from /proc), or 0 if unknown.
std::size_t ResidentBytes();

// Memory the system could give this process now without swapping
// (MemAvailable in /proc/meminfo), in bytes, or 0 if unknown.
std::size_t AvailableMemoryBytes();

// The default --max-memory: three quarters of the available memory, or no
// limit (nullopt) when that is unknown.
std::optional<std::uint64_t> DefaultMemoryLimit();

// "1,234,567".
std::string WithSeparators(std::uint64_t n);
// "0.7 s", "42 s", "3 min 05 s", "2 h 07 min".
std::string DurationText(double seconds);
// "512 KiB", "37.5 MiB", "1.2 GiB".
std::string BytesText(std::uint64_t bytes);

// The number of states a running search will have stored when it ends,
// guessed from its level sizes: once a level is smaller than the one
// before, the levels after are assumed to shrink by the same ratio.
// nullopt while levels still grow (no honest guess) or before depth 2.
std::optional<std::uint64_t> EstimatedStoredStates(const explorer::Stats& s);

// The limits a progress line measures the search against; each as the
// search applies it (none: no limit).
struct ProgressLimits {
  std::optional<std::uint64_t> max_states;  // stored states (--max-states)
  std::optional<std::uint64_t> max_bytes;   // what --max-memory counts
};

// One progress line, at most `width` columns (0: no limit): "LABEL: N
// states stored [(limit L)] in ELAPSED[, about E in all, T left], memory
// M [of C], R/s, depth D, frontier F"; the parts that do not fit are left
// out, from the end. States are stored states, the unit of
// --max-states (one per symmetry orbit, every state without symmetry);
// the frontier is the stored states not yet expanded; memory is what
// --max-memory counts (Stats::peak_bytes, the most held so far).
std::string ProgressText(const std::string& label, const explorer::Stats& s,
                         const ProgressLimits& limits, std::size_t width);

// Prints ProgressText on one rewritten line of `out`, at most four times a
// second and only after the search has run for a second. Silent when
// `enabled` is false (decided by the caller: a terminal, --progress, and
// --quiet).
class ProgressLine {
 public:
  ProgressLine(std::FILE* out, bool enabled, std::string label,
               ProgressLimits limits);
  ~ProgressLine();  // clears the line if anything was printed
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Update(const explorer::Stats& stats);

 private:
  std::FILE* out_;
  bool enabled_;
  std::string label_;
  ProgressLimits limits_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_PROGRESS_H_
