#include "model/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "model/relay_styles.h"

namespace oc {
namespace {

constexpr std::pair<char, Seconds> kUnits[] = {
    {'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}};

// Every duration of the config, with the scenario-file name of its field.
std::vector<std::pair<std::string, Seconds>> Durations(const Config& c) {
  std::vector<std::pair<std::string, Seconds>> out;
  auto add = [&](std::string field, const std::optional<Seconds>& d) {
    if (d) out.emplace_back(std::move(field), *d);
  };
  add("time.lease", c.time.lease);
  add("time.poll", c.time.poll);
  add("time.horizon", c.time.horizon);
  add("time.consumer_outage", c.time.consumer_outage);
  add("time.database_outage", c.time.database_outage);
  add("broker.window", c.broker.window);
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const Group& group = c.groups[g];
    const std::string at = fmt::format("groups[{}].", g + 1);
    add(at + "inbox_retention", group.inbox_retention);
    add(at + "inbox_cleanup_every", group.inbox_cleanup_every);
    for (std::size_t i = 0; i < group.redelivery.size(); ++i) {
      out.emplace_back(fmt::format("{}redelivery[{}]", at, i + 1),
                       group.redelivery[i]);
    }
    add(at + "dead_letter_redrive", group.dead_letter_redrive);
    add(at + "dead_letter_retention", group.dead_letter_retention);
    add(at + "idempotency_key_window", group.idempotency_key_window);
  }
  add("relay.min_age", c.min_age);
  add("relay.send_time", c.send_time);
  add("relay.gap_timeout", c.gap_timeout);
  add("source.commit_within", c.commit_within);
  return out;
}

Seconds Unit(const Config& c) {
  Seconds unit = 0;
  for (const auto& [field, d] : Durations(c)) unit = std::gcd(unit, d);
  return unit == 0 ? 1 : unit;
}

int Units(const std::optional<Seconds>& d, Seconds unit) {
  return d ? static_cast<int>(*d / unit) : 0;
}

}  // namespace

std::optional<Seconds> ParseDuration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  Seconds total = 0;
  std::size_t next_unit = 0;  // units must come from the largest down
  std::size_t i = 0;
  while (i < text.size()) {
    Seconds n = 0;
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      n = n * 10 + (text[i] - '0');
      if (n > 1'000'000'000) return std::nullopt;
      ++i;
    }
    if (i == start || i == text.size()) return std::nullopt;
    std::size_t u = next_unit;
    while (u < std::size(kUnits) && kUnits[u].first != text[i]) ++u;
    if (u == std::size(kUnits)) return std::nullopt;
    total += n * kUnits[u].second;
    next_unit = u + 1;
    ++i;
  }
  return total;
}

std::string FormatDuration(Seconds seconds) {
  if (seconds == 0) return "0s";
  std::string out;
  for (const auto& [letter, size] : kUnits) {
    if (seconds >= size) {
      out += fmt::format("{}{}", seconds / size, letter);
      seconds %= size;
    }
  }
  return out;
}

bool Timed(const Config& config) { return !Durations(config).empty(); }

std::optional<std::string> TimeFeatureUsed(const Config& config) {
  if (Timed(config)) {
    return fmt::format("durations ({} is set)",
                       Durations(config).front().first);
  }
  if (config.broker.dedup != Dedup::kNone) return "broker deduplication";
  return std::nullopt;
}

std::optional<std::string> GapCursorTimeConflict(const Config& c) {
  constexpr std::string_view kTakes =
      "the gap-waiting cursor takes relay.gap_timeout, source.commit_within, "
      "time.horizon and time.clocks";
  for (const auto& [field, d] : Durations(c)) {
    if (field != "relay.gap_timeout" && field != "source.commit_within" &&
        field != "time.horizon") {
      return fmt::format("{}: {}, and no other duration yet", field, kTakes);
    }
  }
  if (c.broker.dedup != Dedup::kNone) {
    return fmt::format("broker.dedup: {}, and no broker deduplication yet",
                       kTakes);
  }
  if (c.message_id != MessageIdentity::kOutboxId) {
    return fmt::format(
        "relay.message_id: {}; per-attempt ids do not combine with "
        "durations yet",
        kTakes);
  }
  if (c.budgets.lost_broker_writes != 0) {
    return fmt::format(
        "faults.lost_broker_writes: {}; lost broker writes do not combine "
        "with durations yet",
        kTakes);
  }
  if (c.broker.delivery != Delivery::kBag) {
    return fmt::format(
        "broker.delivery: {}; a partitioned broker has no clock yet", kTakes);
  }
  return std::nullopt;
}

Status ValidateTiming(const Config& c) {
  const auto durations = Durations(c);
  for (const auto& [field, d] : durations) {
    if (d <= 0 && field != "time.poll") {
      return Status::Error(
          fmt::format("{}: a duration must be longer than 0s", field));
    }
  }
  if (c.time.lease && !c.lease) {
    return Status::Error(
        "time.lease: set, but switches.lease is false; there is no lease "
        "to time");
  }
  if (c.broker.dedup == Dedup::kWindow && !c.broker.window) {
    return Status::Error(
        "broker.window: required with broker.dedup = \"window\"");
  }
  if (c.broker.dedup != Dedup::kWindow && c.broker.window) {
    return Status::Error(
        "broker.window: only meaningful with broker.dedup = \"window\"");
  }
  const FaultBudgets& b = c.budgets;
  if ((b.consumer_outages != 0) != c.time.consumer_outage.has_value()) {
    return Status::Error(
        b.consumer_outages != 0
            ? "faults.consumer_outages: needs time.consumer_outage, the "
              "length of one outage"
            : "faults.consumer_outages: time.consumer_outage is set, but no "
              "outage may happen; set faults.consumer_outages to 1 or more");
  }
  if ((b.database_outages != 0) != c.time.database_outage.has_value()) {
    return Status::Error(
        b.database_outages != 0
            ? "faults.database_outages: needs time.database_outage, the "
              "length of one outage"
            : "faults.database_outages: time.database_outage is set, but no "
              "outage may happen; set faults.database_outages to 1 or more");
  }
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const Group& group = c.groups[g];
    if (group.inbox_retention && !HasInbox(group)) {
      return Status::Error(fmt::format(
          "groups[{}].inbox_retention: group '{}' uses {}, which keeps no "
          "inbox; retention applies to credit.inbox, credit.check_then_act "
          "and credit.effect_then_inbox",
          g + 1, group.name, StrategyLabel(group)));
    }
    if (group.inbox_cleanup_every && !group.inbox_retention) {
      return Status::Error(
          fmt::format("groups[{}].inbox_cleanup_every: needs "
                      "groups[{}].inbox_retention",
                      g + 1, g + 1));
    }
    if (group.idempotency_key_window) {
      bool keyed = false;
      if (group.declared) {
        for (const auto& step : group.declared->steps) {
          for (const HandlerStatement& st : step) {
            keyed = keyed || st.kind == HandlerStatement::Kind::kCallOnce;
          }
        }
      }
      if (!keyed) {
        return Status::Error(fmt::format(
            "groups[{}].idempotency_key_window: group '{}' makes no call "
            "with an idempotency key; the window applies to a declared "
            "strategy's `call sent[event] with_key`",
            g + 1, group.name));
      }
    }
    if (group.redelivery.size() > static_cast<std::size_t>(kMaxRedeliveries)) {
      return Status::Error(
          fmt::format("groups[{}].redelivery: {} delays; allowed at most {}",
                      g + 1, group.redelivery.size(), kMaxRedeliveries));
    }
  }
  if (c.time.clocks == Clocks::kPlain && !c.time.horizon) {
    return Status::Error(
        "time.horizon: required with time.clocks = \"plain\" (plain clocks "
        "count up to the horizon)");
  }
  const Seconds unit = Unit(c);
  for (const auto& [field, d] : durations) {
    if (d / unit > kMaxTimeUnits) {
      return Status::Error(fmt::format(
          "{}: {} is {} times the time unit {} (the greatest common divisor "
          "of the scenario's durations); at most {} allowed: round the "
          "durations to a coarser common unit",
          field, FormatDuration(d), d / unit, FormatDuration(unit),
          kMaxTimeUnits));
    }
  }
  return Status::Ok();
}

