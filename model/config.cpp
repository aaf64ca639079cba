#include "model/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/closest_name.h"
#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "model/timing.h"

namespace oc {
namespace {

struct StrategyInfo {
  Strategy strategy;
  std::string_view name;
  StrategyFamily family;
  int steps;
  bool inbox;
  StrategyMemo memo = StrategyMemo::kNone;
  // Its inbox has no unique key on (consumer, event id): a check that
  // found no row does not stop a concurrent insert.
  bool unkeyed_inbox = false;
  bool concurrent_duplicate = false;
};

constexpr StrategyInfo kStrategies[] = {
    {Strategy::kCreditNaive, "credit.naive", StrategyFamily::kCredit, 1, false},
    {Strategy::kCreditInbox, "credit.inbox", StrategyFamily::kCredit, 1, true,
     StrategyMemo::kNone, false, true},
    {Strategy::kCreditCheckThenAct, "credit.check_then_act",
     StrategyFamily::kCredit, 2, true, StrategyMemo::kInboxRead, true, true},
    {Strategy::kCreditEffectThenInbox, "credit.effect_then_inbox",
     StrategyFamily::kCredit, 2, true},
    {Strategy::kProjectionLww, "projection.lww", StrategyFamily::kProjection, 1,
     false},
    {Strategy::kProjectionMonotonic, "projection.monotonic",
     StrategyFamily::kProjection, 1, false},
    {Strategy::kNotificationLedgerThenSend, "notification.ledger_then_send",
     StrategyFamily::kNotification, 2, false, StrategyMemo::kLedgerRowNew},
    {Strategy::kNotificationSendThenLedger, "notification.send_then_ledger",
     StrategyFamily::kNotification, 2, false},
    {Strategy::kCacheInvalidate, "cache.invalidate", StrategyFamily::kCache, 1,
     false},
    // Only reached by code that asks about the enum, not the group.
    {Strategy::kDeclared, "declared", StrategyFamily::kCredit, 1, false},
};

const StrategyInfo& Info(Strategy s) {
  return kStrategies[static_cast<int>(s)];
}

// Names must be printable in traces and parseable in pinned actions.
bool IsIdentifier(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}

// `field` is how the scenario file spells the i-th name: "relays[2]" for a
// plain list, "events[2].name" for an array of tables.
Status CheckNames(std::string_view what, std::string_view suffix,
                  const std::vector<std::string>& names) {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!IsIdentifier(names[i])) {
      return Status::Error(fmt::format(
          "{}[{}]{}: '{}' is not a valid name; use letters, digits, '_', "
          "'-' and '.'",
          what, i + 1, suffix, names[i]));
    }
    if (!seen.insert(names[i]).second) {
      return Status::Error(fmt::format("{}[{}]{}: '{}' is used twice", what,
                                       i + 1, suffix, names[i]));
    }
  }
  return Status::Ok();
}

Status CheckBudget(std::string_view field, int value) {
  if (value != kAnyBudget && (value < 0 || value > kMaxBudget)) {
    return Status::Error(
        fmt::format("faults.{}: {} is out of range 0..{}, or \"any\"", field,
                    value, kMaxBudget));
  }
  return Status::Ok();
}

