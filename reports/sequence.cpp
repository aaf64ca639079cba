#include "reports/sequence.h"

#include <fmt/format.h>

namespace oc::reports {

SequenceDiagram SequenceOf(const OutboxModel& model, const Trace& trace) {
  const Config& config = model.config();
  SequenceDiagram d;
  d.participants.push_back("outbox database");
  for (const std::string& r : config.relays) {
    d.participants.push_back("relay " + r);
  }
  const int broker = static_cast<int>(d.participants.size());
  d.participants.push_back("broker");
  for (const Group& g : config.groups) {
    for (int i = 1; i <= g.instances; ++i) {
      d.participants.push_back(fmt::format("{}/{}", g.name, i));
    }
  }
  auto relay = [](int r) { return 1 + r; };
  auto instance = [&](const Action& a) {
    return broker + 1 + model.FirstInstance(a.group) + a.instance;
  };

  const Timing& timing = model.timing();
  Seconds elapsed = 0;
  for (std::size_t i = 0; i < trace.actions.size(); ++i) {
    const Action& a = trace.actions[i];
    const State& before = trace.states[i];
    const State& after = trace.states[i + 1];
    SequenceItem item;
    item.step = i + 1;
    auto message = [&](int from, int to, std::string text) {
      item.kind = SequenceItem::Kind::kMessage;
      item.from = from;
      item.to = to;
      item.text = std::move(text);
    };
    auto note = [&](int over, std::string text) {
      item.kind = SequenceItem::Kind::kNote;
      item.from = item.to = over;
      item.text = std::move(text);
    };
    const RelayCells& r = before.relays[a.relay];
    const std::string relay_event =
        r.event > 0 ? config.events[r.event - 1].name : std::string();
    // Only the seed's relay has fencing tokens (the other styles have none).
    const bool tokens = config.relay_style == RelayStyle::kLeaseToken;
    auto with_token = [&](int token) {
      return tokens ? fmt::format(" (token {})", token) : std::string();
    };
    switch (a.kind) {
      case ActionKind::kClaim:
        if (config.relay_style == RelayStyle::kAgeSweeper) {
          // The dispatch sends the row the producer has just written; a
          // sweep reads it back from the outbox.
          message(relay(a.relay), 0,
                  fmt::format("{} {}",
                              before.events[a.event].begun == 0
                                  ? "dispatch (just written)"
                                  : "sweep: unmarked and old enough",
                              config.events[a.event].name));
          break;
        }
        message(relay(a.relay), 0,
                fmt::format("{} {}{}",
                            config.relay_style == RelayStyle::kRowLock ? "lock"
                            : tokens                                   ? "claim"
                                                                       : "read",
                            config.events[a.event].name,
                            with_token(after.events[a.event].token)));
        break;
      case ActionKind::kSend:
      case ActionKind::kSendAckLost: {
        const int e = r.event - 1;
        const bool dropped =
            before.events[e].offered == after.events[e].offered;
        message(
            relay(a.relay), broker,
            fmt::format(
                "publish {}{}{}{}", relay_event, with_token(r.token),
                dropped ? ": dropped as a duplicate" : "",
                a.kind == ActionKind::kSendAckLost ? "; its ack is lost" : ""));
        break;
      }
      case ActionKind::kComplete: {
        const int e = r.event - 1;
        const bool published =
            before.events[e].published == 0 && after.events[e].published == 1;
        if (!tokens) {
          message(relay(a.relay),
                  config.relay_style == RelayStyle::kCdcOffset ? broker : 0,
                  fmt::format("{} {}",
                              config.relay_style == RelayStyle::kCdcOffset
                                  ? "acknowledged:"
                              : config.relay_style == RelayStyle::kAgeSweeper
                                  ? "mark dispatched:"
                                  : "commit: published",
                              relay_event));
          if (config.relay_style == RelayStyle::kCdcOffset) {
            std::swap(item.from, item.to);
            item.dashed = true;
          }
          break;
        }
        message(relay(a.relay), 0,
                fmt::format("complete {} (token {}): {}", relay_event, r.token,
                            published ? "published" : "0 rows, rejected"));
        break;
      }
      case ActionKind::kExpire:
        note(0,
             fmt::format("lease of {} expires{}", config.events[a.event].name,
                         before.budgets.premature_expiries !=
                                 after.budgets.premature_expiries
                             ? " (premature)"
                         : config.time.lease ? " (its time is up)"
                                             : " (orphaned)"));
        break;
      case ActionKind::kCrashRelay:
        if (r.event == 0) {
          note(relay(a.relay), "restart from the flushed offset");
        } else {
          note(relay(a.relay), fmt::format("crash (held {}{})", relay_event,
                                           with_token(r.token)));
        }
        break;
      case ActionKind::kConsume:
        message(broker, instance(a),
                fmt::format("deliver {}", config.events[a.event].name));
        break;
      case ActionKind::kStep:
        note(instance(a), "second step");
        break;
      case ActionKind::kAcknowledge:
        message(instance(a), broker, "ack");
        item.dashed = true;
        break;
      case ActionKind::kAckLost:
        message(instance(a), broker, "ack lost: redelivery");
        item.dashed = true;
        item.lost = true;
        break;
      case ActionKind::kCrashConsumer:
        note(instance(a), "crash midway");
        break;
      case ActionKind::kRedeliver:
        note(broker, "visibility timeout: redeliver");
        break;
      case ActionKind::kTick:
        elapsed += timing.unit;
        note(0, fmt::format("time passes: {} since the start",
                            FormatDuration(elapsed)));
        break;
      case ActionKind::kRetry:
        message(broker, broker,
                fmt::format("delayed redelivery of {} to {}",
                            config.events[a.event].name,
                            config.groups[a.group].name));
        break;
      case ActionKind::kRedrive:
        note(broker, fmt::format("operator redrives {} from {}'s dead letters",
                                 config.events[a.event].name,
                                 config.groups[a.group].name));
        break;
      case ActionKind::kDeadLetterExpire:
        note(broker, fmt::format("dead letter {} of {} expires",
                                 config.events[a.event].name,
                                 config.groups[a.group].name));
        break;
      case ActionKind::kCleanup:
        note(broker + 1 + model.FirstInstance(a.group),
             fmt::format("cleanup deletes {}'s inbox row of {}",
                         config.groups[a.group].name,
                         config.events[a.event].name));
        break;
      case ActionKind::kConsumerOutage:
        note(broker + 1 + model.FirstInstance(a.group),
             fmt::format("{} goes down for {}", config.groups[a.group].name,
                         FormatDuration(*config.time.consumer_outage)));
        break;
      case ActionKind::kDatabaseOutage:
        note(0, fmt::format("database goes down for {}",
                            FormatDuration(*config.time.database_outage)));
        break;
      case ActionKind::kSourceCommit:
        note(0, fmt::format("source transaction of {} commits",
                            config.events[a.event].name));
        break;
      case ActionKind::kCommitFails:
        message(relay(a.relay), 0,
                fmt::format("commit of {} fails: rolled back", relay_event));
        item.lost = true;
        break;
      case ActionKind::kFlushOffset:
        message(relay(a.relay), 0,
                fmt::format("flush offset {}", after.log.offset));
        break;
      case ActionKind::kLoseWrite:
        note(broker, fmt::format("loses an acknowledged copy of {}",
                                 config.events[a.event].name));
        break;
    }
    d.items.push_back(std::move(item));
  }
  return d;
}

}  // namespace oc::reports
