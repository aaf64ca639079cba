#include "model/state_cells.h"

#include <fmt/format.h>

#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "model/state_text.h"

namespace oc {

std::vector<Cell> Cells(const OutboxModel& model, const State& s) {
  const Config& config = model.config();
  const std::vector<std::string> keys = Keys(config);
  const std::vector<UserTableLayout> layouts = UserTableLayouts(config);
  const std::size_t events = config.events.size();
  const RelayStyleInfo& style = StyleOf(config);
  std::vector<Cell> cells;
  auto add = [&](std::string name, std::string value) {
    cells.push_back(Cell{std::move(name), std::move(value)});
  };

  for (std::size_t e = 0; e < events; ++e) {
    const EventCells& row = s.events[e];
    const std::string prefix = fmt::format("outbox[{}]", config.events[e].name);
    add(prefix + ".published", fmt::format("{}", row.published));
    // Owner, token and lease belong to the seed's relay; the other styles
    // never set them.
    if (style.lease_and_token) {
      add(prefix + ".owner",
          row.owner == 0 ? std::string("-") : config.relays[row.owner - 1]);
      add(prefix + ".token", fmt::format("{}", row.token));
      add(prefix + ".lease", std::string(LeaseText(row.lease)));
      add(prefix + ".completed_token", fmt::format("{}", row.completed_token));
    }
    if (config.commits_during_run) {
      add(prefix + ".committed", row.pending ? "0" : "1");
      if (style.commit_log) {
        add(prefix + ".log_position", fmt::format("{}", row.log_position));
      }
    }
  }
  if (!style.offset_cell.empty()) {
    add(std::string(style.offset_cell), fmt::format("{}", s.log.offset));
  }
  const Timing& timing = model.timing();
  auto duration = [&](int units) {
    return FormatDuration(units * timing.unit);
  };
  if (timing.has_lease_clock) {
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("outbox[{}].clock", config.events[e].name),
          duration(s.events[e].clock));
    }
  }
  if (timing.sweeper) {
    for (std::size_t e = 0; e < events; ++e) {
      const EventCells& row = s.events[e];
      add(fmt::format("outbox[{}].dispatch_begun", config.events[e].name),
          fmt::format("{}", row.begun));
      // The age counts until the row is marked, and only up to the point
      // past which nothing changes (capped clocks).
      add(fmt::format("outbox[{}].age", config.events[e].name),
          row.published ? std::string("-") : duration(row.clock));
    }
  }
  if (timing.gap_clock) {
    // A pending row's age: how long its gap has been open.
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("outbox[{}].gap_age", config.events[e].name),
          s.events[e].pending ? duration(s.events[e].clock) : std::string("-"));
    }
  }
  if (config.relay_style == RelayStyle::kInlineDispatch) {
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("outbox[{}].delivery_pass", config.events[e].name),
          s.events[e].begun ? "ran" : "-");
    }
  }
  for (std::size_t e = 0; e < events; ++e) {
    add(fmt::format("broker.offered[{}]", config.events[e].name),
        fmt::format("{}", s.events[e].offered));
  }
  if (config.broker.dedup == Dedup::kWindow) {
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("broker.window_age[{}]", config.events[e].name),
          s.events[e].offered == 0 ? std::string("-")
                                   : duration(s.events[e].window));
    }
  }
  const bool partitioned = config.broker.delivery == Delivery::kPartitioned;
  const int partitions = config.broker.partitions;
  if (partitioned) {
    // Each partition's log, then each group's offsets and assignment
    // (docs/SEMANTICS.md section 16).
    for (int p = 0; p < partitions; ++p) {
      std::string log;
      for (int j = 0; j < s.lengths[p]; ++j) {
        if (j > 0) log += " ";
        log += config.events[s.records[p * kMaxRecords + j] - 1].name;
      }
      add(fmt::format("broker.log[p{}]", p + 1), log.empty() ? "-" : log);
    }
    for (std::size_t g = 0; g < config.groups.size(); ++g) {
      const std::string& name = config.groups[g].name;
      for (int p = 0; p < partitions; ++p) {
        const GroupPartitionCells& c = s.partitions[g * partitions + p];
        add(fmt::format("broker.owner[{}][p{}]", name, p + 1),
            fmt::format("{}/{} (epoch {})", name, c.owner + 1, c.epoch));
        add(fmt::format("broker.committed[{}][p{}]", name, p + 1),
            fmt::format("{}", c.committed));
        add(fmt::format("broker.position[{}][p{}]", name, p + 1),
            fmt::format("{}", c.position));
        if (config.observed & kObserveProcessed) {
          std::string done;
          for (int j = 0; j < s.lengths[p]; ++j) {
            done += (c.done >> j) & 1 ? '1' : '0';
          }
          add(fmt::format("broker.processed[{}][p{}]", name, p + 1),
              done.empty() ? "-" : done);
        }
        if (config.observed & kObserveStaleCommit) {
          add(fmt::format("broker.stale_commit[{}][p{}]", name, p + 1),
              fmt::format("{}", c.stale_commit));
        }
      }
    }
  }
  for (std::size_t g = 0; g < config.groups.size() && partitioned; ++g) {
    // A group's retry topic (docs/SEMANTICS.md section 16.2) holds copies
    // as the bag does.
    if (!config.groups[g].retry_topic) continue;
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("broker.retry_topic[{}][{}]", config.groups[g].name,
                      config.events[e].name),
          fmt::format("{}", s.group_events[g * events + e].ready));
    }
  }
  for (std::size_t g = 0; g < config.groups.size() && !partitioned; ++g) {
    for (std::size_t e = 0; e < events; ++e) {
      add(fmt::format("broker.ready[{}][{}]", config.groups[g].name,
                      config.events[e].name),
          fmt::format("{}", s.group_events[g * events + e].ready));
    }
  }
  for (std::size_t r = 0; r < config.relays.size(); ++r) {
    add(fmt::format("relay[{}]", config.relays[r]),
        RelayText(config, s.relays[r]));
    if (config.broker.dedup == Dedup::kProducerSession) {
      add(fmt::format("relay[{}].retrying", config.relays[r]),
          fmt::format("{}", s.relays[r].retrying));
    }
    if (config.budgets.send_failures > 0) {
      add(fmt::format("relay[{}].retry", config.relays[r]),
          s.relays[r].retry == 0 ? std::string("-")
                                 : config.events[s.relays[r].retry - 1].name);
    }
    if (timing.sweeper && timing.send_time > 0) {
      add(fmt::format("relay[{}].sending_for", config.relays[r]),
          s.relays[r].phase == RelayPhase::kClaimed
              ? duration(s.relays[r].clock)
              : std::string("-"));
    }
  }
  if (style.commit_log) {
    add("connector.read_position", fmt::format("{}", s.log.position));
  }
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    for (int i = 0; i < group.instances; ++i) {
      const InstanceCells& inst =
          s.instances[model.FirstInstance(static_cast<int>(g)) + i];
      std::string text = InstanceText(config, group, inst);
      if (inst.partition != 0) {
        // The record it works on, and how far it got.
        text += fmt::format(" at p{} offset {}, epoch {}{}", inst.partition,
                            inst.offset, inst.epoch,
                            inst.fetched ? ", committed, not run yet" : "");
      }
      add(fmt::format("instance[{}/{}]", group.name, i + 1), std::move(text));
    }
  }
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    const StrategyFamily family = FamilyOf(group);
    for (std::size_t e = 0; e < events; ++e) {
      const GroupEventCells& c = s.group_events[g * events + e];
      const std::string& ev = config.events[e].name;
      if (family == StrategyFamily::kCredit) {
        add(fmt::format("{}.{}[{}]", group.name,
                        HandlerTableName(HandlerTable::kEffects), ev),
            fmt::format("{}", c.effects));
        if (HasInbox(group)) {
          add(fmt::format("{}.{}[{}]", group.name,
                          HandlerTableName(HandlerTable::kInbox), ev),
              fmt::format("{}", c.inbox));
        }
        if (timing.timed && timing.groups[g].has_retention) {
          add(fmt::format("{}.inbox_age[{}]", group.name, ev),
              c.inbox == 0 ? std::string("-") : duration(c.inbox_age));
        }
      } else if (family == StrategyFamily::kNotification) {
        add(fmt::format("{}.{}[{}]", group.name,
                        HandlerTableName(HandlerTable::kLedger), ev),
            fmt::format("{}", c.ledger));
        add(fmt::format("{}.{}[{}]", group.name,
                        HandlerTableName(HandlerTable::kSent), ev),
            fmt::format("{}", c.sent));
      }
      if (timing.timed && timing.groups[g].key_window > 0) {
        add(fmt::format("provider.key_age[{}][{}]", group.name, ev),
            c.sent == 0 ? std::string("-")
            : c.key_age >= timing.groups[g].key_window
                ? fmt::format("{}, key forgotten", duration(c.key_age))
                : duration(c.key_age));
      }
    }
    if (timing.timed && timing.groups[g].parks()) {
      for (std::size_t e = 0; e < events; ++e) {
        const GroupEventCells& c = s.group_events[g * events + e];
        const std::string& ev = config.events[e].name;
        add(fmt::format("broker.parked[{}][{}]", group.name, ev),
            c.parked == kNotParked ? std::string("-")
            : c.parked == kDelayed
                ? fmt::format("delayed for {}", duration(c.park_age))
                : fmt::format("dead letter for {}", duration(c.park_age)));
        add(fmt::format("broker.attempts[{}][{}]", group.name, ev),
            fmt::format("{}", c.attempts));
      }
    }
    if (config.time.consumer_outage) {
      add(fmt::format("{}.down", group.name),
          s.down[g] == 0 ? std::string("up")
                         : fmt::format("down, {} left", duration(s.down[g])));
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const GroupKeyCells& c = s.group_keys[g * keys.size() + k];
      if (config.observed & kObserveKeyOrder) {
        add(fmt::format("{}.applied[{}]", group.name, keys[k]),
            c.applied == 0
                ? std::string("-")
                : config
                      .events[static_cast<std::size_t>(
                          model.KeyEvent(static_cast<int>(k), c.applied))]
                      .name);
      }
      if (family == StrategyFamily::kProjection) {
        add(fmt::format("{}.{}[{}]", group.name,
                        HandlerTableName(HandlerTable::kVersion), keys[k]),
            fmt::format("{}", c.version));
      } else if (family == StrategyFamily::kCache) {
        add(fmt::format("{}.{}[{}]", group.name,
                        HandlerTableName(HandlerTable::kCache), keys[k]),
            c.cache ? "fresh" : "stale");
      }
    }
    // The tables its strategy file declares, by event or attribute value.
    for (const UserTableLayout& l : layouts) {
      if (l.group != static_cast<int>(g)) continue;
      const HandlerProgram& p = *group.declared;
      const UserTable& t = p.tables[static_cast<std::size_t>(l.table)];
      for (int i = 0; i < l.size; ++i) {
        add(fmt::format("{}.{}[{}]", group.name, t.name,
                        l.names[static_cast<std::size_t>(i)]),
            fmt::format("{}", s.user[static_cast<std::size_t>(l.first + i)]));
      }
    }
  }
  // The budgets left, each family in its place.
  auto add_budgets = [&](BudgetFamily family) {
    ForEachBudget(family, [&](const FaultBudget& budget) {
      if (Shown(config, budget)) {
        add(fmt::format("faults.{}", budget.key),
            fmt::format("{}", s.budgets.*budget.left));
      }
    });
  };
  add_budgets(BudgetFamily::kSeed);
  if (config.time.database_outage) {
    add("database",
        s.database_down == 0
            ? std::string("up")
            : fmt::format("down, {} left", duration(s.database_down)));
  }
  add_budgets(BudgetFamily::kTime);
  if (timing.tracks_now) add("time.now", duration(s.now));
  add_budgets(BudgetFamily::kStyle);
  add_budgets(BudgetFamily::kBroker);
  return cells;
}