// The rules that tie the relay style to the rest of the configuration.
Status CheckRelayStyle(const Config& config) {
  const RelayStyleInfo& style = StyleOf(config);
  const std::string_view name = style.name;
  const FaultBudgets& b = config.budgets;
  if (!style.lease_and_token) {
    if (!config.lease || !config.fencing) {
      return Status::Error(fmt::format(
          "switches.{}: relay.style '{}' has no lease and no fencing token; "
          "leave [switches] out",
          config.lease ? "fencing" : "lease", name));
    }
    if (b.premature_expiries != 0) {
      return Status::Error(fmt::format(
          "faults.premature_expiries: relay.style '{}' has no lease to "
          "expire; only {} takes premature expiries",
          name, StylesWith(&RelayStyleInfo::lease_and_token)));
    }
    if (config.claim_bound > 0) {
      return Status::Error(fmt::format(
          "bounds.claims: relay.style '{}' takes no claim bound; only "
          "{} does",
          name, StylesWith(&RelayStyleInfo::lease_and_token)));
    }
  }
  if (config.relay_style == RelayStyle::kInlineDispatch &&
      !config.commits_during_run) {
    return Status::Error(
        "source.commits: relay.style 'inline_dispatch' delivers the rows a "
        "handler's transaction writes during the run; set source.commits = "
        "\"during_run\"");
  }
  if (config.relay_style != RelayStyle::kInlineDispatch &&
      !config.dispatch_waits_for_commit) {
    return Status::Error(fmt::format(
        "relay.dispatch_waits_for_commit: relay.style '{}' runs no inline "
        "delivery pass; only 'inline_dispatch' takes it",
        name));
  }
  if (!style.failed_commits && b.failed_commits != 0) {
    return Status::Error(fmt::format(
        "faults.failed_commits: relay.style '{}' takes no failed commits; "
        "only {} does (its send and its commit share a transaction)",
        name, StylesWith(&RelayStyleInfo::failed_commits)));
  }
  if (style.one_relay && config.relays.size() != 1) {
    return Status::Error(fmt::format(
        "relays: relay.style '{}' runs exactly one relay (one cursor or "
        "connector); got {}",
        name, config.relays.size()));
  }
  if (style.sweeper) {
    if (!config.min_age) {
      return Status::Error(
          fmt::format("relay.min_age: required with relay.style = \"{}\": the "
                      "age from which the sweeper sends a row still not marked "
                      "dispatched again",
                      name));
    }
    if (config.time.lease) {
      return Status::Error(fmt::format(
          "time.lease: relay.style '{}' takes no lease; leave "
          "time.lease out (relay.send_time bounds a send, relay.min_age the "
          "sweeper)",
          name));
    }
  } else {
    for (const auto& [field, value] :
         {std::pair<std::string_view, bool>{"min_age",
                                            config.min_age.has_value()},
          {"send_time", config.send_time.has_value()}}) {
      if (value) {
        return Status::Error(fmt::format(
            "relay.{}: relay.style '{}' has no sweeper; only {} "
            "takes relay.{}",
            field, name, StylesWith(&RelayStyleInfo::sweeper), field));
      }
    }
  }
  if (config.gaps_wait && config.relay_style != RelayStyle::kSequenceCursor) {
    return Status::Error(
        fmt::format("relay.gaps: relay.style '{}' reads no cursor; only "
                    "'sequence_cursor' waits at gaps",
                    name));
  }
  if (config.gap_timeout && !config.gaps_wait) {
    return Status::Error(
        "relay.gap_timeout: needs relay.gaps = \"wait\" (a cursor that "
        "passes over gaps has none to time out)");
  }
  if (config.commit_within && !config.gaps_wait) {
    return Status::Error(
        "source.commit_within: only the gap-waiting cursor "
        "(relay.style = \"sequence_cursor\", relay.gaps = \"wait\") is "
        "timed with source commits so far");
  }
  if (config.gaps_wait && !config.commits_during_run) {
    return Status::Error(
        "relay.gaps: with every row committed before the run no gap ever "
        "opens; set source.commits = \"during_run\"");
  }
  // The other relay styles' features are untimed: their actions have no
  // place in the urgency of model/TIME.md yet, so the two do not combine.
  // age_sweeper is the style that needs the clock, and the gap-waiting
  // cursor takes its own two durations.
  if (config.gaps_wait && Timed(config)) {
    if (std::optional<std::string> conflict = GapCursorTimeConflict(config)) {
      return Status::Error(*conflict);
    }
  } else if (std::string why; !UntimedStylesOnly(config, &why)) {
    if (std::optional<std::string> feature = TimeFeatureUsed(config)) {
      return Status::Error(fmt::format(
          "{}: {}, which does not combine with {} (model/TIME.md) yet; use "
          "one or the other",
          why.substr(0, why.find(' ')), why, *feature));
    }
  }
  if (config.message_id == MessageIdentity::kPerAttempt) {
    for (const auto& [field, value] :
         {std::pair<std::string_view, int>{"lost_consumer_acks",
                                           b.lost_consumer_acks},
          {"consumer_crashes", b.consumer_crashes},
          {"redeliveries", b.redeliveries},
          {"rebalances", b.rebalances}}) {
      if (value > 0) {
        return Status::Error(fmt::format(
            "faults.{}: relay.message_id 'per_attempt' is modelled only "
            "without broker redeliveries to consumers (a redelivered copy "
            "keeps its id); set it to 0",
            field));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

std::string_view MessageIdentityName(MessageIdentity m) {
  return kMessageIdentityNames[static_cast<int>(m)];
}

std::optional<MessageIdentity> ParseMessageIdentity(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kMessageIdentityNames); ++i) {
    if (kMessageIdentityNames[i] == name) {
      return static_cast<MessageIdentity>(i);
    }
  }
  return std::nullopt;
}

namespace {

std::string FirstStyleFeature(const Config& config, bool sweeper_is_seed) {
  std::string reason;
  const RelayStyleInfo& style = StyleOf(config);
  if (sweeper_is_seed ? !style.timed : !style.lease_and_token) {
    reason = fmt::format("relay.style is '{}'", style.name);
  } else if (config.message_id != MessageIdentity::kOutboxId) {
    reason = fmt::format("relay.message_id is '{}'",
                         MessageIdentityName(config.message_id));
  } else if (config.commits_during_run) {
    reason = "source.commits is 'during_run'";
  } else {
    ForEachBudget(BudgetFamily::kStyle, [&](const FaultBudget& budget) {
      if (reason.empty() && Pool(config, budget) != 0) {
        reason = fmt::format("faults.{} is set", budget.key);
      }
    });
  }
  return reason;
}

}  // namespace

bool IsSeedPipeline(const Config& config, std::string* why) {
  const std::string reason = FirstStyleFeature(config, false);
  if (why != nullptr) *why = reason;
  return reason.empty();
}

bool UntimedStylesOnly(const Config& config, std::string* why) {
  const std::string reason = FirstStyleFeature(config, true);
  if (why != nullptr) *why = reason;
  return reason.empty();
}

std::string_view StrategyName(Strategy s) { return Info(s).name; }

std::optional<Strategy> ParseStrategy(std::string_view name) {
  for (const StrategyInfo& info : kStrategies) {
    if (info.name == name && info.strategy != Strategy::kDeclared) {
      return info.strategy;
    }
  }
  return std::nullopt;
}

static_assert(HandlerProgram::kNoFamily ==
              static_cast<std::uint8_t>(StrategyFamily::kCustom));

StrategyFamily FamilyOf(Strategy s) { return Info(s).family; }
int StepCount(Strategy s) { return Info(s).steps; }
bool HasInbox(Strategy s) { return Info(s).inbox; }
StrategyMemo MemoOf(Strategy s) { return Info(s).memo; }
bool HasUnkeyedInbox(Strategy s) { return Info(s).unkeyed_inbox; }
bool RunsConcurrentDuplicate(Strategy s) {
  return Info(s).concurrent_duplicate;
}

StrategyFamily FamilyOf(const Group& g) {
  return g.declared ? static_cast<StrategyFamily>(g.declared->family)
                    : FamilyOf(g.strategy);
}
int StepCount(const Group& g) {
  return g.declared ? static_cast<int>(g.declared->steps.size())
                    : StepCount(g.strategy);
}
bool HasInbox(const Group& g) {
  return g.declared ? g.declared->uses_inbox : HasInbox(g.strategy);
}
std::string StrategyLabel(const Group& g) {
  if (!g.declared) return std::string(StrategyName(g.strategy));
  return fmt::format("{} ({})", g.declared->name, g.declared->file);
}

namespace {

// The event attributes a declared strategy reads, its tables' sizes and
// their bounds.
Status CheckDeclaredTables(const Config& config) {
  int cells = 0;
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    if (!group.declared) continue;
    const HandlerProgram& p = *group.declared;
    for (std::size_t e = 0; e < config.events.size(); ++e) {
      const Event& event = config.events[e];
      for (const std::string& a : p.text_attributes) {
        if (!TextAttribute(event, a)) {
          return Status::Error(fmt::format(
              "events[{}].{}: event '{}' has no {}, but group '{}' uses {}, "
              "which indexes a table by event.{}",
              e + 1, a, event.name, a, group.name, StrategyLabel(group), a));
        }
      }
      for (const std::string& a : p.number_attributes) {
        const std::optional<std::int64_t> v = NumberAttribute(event, a);
        if (!v) {
          return Status::Error(fmt::format(
              "events[{}].{}: event '{}' has no number {}, but group '{}' "
              "uses {}, which reads event.{}",
              e + 1, a, event.name, a, group.name, StrategyLabel(group), a));
        }
        if (*v < -10000 || *v > 10000) {
          return Status::Error(fmt::format(
              "events[{}].{}: {} is out of range -10000..10000 for group "
              "'{}', whose strategy reads it",
              e + 1, a, *v, group.name));
        }
      }
    }
    // Every strategy reads an attribute as a value of the domain the whole
    // scenario gives it.
    for (std::size_t a = 0; a < p.text_attributes.size(); ++a) {
      const std::string& domain =
          p.domains[static_cast<std::size_t>(p.text_domain[a])];
      if (DomainOf(config, p.text_attributes[a]) != domain) {
        return Status::Error(fmt::format(
            "groups[{}].strategy: {} reads event.{} as a value of '{}', but "
            "another strategy of the scenario places '{}' in the domain "
            "'{}'; an attribute holds values of one domain",
            g + 1, StrategyLabel(group), p.text_attributes[a], domain,
            p.text_attributes[a], DomainOf(config, p.text_attributes[a])));
      }
    }
    for (const std::string& domain : p.domains) {
      if (DomainOf(config, domain) != domain) {
        return Status::Error(fmt::format(
            "groups[{}].strategy: {} has a table by '{}', but another "
            "strategy of the scenario places '{}' in the domain '{}'; write "
            "by = \"{}\"",
            g + 1, StrategyLabel(group), domain, domain,
            DomainOf(config, domain), DomainOf(config, domain)));
      }
      const std::size_t values = DomainValues(config, domain).size();
      if (values > static_cast<std::size_t>(kMaxDomainValues)) {
        return Status::Error(fmt::format(
            "events: the events name {} values of '{}', which {} reads; a "
            "domain has at most {}",
            values, domain, StrategyLabel(group), kMaxDomainValues));
      }
    }
    for (std::size_t t = 0; t < p.tables.size(); ++t) {
      const UserTable& table = p.tables[t];
      cells +=
          table.by < 0
              ? static_cast<int>(config.events.size())
              : static_cast<int>(
                    DomainValues(config,
                                 p.domains[static_cast<std::size_t>(table.by)])
                        .size());
    }
    // Starting values: a declared table, a value of its domain (or an
    // event), a value its cell holds.
    for (std::size_t i = 0; i < group.initial.size(); ++i) {
      const InitialValue& v = group.initial[i];
      const std::string field =
          fmt::format("initial.{}.{}.{}", group.name, v.table, v.at);
      auto table =
          std::find_if(p.tables.begin(), p.tables.end(),
                       [&](const UserTable& t) { return t.name == v.table; });
      if (table == p.tables.end()) {
        std::vector<std::string_view> names;
        for (const UserTable& t : p.tables) names.push_back(t.name);
        std::string hint = DidYouMean(v.table, names);
        if (hint.empty()) {
          hint =
              names.empty()
                  ? fmt::format("; {} declares no tables", StrategyLabel(group))
                  : fmt::format("; its tables are {}", fmt::join(names, ", "));
        }
        return Status::Error(fmt::format(
            "initial.{}.{}: group '{}' has no declared table '{}'{}",
            group.name, v.table, group.name, v.table, hint));
      }
      const std::vector<std::string> keys = CellNames(config, p, *table);
      if (std::find(keys.begin(), keys.end(), v.at) == keys.end()) {
        const std::vector<std::string_view> views(keys.begin(), keys.end());
        std::string hint = DidYouMean(v.at, views);
        if (hint.empty()) {
          hint = fmt::format("; they are {}", fmt::join(keys, ", "));
        }
        return Status::Error(fmt::format(
            "{}: no event {} '{}'{}", field,
            table->by < 0
                ? std::string("is named")
                : fmt::format("has the {}",
                              p.domains[static_cast<std::size_t>(table->by)]),
            v.at, hint));
      }
      if (table->row ? (v.value != 0 && v.value != 1)
                     : (v.value < INT16_MIN || v.value > INT16_MAX)) {
        return Status::Error(fmt::format(
            "{}: {} is out of range; {}", field, v.value,
            table->row ? "a row starts present (true) or not (false)"
                       : "a number cell holds -32768..32767"));
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (group.initial[j].table == v.table && group.initial[j].at == v.at) {
          return Status::Error(fmt::format("{}: given twice", field));
        }
      }
    }
    const int bound = UserNumberBound(config, static_cast<int>(g));
    if (bound > 32767) {
      return Status::Error(fmt::format(
          "groups[{}].strategy: a number table of {} could reach {} with "
          "these events and fault budgets, beyond the 32767 a cell holds; "
          "use smaller amounts or fewer faults",
          g + 1, StrategyLabel(group), bound));
    }
  }
  if (cells > kMaxUserCells) {
    return Status::Error(fmt::format(
        "groups: the declared tables need {} cells (one per event, or per "
        "value of their attribute); at most {}",
        cells, kMaxUserCells));
  }
  return Status::Ok();
}

}  // namespace

std::optional<std::string> TextAttribute(const Event& e,
                                         std::string_view name) {
  if (name == "key") return e.key;
  if (name == "account") return e.account;
  if (name == "type") return e.type;
  for (const EventAttribute& a : e.attributes) {
    if (a.name == name) return a.text;
  }
  return std::nullopt;
}

std::optional<std::int64_t> NumberAttribute(const Event& e,
                                            std::string_view name) {
  if (name == "version") {
    return e.version ? std::optional<std::int64_t>(*e.version) : std::nullopt;
  }
  if (name == "amount") return e.amount;
  for (const EventAttribute& a : e.attributes) {
    if (a.name == name) return a.number;
  }
  return std::nullopt;
}

std::string OwnAttributesText(const Event& e) {
  std::vector<std::string> parts;
  for (const EventAttribute& a : e.attributes) {
    parts.push_back(a.text ? fmt::format("{}={}", a.name, *a.text)
                           : fmt::format("{}={}", a.name, *a.number));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<std::string> AttributeValues(const Config& config,
                                         std::string_view attribute) {
  std::vector<std::string> values;
  for (const Event& e : config.events) {
    const std::optional<std::string> v = TextAttribute(e, attribute);
    if (v && std::find(values.begin(), values.end(), *v) == values.end()) {
      values.push_back(*v);
    }
  }
  return values;
}

std::string DomainOf(const Config& config, std::string_view attribute) {
  for (const Group& g : config.groups) {
    if (!g.declared) continue;
    const std::string_view domain = DomainOfAttribute(*g.declared, attribute);
    if (domain != attribute) return std::string(domain);
  }
  return std::string(attribute);
}

std::vector<std::string> DomainAttributes(const Config& config,
                                          std::string_view domain) {
  std::vector<std::string> out{std::string(domain)};
  for (const Group& g : config.groups) {
    if (!g.declared) continue;
    for (const DeclaredDomain& d : g.declared->declared_domains) {
      if (d.name != domain) continue;
      for (const std::string& a : d.attributes) {
        if (std::find(out.begin(), out.end(), a) == out.end()) {
          out.push_back(a);
        }
      }
    }
  }
  return out;
}

std::vector<std::string> DomainValues(const Config& config,
                                      std::string_view domain) {
  const std::vector<std::string> attributes = DomainAttributes(config, domain);
  std::vector<std::string> values;
  for (const Event& e : config.events) {
    for (const std::string& a : attributes) {
      const std::optional<std::string> v = TextAttribute(e, a);
      if (v && std::find(values.begin(), values.end(), *v) == values.end()) {
        values.push_back(*v);
      }
    }
  }
  return values;
}

std::vector<std::int16_t> EventValueIndices(const Config& config,
                                            const HandlerProgram& p,
                                            const Event& e) {
  std::vector<std::int16_t> out;
  for (std::size_t a = 0; a < p.text_attributes.size(); ++a) {
    const std::vector<std::string> values = DomainValues(
        config, p.domains[static_cast<std::size_t>(p.text_domain[a])]);
    const std::optional<std::string> v = TextAttribute(e, p.text_attributes[a]);
    const auto at =
        v ? std::find(values.begin(), values.end(), *v) : values.end();
    out.push_back(at == values.end()
                      ? std::int16_t{-1}
                      : static_cast<std::int16_t>(at - values.begin()));
  }
  return out;
}

std::vector<std::string> CellNames(const Config& config,
                                   const HandlerProgram& p,
                                   const UserTable& table) {
  if (table.by >= 0) {
    return DomainValues(config, p.domains[static_cast<std::size_t>(table.by)]);
  }
  std::vector<std::string> names;
  for (const Event& e : config.events) names.push_back(e.name);
  return names;
}

std::vector<std::string> InitialTables(const Group& group) {
  std::vector<std::string> tables;
  for (const InitialValue& v : group.initial) {
    if (std::find(tables.begin(), tables.end(), v.table) == tables.end()) {
      tables.push_back(v.table);
    }
  }
  return tables;
}

std::vector<UserTableLayout> UserTableLayouts(const Config& config) {
  std::vector<UserTableLayout> out;
  int first = 0;
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    if (!group.declared) continue;
    const HandlerProgram& p = *group.declared;
    for (std::size_t t = 0; t < p.tables.size(); ++t) {
      UserTableLayout l;
      l.group = static_cast<int>(g);
      l.table = static_cast<int>(t);
      l.first = first;
      l.by_event = p.tables[t].by < 0;
      l.row = p.tables[t].row;
      l.names = CellNames(config, p, p.tables[t]);
      l.size = static_cast<int>(l.names.size());
      l.initial.assign(l.names.size(), 0);
      for (const InitialValue& v : group.initial) {
        if (v.table != p.tables[t].name) continue;
        auto at = std::find(l.names.begin(), l.names.end(), v.at);
        if (at != l.names.end()) {
          l.initial[static_cast<std::size_t>(at - l.names.begin())] =
              static_cast<std::int16_t>(v.value);
        }
      }
      first += l.size;
      out.push_back(std::move(l));
    }
  }
  return out;
}

namespace {

// The most copies of one event the broker can accept: each claim (read)
// is followed by at most one send, and each lost publish acknowledgement
// adds a resend.
int SendsPerEvent(const Config& config) {
  const FaultBudgets& b = config.budgets;
  int tokens = config.claim_bound;
  if (config.lease) {
    // A database outage can hold a relay's completion past its lease.
    const int by_lease =
        1 + b.premature_expiries + b.relay_crashes + b.database_outages;
    tokens = tokens > 0 ? std::min(tokens, by_lease) : by_lease;
  }
  return ReadsPerEvent(config, tokens) + b.lost_publish_acks;
}

}  // namespace

int PartitionOf(const Config& config, int e) {
  const Event& event = config.events[static_cast<std::size_t>(e)];
  const int partitions = std::max(1, config.broker.partitions);
  if (event.partition) return *event.partition - 1;
  if (event.key) {
    const std::vector<std::string> keys = Keys(config);
    const auto at = std::find(keys.begin(), keys.end(), *event.key);
    return static_cast<int>(at - keys.begin()) % partitions;
  }
  return e % partitions;
}

int PartitionCapacity(const Config& config, int p) {
  int records = 0;
  for (int e = 0; e < static_cast<int>(config.events.size()); ++e) {
    if (PartitionOf(config, e) == p) records += SendsPerEvent(config);
  }
  return records;
}

int CopyBound(const Config& config) {
  const FaultBudgets& b = config.budgets;
  if (config.broker.delivery == Delivery::kPartitioned) {
    // A record is handled again only after its partition restarts from
    // the committed offset (a consumer crash or a rebalance), and a
    // rebalance also lets the old owner finish the record it holds.
    // A failed record goes to the retry topic, from which each delivery
    // can fail again (a lost acknowledgement, a crash).
    return SendsPerEvent(config) * (1 + b.consumer_crashes + 2 * b.rebalances) +
           b.handler_failures * (1 + b.lost_consumer_acks + b.consumer_crashes);
  }
  const int claims = SendsPerEvent(config) - b.lost_publish_acks;
  int instances = 0;
  for (const Group& g : config.groups) instances += g.instances;
  // A consumer outage takes back the delivery of every instance.
  return claims + b.lost_publish_acks + b.lost_consumer_acks +
         b.consumer_crashes + b.redeliveries + b.consumer_outages * instances;
}

int UserNumberBound(const Config& config, int group) {
  const Group& g = config.groups[static_cast<std::size_t>(group)];
  if (!g.declared) return 0;
  const HandlerProgram& p = *g.declared;
  // The largest magnitude a statement's value takes over the events.
  const auto magnitude = [&](int node) {
    const ExprNode* n = &p.nodes[static_cast<std::size_t>(node)];
    if (n->op == ExprOp::kNeg) n = &p.nodes[static_cast<std::size_t>(n->lhs)];
    if (n->op == ExprOp::kConst) return n->value < 0 ? -n->value : n->value;
    std::int64_t most = 0;
    for (const Event& e : config.events) {
      const std::optional<std::int64_t> v = NumberAttribute(
          e, p.number_attributes[static_cast<std::size_t>(n->a)]);
      if (v) most = std::max(most, *v < 0 ? -*v : *v);
    }
    return static_cast<int>(std::min<std::int64_t>(most, 1 << 20));
  };
  std::int64_t changes = 0;
  int sets = 0;
  for (const auto& step : p.steps) {
    for (const HandlerStatement& st : step) {
      if (st.user < 0 || p.tables[static_cast<std::size_t>(st.user)].row) {
        continue;
      }
      if (st.kind == HandlerStatement::Kind::kAdd ||
          st.kind == HandlerStatement::Kind::kSubtract) {
        changes += magnitude(st.value);
      } else if (st.kind == HandlerStatement::Kind::kSet ||
                 st.kind == HandlerStatement::Kind::kSetMax) {
        sets = std::max(sets, magnitude(st.value));
      }
    }
  }
  // Every copy of every event may land on one cell (a table per account),
  // from the largest starting value.
  std::int64_t start = 0;
  for (const InitialValue& v : g.initial) {
    start = std::max<std::int64_t>(start, v.value < 0 ? -v.value : v.value);
  }
  const std::int64_t bound =
      std::max<std::int64_t>(sets, start) +
      changes * CopyBound(config) *
          static_cast<std::int64_t>(config.events.size());
  return static_cast<int>(std::min<std::int64_t>(bound, 1 << 30));
}

namespace {

// The partitioned broker's settings (docs/SEMANTICS.md section 16), and
// what it does not combine with.
Status CheckPartitions(const Config& config) {
  const bool partitioned = config.broker.delivery == Delivery::kPartitioned;
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    const std::optional<int>& p = config.events[e].partition;
    if (!p) continue;
    if (!partitioned) {
      return Status::Error(fmt::format(
          "events[{}].partition: only a partitioned broker has partitions; "
          "set broker.delivery = \"partitioned\" or leave the key out",
          e + 1));
    }
    if (*p < 1 || *p > config.broker.partitions) {
      return Status::Error(fmt::format(
          "events[{}].partition: {} is out of range 1..{} (broker.partitions)",
          e + 1, *p, config.broker.partitions));
    }
  }
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    if (config.groups[g].commit_before && !partitioned) {
      return Status::Error(fmt::format(
          "groups[{}].commit: only a partitioned broker has offsets to "
          "commit; set broker.delivery = \"partitioned\" or leave the key "
          "out",
          g + 1));
    }
  }
  if (config.max_in_flight < 1 || config.max_in_flight > kMaxInFlight) {
    return Status::Error(
        fmt::format("relay.max_in_flight: {} is out of range "
                    "1..{}",
                    config.max_in_flight, kMaxInFlight));
  }
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    if (config.groups[g].retry_topic && !partitioned) {
      return Status::Error(fmt::format(
          "groups[{}].on_failure: retry topics are modelled for a "
          "partitioned broker only; set broker.delivery = \"partitioned\"",
          g + 1));
    }
  }
  if (!partitioned && config.budgets.handler_failures != 0) {
    return Status::Error(
        "faults.handler_failures: modelled for a partitioned broker only; "
        "set broker.delivery = \"partitioned\"");
  }
  if (!partitioned) {
    if (config.max_in_flight != 1 || config.idempotent_producer ||
        config.budgets.send_failures != 0) {
      return Status::Error(fmt::format(
          "{}: the producer's writes are modelled for a partitioned broker "
          "only; set broker.delivery = \"partitioned\"",
          config.budgets.send_failures != 0 ? "faults.send_failures"
          : config.idempotent_producer      ? "relay.idempotent_producer"
                                            : "relay.max_in_flight"));
    }
    if (config.broker.partitions != 1) {
      return Status::Error(
          "broker.partitions: only a partitioned broker has partitions; set "
          "broker.delivery = \"partitioned\"");
    }
    if (config.budgets.rebalances != 0) {
      return Status::Error(
          "faults.rebalances: only a partitioned broker assigns partitions "
          "to instances; set broker.delivery = \"partitioned\"");
    }
    if (!config.broker.commit_fencing) {
      return Status::Error(
          "broker.commit_fencing: only a partitioned broker has offsets to "
          "commit; set broker.delivery = \"partitioned\"");
    }
    return Status::Ok();
  }
  if (config.broker.partitions < 1 ||
      config.broker.partitions > kMaxPartitions) {
    return Status::Error(
        fmt::format("broker.partitions: {} is out of range 1..{}",
                    config.broker.partitions, kMaxPartitions));
  }
  if (config.budgets.redeliveries != 0) {
    return Status::Error(
        "faults.redeliveries: a partitioned broker has no visibility "
        "timeout; a handler too slow for its poll interval shows up as a "
        "rebalance (faults.rebalances)");
  }
  if (config.budgets.lost_broker_writes != 0) {
    return Status::Error(
        "faults.lost_broker_writes: not modelled for a partitioned broker "
        "yet; leave it at 0");
  }
  if (CountsAbstracted(config)) {
    return Status::Error(
        AnyUnboundedBudget(config)
            ? "broker.delivery: a partitioned broker's logs grow with every "
              "resend, so it cannot be combined with an \"any\" budget yet; "
              "give every budget a number"
            : "bounds.claims: required with a partitioned broker when "
              "switches.lease is false: the logs grow with every resend");
  }
  if (std::optional<std::string> feature = TimeFeatureUsed(config)) {
    return Status::Error(fmt::format(
        "broker.delivery: a partitioned broker has no clock yet, and this "
        "scenario uses time ({})",
        *feature));
  }
  for (int p = 0; p < config.broker.partitions; ++p) {
    const int capacity = PartitionCapacity(config, p);
    if (capacity > kMaxRecords) {
      return Status::Error(fmt::format(
          "broker.partitions: partition p{} could receive {} records, more "
          "than the {} a partition holds; spread the events over more "
          "partitions or lower the budgets that cause resends",
          p + 1, capacity, kMaxRecords));
    }
  }
  return Status::Ok();
}

}  // namespace

