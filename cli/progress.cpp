#include "cli/progress.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/terminal.h"

namespace oc {

bool ResetPeakResident() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

std::uint64_t PeakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::uint64_t peak = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, f)) {
      if (std::sscanf(line, "VmHWM: %llu kB", &kib) == 1) {
        peak = kib * 1024;
        break;
      }
    }
    std::fclose(f);
  }
  return peak;
}

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

std::string WithSeparators(std::uint64_t n) {
  std::string digits = fmt::format("{}", n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string DurationText(double seconds) {
  if (seconds < 10) return fmt::format("{:.1f} s", std::max(0.0, seconds));
  const auto whole = static_cast<std::uint64_t>(seconds);
  if (whole < 60) return fmt::format("{} s", whole);
  if (whole < 3600) {
    return fmt::format("{} min {:02} s", whole / 60, whole % 60);
  }
  return fmt::format("{} h {:02} min", whole / 3600, whole / 60 % 60);
}

std::string BytesText(std::uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return value < 10 ? fmt::format("{:.1f} {}", value, kUnits[unit])
                    : fmt::format("{:.0f} {}", value, kUnits[unit]);
}

std::optional<std::uint64_t> EstimatedStoredStates(const explorer::Stats& s) {
  if (s.depth < 2 || s.previous_level_states == 0 ||
      s.level_states >= s.previous_level_states) {
    return std::nullopt;
  }
  const double ratio = static_cast<double>(s.level_states) /
                       static_cast<double>(s.previous_level_states);
  // Stored through the level being expanded, then every later level
  // shrinking by `ratio`: level * (ratio + ratio^2 + ...).
  const double through = static_cast<double>(s.stored_states) -
                         static_cast<double>(s.next_level_states);
  const double later =
      static_cast<double>(s.level_states) * ratio / (1 - ratio);
  const double total =
      std::max(through + later, static_cast<double>(s.stored_states));
  return static_cast<std::uint64_t>(std::llround(total));
}

namespace {

// "LABEL: PART, PART, ...": the parts, in order, that fit in `width`
// (0: no limit), each whole or not at all.
std::string Fitted(const std::string& label,
                   const std::vector<std::string>& parts, std::size_t width) {
  std::string text = label + ": " + parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (width > 0 && text.size() + 2 + parts[i].size() > width) break;
    text += ", " + parts[i];
  }
  if (width > 0 && text.size() > width) {
    std::size_t keep = width;
    // Never cut a UTF-8 sequence in two.
    while (keep > 0 &&
           (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) {
      --keep;
    }
    text.resize(keep);
  }
  return text;
}

}  // namespace

std::string ProgressText(const std::string& label, const explorer::Stats& s,
                         const ProgressLimits& limits, std::size_t width) {
  // In order of importance: what does not fit is left out whole.
  std::vector<std::string> parts;
  if (s.walks > 0) {
    // A simulation: walks, not levels; nothing to estimate.
    parts.push_back(
        fmt::format("{} walks, {} states seen in {}", WithSeparators(s.walks),
                    WithSeparators(s.states), DurationText(s.seconds)));
    parts.push_back("memory " + BytesText(s.peak_bytes));
    if (s.seconds > 0) {
      parts.push_back(fmt::format(
          "{} steps/s", WithSeparators(static_cast<std::uint64_t>(
                            static_cast<double>(s.transitions) / s.seconds))));
    }
    parts.push_back(fmt::format("longest walk {}", s.depth));
    return Fitted(label, parts, width);
  }
  std::string states =
      fmt::format("{} states stored", WithSeparators(s.stored_states));
  if (limits.max_states) {
    states += fmt::format(" (limit {})", WithSeparators(*limits.max_states));
  }
  parts.push_back(states + " in " + DurationText(s.seconds));
  if (const std::optional<std::uint64_t> total = EstimatedStoredStates(s);
      total && s.expanded_states > 0 && s.seconds > 0) {
    const std::uint64_t end =
        limits.max_states ? std::min(*total, *limits.max_states) : *total;
    const double rate = static_cast<double>(s.expanded_states) / s.seconds;
    const double left =
        end > s.expanded_states
            ? static_cast<double>(end - s.expanded_states) / rate
            : 0;
    parts.push_back(fmt::format("about {} in all, {} left",
                                WithSeparators(*total), DurationText(left)));
  }
  // Distributed: the largest rank's, against the limit of each.
  std::string memory = "memory " + BytesText(s.peak_bytes);
  if (limits.max_bytes) memory += " of " + BytesText(*limits.max_bytes);
  parts.push_back(std::move(memory));
  if (s.ranks > 0 && s.stored_states > 0) {
    // How evenly the ranks share the states.
    const double all = static_cast<double>(s.stored_states);
    parts.push_back(
        fmt::format("{} ranks, {:.1f}-{:.1f}% each", s.ranks,
                    100.0 * static_cast<double>(s.rank_stored_min) / all,
                    100.0 * static_cast<double>(s.rank_stored_max) / all));
  }
  if (s.seconds > 0) {
    parts.push_back(fmt::format(
        "{}/s", WithSeparators(static_cast<std::uint64_t>(
                    static_cast<double>(s.stored_states) / s.seconds))));
  }
  parts.push_back(fmt::format("depth {}", s.depth));
  parts.push_back(fmt::format(
      "frontier {}", WithSeparators(s.stored_states >= s.expanded_states
                                        ? s.stored_states - s.expanded_states
                                        : 0)));

  return Fitted(label, parts, width);
}

ProgressLine::ProgressLine(std::FILE* out, bool enabled, std::string label,
                           ProgressLimits limits)
    : out_(out), enabled_(enabled), label_(std::move(label)), limits_(limits) {}

ProgressLine::~ProgressLine() {
  if (printed_) fmt::print(out_, "\r\033[K");
}

void ProgressLine::Update(const explorer::Stats& stats) {
  if (!enabled_ || stats.seconds < 1.0) return;
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  printed_ = true;
  // One column short of the width: a line that fills it would wrap on
  // some terminals, and "\r" would then rewrite only its second half.
  // An unknown width (not a terminal: --progress always) is taken as 100.
  std::size_t width = TerminalWidth(out_);
  if (width == 0) width = 100;
  fmt::print(out_, "\r\033[K{}",
             ProgressText(label_, stats, limits_, width - 1));
  std::fflush(out_);
}

}  // namespace oc