std::vector<CellChange> ChangedCells(const OutboxModel& model,
                                     const State& before, const State& after) {
  const std::vector<Cell> a = Cells(model, before);
  const std::vector<Cell> b = Cells(model, after);
  std::vector<CellChange> changes;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].value != b[i].value) {
      changes.push_back(CellChange{a[i].name, a[i].value, b[i].value});
    }
  }
  return changes;
}

std::string ActionDetail(const OutboxModel& model, const State& before,
                         const Action& a) {
  const Config& config = model.config();
  switch (a.kind) {
    case ActionKind::kClaim:
      if (StyleOf(config).sweeper) {
        return before.events[a.event].begun == 0 ? "dispatch" : "sweep";
      }
      if (!StyleOf(config).lease_and_token) return "";
      return fmt::format("token {}", before.events[a.event].token + 1);
    case ActionKind::kCommitFails:
      return config.events[before.relays[a.relay].event - 1].name;
    case ActionKind::kCrashRelay:
      if (before.relays[a.relay].phase == RelayPhase::kIdle) return "";
      [[fallthrough]];
    case ActionKind::kSend:
    case ActionKind::kSendAckLost:
    case ActionKind::kComplete: {
      const RelayCells& r = before.relays[a.relay];
      if (!StyleOf(config).lease_and_token) {
        return config.events[r.event - 1].name;
      }
      return fmt::format("{}, token {}", config.events[r.event - 1].name,
                         r.token);
    }
    case ActionKind::kExpire:
      return fmt::format("token {}", before.events[a.event].token);
    case ActionKind::kTick:
      return "+" + FormatDuration(model.timing().unit);
    default:
      return "";
  }
}

}  // namespace oc
