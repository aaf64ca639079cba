#include "model/presentation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <utility>

#include "common/text.h"
#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "model/timing.h"

namespace oc {
namespace {

// Participant indices, in the order Participants() lists them.
constexpr int kDatabase = 0;
int RelayLane(int relay) { return 1 + relay; }
int BrokerLane(const Config& config) {
  return 1 + static_cast<int>(config.relays.size());
}
int InstanceLane(const OutboxModel& model, int group, int instance) {
  return BrokerLane(model.config()) + 1 + model.FirstInstance(group) + instance;
}

}  // namespace

std::vector<std::string> Participants(const OutboxModel& model) {
  const Config& config = model.config();
  std::vector<std::string> names;
  names.push_back("outbox database");
  for (const std::string& r : config.relays) names.push_back("relay " + r);
  names.push_back("broker");
  for (const Group& g : config.groups) {
    for (int i = 1; i <= g.instances; ++i) {
      names.push_back(fmt::format("{}/{}", g.name, i));
    }
  }
  return names;
}

StepPresentation PresentStep(const OutboxModel& model, const Action& a,
                             const State& before, const State& after,
                             Seconds elapsed) {
  const Config& config = model.config();
  const int broker = BrokerLane(config);
  const int relay = RelayLane(a.relay);
  // Lanes and names of the arguments the kind takes; the others are zero
  // and may not exist (a configuration without groups).
  auto instance = [&] { return InstanceLane(model, a.group, a.instance); };
  // A group-wide action (cleanup, outage) is drawn over its first instance.
  auto group = [&] { return InstanceLane(model, a.group, 0); };
  auto group_name = [&] { return config.groups[a.group].name; };
  // The partitioned broker (docs/SEMANTICS.md section 16), and the record
  // the acting instance holds before the step.
  const bool partitioned = model.Partitions() > 0;
  auto held_by_instance = [&]() -> const InstanceCells& {
    return before.instances[static_cast<std::size_t>(
        model.FirstInstance(a.group) + a.instance)];
  };
  StepPresentation p;
  p.action = FormatAction(config, a);
  p.detail = ActionDetail(model, before, a);
  p.changed = ChangedCells(model, before, after);
  auto message = [&](int from, int to, std::string text) {
    p.shape = StepShape::kMessage;
    p.from = from;
    p.to = to;
    p.text = std::move(text);
  };
  auto note = [&](int over, std::string text) {
    p.shape = StepShape::kNote;
    p.from = p.to = over;
    p.text = std::move(text);
  };
  const std::string& event_name = config.events[a.event].name;
  // The event the relay holds, for the actions that name only the relay.
  const RelayCells& r = before.relays[a.relay];
  const std::string held =
      r.event > 0 ? config.events[r.event - 1].name : std::string();
  // Only the seed's relay has fencing tokens; the other styles have none.
  const bool tokens = config.relay_style == RelayStyle::kLeaseToken;
  auto with_token = [&](int token) {
    return tokens ? fmt::format(" (token {})", token) : std::string();
  };

  switch (a.kind) {
    case ActionKind::kClaim:
      switch (config.relay_style) {
        case RelayStyle::kAgeSweeper:
          // The dispatch sends the row the producer has just written; a
          // sweep reads it back from the outbox.
          message(relay, kDatabase,
                  fmt::format("{} {}",
                              before.events[a.event].begun == 0
                                  ? "dispatch (just written)"
                                  : "sweep: unmarked and old enough",
                              event_name));
          break;
        case RelayStyle::kLeaseToken:
          message(relay, kDatabase,
                  fmt::format("claim {}{}", event_name,
                              with_token(after.events[a.event].token)));
          break;
        case RelayStyle::kRowLock:
          message(relay, kDatabase, "lock " + event_name);
          break;
        case RelayStyle::kInlineDispatch:
          message(relay, kDatabase,
                  before.events[a.event].pending
                      ? fmt::format("delivery pass before {} is written: "
                                    "nothing found, context done",
                                    event_name)
                      : "delivery pass: " + event_name);
          p.lost = before.events[a.event].pending != 0;
          break;
        case RelayStyle::kSequenceCursor:
        case RelayStyle::kCdcOffset:
          message(relay, kDatabase, "read " + event_name);
          break;
      }
      break;
    case ActionKind::kSend:
    case ActionKind::kSendAckLost: {
      const int e = r.event - 1;
      const bool dropped = before.events[e].offered == after.events[e].offered;
      // A partitioned broker says where the record went.
      const int part = partitioned ? model.PartitionOfEvent(e) : -1;
      message(
          relay, broker,
          fmt::format(
              "publish {}{}{}{}{}", held, with_token(r.token),
              part >= 0 && !dropped
                  ? fmt::format(" to p{} at offset {}", part + 1,
                                before.lengths[static_cast<std::size_t>(part)])
                  : std::string(),
              dropped ? ": dropped as a duplicate" : "",
              a.kind == ActionKind::kSendAckLost ? "; its ack is lost" : ""));
      break;
    }
    case ActionKind::kComplete: {
      switch (config.relay_style) {
        case RelayStyle::kLeaseToken: {
          const int e = r.event - 1;
          const bool published =
              before.events[e].published == 0 && after.events[e].published == 1;
          message(relay, kDatabase,
                  fmt::format("complete {} (token {}): {}", held, r.token,
                              published ? "published" : "0 rows, rejected"));
          break;
        }
        case RelayStyle::kCdcOffset:
          // The broker's acknowledgement is what completes a CDC send.
          message(broker, relay, "acknowledged: " + held);
          p.dashed = true;
          break;
        case RelayStyle::kAgeSweeper:
          message(relay, kDatabase, "mark dispatched: " + held);
          break;
        case RelayStyle::kRowLock:
        case RelayStyle::kSequenceCursor:
          message(relay, kDatabase, "commit: published " + held);
          break;
        case RelayStyle::kInlineDispatch:
          message(relay, kDatabase, "delivered: removes " + held);
          break;
      }
      break;
    }
    case ActionKind::kExpire:
      note(kDatabase,
           fmt::format("lease of {} expires{}", event_name,
                       model.Premature(before, a.event) ? " (premature)"
                       : config.time.lease              ? " (its time is up)"
                                                        : " (orphaned)"));
      break;
    case ActionKind::kCrashRelay:
      if (r.event == 0) {
        note(relay, "restart from the flushed offset");
      } else {
        note(relay,
             fmt::format("crash (held {}{})", held, with_token(r.token)));
      }
      break;
    case ActionKind::kConsume:
      if (partitioned) {
        const InstanceCells& got = after.instances[static_cast<std::size_t>(
            model.FirstInstance(a.group) + a.instance)];
        message(broker, instance(),
                fmt::format("deliver {} from p{} offset {}{}", event_name,
                            got.partition, got.offset,
                            got.fetched ? fmt::format(": commit {} first",
                                                      got.offset + 1)
                                        : std::string()));
        break;
      }
      message(broker, instance(), "deliver " + event_name);
      break;
    case ActionKind::kStep:
      note(instance(),
           held_by_instance().fetched ? "handler runs" : "second step");
      break;
    case ActionKind::kAcknowledge: {
      const InstanceCells& inst = held_by_instance();
      // A record of a partition (not a copy from a retry topic).
      if (inst.partition != 0 && !config.groups[a.group].commit_before) {
        const GroupPartitionCells& was =
            before.partitions[static_cast<std::size_t>(
                a.group * model.Partitions() + inst.partition - 1)];
        const bool current = was.owner == a.instance && was.epoch == inst.epoch;
        const bool accepted = current || !config.broker.commit_fencing;
        message(instance(), broker,
                fmt::format(
                    "commit p{} offset {}{}", inst.partition, inst.offset + 1,
                    current    ? std::string()
                    : accepted ? fmt::format(": accepted from a stale owner "
                                             "(was {})",
                                             was.committed)
                               : std::string(": rejected, stale epoch")));
        p.dashed = true;
        p.lost = !accepted;
        break;
      }
      message(instance(), broker, "ack");
      p.dashed = true;
      break;
    }
    case ActionKind::kAckLost:
      message(instance(), broker,
              held_by_instance().partition != 0 ? "commit lost"
                                                : "ack lost: redelivery");
      p.dashed = true;
      p.lost = true;
      break;
    case ActionKind::kCrashConsumer:
      note(instance(), partitioned
                           ? "crash midway: its partitions restart from the "
                             "committed offset"
                           : "crash midway");
      break;
    case ActionKind::kRedeliver:
      note(broker, "visibility timeout: redeliver");
      break;
    case ActionKind::kTick:
      note(kDatabase,
           fmt::format("time passes: {} since the start",
                       FormatDuration(elapsed + model.timing().unit)));
      break;
    case ActionKind::kRetry:
      message(broker, broker,
              fmt::format("delayed redelivery of {} to {}", event_name,
                          group_name()));
      break;
    case ActionKind::kRedrive:
      note(broker, fmt::format("operator redrives {} from {}'s dead letters",
                               event_name, group_name()));
      break;
    case ActionKind::kDeadLetterExpire:
      note(broker, fmt::format("dead letter {} of {} expires", event_name,
                               group_name()));
      break;
    case ActionKind::kCleanup:
      note(group(), fmt::format("cleanup deletes {}'s inbox row of {}",
                                group_name(), event_name));
      break;
    case ActionKind::kConsumerOutage:
      note(group(), fmt::format("{} goes down for {}", group_name(),
                                FormatDuration(*config.time.consumer_outage)));
      break;
    case ActionKind::kDatabaseOutage:
      note(kDatabase,
           fmt::format("database goes down for {}",
                       FormatDuration(*config.time.database_outage)));
      break;
    case ActionKind::kSourceCommit:
      note(kDatabase,
           fmt::format("source transaction of {} commits", event_name));
      break;
    case ActionKind::kCommitFails:
      message(relay, kDatabase,
              fmt::format("commit of {} fails: rolled back", held));
      p.lost = true;
      break;
    case ActionKind::kFlushOffset:
      message(relay, kDatabase,
              fmt::format("flush offset {}", after.log.offset));
      break;
    case ActionKind::kLoseWrite:
      note(broker, fmt::format("loses an acknowledged copy of {}", event_name));
      break;
    case ActionKind::kConsumeFails: {
      const int part = model.PartitionOfEvent(a.event);
      const GroupPartitionCells& c = before.partitions[static_cast<std::size_t>(
          a.group * model.Partitions() + part)];
      message(broker, instance(),
              fmt::format("deliver {} from p{} offset {}: the handler fails; "
                          "{}",
                          event_name, part + 1, c.position,
                          config.groups[a.group].retry_topic
                              ? "forwarded to the retry topic, offset committed"
                              : "retried in place, the partition waits"));
      p.lost = true;
      break;
    }
    case ActionKind::kConsumeRetry:
      message(broker, instance(),
              fmt::format("deliver {} from the retry topic", event_name));
      break;
    case ActionKind::kSendFails:
      message(relay, broker,
              fmt::format("publish {}{}: the write fails, to be retried", held,
                          with_token(r.token)));
      p.lost = true;
      break;
    case ActionKind::kRetrySend: {
      const int e = r.retry - 1;
      const int part = model.PartitionOfEvent(e);
      message(
          relay, broker,
          fmt::format("retried write of {} lands in p{} at offset {}",
                      config.events[static_cast<std::size_t>(e)].name, part + 1,
                      before.lengths[static_cast<std::size_t>(part)]));
      break;
    }
    case ActionKind::kRebalance: {
      const GroupPartitionCells& c = after.partitions[static_cast<std::size_t>(
          a.group * model.Partitions() + a.partition)];
      note(broker,
           fmt::format("rebalance: p{} of {} moves to {}/{} (epoch {}), "
                       "which resumes at offset {}",
                       a.partition + 1, group_name(), group_name(),
                       a.instance + 1, c.epoch, c.committed));
      break;
    }
  }
  return p;
}

std::vector<StepPresentation> PresentSteps(const OutboxModel& model,
                                           std::span<const Action> actions,
                                           std::span<const State> states) {
  assert(states.size() == actions.size() + 1);
  std::vector<StepPresentation> steps;
  steps.reserve(actions.size());
  Seconds elapsed = 0;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    steps.push_back(
        PresentStep(model, actions[i], states[i], states[i + 1], elapsed));
    if (actions[i].kind == ActionKind::kTick) elapsed += model.timing().unit;
  }
  return steps;
}