Timing ComputeTiming(const Config& c) {
  Timing t;
  t.timed = Timed(c);
  if (!t.timed) return t;
  t.unit = Unit(c);
  t.plain = c.time.clocks == Clocks::kPlain;
  t.lease = Units(c.time.lease, t.unit);
  t.poll = Units(c.time.poll, t.unit);
  t.window = Units(c.broker.window, t.unit);
  t.consumer_outage = Units(c.time.consumer_outage, t.unit);
  t.database_outage = Units(c.time.database_outage, t.unit);
  t.horizon = Units(c.time.horizon, t.unit);
  t.sweeper = StyleOf(c).sweeper;
  // The age sweeper's row clock is an age, not a lease or poll clock.
  t.has_lease_clock = (c.time.lease || c.time.poll) && !t.sweeper;
  t.min_age = Units(c.min_age, t.unit);
  t.send_time = Units(c.send_time, t.unit);
  t.sweep_due = t.sweeper ? t.min_age + t.poll : 0;
  t.gap_clock = c.gaps_wait;
  t.gap_timeout = Units(c.gap_timeout, t.unit);
  t.commit_within = Units(c.commit_within, t.unit);
  t.gap_clock_cap = std::max(t.gap_timeout, t.commit_within);
  t.lease_clock_cap = t.Cap(std::max(t.lease, t.poll));
  t.tracks_now = c.time.horizon.has_value();
  for (const Group& group : c.groups) {
    GroupTiming g;
    g.has_retention = group.inbox_retention.has_value();
    g.retention = Units(group.inbox_retention, t.unit);
    g.cleanup = Units(group.inbox_cleanup_every, t.unit);
    for (Seconds d : group.redelivery) {
      g.delays.push_back(static_cast<int>(d / t.unit));
    }
    g.has_dead_letter =
        group.dead_letter_redrive || group.dead_letter_retention;
    g.redrive = Units(group.dead_letter_redrive, t.unit);
    g.dead_retention = Units(group.dead_letter_retention, t.unit);
    g.cleanup_due = g.has_retention ? g.retention + std::max(g.cleanup, 1) : 0;
    g.dead_expiry = group.dead_letter_retention ? g.dead_retention + 1 : 0;
    g.park_cap = std::max(g.redrive, g.dead_expiry);
    for (int d : g.delays) g.park_cap = std::max(g.park_cap, d);
    g.key_window = Units(group.idempotency_key_window, t.unit);
    t.groups.push_back(std::move(g));
  }
  return t;
}

