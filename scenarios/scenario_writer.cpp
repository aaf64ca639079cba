#include "scenarios/scenario_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "common/text.h"
#include "model/fault_budgets.h"
#include "model/outbox_model.h"
#include "model/relay_styles.h"
#include "model/timing.h"

namespace oc {
namespace {

// A TOML array of basic strings (QuoteToml: control characters escaped,
// everything else, including non-ASCII UTF-8, copied as is).
std::string QuotedList(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) quoted.push_back(QuoteToml(item));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string_view Bool(bool b) { return b ? "true" : "false"; }

// The shorthand `relays = N` says exactly this.
bool DefaultRelays(const std::vector<std::string>& relays) {
  for (std::size_t i = 0; i < relays.size(); ++i) {
    if (relays[i] != fmt::format("r{}", i + 1)) return false;
  }
  return true;
}

// The shorthand `events = N` says exactly this.
bool DefaultEvents(const std::vector<Event>& events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    Event expected;
    expected.name = fmt::format("e{}", i + 1);
    expected.type = "event";
    if (!(events[i] == expected)) return false;
  }
  return true;
}

void WriteConfig(const Config& config, std::string& out) {
  if (DefaultRelays(config.relays)) {
    out += fmt::format("relays = {}\n", config.relays.size());
  } else {
    out += fmt::format("relays = {}\n", QuotedList(config.relays));
  }
  if (DefaultEvents(config.events)) {
    out += fmt::format("events = {}\n", config.events.size());
  } else {
    for (const Event& e : config.events) {
      out += fmt::format("\n[[events]]\nname = {}\ntype = {}\n",
                         QuoteToml(e.name), QuoteToml(e.type));
      if (e.key) out += fmt::format("key = {}\n", QuoteToml(*e.key));
      if (e.version) out += fmt::format("version = {}\n", *e.version);
      if (e.account)
        out += fmt::format("account = {}\n", QuoteToml(*e.account));
      if (e.amount) out += fmt::format("amount = {}\n", *e.amount);
      if (e.partition) out += fmt::format("partition = {}\n", *e.partition);
      for (const EventAttribute& a : e.attributes) {
        out += a.text ? fmt::format("{} = {}\n", a.name, QuoteToml(*a.text))
                      : fmt::format("{} = {}\n", a.name, *a.number);
      }
    }
  }
  auto duration = [&](std::string_view key, const std::optional<Seconds>& d) {
    if (d) out += fmt::format("{} = {}\n", key, QuoteToml(FormatDuration(*d)));
  };
  for (const Group& g : config.groups) {
    out += fmt::format(
        "\n[[groups]]\nname = {}\nstrategy = {}\ninstances = {}\n",
        QuoteToml(g.name),
        g.declared ? fmt::format("{{ file = {} }}", QuoteToml(g.declared->file))
                   : QuoteToml(StrategyName(g.strategy)),
        g.instances);
    duration("inbox_retention", g.inbox_retention);
    duration("inbox_cleanup_every", g.inbox_cleanup_every);
    if (!g.redelivery.empty()) {
      std::vector<std::string> delays;
      for (Seconds d : g.redelivery) delays.push_back(FormatDuration(d));
      out += fmt::format("redelivery = {}\n", QuotedList(delays));
    }
    duration("dead_letter_redrive", g.dead_letter_redrive);
    duration("dead_letter_retention", g.dead_letter_retention);
    duration("idempotency_key_window", g.idempotency_key_window);
    if (g.commit_before) out += "commit = \"before\"\n";
    if (g.retry_topic) out += "on_failure = \"retry_topic\"\n";
  }
  // The relay styles' tables only when they say something, so that the seed's
  // canonical form stays as it was.
  if (config.relay_style != kDefaultRelayStyle ||
      config.message_id != MessageIdentity::kOutboxId) {
    out += fmt::format("\n[relay]\nstyle = {}\nmessage_id = {}\n",
                       QuoteToml(RelayStyleName(config.relay_style)),
                       QuoteToml(MessageIdentityName(config.message_id)));
    if (config.min_age) {
      out += fmt::format("min_age = {}\n",
                         QuoteToml(FormatDuration(*config.min_age)));
    }
    if (config.send_time) {
      out += fmt::format("send_time = {}\n",
                         QuoteToml(FormatDuration(*config.send_time)));
    }
    if (config.relay_style == RelayStyle::kInlineDispatch) {
      out += fmt::format("dispatch_waits_for_commit = {}\n",
                         Bool(config.dispatch_waits_for_commit));
    }
    if (config.gaps_wait) out += "gaps = \"wait\"\n";
    if (config.gap_timeout) {
      out += fmt::format("gap_timeout = {}\n",
                         QuoteToml(FormatDuration(*config.gap_timeout)));
    }
  }
  if (config.max_in_flight != 1 || config.idempotent_producer) {
    // The partitioned broker's producer (a [relay] table of its own when
    // the style is the default).
    if (config.relay_style == kDefaultRelayStyle &&
        config.message_id == MessageIdentity::kOutboxId) {
      out += "\n[relay]\n";
    }
    out += fmt::format("max_in_flight = {}\nidempotent_producer = {}\n",
                       config.max_in_flight, Bool(config.idempotent_producer));
  }
  if (config.commits_during_run) {
    out += "\n[source]\ncommits = \"during_run\"\n";
    if (config.commit_within) {
      out += fmt::format("commit_within = {}\n",
                         QuoteToml(FormatDuration(*config.commit_within)));
    }
  }
  if (StyleOf(config).lease_and_token) {
    out += fmt::format("\n[switches]\nlease = {}\nfencing = {}\n",
                       Bool(config.lease), Bool(config.fencing));
  }
  // The seed's six always, so that its canonical form stays as it was; the
  // others when set.
  out += "\n[faults]\n";
  for (const FaultBudget& budget : kFaultBudgets) {
    const int pool = Pool(config, budget);
    if (budget.shown == BudgetShown::kAlways || pool != 0) {
      out += fmt::format("{} = {}\n", budget.key, BudgetText(pool, true));
    }
  }
  const TimeConfig& t = config.time;
  if (t.lease || t.poll || t.horizon || t.consumer_outage ||
      t.database_outage || t.clocks != Clocks::kCapped) {
    out += "\n[time]\n";
    duration("lease", t.lease);
    duration("poll", t.poll);
    duration("horizon", t.horizon);
    duration("consumer_outage", t.consumer_outage);
    duration("database_outage", t.database_outage);
    if (t.clocks == Clocks::kPlain) out += "clocks = \"plain\"\n";
  }
  const bool partitioned = config.broker.delivery == Delivery::kPartitioned;
  if (config.broker.dedup != Dedup::kNone || partitioned) {
    out += "\n[broker]\n";
  }
  if (config.broker.dedup != Dedup::kNone) {
    out += fmt::format("dedup = {}\n", config.broker.dedup == Dedup::kWindow
                                           ? "\"window\""
                                           : "\"producer_session\"");
    duration("window", config.broker.window);
  }
  if (partitioned) {
    out += fmt::format(
        "delivery = \"partitioned\"\npartitions = {}\ncommit_fencing = {}\n",
        config.broker.partitions, Bool(config.broker.commit_fencing));
  }
}

void WriteBounds(const Scenario& s, std::string& out) {
  std::string bounds;
  if (s.config.claim_bound > 0) {
    bounds += fmt::format("claims = {}\n", s.config.claim_bound);
  }
  if (s.limits.max_depth) {
    bounds += fmt::format("max_depth = {}\n", *s.limits.max_depth);
  }
  if (s.limits.max_states) {
    bounds += fmt::format("max_states = {}\n", *s.limits.max_states);
  }
  if (!bounds.empty()) out += "\n[bounds]\n" + bounds;
  // Starting values of declared tables, in the order they were read.
  for (const Group& g : s.config.groups) {
    const std::vector<std::string> tables = InitialTables(g);
    if (tables.empty()) continue;
    out += fmt::format("\n[initial.{}]\n", QuoteToml(g.name));
    for (const std::string& t : tables) {
      bool row = false;  // a group with starting values has declared tables
      for (const UserTable& u : g.declared->tables) {
        if (u.name == t) row = u.row;
      }
      std::vector<std::string> cells;
      for (const InitialValue& v : g.initial) {
        if (v.table != t) continue;
        cells.push_back(
            fmt::format("{} = {}", QuoteToml(v.at),
                        row ? std::string(v.value != 0 ? "true" : "false")
                            : fmt::format("{}", v.value)));
      }
      out +=
          fmt::format("{} = {{ {} }}\n", QuoteToml(t), fmt::join(cells, ", "));
    }
  }
}

void WriteCheck(const Scenario& s, std::string& out) {
  out += fmt::format("\n[check]\ninvariants = {}\n", QuotedList(s.invariants));
  out += fmt::format("stop_at_first_violation = {}\n",
                     Bool(s.stop_at_first_violation));
  if (!s.must_fire.empty()) {
    out += fmt::format("must_fire = {}\n", QuotedList(s.must_fire));
  }
  if (!s.walk_weights.empty()) {
    // The classes whose weight is not the default 1, in class order.
    const std::vector<std::string> classes = OutboxModel::ActionClassNames();
    std::vector<std::string> weights;
    for (std::size_t c = 0; c < s.walk_weights.size() && c < classes.size();
         ++c) {
      if (s.walk_weights[c] == 1) continue;
      weights.push_back(fmt::format("{} = {}", classes[c], s.walk_weights[c]));
    }
    out += fmt::format("walk_weights = {{ {} }}\n", fmt::join(weights, ", "));
  }
  if (!s.order.empty()) {
    out += "order = [\n";
    for (const PinnedStep& step : s.order) {
      out += fmt::format("  {},\n",
                         QuoteToml(FormatAction(s.config, step.action)));
    }
    out += "]\n";
  }
  if (!s.loop.empty()) {
    out += "loop = [\n";
    for (const PinnedStep& step : s.loop) {
      out += fmt::format("  {},\n",
                         QuoteToml(FormatAction(s.config, step.action)));
    }
    out += "]\n";
  }
}

void WriteExpect(const Expectation& e, std::string& out) {
  out += "\n[expect]\n";
  for (const TomlKey& key : ExpectTableKeys(e)) {
    out += fmt::format("{} = {}\n", key.name, key.value);
  }
}

}  // namespace

