#include "model/action.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "common/closest_name.h"

namespace oc {
namespace {

// What each kind takes, in its text form's order.
enum class Args {
  kRelayEvent,
  kRelay,
  kEvent,
  kGroupInstanceEvent,
  kGroupInstance,
  kGroupEvent,
  kGroup,
  kGroupPartitionInstance,
  kNone,
};

struct KindInfo {
  ActionKind kind;
  std::string_view name;
  Args args;
};

constexpr KindInfo kKinds[kActionKindCount] = {
    {ActionKind::kClaim, "claim", Args::kRelayEvent},
    {ActionKind::kSend, "send", Args::kRelay},
    {ActionKind::kSendAckLost, "send_ack_lost", Args::kRelay},
    {ActionKind::kComplete, "complete", Args::kRelay},
    {ActionKind::kExpire, "expire", Args::kEvent},
    {ActionKind::kCrashRelay, "crash_relay", Args::kRelay},
    {ActionKind::kConsume, "consume", Args::kGroupInstanceEvent},
    {ActionKind::kStep, "step", Args::kGroupInstance},
    {ActionKind::kAcknowledge, "acknowledge", Args::kGroupInstance},
    {ActionKind::kAckLost, "ack_lost", Args::kGroupInstance},
    {ActionKind::kCrashConsumer, "crash_consumer", Args::kGroupInstance},
    {ActionKind::kRedeliver, "redeliver", Args::kGroupInstance},
    {ActionKind::kTick, "tick", Args::kNone},
    {ActionKind::kRetry, "retry", Args::kGroupEvent},
    {ActionKind::kRedrive, "redrive", Args::kGroupEvent},
    {ActionKind::kDeadLetterExpire, "dead_letter_expire", Args::kGroupEvent},
    {ActionKind::kCleanup, "cleanup", Args::kGroupEvent},
    {ActionKind::kConsumerOutage, "consumer_outage", Args::kGroup},
    {ActionKind::kDatabaseOutage, "database_outage", Args::kNone},
    {ActionKind::kSourceCommit, "source_commit", Args::kEvent},
    {ActionKind::kCommitFails, "commit_fails", Args::kRelay},
    {ActionKind::kFlushOffset, "flush_offset", Args::kRelay},
    {ActionKind::kLoseWrite, "lose_write", Args::kEvent},
    {ActionKind::kRebalance, "rebalance", Args::kGroupPartitionInstance},
    {ActionKind::kSendFails, "send_fails", Args::kRelay},
    {ActionKind::kRetrySend, "retry_send", Args::kRelay},
    {ActionKind::kConsumeFails, "consume_fails", Args::kGroupInstanceEvent},
    {ActionKind::kConsumeRetry, "consume_retry", Args::kGroupInstanceEvent},
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view s) {
  std::vector<std::string_view> parts;
  if (Trim(s).empty()) return parts;
  while (true) {
    const std::size_t comma = s.find(',');
    parts.push_back(Trim(s.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return parts;
}

std::string Usage(const KindInfo& info) {
  switch (info.args) {
    case Args::kRelayEvent:
      return fmt::format("{}(RELAY, EVENT)", info.name);
    case Args::kRelay:
      return fmt::format("{}(RELAY)", info.name);
    case Args::kEvent:
      return fmt::format("{}(EVENT)", info.name);
    case Args::kGroupInstanceEvent:
      return fmt::format("{}(GROUP, INSTANCE, EVENT)", info.name);
    case Args::kGroupInstance:
      return fmt::format("{}(GROUP, INSTANCE)", info.name);
    case Args::kGroupEvent:
      return fmt::format("{}(GROUP, EVENT)", info.name);
    case Args::kGroup:
      return fmt::format("{}(GROUP)", info.name);
    case Args::kGroupPartitionInstance:
      return fmt::format("{}(GROUP, PARTITION, INSTANCE)", info.name);
    case Args::kNone:
      break;
  }
  return std::string(info.name);
}

// Finds `name` among `names`, or explains which names exist.
Result<std::uint8_t> Lookup(std::string_view what, std::string_view name,
                            const std::vector<std::string_view>& names,
                            std::string_view text) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) {
    return static_cast<std::uint8_t>(it - names.begin());
  }
  const std::string hint = DidYouMean(name, names);
  if (!hint.empty()) {
    return Status::Error(
        fmt::format("unknown {} '{}' in '{}'{}", what, name, text, hint));
  }
  return Status::Error(fmt::format("unknown {} '{}' in '{}'; {}s are {}", what,
                                   name, text, what, fmt::join(names, ", ")));
}

}  // namespace

std::string_view ActionKindName(ActionKind kind) {
  return kKinds[static_cast<int>(kind)].name;
}

std::string FormatAction(const Config& config, const Action& a) {
  const KindInfo& info = kKinds[static_cast<int>(a.kind)];
  switch (info.args) {
    case Args::kRelayEvent:
      return fmt::format("{}({}, {})", info.name, config.relays[a.relay],
                         config.events[a.event].name);
    case Args::kRelay:
      return fmt::format("{}({})", info.name, config.relays[a.relay]);
    case Args::kEvent:
      return fmt::format("{}({})", info.name, config.events[a.event].name);
    case Args::kGroupInstanceEvent:
      return fmt::format("{}({}, {}, {})", info.name,
                         config.groups[a.group].name, a.instance + 1,
                         config.events[a.event].name);
    case Args::kGroupInstance:
      return fmt::format("{}({}, {})", info.name, config.groups[a.group].name,
                         a.instance + 1);
    case Args::kGroupEvent:
      return fmt::format("{}({}, {})", info.name, config.groups[a.group].name,
                         config.events[a.event].name);
    case Args::kGroup:
      return fmt::format("{}({})", info.name, config.groups[a.group].name);
    case Args::kGroupPartitionInstance:
      return fmt::format("{}({}, p{}, {})", info.name,
                         config.groups[a.group].name, a.partition + 1,
                         a.instance + 1);
    case Args::kNone:
      break;
  }
  return std::string(info.name);
}

ArgumentsTaken ArgumentsOf(ActionKind kind) {
  ArgumentsTaken t;
  switch (kKinds[static_cast<int>(kind)].args) {
    case Args::kRelayEvent:
      t.relay = t.event = true;
      break;
    case Args::kRelay:
      t.relay = true;
      break;
    case Args::kEvent:
      t.event = true;
      break;
    case Args::kGroupInstanceEvent:
      t.group = t.instance = t.event = true;
      break;
    case Args::kGroupInstance:
      t.group = t.instance = true;
      break;
    case Args::kGroupEvent:
      t.group = t.event = true;
      break;
    case Args::kGroup:
      t.group = true;
      break;
    case Args::kGroupPartitionInstance:
      t.group = t.partition = t.instance = true;
      break;
    case Args::kNone:
      break;
  }
  return t;
}

std::vector<ActionArgument> ActionArguments(const Config& config,
                                            const Action& a) {
  // Every kind's text form names its arguments in this order.
  const ArgumentsTaken takes = ArgumentsOf(a.kind);
  std::vector<ActionArgument> out;
  if (takes.relay) out.push_back({"relay", config.relays[a.relay], {}});
  if (takes.group) out.push_back({"group", config.groups[a.group].name, {}});
  if (takes.partition) {
    out.push_back({"partition", fmt::format("p{}", a.partition + 1), {}});
  }
  if (takes.instance) {
    const int n = a.instance + 1;
    out.push_back({"instance", fmt::format("{}", n), n});
  }
  if (takes.event) out.push_back({"event", config.events[a.event].name, {}});
  return out;
}

Result<Action> ParseAction(const Config& config, std::string_view text) {
  const std::string_view whole = Trim(text);
  std::size_t open = whole.find('(');
  // Actions without arguments are written bare ("tick") or with "()".
  const bool bare =
      open == std::string_view::npos &&
      std::any_of(std::begin(kKinds), std::end(kKinds), [&](const KindInfo& k) {
        return k.args == Args::kNone && k.name == whole;
      });
  if (bare) open = whole.size();
  if (!bare && (open == std::string_view::npos || whole.back() != ')')) {
    return Status::Error(fmt::format(
        "'{}' is not an action; write NAME(ARGUMENTS), e.g. 'claim(A, e1)'",
        whole));
  }
  const std::string_view name = Trim(whole.substr(0, open));
  const KindInfo* info = nullptr;
  std::vector<std::string_view> kind_names;
  for (const KindInfo& k : kKinds) {
    kind_names.push_back(k.name);
    if (k.name == name) info = &k;
  }
  if (info == nullptr) {
    const std::string hint = DidYouMean(name, kind_names);
    if (!hint.empty()) {
      return Status::Error(
          fmt::format("unknown action '{}' in '{}'{}", name, whole, hint));
    }
    return Status::Error(
        fmt::format("unknown action '{}' in '{}'; actions are {}", name, whole,
                    fmt::join(kind_names, ", ")));
  }
  const std::vector<std::string_view> args =
      bare ? std::vector<std::string_view>{}
           : Split(whole.substr(open + 1, whole.size() - open - 2));
  const std::size_t wanted =
      info->args == Args::kNone ? 0
      : info->args == Args::kGroupInstanceEvent ||
              info->args == Args::kGroupPartitionInstance
          ? 3
      : (info->args == Args::kRelayEvent ||
         info->args == Args::kGroupInstance || info->args == Args::kGroupEvent)
          ? 2
          : 1;
  if (args.size() != wanted) {
    return Status::Error(fmt::format("'{}' has {} argument{}; write {}", whole,
                                     args.size(), args.size() == 1 ? "" : "s",
                                     Usage(*info)));
  }

  std::vector<std::string_view> relays(config.relays.begin(),
                                       config.relays.end());
  std::vector<std::string_view> events;
  for (const Event& e : config.events) events.push_back(e.name);
  std::vector<std::string_view> groups;
  for (const Group& g : config.groups) groups.push_back(g.name);

  Action action;
  action.kind = info->kind;
  auto relay = [&](std::string_view s) -> Status {
    Result<std::uint8_t> r = Lookup("relay", s, relays, whole);
    if (!r.ok()) return r.status();
    action.relay = r.value();
    return Status::Ok();
  };
  auto event = [&](std::string_view s) -> Status {
    Result<std::uint8_t> r = Lookup("event", s, events, whole);
    if (!r.ok()) return r.status();
    action.event = r.value();
    return Status::Ok();
  };
  auto group = [&](std::string_view g) -> Status {
    if (groups.empty()) {
      return Status::Error(fmt::format(
          "'{}' names a consumer group, but there are none", whole));
    }
    Result<std::uint8_t> r = Lookup("group", g, groups, whole);
    if (!r.ok()) return r.status();
    action.group = r.value();
    return Status::Ok();
  };
  auto group_instance = [&](std::string_view g, std::string_view i) -> Status {
    if (Status found = group(g); !found.ok()) return found;
    const int count = config.groups[action.group].instances;
    int n = 0;
    const auto [end, ec] = std::from_chars(i.data(), i.data() + i.size(), n);
    if (ec != std::errc() || end != i.data() + i.size() || n < 1 || n > count) {
      return Status::Error(fmt::format(
          "instance '{}' in '{}' is not a number from 1 to {} (group '{}' has "
          "{} instance{})",
          i, whole, count, g, count, count == 1 ? "" : "s"));
    }
    action.instance = static_cast<std::uint8_t>(n - 1);
    return Status::Ok();
  };

  Status s;
  switch (info->args) {
    case Args::kRelayEvent:
      s = relay(args[0]);
      if (s.ok()) s = event(args[1]);
      break;
    case Args::kRelay:
      s = relay(args[0]);
      break;
    case Args::kEvent:
      s = event(args[0]);
      break;
    case Args::kGroupInstanceEvent:
      s = group_instance(args[0], args[1]);
      if (s.ok()) s = event(args[2]);
      break;
    case Args::kGroupInstance:
      s = group_instance(args[0], args[1]);
      break;
    case Args::kGroupEvent:
      s = group(args[0]);
      if (s.ok()) s = event(args[1]);
      break;
    case Args::kGroup:
      s = group(args[0]);
      break;
    case Args::kGroupPartitionInstance: {
      s = group_instance(args[0], args[2]);
      if (!s.ok()) break;
      const int count = config.broker.delivery == Delivery::kPartitioned
                            ? config.broker.partitions
                            : 0;
      const std::string_view p = args[1];
      int n = 0;
      const auto [end, ec] =
          p.size() > 1 && p[0] == 'p'
              ? std::from_chars(p.data() + 1, p.data() + p.size(), n)
              : std::from_chars_result{p.data(), std::errc::invalid_argument};
      if (ec != std::errc() || end != p.data() + p.size() || n < 1 ||
          n > count) {
        s = Status::Error(
            count == 0
                ? fmt::format("'{}' names a partition, but the broker is not "
                              "partitioned",
                              whole)
                : fmt::format("partition '{}' in '{}' is not one of p1 to p{}",
                              p, whole, count));
        break;
      }
      action.partition = static_cast<std::uint8_t>(n - 1);
      break;
    }
    case Args::kNone:
      break;
  }
  if (!s.ok()) return s;
  return action;
}

}  // namespace oc
