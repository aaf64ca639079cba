#include "model/state_text.h"

#include <fmt/format.h>

#include "model/relay_styles.h"

namespace oc {

std::string_view LeaseText(Lease l) {
  switch (l) {
    case Lease::kNone:
      return "none";
    case Lease::kActive:
      return "active";
    case Lease::kExpired:
      return "expired";
  }
  return "?";
}

std::string RelayText(const Config& config, const RelayCells& r) {
  if (!StyleOf(config).lease_and_token && r.phase != RelayPhase::kIdle) {
    // No fencing token in these styles.
    return fmt::format("{}({})",
                       r.phase == RelayPhase::kClaimed ? "claimed" : "sent",
                       config.events[r.event - 1].name);
  }
  switch (r.phase) {
    case RelayPhase::kIdle:
      return "idle";
    case RelayPhase::kClaimed:
      return fmt::format("claimed({}, token {})",
                         config.events[r.event - 1].name, r.token);
    case RelayPhase::kSent:
      return fmt::format("sent({}, token {})", config.events[r.event - 1].name,
                         r.token);
  }
  return "?";
}

std::string InstanceText(const Config& config, Strategy strategy,
                         const InstanceCells& i) {
  switch (i.phase) {
    case InstancePhase::kIdle:
      return "idle";
    case InstancePhase::kHolding:
      return fmt::format("holding({})", config.events[i.event - 1].name);
    case InstancePhase::kMidway: {
      const std::string& e = config.events[i.event - 1].name;
      switch (MemoOf(strategy)) {
        case StrategyMemo::kInboxRead:
          return fmt::format("midway({}, read inbox={})", e, i.memo);
        case StrategyMemo::kLedgerRowNew:
          return fmt::format("midway({}, ledger row {})", e,
                             i.memo ? "new" : "existed");
        case StrategyMemo::kNone:
          break;
      }
      return fmt::format("midway({})", e);
    }
  }
  return "?";
}

std::string InstanceText(const Config& config, const Group& group,
                         const InstanceCells& i) {
  if (!group.declared || i.phase != InstancePhase::kMidway) {
    return InstanceText(config, group.strategy, i);
  }
  // A declared strategy's private data: the locals step 2 will read.
  const HandlerProgram& p = *group.declared;
  std::string text = fmt::format("midway({}", config.events[i.event - 1].name);
  if (p.steps.size() > 2) {
    text += fmt::format(", next step {} of {}", i.stage + 2, p.steps.size());
  }
  for (std::size_t l = 0; l < p.locals.size(); ++l) {
    if (p.memo_bit[l] < 0) continue;
    const int v = MemoLocal(p, static_cast<int>(l), i.memo);
    if (p.local_domain[l] >= 0) {
      // A value of a domain: its name.
      const std::vector<std::string> values = DomainValues(
          config, p.domains[static_cast<std::size_t>(p.local_domain[l])]);
      text += fmt::format(", {}={}", p.locals[l],
                          static_cast<std::size_t>(v) < values.size()
                              ? values[static_cast<std::size_t>(v)]
                              : std::string("?"));
      continue;
    }
    text += p.local_is_int[l] ? fmt::format(", {}={}", p.locals[l], v)
                              : fmt::format(", {}={}", p.locals[l],
                                            v != 0 ? "true" : "false");
  }
  return text + ")";
}

}  // namespace oc