std::vector<StepRow> PresentRows(const OutboxModel& model,
                                 std::span<const Action> actions,
                                 std::span<const State> states,
                                 std::span<const std::size_t> alone) {
  const std::vector<StepPresentation> steps =
      PresentSteps(model, actions, states);
  const Seconds unit = model.timing().unit;
  auto groupable = [&](std::size_t i) {
    return actions[i].kind == ActionKind::kTick &&
           std::find(alone.begin(), alone.end(), i + 1) == alone.end();
  };
  std::vector<StepRow> rows;
  Seconds elapsed = 0;
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i + 1;
    if (groupable(i)) {
      while (j < steps.size() && groupable(j)) ++j;
    }
    const auto ticks = static_cast<Seconds>(j - i);
    if (j - i < 2) {
      rows.push_back(StepRow{i, i, steps[i]});
    } else {
      StepPresentation run = steps[i];  // a note over the database
      run.text =
          fmt::format("time passes {} in {} ticks, to {} since the start",
                      FormatDuration(ticks * unit), ticks,
                      FormatDuration(elapsed + ticks * unit));
      run.action = fmt::format("{} ticks", ticks);
      run.detail = fmt::format("+{}, to {} since the start",
                               FormatDuration(ticks * unit),
                               FormatDuration(elapsed + ticks * unit));
      run.changed = ChangedCells(model, states[i], states[j]);
      rows.push_back(StepRow{i, j - 1, std::move(run)});
    }
    if (actions[i].kind == ActionKind::kTick) elapsed += ticks * unit;
    i = j;
  }
  return rows;
}