std::vector<std::string> TimingAssumptions(const Config& c) {
  std::vector<std::string> out;
  if (!Timed(c)) return out;
  out.push_back(fmt::format(
      "time unit {} (the greatest common divisor of the durations); "
      "actions that are not faults happen as soon as they can",
      FormatDuration(Unit(c))));
  auto compare = [&](std::string what, Seconds a, std::string other, Seconds b,
                     std::string_view if_less, std::string_view if_not) {
    out.push_back(fmt::format("{} {} {} {} {}: {}", what, FormatDuration(a),
                              a < b ? "<" : ">=", other, FormatDuration(b),
                              a < b ? if_less : if_not));
  };
  // When a relay resends after its lease ran out (a crash, an outage).
  std::optional<Seconds> resend;
  std::string resend_text;
  if (c.time.lease) {
    resend = *c.time.lease + c.time.poll.value_or(0);
    resend_text = c.time.poll ? "lease + poll" : "lease";
  }
  if (c.time.database_outage &&
      (!resend || *c.time.database_outage > *resend)) {
    resend = c.time.database_outage;
    resend_text = "database outage";
  }
  if (StyleOf(c).sweeper && c.min_age) {
    compare("longest send", c.send_time.value_or(0), "sweeper minimum age",
            *c.min_age,
            "every send returns before the sweeper looks at its row; only a "
            "crash between the send and the mark leads to a second send",
            "the sweeper can send a row again while its first send is in "
            "flight: duplicate send");
  }
  if (c.gaps_wait && c.gap_timeout && c.commit_within) {
    compare("longest transaction", *c.commit_within, "gap timeout",
            *c.gap_timeout,
            "every gap fills before it times out; the cursor passes no "
            "committed row",
            "a row can commit after its gap timed out, below the cursor: "
            "never read");
  }
  if (c.broker.window && resend) {
    compare("broker dedup window", *c.broker.window, resend_text, *resend,
            "a resend after the lease ran out escapes the window",
            "a resend after the lease ran out lands inside the window");
  }
  for (const Group& g : c.groups) {
    if (!g.idempotency_key_window) continue;
    const std::string what = "its idempotency key window";
    Seconds scheduled = 0;
    for (Seconds d : g.redelivery) scheduled += d;
    // The provider takes a keyed call again once its key is as old as the
    // window (not only older), so the delay is the left side: at equality
    // the call is taken.
    if (!g.redelivery.empty()) {
      compare("the first redelivery delay of " + g.name, g.redelivery.front(),
              what, *g.idempotency_key_window,
              "a redelivered call finds its key",
              "a redelivered call can outlive its key: the provider takes it "
              "again");
    }
    if (g.dead_letter_redrive) {
      compare("the dead-letter redrive of " + g.name,
              scheduled + *g.dead_letter_redrive, what,
              *g.idempotency_key_window, "a redriven call finds its key",
              "a redriven call can outlive its key");
    }
  }
  for (const Group& g : c.groups) {
    if (!g.inbox_retention) continue;
    const std::string what = fmt::format("inbox retention of {}", g.name);
    const Seconds t = *g.inbox_retention;
    Seconds scheduled = 0;
    for (Seconds d : g.redelivery) scheduled += d;
    if (scheduled > 0) {
      compare(what, t, "the redelivery schedule's total", scheduled,
              "a late redelivery can find the inbox row deleted",
              "the row outlives the schedule's redeliveries");
    }
    if (g.dead_letter_redrive) {
      compare(what, t, "dead-letter redrive",
              scheduled + *g.dead_letter_redrive,
              "a redriven copy can find the inbox row deleted",
              "the row outlives the redrive");
    }
    if (c.time.consumer_outage) {
      compare(what, t, "consumer outage", *c.time.consumer_outage,
              "a copy taken back in the outage can find the row deleted",
              "the row outlives the outage");
    }
    if (resend) {
      compare(what, t, resend_text, *resend,
              "a resent copy can find the inbox row deleted",
              "the row outlives a resend");
    }
  }
  return out;
}

}  // namespace oc
