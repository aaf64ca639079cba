#include "invariants/invariant.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/closest_name.h"

namespace oc {
namespace {

// Calls f(group index) for every group of `family`.
template <class F>
bool AllGroupsOf(const OutboxModel& model, StrategyFamily family, F f) {
  const std::vector<Group>& groups = model.config().groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (FamilyOf(groups[g]) == family && !f(g)) return false;
  }
  return true;
}

const GroupEventCells& Cells(const OutboxModel& model, const State& s,
                             std::size_t g, std::size_t e) {
  return s.group_events[g * model.config().events.size() + e];
}

const GroupKeyCells& KeyCells(const OutboxModel& model, const State& s,
                              std::size_t g, int key) {
  return s.group_keys[g * static_cast<std::size_t>(model.KeyCount()) +
                      static_cast<std::size_t>(key)];
}

// For every (group of `family`, event): pred(cells).
template <class P>
bool EveryGroupEvent(const OutboxModel& model, const State& s,
                     StrategyFamily family, P pred) {
  const std::size_t events = model.config().events.size();
  return AllGroupsOf(model, family, [&](std::size_t g) {
    for (std::size_t e = 0; e < events; ++e) {
      if (!pred(Cells(model, s, g, e))) return false;
    }
    return true;
  });
}

bool EffectAtMostOnce(const OutboxModel& model, const State& s) {
  return EveryGroupEvent(
      model, s, StrategyFamily::kCredit,
      [](const GroupEventCells& c) { return c.effects <= 1; });
}

bool StaleCompletionRejected(const OutboxModel&, const State& s) {
  return std::all_of(s.events.begin(), s.events.end(), [](const EventCells& e) {
    return e.published == 0 || e.completed_token == e.token;
  });
}

bool ProjectionMonotonic(const OutboxModel& model, const State& before,
                         const State& after) {
  return AllGroupsOf(model, StrategyFamily::kProjection, [&](std::size_t g) {
    for (int k = 0; k < model.KeyCount(); ++k) {
      if (KeyCells(model, after, g, k).version <
          KeyCells(model, before, g, k).version) {
        return false;
      }
    }
    return true;
  });
}

bool NotifyAtMostOnce(const OutboxModel& model, const State& s) {
  return EveryGroupEvent(model, s, StrategyFamily::kNotification,
                         [](const GroupEventCells& c) { return c.sent <= 1; });
}

bool OfferedAtMostOnce(const OutboxModel&, const State& s) {
  return std::all_of(s.events.begin(), s.events.end(),
                     [](const EventCells& e) { return e.offered <= 1; });
}

bool EventuallyOffered(const OutboxModel&, const State& s) {
  return std::all_of(s.events.begin(), s.events.end(), [](const EventCells& e) {
    return e.published == 1 && e.offered >= 1;
  });
}

bool EventuallyConsumed(const OutboxModel& model, const State& s) {
  const Config& config = model.config();
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    for (std::size_t e = 0; e < config.events.size(); ++e) {
      const GroupEventCells& c = Cells(model, s, g, e);
      const int key = model.KeyOf(static_cast<int>(e));
      bool done = false;
      switch (FamilyOf(group)) {
        case StrategyFamily::kCredit:
          // An inbox with a retention (model/TIME.md) is emptied at rest.
          done =
              c.effects >= 1 && (!HasInbox(group) || c.inbox == 1 ||
                                 config.groups[g].inbox_retention.has_value());
          break;
        case StrategyFamily::kNotification:
          done = c.sent >= 1 && c.ledger == 1;
          break;
        case StrategyFamily::kProjection:
          done =
              KeyCells(model, s, g, key).version >= *config.events[e].version;
          break;
        case StrategyFamily::kCache:
          done = KeyCells(model, s, g, key).cache == 1;
          break;
        case StrategyFamily::kCustom:
          // Its own tables say nothing the page defines: the scenario
          // states what consumed means with an at_rest expression.
          done = true;
          break;
      }
      if (!done) return false;
    }
  }
  return true;
}

