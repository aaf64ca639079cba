#include "cli/progress.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace oc {

std::size_t ResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::size_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

std::size_t AvailableMemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream fields(line.substr(13));
      std::size_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

std::optional<std::uint64_t> DefaultMemoryLimit() {
  const std::size_t available = AvailableMemoryBytes();
  if (available == 0) return std::nullopt;
  return available / 4 * 3;
}

ProgressLine::ProgressLine(std::FILE* out, bool enabled, std::string label)
    : out_(out), enabled_(enabled), label_(std::move(label)) {}

ProgressLine::~ProgressLine() {
  if (printed_) fmt::print(out_, "\r\033[K");
}

void ProgressLine::Update(const explorer::Stats& stats) {
  if (!enabled_ || stats.seconds < 1.0) return;
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  printed_ = true;
  // Stored states: what the search has found so far (one per orbit under
  // symmetry); the unreduced count is known per expanded level only.
  fmt::print(out_,
             "\r\033[K{}: {} states stored, depth {}, {:.0f} states/s, {} MiB",
             label_, stats.stored_states, stats.depth,
             static_cast<double>(stats.stored_states) / stats.seconds,
             ResidentBytes() >> 20);
  std::fflush(out_);
}

}  // namespace oc