std::string RelayStyleClauses(const Config& config) {
  const RelayStyleInfo& style = StyleOf(config);
  std::string text;
  // The default style (the table's first row, the seed's relay) goes
  // without saying.
  if (style.style != kRelayStyles[0].style) {
    text += fmt::format("; relay style {}", style.name);
  }
  if (style.sweeper) {
    text += fmt::format(" (minimum age {}, sends up to {})",
                        FormatDuration(config.min_age.value_or(0)),
                        FormatDuration(config.send_time.value_or(0)));
  }
  if (config.gaps_wait) {
    text += config.gap_timeout
                ? fmt::format(" (waits at a gap up to {})",
                              FormatDuration(*config.gap_timeout))
                : std::string(" (waits at every gap)");
    if (config.commit_within) {
      text += fmt::format("; transactions of at most {}",
                          FormatDuration(*config.commit_within));
    }
  }
  // A budget that comes with the style qualifies it; one of its own is a
  // clause apart.
  ForEachBudget(BudgetFamily::kStyle, [&](const FaultBudget& budget) {
    if (Shown(config, budget)) {
      text += fmt::format("{} {}",
                          budget.shown == BudgetShown::kWithStyle ? "," : ";",
                          BudgetLimit(Pool(config, budget), budget));
    }
  });
  return text;
}

std::vector<RelaySetting> RelayStyleSettings(const Config& config) {
  auto duration = [](const std::optional<Seconds>& d) {
    return d ? std::optional<std::string>(FormatDuration(*d)) : std::nullopt;
  };
  if (StyleOf(config).sweeper) {
    return {{"min_age", duration(config.min_age)},
            {"send_time", duration(config.send_time)}};
  }
  if (config.gaps_wait) {
    return {{"gaps", std::optional<std::string>("wait")},
            {"gap_timeout", duration(config.gap_timeout)},
            {"commit_within", duration(config.commit_within)}};
  }
  return {};
}

}  // namespace oc