std::vector<TomlKey> ExpectTableKeys(const Expectation& e) {
  std::vector<TomlKey> keys;
  if (e.verdict == Verdict::kHolds) {
    keys.push_back({"verdict", "\"holds\""});
  } else {
    keys.push_back({"verdict", "\"violated\""});
    keys.push_back({"violated", e.violated.size() == 1
                                    ? QuoteToml(e.violated.front())
                                    : QuotedList(e.violated)});
  }
  if (e.trace_length) {
    keys.push_back({"trace_length", fmt::format("{}", *e.trace_length)});
  }
  if (e.states) keys.push_back({"states", fmt::format("{}", *e.states)});
  return keys;
}

std::string FormatScenario(const Scenario& scenario) {
  std::string out = fmt::format("name = {}\n", QuoteToml(scenario.name));
  if (!scenario.description.empty()) {
    out += fmt::format("description = {}\n", QuoteToml(scenario.description));
  }
  WriteConfig(scenario.config, out);
  WriteBounds(scenario, out);
  WriteCheck(scenario, out);
  if (scenario.expect) WriteExpect(*scenario.expect, out);
  for (const InvariantExpression& x : scenario.expressions) {
    constexpr std::string_view kKinds[] = {"safety", "transition", "at_rest"};
    out += fmt::format("\n[[invariants]]\nname = {}\nkind = \"{}\"\n",
                       QuoteToml(x.name), kKinds[static_cast<int>(x.kind)]);
    if (!x.groups.empty()) {
      std::vector<std::string> quoted;
      for (const std::string& g : x.groups) quoted.push_back(QuoteToml(g));
      out += fmt::format("groups = [{}]\n", fmt::join(quoted, ", "));
    }
    out += fmt::format("holds = {}\n", QuoteToml(x.text));
    if (std::find(scenario.unchecked.begin(), scenario.unchecked.end(),
                  x.name) != scenario.unchecked.end()) {
      out += "check = false\n";
    }
  }
  return out;
}

}  // namespace oc
