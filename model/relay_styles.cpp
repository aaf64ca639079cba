#include "model/relay_styles.h"

#include <fmt/format.h>

#include <vector>

namespace oc {

static_assert([] {
  for (std::size_t i = 0; i < std::size(kRelayStyles); ++i) {
    if (static_cast<std::size_t>(kRelayStyles[i].style) != i) return false;
  }
  return true;
}());

const RelayStyleInfo& Style(RelayStyle s) {
  return kRelayStyles[static_cast<int>(s)];
}

std::string_view RelayStyleName(RelayStyle s) { return Style(s).name; }

std::optional<RelayStyle> ParseRelayStyle(std::string_view name) {
  for (const RelayStyleInfo& row : kRelayStyles) {
    if (row.name == name) return row.style;
  }
  return std::nullopt;
}

std::string StylesWith(bool RelayStyleInfo::*feature) {
  std::vector<std::string> names;
  for (const RelayStyleInfo& row : kRelayStyles) {
    if (row.*feature) names.push_back(fmt::format("'{}'", row.name));
  }
  if (names.size() < 2) return fmt::format("{}", fmt::join(names, ""));
  const std::string last = names.back();
  names.pop_back();
  return fmt::format("{} and {}", fmt::join(names, ", "), last);
}

int ReadsPerEvent(const Config& config, int tokens) {
  const FaultBudgets& b = config.budgets;
  switch (config.relay_style) {
    case RelayStyle::kLeaseToken:
      return tokens;
    case RelayStyle::kRowLock:
      // A row is claimed again only after a crash or a failed commit.
      return 1 + b.relay_crashes + b.failed_commits;
    case RelayStyle::kSequenceCursor:
    case RelayStyle::kCdcOffset:
      // Read again only after a restart.
      return 1 + b.relay_crashes;
    case RelayStyle::kAgeSweeper:
      // A relay that took a row holds it until it marks it (and then
      // nobody takes it again) or crashes: each relay takes a row once,
      // and once more per crash.
      return static_cast<int>(config.relays.size()) + b.relay_crashes;
    case RelayStyle::kInlineDispatch:
      // One pass per row, and one more after each crash of a relay that
      // held it unpublished.
      return 1 + b.relay_crashes;
  }
  return tokens;
}

}  // namespace oc