bool ProjectionConverges(const OutboxModel& model, const State& s) {
  const Config& config = model.config();
  std::vector<std::uint16_t> highest(
      static_cast<std::size_t>(model.KeyCount()));
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    const int key = model.KeyOf(static_cast<int>(e));
    highest[key] = std::max(highest[key], *config.events[e].version);
  }
  return AllGroupsOf(model, StrategyFamily::kProjection, [&](std::size_t g) {
    for (int k = 0; k < model.KeyCount(); ++k) {
      if (KeyCells(model, s, g, k).version != highest[k]) return false;
    }
    return true;
  });
}

bool NotifyAtLeastOnce(const OutboxModel& model, const State& s) {
  return EveryGroupEvent(model, s, StrategyFamily::kNotification,
                         [](const GroupEventCells& c) { return c.sent >= 1; });
}

bool CacheConsistent(const OutboxModel& model, const State& s) {
  return AllGroupsOf(model, StrategyFamily::kCache, [&](std::size_t g) {
    for (int k = 0; k < model.KeyCount(); ++k) {
      if (KeyCells(model, s, g, k).cache == 0) return false;
    }
    return true;
  });
}

// The partitioned broker's invariants (docs/SEMANTICS.md section 16).
bool AppliedInKeyOrder(const OutboxModel&, const State& before,
                       const State& after) {
  for (std::size_t i = 0; i < after.group_keys.size(); ++i) {
    if (after.group_keys[i].applied < before.group_keys[i].applied) {
      return false;
    }
  }
  return true;
}

bool NoOffsetSkipped(const OutboxModel& model, const State& s) {
  const int partitions = model.Partitions();
  const std::vector<Group>& groups = model.config().groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (int p = 0; p < partitions; ++p) {
      const GroupPartitionCells& c =
          s.partitions[g * static_cast<std::size_t>(partitions) +
                       static_cast<std::size_t>(p)];
      for (int j = 0; j < c.committed; ++j) {
        if ((c.done >> j) & 1) continue;
        // Not processed: some instance of the group must hold it.
        const int first = model.FirstInstance(static_cast<int>(g));
        bool held = false;
        for (int i = 0; i < groups[g].instances && !held; ++i) {
          const InstanceCells& inst = s.instances[first + i];
          held = inst.partition == p + 1 && inst.offset == j;
        }
        if (!held) return false;
      }
    }
  }
  return true;
}

bool CommittedByOwner(const OutboxModel&, const State& s) {
  return std::all_of(
      s.partitions.begin(), s.partitions.end(),
      [](const GroupPartitionCells& c) { return c.stale_commit == 0; });
}

constexpr Invariant kInvariants[] = {
    {"effect_at_most_once", InvariantKind::kSafety,
     "effects[g][e] of every credit group: at most 1 for every event",
     StrategyFamily::kCredit, false, EffectAtMostOnce, nullptr, kReadsEffects},
    {"stale_completion_rejected", InvariantKind::kSafety,
     "outbox published[e], completed_token[e], token[e]: a published row was "
     "completed with its current token",
     std::nullopt, false, StaleCompletionRejected, nullptr, 0, true},
    {"projection_monotonic", InvariantKind::kTransition,
     "version[g][k] of every projection group: never decreases on a step",
     StrategyFamily::kProjection, false, nullptr, ProjectionMonotonic,
     kReadsKeys},
    {"notify_at_most_once", InvariantKind::kSafety,
     "sent[g][e] of every notification group: at most 1 for every event",
     StrategyFamily::kNotification, false, NotifyAtMostOnce, nullptr,
     kReadsSent},
    {"offered_at_most_once", InvariantKind::kSafety,
     "broker offered[e]: the broker accepted at most one copy of every event "
     "(no duplicate send)",
     std::nullopt, false, OfferedAtMostOnce, nullptr, 0, false, true},
    {"eventually_offered", InvariantKind::kAtRest,
     "outbox published[e] and broker offered[e]: at rest, every event is "
     "published and offered at least once",
     std::nullopt, false, EventuallyOffered, nullptr},
    {"eventually_consumed", InvariantKind::kAtRest,
     "every group's tables: at rest, each group committed its effect for "
     "every event (credit: effects >= 1, and inbox = 1 with an inbox; "
     "notification: sent >= 1 and ledger = 1; projection: version[key] >= "
     "the event's version; cache: the key fresh)",
     std::nullopt, true, EventuallyConsumed, nullptr},
    {"projection_converges", InvariantKind::kAtRest,
     "version[g][k] of every projection group: at rest, equals the highest "
     "version of key k",
     StrategyFamily::kProjection, false, ProjectionConverges, nullptr},
    {"notify_at_least_once", InvariantKind::kAtRest,
     "sent[g][e] of every notification group: at rest, at least 1 for every "
     "event",
     StrategyFamily::kNotification, false, NotifyAtLeastOnce, nullptr},
    {"cache_consistent", InvariantKind::kAtRest,
     "cache[g][k] of every cache group: at rest, every entry fresh",
     StrategyFamily::kCache, false, CacheConsistent, nullptr},
    {.name = "applied_in_key_order",
     .kind = InvariantKind::kTransition,
     .reads = "applied[g][k] of every group: the events of one key change "
              "the group's tables in their commit order (the rank of the "
              "last one applied never decreases on a step)",
     .needs = std::nullopt,
     .needs_any_group = true,
     .holds_on = AppliedInKeyOrder,
     .needs_keys = true,
     .observes = kObserveKeyOrder},
    {.name = "no_offset_skipped",
     .kind = InvariantKind::kSafety,
     .reads = "committed[g][p] and the records processed: every record "
              "before a group's committed offset was processed by the group, "
              "or is being processed",
     .needs = std::nullopt,
     .needs_any_group = true,
     .holds = NoOffsetSkipped,
     .needs_partitions = true,
     .observes = kObserveProcessed},
    {.name = "committed_by_owner",
     .kind = InvariantKind::kSafety,
     .reads = "the offset commits the broker accepted: each came from the "
              "partition's owner under its current assignment epoch",
     .needs = std::nullopt,
     .needs_any_group = true,
     .holds = CommittedByOwner,
     .needs_partitions = true,
     .observes = kObserveStaleCommit},
};