Status Validate(const Config& config) {
  if (config.relays.empty() ||
      config.relays.size() > static_cast<std::size_t>(kMaxRelays)) {
    return Status::Error(fmt::format("relays: {} relays; allowed 1..{}",
                                     config.relays.size(), kMaxRelays));
  }
  if (Status s = CheckNames("relays", "", config.relays); !s.ok()) return s;

  if (config.events.empty() ||
      config.events.size() > static_cast<std::size_t>(kMaxEvents)) {
    return Status::Error(fmt::format("events: {} events; allowed 1..{}",
                                     config.events.size(), kMaxEvents));
  }
  std::vector<std::string> event_names;
  for (const Event& e : config.events) event_names.push_back(e.name);
  if (Status s = CheckNames("events", ".name", event_names); !s.ok()) return s;

  if (config.groups.size() > static_cast<std::size_t>(kMaxGroups)) {
    return Status::Error(fmt::format("groups: {} groups; allowed 0..{}",
                                     config.groups.size(), kMaxGroups));
  }
  std::vector<std::string> group_names;
  for (const Group& g : config.groups) group_names.push_back(g.name);
  if (Status s = CheckNames("groups", ".name", group_names); !s.ok()) return s;

  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    if (group.instances < 1 || group.instances > kMaxInstances) {
      return Status::Error(
          fmt::format("groups[{}].instances: {} is out of range 1..{}", g + 1,
                      group.instances, kMaxInstances));
    }
    if ((group.strategy == Strategy::kDeclared) != group.declared.has_value()) {
      return Status::Error(fmt::format(
          "groups[{}].strategy: a declared strategy needs its program", g + 1));
    }
    const StrategyFamily family = FamilyOf(group);
    if (family != StrategyFamily::kProjection &&
        family != StrategyFamily::kCache) {
      continue;
    }
    for (std::size_t e = 0; e < config.events.size(); ++e) {
      const Event& event = config.events[e];
      if (!event.key) {
        return Status::Error(fmt::format(
            "events[{}].key: event '{}' has no key, but group '{}' uses {}, "
            "which needs a key on every event",
            e + 1, event.name, group.name, StrategyLabel(group)));
      }
      if (family == StrategyFamily::kProjection && !event.version) {
        return Status::Error(fmt::format(
            "events[{}].version: event '{}' has no version, but group '{}' "
            "uses {}, which needs a version on every event",
            e + 1, event.name, group.name, StrategyLabel(group)));
      }
    }
  }

  for (const FaultBudget& budget : kFaultBudgets) {
    if (Status s = CheckBudget(budget.key, Pool(config, budget)); !s.ok()) {
      return s;
    }
  }

  if (config.claim_bound < 0 || config.claim_bound > kMaxClaimBound) {
    return Status::Error(fmt::format("bounds.claims: {} is out of range 1..{}",
                                     config.claim_bound, kMaxClaimBound));
  }
  if (Status s = CheckRelayStyle(config); !s.ok()) return s;
  if (Status s = CheckDeclaredTables(config); !s.ok()) return s;
  // Unbounded budgets: the abstraction (docs/SEMANTICS.md section 14)
  // keeps the built-in tables finite, not a declared strategy's own.
  for (const FaultBudget& budget : kFaultBudgets) {
    if (!Unbounded(config, budget)) continue;
    for (const Group& g : config.groups) {
      if (g.declared) {
        return Status::Error(fmt::format(
            "faults.{}: \"any\" cannot be used with a declared strategy "
            "(group '{}'): the counts in its own tables are not abstracted; "
            "give the budget a number",
            budget.key, g.name));
      }
    }
  }
  // Without a lease and a claim bound, sends and deliveries never stop
  // either: a declared number table could count up for ever.
  if (CountsAbstracted(config)) {
    for (const UserTableLayout& l : UserTableLayouts(config)) {
      if (l.row) continue;
      return Status::Error(fmt::format(
          "bounds.claims: required when switches.lease is false and group "
          "'{}' runs a declared strategy with a number table: its counts "
          "are not abstracted, so without a claim bound they would grow "
          "for ever",
          config.groups[static_cast<std::size_t>(l.group)].name));
    }
  }
  if (Status s = CheckPartitions(config); !s.ok()) return s;
  return ValidateTiming(config);
}

std::vector<std::string> AttributesTheModelReads(const Config& config) {
  std::vector<std::string> reads;
  auto add = [&](const std::string& name) {
    if (std::find(reads.begin(), reads.end(), name) == reads.end()) {
      reads.push_back(name);
    }
  };
  for (const Group& g : config.groups) {
    const StrategyFamily family = FamilyOf(g);
    if (family == StrategyFamily::kProjection) {
      add("key");
      add("version");
    } else if (family == StrategyFamily::kCache) {
      add("key");
    }
    if (!g.declared) continue;
    if (g.declared->uses_key) add("key");
    for (const std::string& a : g.declared->text_attributes) add(a);
    for (const std::string& a : g.declared->number_attributes) add(a);
  }
  return reads;
}

std::vector<std::string> Keys(const Config& config) {
  std::vector<std::string> keys;
  for (const Event& e : config.events) {
    if (e.key && std::find(keys.begin(), keys.end(), *e.key) == keys.end()) {
      keys.push_back(*e.key);
    }
  }
  return keys;
}

}  // namespace oc