std::string_view FamilyName(StrategyFamily f) {
  switch (f) {
    case StrategyFamily::kCredit:
      return "credit";
    case StrategyFamily::kProjection:
      return "projection";
    case StrategyFamily::kNotification:
      return "notification";
    case StrategyFamily::kCache:
      return "cache";
    case StrategyFamily::kCustom:
      return "custom";
  }
  return "?";
}

}  // namespace

std::span<const Invariant> AllInvariants() { return kInvariants; }

const Invariant* FindInvariant(std::string_view name) {
  for (const Invariant& inv : kInvariants) {
    if (inv.name == name) return &inv;
  }
  return nullptr;
}

std::string SuggestInvariant(std::string_view name) {
  std::vector<std::string_view> names;
  for (const Invariant& inv : kInvariants) names.push_back(inv.name);
  return ClosestName(name, names);
}

Status CheckApplicable(const Invariant& invariant, const Config& config) {
  if (invariant.needs_any_group && config.groups.empty()) {
    return Status::Error(
        fmt::format("'{}' is about consumer groups; this scenario has none",
                    invariant.name));
  }
  if (invariant.needs_partitions &&
      config.broker.delivery != Delivery::kPartitioned) {
    return Status::Error(fmt::format(
        "'{}' is about a partitioned broker's offsets; this scenario's "
        "broker is a bag (set broker.delivery = \"partitioned\")",
        invariant.name));
  }
  if (invariant.needs_keys &&
      std::none_of(config.events.begin(), config.events.end(),
                   [](const Event& e) { return e.key.has_value(); })) {
    return Status::Error(fmt::format(
        "'{}' is about the order of events of one key; no event of this "
        "scenario has a key",
        invariant.name));
  }
  if (!invariant.needs) return Status::Ok();
  const bool has = std::any_of(
      config.groups.begin(), config.groups.end(),
      [&](const Group& g) { return FamilyOf(g) == *invariant.needs; });
  if (has) return Status::Ok();
  return Status::Error(
      fmt::format("'{}' is about {} groups; this scenario has none",
                  invariant.name, FamilyName(*invariant.needs)));
}

std::string_view InvariantKindWord(InvariantKind kind) {
  switch (kind) {
    case InvariantKind::kSafety:
      return "safety";
    case InvariantKind::kTransition:
      return "transition";
    case InvariantKind::kAtRest:
      return "at rest";
  }
  return "?";
}

}  // namespace oc
