// The scenario loader: one reader per section of FORMAT.md, on top of the
// typed, positioned access to toml++ nodes they share. Longer than the usual
// 600 lines because every rule of the format is a few lines here and the
// rules belong together; the helpers at the top could move to their own
// file if another TOML reader appears.

#include "scenarios/scenario_loader.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "common/closest_name.h"
#include "invariants/invariant.h"
#include "model/fault_budgets.h"
#include "model/outbox_model.h"
#include "model/relay_styles.h"
#include "model/timing.h"
#include "scenarios/file_text.h"
#include "scenarios/strategy_loader.h"
#include "scenarios/toml_words.h"

namespace oc {
namespace {

// The keys each table allows, in the order FORMAT.md lists them; also the
// order of "allowed keys are ..." hints.
constexpr std::string_view kTopKeys[] = {
    "name",   "description", "relays",     "events", "groups", "relay",
    "source", "switches",    "faults",     "time",   "broker", "bounds",
    "check",  "expect",      "invariants", "initial"};
constexpr std::string_view kRelayKeys[] = {"style",
                                           "message_id",
                                           "max_in_flight",
                                           "idempotent_producer",
                                           "dispatch_waits_for_commit",
                                           "min_age",
                                           "send_time",
                                           "gaps",
                                           "gap_timeout"};
constexpr std::string_view kGapRules[] = {"pass_over", "wait"};
constexpr std::string_view kSourceKeys[] = {"commits", "commit_within"};
constexpr std::string_view kCommitTimes[] = {"before_run", "during_run"};
constexpr std::string_view kExpressionKeys[] = {"name", "kind", "groups",
                                                "holds", "check"};
constexpr std::string_view kDefinitionKeys[] = {"name", "description", "kind",
                                                "groups", "holds"};
constexpr std::string_view kEventKeys[] = {
    "name", "type", "key", "version", "account", "amount", "partition"};
constexpr std::string_view kGroupKeys[] = {"name",
                                           "strategy",
                                           "instances",
                                           "inbox_retention",
                                           "inbox_cleanup_every",
                                           "redelivery",
                                           "dead_letter_redrive",
                                           "dead_letter_retention",
                                           "idempotency_key_window",
                                           "commit",
                                           "on_failure"};
constexpr std::string_view kTimeKeys[] = {
    "lease", "poll", "horizon", "consumer_outage", "database_outage", "clocks"};
constexpr std::string_view kBrokerKeys[] = {"dedup", "window", "delivery",
                                            "partitions", "commit_fencing"};
constexpr std::string_view kSwitchKeys[] = {"lease", "fencing"};
constexpr std::string_view kBoundKeys[] = {"claims", "max_depth", "max_states"};
constexpr std::string_view kCheckKeys[] = {
    "invariants", "stop_at_first_violation",
    "must_fire",  "walk_weights",
    "order",      "loop"};
constexpr std::string_view kExpectKeys[] = {"verdict", "violated",
                                            "trace_length", "states"};
constexpr std::string_view kDeclaredKeys[] = {"file"};

// The words of the word-valued fields, each list in the order of the enum
// it is read into (OptionalWord and ReadExpression index by position).
constexpr std::string_view kDedupModes[] = {"none", "window",
                                            "producer_session"};
constexpr std::string_view kClocks[] = {"capped", "plain"};
constexpr std::string_view kDeliveries[] = {"bag", "partitioned"};
// groups[].commit, in the order of Group::commit_before's values.
constexpr std::string_view kCommitModes[] = {"after", "before"};
// groups[].on_failure, in the order of Group::retry_topic's values.
constexpr std::string_view kFailureModes[] = {"retry_in_place", "retry_topic"};
constexpr std::string_view kInvariantKinds[] = {"safety", "transition",
                                                "at_rest"};
constexpr std::string_view kVerdicts[] = {"holds", "violated"};

// The names check.must_fire takes: every action class, and "complete" and
// "expire" for both of their classes.
std::vector<std::string> MustFireNames() {
  std::vector<std::string> names = OutboxModel::ActionClassNames();
  names.insert(names.begin(), {"complete", "expire"});
  return names;
}

// The keys check.walk_weights takes: the action classes, in class order.
// Kept for the program's lifetime, as KeyTable's views need.
const std::vector<std::string>& ActionClassNames() {
  static const std::vector<std::string> names = OutboxModel::ActionClassNames();
  return names;
}

constexpr std::int64_t kNoUpperLimit = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

SourcePosition PositionOf(const toml::source_region& region) {
  return {static_cast<int>(region.begin.line),
          static_cast<int>(region.begin.column)};
}

// Field names are 1-based, as Validate() writes them: "groups[1].strategy".
std::string Indexed(std::string_view field, std::size_t index) {
  return fmt::format("{}[{}]", field, index + 1);
}

std::string Dotted(std::string_view table, std::string_view key) {
  return table.empty() ? std::string(key) : fmt::format("{}.{}", table, key);
}

// What `events = N` stands for at 0-based `index`.
Event DefaultEvent(std::size_t index) {
  Event event;
  event.name = fmt::format("e{}", index + 1);
  event.type = "event";
  return event;
}

template <class T>
void Assign(T& out, std::int64_t v) {
  out = static_cast<T>(v);
}
template <class T>
void Assign(std::optional<T>& out, std::int64_t v) {
  out = static_cast<T>(v);
}

// Reads one parsed document into a Scenario. Every check returns the first
// error it finds; the reader stops there, so a message never follows from an
// earlier one.
class Reader {
 public:
  Reader(const std::string& path, Scenario& out,
         ExpectTable expect = ExpectTable::kRead)
      : path_(path), out_(out), expect_(expect) {}

  Status Read(const toml::table& root) {
    Status s = CheckKeys(root, "", kTopKeys);
    if (s.ok()) s = ReadHeader(root);
    if (s.ok()) s = ReadRelays(root);
    if (s.ok()) s = ReadEvents(root);
    if (s.ok()) s = ReadGroups(root);
    if (s.ok()) s = ReadRelay(root);
    if (s.ok()) s = ReadSource(root);
    if (s.ok()) s = ReadSwitches(root);
    if (s.ok()) s = ReadFaults(root);
    if (s.ok()) s = ReadTime(root);
    if (s.ok()) s = ReadBroker(root);
    if (s.ok()) s = ReadBounds(root);
    if (s.ok()) s = ReadInitial(root);
    if (s.ok()) s = Locate(Validate(out_.config));
    if (s.ok()) s = ReadExpressions(root);
    // [check] and [expect] name relays, events and invariants of the
    // config, so they are read once it is known to be valid.
    if (s.ok()) s = ReadCheck(root);
    if (s.ok() && expect_ == ExpectTable::kRead) s = ReadExpect(root);
    return s;
  }

 private:
  // "PATH:LINE:COL: FIELD: what", or "PATH: FIELD: what" without a position.
  Status Error(SourcePosition at, std::string_view field,
               std::string_view what) const {
    if (at.line == 0) {
      return Status::Error(fmt::format("{}: {}: {}", path_, field, what));
    }
    return Status::Error(fmt::format("{}:{}:{}: {}: {}", path_, at.line,
                                     at.column, field, what));
  }
  Status Error(const toml::node& at, std::string_view field,
               std::string_view what) const {
    return Error(PositionOf(at.source()), field, what);
  }
  Status TypeError(const toml::node& at, std::string_view field,
                   std::string_view expected) const {
    return Error(
        at, field,
        fmt::format("expected {}, got {}", expected, TypeName(at.type())));
  }

  // Remembers where `field` was written, so that Locate() can place the
  // messages of Validate(), which know fields but not files.
  void Note(std::string field, const toml::node& at) {
    noted_.emplace_back(std::move(field), PositionOf(at.source()));
  }

  // Prefixes a Validate() message ("groups[2].instances: ...") with the file
  // and the position of the longest noted field that it starts with.
  Status Locate(const Status& s) const {
    if (s.ok()) return s;
    const std::string& message = s.message();
    SourcePosition best;
    std::size_t best_size = 0;
    for (const auto& [field, at] : noted_) {
      if (field.size() > best_size && message.size() > field.size() &&
          message.compare(0, field.size(), field) == 0 &&
          std::string_view(":.[").find(message[field.size()]) !=
              std::string_view::npos) {
        best = at;
        best_size = field.size();
      }
    }
    if (best.line == 0) {
      return Status::Error(fmt::format("{}: {}", path_, message));
    }
    return Status::Error(
        fmt::format("{}:{}:{}: {}", path_, best.line, best.column, message));
  }

 public:
  // Rejects the key of `table` that is not in `allowed` and comes first in
  // the file (the table itself iterates in key order).
  Status CheckKeys(const toml::table& table, std::string_view field,
                   std::span<const std::string_view> allowed) const {
    const toml::key* unknown = nullptr;
    for (const auto& [key, value] : table) {
      if (std::find(allowed.begin(), allowed.end(), key.str()) !=
          allowed.end()) {
        continue;
      }
      const auto at = key.source().begin;
      if (unknown == nullptr || at.line < unknown->source().begin.line ||
          (at.line == unknown->source().begin.line &&
           at.column < unknown->source().begin.column)) {
        unknown = &key;
      }
    }
    if (unknown == nullptr) return Status::Ok();
    std::string hint = DidYouMean(unknown->str(), allowed);
    if (hint.empty()) {
      hint = fmt::format("; allowed keys are {}", fmt::join(allowed, ", "));
    }
    return Error(PositionOf(unknown->source()), Dotted(field, unknown->str()),
                 "unknown key" + hint);
  }

  // An event's keys beyond the named ones are attributes of its own (an
  // order, a SKU, a quantity), text or integers, that declared strategies
  // read; a key that looks like a misspelt named one is an error.
  Status ReadEventAttributes(const toml::table& table, std::string_view field,
                             Event& event) const {
    for (const auto& [key, value] : table) {
      const std::string_view name = key.str();
      if (std::find(std::begin(kEventKeys), std::end(kEventKeys), name) !=
          std::end(kEventKeys)) {
        continue;
      }
      const std::string hint = DidYouMean(name, kEventKeys);
      if (!hint.empty()) {
        return Error(PositionOf(key.source()), Dotted(field, name),
                     "unknown key" + hint);
      }
      EventAttribute a;
      a.name = std::string(name);
      if (const auto* text = value.as_string()) {
        a.text = text->get();
      } else if (const auto* number = value.as_integer()) {
        a.number = number->get();
      } else {
        return TypeError(value, Dotted(field, name),
                         "text or an integer (an attribute of the event's "
                         "own, such as order = \"o-1\")");
      }
      event.attributes.push_back(std::move(a));
    }
    return Status::Ok();
  }

 private:
  // nullptr when `key` is absent; an error when it is not a table.
  Result<const toml::table*> Table(const toml::table& parent,
                                   std::string_view key) {
    const toml::node* node = parent.get(key);
    if (node == nullptr) return static_cast<const toml::table*>(nullptr);
    if (!node->is_table()) return TypeError(*node, key, "a table");
    Note(std::string(key), *node);
    return node->as_table();
  }

  Result<std::int64_t> Integer(const toml::node& node, std::string_view field,
                               std::int64_t lo, std::int64_t hi) const {
    if (!node.is_integer()) return TypeError(node, field, "an integer");
    const std::int64_t v = node.as_integer()->get();
    if (v < lo || v > hi) {
      return Error(
          node, field,
          hi == kNoUpperLimit
              ? fmt::format("{} is out of range; must be at least {}", v, lo)
              : fmt::format("{} is out of range {}..{}", v, lo, hi));
    }
    return v;
  }

  // Reads table.key into `out` if present; leaves `out` alone otherwise.
  template <class T>
  Status OptionalInteger(const toml::table& table, std::string_view table_field,
                         std::string_view key, std::int64_t lo, std::int64_t hi,
                         T& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string field = Dotted(table_field, key);
    Result<std::int64_t> v = Integer(*node, field, lo, hi);
    if (!v.ok()) return v.status();
    Note(field, *node);
    Assign(out, v.value());
    return Status::Ok();
  }

  template <class T>
  Status OptionalString(const toml::table& table, std::string_view table_field,
                        std::string_view key, T& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string field = Dotted(table_field, key);
    if (!node->is_string()) return TypeError(*node, field, "a string");
    Note(field, *node);
    out = node->as_string()->get();
    return Status::Ok();
  }

  Result<Seconds> Duration(const toml::node& node,
                           std::string_view field) const {
    if (!node.is_string()) {
      return TypeError(node, field, "a duration string such as \"5m\"");
    }
    const std::string& text = node.as_string()->get();
    const std::optional<Seconds> d = ParseDuration(text);
    if (!d) {
      return Error(node, field,
                   fmt::format("'{}' is not a duration; write whole numbers "
                               "with a unit s, m, h or d, largest first, as "
                               "in \"30s\", \"5m\", \"1h30m\", \"7d\"",
                               text));
    }
    return *d;
  }

  Status OptionalDuration(const toml::table& table,
                          std::string_view table_field, std::string_view key,
                          std::optional<Seconds>& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string field = Dotted(table_field, key);
    Result<Seconds> d = Duration(*node, field);
    if (!d.ok()) return d.status();
    Note(field, *node);
    out = d.value();
    return Status::Ok();
  }

  // key = "a" | "b" | ...: the index of the word in `words`.
  template <class E>
  Status OptionalWord(const toml::table& table, std::string_view table_field,
                      std::string_view key,
                      std::span<const std::string_view> words, E& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string field = Dotted(table_field, key);
    if (!node->is_string()) return TypeError(*node, field, "a string");
    const std::string& word = node->as_string()->get();
    const auto it = std::find(words.begin(), words.end(), word);
    if (it == words.end()) {
      std::string hint = DidYouMean(word, words);
      if (hint.empty()) {
        hint = fmt::format("; expected one of {}", fmt::join(words, ", "));
      }
      return Error(*node, field,
                   fmt::format("unknown value '{}'{}", word, hint));
    }
    Note(field, *node);
    out = static_cast<E>(it - words.begin());
    return Status::Ok();
  }

  Status ReadTime(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "time");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    TimeConfig& time = out_.config.time;
    Status s = CheckKeys(t, "time", kTimeKeys);
    if (s.ok()) s = OptionalDuration(t, "time", "lease", time.lease);
    if (s.ok()) s = OptionalDuration(t, "time", "poll", time.poll);
    if (s.ok()) s = OptionalDuration(t, "time", "horizon", time.horizon);
    if (s.ok()) {
      s = OptionalDuration(t, "time", "consumer_outage", time.consumer_outage);
    }
    if (s.ok()) {
      s = OptionalDuration(t, "time", "database_outage", time.database_outage);
    }
    if (s.ok()) s = OptionalWord(t, "time", "clocks", kClocks, time.clocks);
    return s;
  }

  Status ReadBroker(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "broker");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    BrokerConfig& broker = out_.config.broker;
    Status s = CheckKeys(t, "broker", kBrokerKeys);
    if (s.ok()) {
      s = OptionalWord(t, "broker", "dedup", kDedupModes, broker.dedup);
    }
    if (s.ok()) s = OptionalDuration(t, "broker", "window", broker.window);
    if (s.ok()) {
      s = OptionalWord(t, "broker", "delivery", kDeliveries, broker.delivery);
    }
    if (s.ok()) {
      s = OptionalInteger(t, "broker", "partitions", 1, kMaxPartitions,
                          broker.partitions);
    }
    if (s.ok()) {
      s = OptionalBoolean(t, "broker", "commit_fencing", broker.commit_fencing);
    }
    return s;
  }

  Status ReadGroupTiming(const toml::table& t, const std::string& field,
                         Group& group) {
    Status s =
        OptionalDuration(t, field, "inbox_retention", group.inbox_retention);
    if (s.ok()) {
      s = OptionalDuration(t, field, "inbox_cleanup_every",
                           group.inbox_cleanup_every);
    }
    if (s.ok()) {
      s = OptionalDuration(t, field, "dead_letter_redrive",
                           group.dead_letter_redrive);
    }
    if (s.ok()) {
      s = OptionalDuration(t, field, "idempotency_key_window",
                           group.idempotency_key_window);
    }
    if (s.ok()) {
      s = OptionalDuration(t, field, "dead_letter_retention",
                           group.dead_letter_retention);
    }
    if (!s.ok()) return s;
    const toml::node* node = t.get("redelivery");
    if (node == nullptr) return Status::Ok();
    const std::string list = Dotted(field, "redelivery");
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, list, "an array of durations");
    }
    Note(list, *node);
    if (array->empty()) {
      return Error(*node, list,
                   "empty; leave the key out for no delayed redelivery");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      Result<Seconds> d = Duration(*array->get(i), Indexed(list, i));
      if (!d.ok()) return d.status();
      Note(Indexed(list, i), *array->get(i));
      group.redelivery.push_back(d.value());
    }
    return Status::Ok();
  }

  Status OptionalBoolean(const toml::table& table, std::string_view table_field,
                         std::string_view key, bool& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string field = Dotted(table_field, key);
    if (!node->is_boolean()) return TypeError(*node, field, "a boolean");
    Note(field, *node);
    out = node->as_boolean()->get();
    return Status::Ok();
  }

  Status ReadHeader(const toml::table& root) {
    Status s = OptionalString(root, "", "name", out_.name);
    if (!s.ok()) return s;
    if (out_.name.empty() && root.get("name") != nullptr) {
      return Error(*root.get("name"), "name",
                   "empty; give a name, or leave the key out to use the "
                   "file's stem");
    }
    return OptionalString(root, "", "description", out_.description);
  }

  Status ReadRelays(const toml::table& root) {
    const toml::node* node = root.get("relays");
    if (node == nullptr) {
      return Error(SourcePosition{}, "relays",
                   "missing; expected an array of relay names or a relay "
                   "count");
    }
    Note("relays", *node);
    std::vector<std::string>& relays = out_.config.relays;
    if (node->is_integer()) {
      Result<std::int64_t> n = Integer(*node, "relays", 1, kMaxRelays);
      if (!n.ok()) return n.status();
      for (std::int64_t i = 1; i <= n.value(); ++i) {
        relays.push_back(fmt::format("r{}", i));
      }
      return Status::Ok();
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "relays",
                       "an array of relay names or a relay count");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("relays", i);
      if (!element.is_string()) return TypeError(element, field, "a string");
      Note(field, element);
      relays.push_back(element.as_string()->get());
    }
    return Status::Ok();
  }

  Status ReadEvents(const toml::table& root) {
    const toml::node* node = root.get("events");
    if (node == nullptr) {
      return Error(SourcePosition{}, "events",
                   "missing; expected an event count or [[events]] tables");
    }
    Note("events", *node);
    std::vector<Event>& events = out_.config.events;
    if (node->is_integer()) {
      Result<std::int64_t> n = Integer(*node, "events", 1, kMaxEvents);
      if (!n.ok()) return n.status();
      for (std::int64_t i = 1; i <= n.value(); ++i) {
        events.push_back(DefaultEvent(i - 1));
      }
      return Status::Ok();
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "events", "an event count or an array of tables");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("events", i);
      const toml::table* table = element.as_table();
      if (table == nullptr) return TypeError(element, field, "a table");
      Note(field, element);
      Event event = DefaultEvent(i);
      Status s = ReadEventAttributes(*table, field, event);
      if (s.ok()) s = OptionalString(*table, field, "name", event.name);
      if (s.ok()) s = OptionalString(*table, field, "type", event.type);
      if (s.ok()) s = OptionalString(*table, field, "key", event.key);
      if (s.ok()) {
        s = OptionalInteger(*table, field, "version", 0,
                            std::numeric_limits<std::uint16_t>::max(),
                            event.version);
      }
      if (s.ok()) s = OptionalString(*table, field, "account", event.account);
      if (s.ok()) {
        s = OptionalInteger(*table, field, "amount",
                            std::numeric_limits<std::int64_t>::min(),
                            kNoUpperLimit, event.amount);
      }
      if (s.ok()) {
        s = OptionalInteger(*table, field, "partition", 1, kMaxPartitions,
                            event.partition);
      }
      if (!s.ok()) return s;
      events.push_back(std::move(event));
    }
    return Status::Ok();
  }

  Status ReadGroups(const toml::table& root) {
    const toml::node* node = root.get("groups");
    if (node == nullptr) return Status::Ok();
    const toml::array* array = node->as_array();
    if (array == nullptr)
      return TypeError(*node, "groups", "an array of tables");
    Note("groups", *node);
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("groups", i);
      const toml::table* table = element.as_table();
      if (table == nullptr) return TypeError(element, field, "a table");
      Note(field, element);
      Group group;
      group.name = fmt::format("g{}", i + 1);
      Status s = CheckKeys(*table, field, kGroupKeys);
      if (s.ok()) s = OptionalString(*table, field, "name", group.name);
      if (s.ok()) s = ReadStrategy(*table, field, group);
      if (s.ok()) {
        s = OptionalInteger(*table, field, "instances", 1, kMaxInstances,
                            group.instances);
      }
      if (s.ok()) s = ReadGroupTiming(*table, field, group);
      if (s.ok()) {
        s = OptionalWord(*table, field, "commit", kCommitModes,
                         group.commit_before);
      }
      if (s.ok()) {
        s = OptionalWord(*table, field, "on_failure", kFailureModes,
                         group.retry_topic);
      }
      if (!s.ok()) return s;
      out_.config.groups.push_back(std::move(group));
    }
    return Status::Ok();
  }

  Status ReadStrategy(const toml::table& group, std::string_view group_field,
                      Group& out_group) {
    Strategy& out = out_group.strategy;
    std::vector<std::string_view> names;
    for (Strategy s : kAllStrategies) names.push_back(StrategyName(s));
    const std::string field = Dotted(group_field, "strategy");
    const toml::node* node = group.get("strategy");
    if (node == nullptr) {
      return Error(
          PositionOf(group.source()), field,
          fmt::format("missing; expected one of {}", fmt::join(names, ", ")));
    }
    if (const toml::table* declared = node->as_table()) {
      return ReadDeclaredStrategy(*declared, field, out_group);
    }
    if (!node->is_string()) {
      return TypeError(*node, field, "a string or a table { file = \"...\" }");
    }
    const std::string& name = node->as_string()->get();
    const std::optional<Strategy> strategy = ParseStrategy(name);
    if (!strategy) {
      std::string hint = DidYouMean(name, names);
      if (hint.empty()) {
        hint = fmt::format("; strategies are {}", fmt::join(names, ", "));
      }
      return Error(*node, field,
                   fmt::format("unknown strategy '{}'{}", name, hint));
    }
    Note(field, *node);
    out = *strategy;
    return Status::Ok();
  }

  // The value of table.key, one of `names`, or an error naming them; an
  // empty string when the key is absent.
  Result<std::string> OneOf(const toml::table& table, std::string_view field,
                            std::string_view key, std::string_view what,
                            std::string_view plural,
                            std::span<const std::string_view> names) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return std::string();
    const std::string dotted = Dotted(field, key);
    if (!node->is_string()) return TypeError(*node, dotted, "a string");
    const std::string& name = node->as_string()->get();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string hint = DidYouMean(name, names);
      if (hint.empty()) {
        hint = fmt::format("; {} are {}", plural, fmt::join(names, ", "));
      }
      return Error(*node, dotted,
                   fmt::format("unknown {} '{}'{}", what, name, hint));
    }
    Note(dotted, *node);
    return name;
  }

  Status ReadRelay(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "relay");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    if (Status s = CheckKeys(t, "relay", kRelayKeys); !s.ok()) return s;
    Result<std::string> style =
        OneOf(t, "relay", "style", "style", "styles", kRelayStyleNames);
    if (!style.ok()) return style.status();
    if (!style.value().empty()) {
      out_.config.relay_style = *ParseRelayStyle(style.value());
    }
    Result<std::string> id = OneOf(t, "relay", "message_id", "message identity",
                                   "message identities", kMessageIdentityNames);
    if (!id.ok()) return id.status();
    if (!id.value().empty()) {
      out_.config.message_id = *ParseMessageIdentity(id.value());
    }
    // The age sweeper's knobs. A missing min_age is reported at [relay].
    if (t.get("min_age") == nullptr) Note("relay.min_age", t);
    Status s = OptionalDuration(t, "relay", "min_age", out_.config.min_age);
    if (s.ok()) {
      s = OptionalDuration(t, "relay", "send_time", out_.config.send_time);
    }
    if (s.ok()) {
      s = OptionalInteger(t, "relay", "max_in_flight", 1, kMaxInFlight,
                          out_.config.max_in_flight);
    }
    if (s.ok()) {
      s = OptionalBoolean(t, "relay", "idempotent_producer",
                          out_.config.idempotent_producer);
    }
    if (s.ok()) {
      s = OptionalBoolean(t, "relay", "dispatch_waits_for_commit",
                          out_.config.dispatch_waits_for_commit);
    }
    if (!s.ok()) return s;
    Result<std::string> gaps =
        OneOf(t, "relay", "gaps", "gap rule", "gap rules", kGapRules);
    if (!gaps.ok()) return gaps.status();
    out_.config.gaps_wait = gaps.value() == "wait";
    return OptionalDuration(t, "relay", "gap_timeout", out_.config.gap_timeout);
  }

  Status ReadSource(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "source");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    if (Status s = CheckKeys(t, "source", kSourceKeys); !s.ok()) return s;
    Result<std::string> commits = OneOf(t, "source", "commits", "commit time",
                                        "commit times", kCommitTimes);
    if (!commits.ok()) return commits.status();
    out_.config.commits_during_run = commits.value() == "during_run";
    return OptionalDuration(t, "source", "commit_within",
                            out_.config.commit_within);
  }

  // `strategy = { file = "PATH" }`: a declared strategy, PATH relative to
  // the scenario file's folder. Its own errors name the strategy file.
  Status ReadDeclaredStrategy(const toml::table& table,
                              const std::string& field, Group& out) {
    Status s = CheckKeys(table, field, kDeclaredKeys);
    if (!s.ok()) return s;
    const toml::node* file = table.get("file");
    if (file == nullptr) {
      return Error(PositionOf(table.source()), Dotted(field, "file"),
                   "missing; the strategy file, relative to this scenario's "
                   "folder");
    }
    if (!file->is_string()) {
      return TypeError(*file, Dotted(field, "file"), "a string");
    }
    const std::string& written = file->as_string()->get();
    const std::filesystem::path resolved =
        (std::filesystem::path(path_).parent_path() / written)
            .lexically_normal();
    Result<HandlerProgram> program =
        LoadStrategyFile(resolved.string(), written);
    // Its own errors name the strategy file, line and column.
    if (!program.ok()) return program.status();
    Note(field, *file);
    out.strategy = Strategy::kDeclared;
    out.declared = std::move(program).value();
    return Status::Ok();
  }

  // [initial.GROUP] TABLE = { AT = VALUE, ... }: starting values of a
  // group's declared tables. Validate() checks them against the tables.
  Status ReadInitial(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "initial");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    for (const auto& [gkey, gnode] : *table.value()) {
      const std::string gname(gkey.str());
      const std::string gfield = Dotted("initial", gname);
      auto group =
          std::find_if(out_.config.groups.begin(), out_.config.groups.end(),
                       [&](const Group& g) { return g.name == gname; });
      if (group == out_.config.groups.end()) {
        std::vector<std::string_view> names;
        for (const Group& g : out_.config.groups) names.push_back(g.name);
        std::string hint = DidYouMean(gname, names);
        if (hint.empty() && !names.empty()) {
          hint = fmt::format("; groups are {}", fmt::join(names, ", "));
        }
        return Error(PositionOf(gkey.source()), gfield,
                     fmt::format("no group is named '{}'{}", gname, hint));
      }
      if (!group->declared) {
        return Error(PositionOf(gkey.source()), gfield,
                     fmt::format("group '{}' uses the built-in strategy '{}', "
                                 "which has no tables of its own to start",
                                 gname, StrategyName(group->strategy)));
      }
      const toml::table* tables = gnode.as_table();
      if (tables == nullptr) return TypeError(gnode, gfield, "a table");
      for (const auto& [tkey, tnode] : *tables) {
        const std::string tfield = Dotted(gfield, tkey.str());
        const toml::table* cells = tnode.as_table();
        if (cells == nullptr) {
          return TypeError(tnode, tfield,
                           "a table of starting values, such as "
                           "{ alice = 100 }");
        }
        Note(tfield, tnode);
        for (const auto& [ckey, cnode] : *cells) {
          const std::string cfield = Dotted(tfield, ckey.str());
          std::int64_t value = 0;
          if (const auto* b = cnode.as_boolean()) {
            value = b->get() ? 1 : 0;
          } else if (const auto* i = cnode.as_integer()) {
            value = i->get();
          } else {
            return TypeError(cnode, cfield,
                             "an integer (a number) or a "
                             "boolean (a row)");
          }
          Note(cfield, cnode);
          group->initial.push_back(InitialValue{
              std::string(tkey.str()), std::string(ckey.str()), value});
        }
      }
    }
    return Status::Ok();
  }

  Status ReadSwitches(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "switches");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    Status s = CheckKeys(t, "switches", kSwitchKeys);
    // A switch, even set to its default, is a knob only the seed's relay
    // takes: say so rather than ignore it.
    if (s.ok() && !StyleOf(out_.config).lease_and_token) {
      for (std::string_view key : kSwitchKeys) {
        if (const toml::node* node = t.get(key)) {
          return Error(
              *node, Dotted("switches", key),
              fmt::format("relay.style '{}' has no lease and no fencing "
                          "token; leave [switches] out",
                          RelayStyleName(out_.config.relay_style)));
        }
      }
    }
    if (s.ok()) s = OptionalBoolean(t, "switches", "lease", out_.config.lease);
    if (s.ok()) {
      s = OptionalBoolean(t, "switches", "fencing", out_.config.fencing);
    }
    return s;
  }

  Status ReadFaults(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "faults");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    Status s = CheckKeys(t, "faults", kFaultKeys);
    for (const FaultBudget& budget : kFaultBudgets) {
      if (!s.ok()) break;
      const toml::node* node = t.get(budget.key);
      if (node != nullptr && node->is_string()) {
        const std::string field = Dotted("faults", budget.key);
        if (node->as_string()->get() != "any") {
          return Error(*node, field,
                       fmt::format("'{}' is not a budget; write a number "
                                   "0..{}, or \"any\" for any number",
                                   node->as_string()->get(), kMaxBudget));
        }
        Note(field, *node);
        out_.config.budgets.*budget.pool = kAnyBudget;
        continue;
      }
      s = OptionalInteger(t, "faults", budget.key, 0, kMaxBudget,
                          out_.config.budgets.*budget.pool);
    }
    return s;
  }

  Status ReadBounds(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "bounds");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    Status s = CheckKeys(t, "bounds", kBoundKeys);
    if (s.ok()) {
      s = OptionalInteger(t, "bounds", "claims", 1, kMaxClaimBound,
                          out_.config.claim_bound);
    }
    if (s.ok()) {
      s = OptionalInteger(t, "bounds", "max_depth", 1, kIntMax,
                          out_.limits.max_depth);
    }
    if (s.ok()) {
      s = OptionalInteger(t, "bounds", "max_states", 1, kNoUpperLimit,
                          out_.limits.max_states);
    }
    return s;
  }

  Status ReadCheck(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "check");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) {
      if (Status s = AddDeclaredInvariants(); !s.ok()) return s;
      if (out_.invariants.empty()) {
        return Error(SourcePosition{}, "check.invariants",
                     "missing; expected a non-empty array of invariant names");
      }
      return Status::Ok();
    }
    const toml::table& t = *table.value();
    Status s = CheckKeys(t, "check", kCheckKeys);
    if (s.ok()) s = ReadInvariants(t);
    if (s.ok()) s = AddDeclaredInvariants();
    if (s.ok()) {
      s = OptionalBoolean(t, "check", "stop_at_first_violation",
                          out_.stop_at_first_violation);
    }
    if (s.ok()) s = ReadMustFire(t);
    if (s.ok()) s = ReadWalkWeights(t);
    if (s.ok()) s = ReadSteps(t, "order", out_.order);
    if (s.ok()) s = ReadLoop(t);
    return s;
  }

  // walk_weights = { crash_relay = 4, consume = 0 }: a weight per action
  // class for random walks; the classes left out weigh 1. Errors come in
  // file order.
  Status ReadWalkWeights(const toml::table& check) {
    const toml::node* node = check.get("walk_weights");
    if (node == nullptr) return Status::Ok();
    const toml::table* table = node->as_table();
    if (table == nullptr) {
      return TypeError(*node, "check.walk_weights",
                       "a table of weights by action class, such as "
                       "{ crash_relay = 4 }");
    }
    if (table->empty()) {
      return Error(*node, "check.walk_weights",
                   "empty; give at least one action class a weight, or "
                   "leave the key out for walks that take every enabled "
                   "action alike");
    }
    const std::vector<std::string>& classes = ActionClassNames();
    const std::vector<std::string_view> known(classes.begin(), classes.end());
    std::vector<std::pair<const toml::key*, const toml::node*>> entries;
    for (const auto& [key, value] : *table) entries.emplace_back(&key, &value);
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      const auto x = a.first->source().begin;
      const auto y = b.first->source().begin;
      return x.line != y.line ? x.line < y.line : x.column < y.column;
    });
    std::vector<std::uint32_t> weights(classes.size(), 1);
    for (const auto& [key, value] : entries) {
      const std::string_view name = key->str();
      const std::string field = Dotted("check.walk_weights", name);
      const auto it = std::find(known.begin(), known.end(), name);
      if (it == known.end()) {
        const std::vector<std::size_t> named = OutboxModel::ClassesNamed(name);
        if (named.size() > 1) {
          std::vector<std::string_view> parts;
          for (std::size_t c : named) parts.push_back(known[c]);
          return Error(
              PositionOf(key->source()), field,
              fmt::format("'{}' stands for {} classes; give {} "
                          "weights of their own",
                          name, named.size(), fmt::join(parts, " and ")));
        }
        std::string hint = DidYouMean(name, known);
        if (hint.empty()) {
          hint = fmt::format("; action classes are {}", fmt::join(known, ", "));
        }
        return Error(PositionOf(key->source()), field,
                     fmt::format("unknown action class '{}'{}", name, hint));
      }
      Result<std::int64_t> weight = Integer(*value, field, 0, kMaxWalkWeight);
      if (!weight.ok()) return weight.status();
      Note(field, *value);
      weights[static_cast<std::size_t>(it - known.begin())] =
          static_cast<std::uint32_t>(weight.value());
    }
    if (std::all_of(weights.begin(), weights.end(),
                    [](std::uint32_t w) { return w == 0; })) {
      return Error(*node, "check.walk_weights",
                   "every action class weighs 0; a walk needs at least one "
                   "class it may take");
    }
    // Weights that are all 1 change no walk: the same as none.
    if (std::any_of(weights.begin(), weights.end(),
                    [](std::uint32_t w) { return w != 1; })) {
      out_.walk_weights = std::move(weights);
    }
    return Status::Ok();
  }

  Status ReadMustFire(const toml::table& check) {
    const toml::node* node = check.get("must_fire");
    if (node == nullptr) return Status::Ok();
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "check.must_fire", "an array of action names");
    }
    const std::vector<std::string> names = MustFireNames();
    const std::vector<std::string_view> known(names.begin(), names.end());
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("check.must_fire", i);
      if (!element.is_string()) return TypeError(element, field, "a string");
      const std::string& name = element.as_string()->get();
      if (OutboxModel::ClassesNamed(name).empty()) {
        std::string hint = DidYouMean(name, known);
        if (hint.empty()) {
          hint = fmt::format("; actions are {}", fmt::join(known, ", "));
        }
        return Error(element, field,
                     fmt::format("unknown action '{}'{}", name, hint));
      }
      if (std::find(out_.must_fire.begin(), out_.must_fire.end(), name) !=
          out_.must_fire.end()) {
        return Error(element, field, fmt::format("'{}' is listed twice", name));
      }
      out_.must_fire.push_back(name);
    }
    return Status::Ok();
  }

  // Every invariant declared in [[invariants]] is checked, listed in
  // check.invariants or not, unless its block says `check = false`: a
  // declaration that is silently skipped would let a broken consumer pass.
  // The unlisted ones come after the listed ones, in declaration order.
  Status AddDeclaredInvariants() {
    for (std::size_t i = 0; i < out_.expressions.size(); ++i) {
      const InvariantExpression& x = out_.expressions[i];
      const bool skipped =
          std::find(out_.unchecked.begin(), out_.unchecked.end(), x.name) !=
          out_.unchecked.end();
      const bool listed =
          std::find(out_.invariants.begin(), out_.invariants.end(), x.name) !=
          out_.invariants.end();
      if (!skipped && !listed) {
        out_.invariants.push_back(x.name);
        out_.invariant_positions.push_back(expression_positions_[i]);
      }
    }
    return Status::Ok();
  }

  Status ReadInvariants(const toml::table& check) {
    // With declared invariants to check, check.invariants may be left out.
    const bool declared_checked =
        out_.expressions.size() > out_.unchecked.size();
    const toml::node* node = check.get("invariants");
    if (node == nullptr) {
      if (declared_checked) return Status::Ok();
      return Error(PositionOf(check.source()), "check.invariants",
                   "missing; expected a non-empty array of invariant names");
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "check.invariants",
                       "an array of invariant names");
    }
    if (array->empty() && !declared_checked) {
      return Error(*node, "check.invariants",
                   "empty; name at least one invariant to check");
    }
    std::vector<std::string_view> known;
    for (const Invariant& inv : AllInvariants()) known.push_back(inv.name);
    for (const InvariantExpression& x : out_.expressions) {
      known.push_back(x.name);
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("check.invariants", i);
      if (!element.is_string()) return TypeError(element, field, "a string");
      const std::string& name = element.as_string()->get();
      const Invariant* invariant = FindInvariant(name);
      const bool declared = std::any_of(
          out_.expressions.begin(), out_.expressions.end(),
          [&](const InvariantExpression& x) { return x.name == name; });
      if (invariant == nullptr && !declared) {
        // The scenario's own invariants are candidates too.
        std::string hint = DidYouMean(name, known);
        if (hint.empty()) {
          hint = fmt::format("; invariants are {}", fmt::join(known, ", "));
        }
        return Error(element, field,
                     fmt::format("unknown invariant '{}'{}", name, hint));
      }
      if (std::find(out_.unchecked.begin(), out_.unchecked.end(), name) !=
          out_.unchecked.end()) {
        return Error(element, field,
                     fmt::format("'{}' is listed, but its [[invariants]] "
                                 "block says check = false; remove one of "
                                 "the two",
                                 name));
      }
      if (std::find(out_.invariants.begin(), out_.invariants.end(), name) !=
          out_.invariants.end()) {
        return Error(element, field, fmt::format("'{}' is listed twice", name));
      }
      if (invariant != nullptr) {
        if (Status s = CheckApplicable(*invariant, out_.config); !s.ok()) {
          return Error(element, field, s.message());
        }
        out_.config.observed |= invariant->observes;
      }
      // A built-in, or one declared in [[invariants]].
      out_.invariants.push_back(name);
      out_.invariant_positions.push_back(PositionOf(element.source()));
    }
    return Status::Ok();
  }

  // [[invariants]]: invariants written as expressions over durable state,
  // compiled against the (valid) configuration.
  Status ReadExpressions(const toml::table& root) {
    const toml::node* node = root.get("invariants");
    if (node == nullptr) return Status::Ok();
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "invariants", "an array of tables");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed("invariants", i);
      const toml::table* table = element.as_table();
      if (table == nullptr) return TypeError(element, field, "a table");
      Status s = CheckKeys(*table, field, kExpressionKeys);
      if (!s.ok()) return s;
      InvariantExpression x;
      s = ReadExpression(*table, field, /*builtin_name=*/false, x);
      if (!s.ok()) return s;
      bool checked = true;
      s = OptionalBoolean(*table, field, "check", checked);
      if (!s.ok()) return s;
      if (!checked) out_.unchecked.push_back(x.name);
      for (const InvariantExpression& other : out_.expressions) {
        if (other.name == x.name) {
          return Error(*table->get("name"), Dotted(field, "name"),
                       fmt::format("'{}' is used twice", x.name));
        }
      }
      Note(field, element);
      expression_positions_.push_back(PositionOf(table->get("name")->source()));
      out_.expressions.push_back(std::move(x));
    }
    return Status::Ok();
  }

 public:
  // One expression invariant's table ([[invariants]], or a bundled
  // definition's file when `builtin_name`: then it restates a built-in and
  // takes its name).
  Status ReadExpression(const toml::table& table, const std::string& field,
                        bool builtin_name, InvariantExpression& x) {
    const toml::node* name = table.get("name");
    if (name == nullptr) {
      return Error(PositionOf(table.source()), Dotted(field, "name"),
                   "missing; the name check.invariants lists it by");
    }
    if (!name->is_string()) {
      return TypeError(*name, Dotted(field, "name"), "a string");
    }
    x.name = name->as_string()->get();
    if ((FindInvariant(x.name) != nullptr) != builtin_name) {
      return Error(*name, Dotted(field, "name"),
                   builtin_name
                       ? fmt::format("'{}' is not a built-in invariant", x.name)
                       : fmt::format("'{}' is a built-in invariant; choose "
                                     "another name",
                                     x.name));
    }
    const toml::node* kind = table.get("kind");
    if (kind != nullptr) {
      if (!kind->is_string()) {
        return TypeError(*kind, Dotted(field, "kind"), "a string");
      }
      const std::string& k = kind->as_string()->get();
      const auto it =
          std::find(std::begin(kInvariantKinds), std::end(kInvariantKinds), k);
      if (it == std::end(kInvariantKinds)) {
        std::string hint = DidYouMean(k, kInvariantKinds);
        if (hint.empty()) hint = "; kinds are safety, transition, at_rest";
        return Error(*kind, Dotted(field, "kind"),
                     fmt::format("unknown kind '{}'{}", k, hint));
      }
      x.kind = static_cast<InvariantKind>(it - std::begin(kInvariantKinds));
    }
    if (const toml::node* groups = table.get("groups")) {
      // "all", a kind of group, a group's name, or an array of them.
      if (const toml::array* list = groups->as_array()) {
        for (std::size_t i = 0; i < list->size(); ++i) {
          const toml::node& g = *list->get(i);
          if (!g.is_string()) {
            return TypeError(g, Indexed(Dotted(field, "groups"), i),
                             "a string");
          }
          x.groups.push_back(g.as_string()->get());
        }
      } else if (groups->is_string()) {
        x.groups.push_back(groups->as_string()->get());
      } else {
        return TypeError(*groups, Dotted(field, "groups"),
                         "a string or an array of strings");
      }
      if (x.groups.empty()) {
        return Error(*groups, Dotted(field, "groups"),
                     "empty; name \"all\", a kind of group (credit, "
                     "notification, projection, cache, custom) or groups");
      }
    }
    const toml::node* holds = table.get("holds");
    if (holds == nullptr) {
      return Error(PositionOf(table.source()), Dotted(field, "holds"),
                   "missing; a boolean expression over durable state, "
                   "e.g. \"all(events, billing.effects[event] <= 1)\"");
    }
    if (!holds->is_string()) {
      return TypeError(*holds, Dotted(field, "holds"), "a string");
    }
    x.text = holds->as_string()->get();
    ExpressionError error;
    if (!CompileInvariantExpression(out_.config, x, error)) {
      if (error.offset < 0) {  // about `groups`
        return Error(*table.get("groups"), Dotted(field, "groups"),
                     error.message);
      }
      // The string's value starts one character after its opening quote
      // (three after a multi-line string's, then the next line).
      SourcePosition at = PositionOf(holds->source());
      int column = at.column + 1;
      std::string_view source = x.text;
      for (int c = 0; c < error.offset; ++c) {
        if (source[static_cast<std::size_t>(c)] == '\n') {
          ++at.line;
          column = 1;
        } else {
          ++column;
        }
      }
      at.column = column;
      return Error(at, Dotted(field, "holds"), error.message);
    }
    // The observation cells it reads are kept by the model from now on.
    out_.config.observed |= x.observes;
    return Status::Ok();
  }

 private:
  // check.order or check.loop: an array of actions, into `steps`.
  Status ReadSteps(const toml::table& check, std::string_view key,
                   std::vector<PinnedStep>& steps) {
    const toml::node* node = check.get(key);
    if (node == nullptr) return Status::Ok();
    const std::string name = Dotted("check", key);
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, name, "an array of actions");
    }
    if (array->empty()) {
      return Error(*node, name,
                   key == "order"
                       ? "empty; give at least one step, or leave the key out "
                         "to search exhaustively"
                       : "empty; give at least one step, or leave the key "
                         "out for no loop");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      const std::string field = Indexed(name, i);
      if (!element.is_string()) return TypeError(element, field, "a string");
      const std::string& text = element.as_string()->get();
      Result<Action> action = ParseAction(out_.config, text);
      if (!action.ok()) return Error(element, field, action.status().message());
      steps.push_back(PinnedStep{.action = action.value(),
                                 .text = text,
                                 .position = PositionOf(element.source())});
    }
    return Status::Ok();
  }

  // check.loop: the steps a lasso repeats for ever after check.order.
  Status ReadLoop(const toml::table& check) {
    const toml::node* node = check.get("loop");
    if (node != nullptr && out_.order.empty()) {
      return Error(*node, "check.loop",
                   "only allowed with check.order; a loop repeats after a "
                   "pinned order");
    }
    return ReadSteps(check, "loop", out_.loop);
  }

  // Without an [expect] table the scenario has no expectation.
  Status ReadExpect(const toml::table& root) {
    Result<const toml::table*> table = Table(root, "expect");
    if (!table.ok()) return table.status();
    if (table.value() == nullptr) return Status::Ok();
    const toml::table& t = *table.value();
    Expectation& expect = out_.expect.emplace();
    expect.position = PositionOf(t.source());
    Status s = CheckKeys(t, "expect", kExpectKeys);
    if (s.ok()) s = ReadVerdict(t);
    if (s.ok()) s = ReadViolated(t);
    const bool holds = expect.verdict == Verdict::kHolds;
    if (s.ok() && holds && t.get("trace_length") != nullptr) {
      return Error(*t.get("trace_length"), "expect.trace_length",
                   "not allowed when expect.verdict is 'holds'");
    }
    if (s.ok()) {
      s = OptionalInteger(t, "expect", "trace_length", 0, kIntMax,
                          expect.trace_length);
    }
    if (s.ok() && !out_.order.empty() && t.get("states") != nullptr) {
      return Error(*t.get("states"), "expect.states",
                   "not allowed with check.order; only an exhaustive search "
                   "counts states");
    }
    if (s.ok()) {
      s = OptionalInteger(t, "expect", "states", 1, kNoUpperLimit,
                          expect.states);
    }
    return s;
  }

  Status ReadVerdict(const toml::table& expect) {
    const toml::node* node = expect.get("verdict");
    if (node == nullptr) {
      return Error(PositionOf(expect.source()), "expect.verdict",
                   "missing; expected 'holds' or 'violated'");
    }
    if (!node->is_string()) {
      return TypeError(*node, "expect.verdict", "a string");
    }
    const std::string& verdict = node->as_string()->get();
    if (verdict == "holds") {
      out_.expect->verdict = Verdict::kHolds;
    } else if (verdict == "violated") {
      out_.expect->verdict = Verdict::kViolated;
    } else {
      std::string hint = DidYouMean(verdict, kVerdicts);
      if (hint.empty()) hint = "; expected 'holds' or 'violated'";
      return Error(*node, "expect.verdict",
                   fmt::format("unknown verdict '{}'{}", verdict, hint));
    }
    return Status::Ok();
  }

  Status ReadViolated(const toml::table& expect) {
    const toml::node* node = expect.get("violated");
    if (out_.expect->verdict == Verdict::kHolds) {
      if (node == nullptr) return Status::Ok();
      return Error(*node, "expect.violated",
                   "not allowed when expect.verdict is 'holds'");
    }
    if (node == nullptr) {
      return Error(PositionOf(expect.source()), "expect.violated",
                   "missing; required when expect.verdict is 'violated'");
    }
    if (node->is_string()) return AddViolated(*node, "expect.violated");
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return TypeError(*node, "expect.violated",
                       "a string or an array of strings");
    }
    if (array->empty()) {
      return Error(*node, "expect.violated",
                   "empty; name at least one invariant");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      Status s = AddViolated(*array->get(i), Indexed("expect.violated", i));
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  Status AddViolated(const toml::node& node, const std::string& field) {
    if (!node.is_string()) return TypeError(node, field, "a string");
    const std::string& name = node.as_string()->get();
    const std::vector<std::string>& checked = out_.invariants;
    if (std::find(out_.unchecked.begin(), out_.unchecked.end(), name) !=
        out_.unchecked.end()) {
      return Error(node, field,
                   fmt::format("'{}' is declared with check = false, so it "
                               "is not checked",
                               name));
    }
    if (std::find(checked.begin(), checked.end(), name) == checked.end()) {
      std::vector<std::string_view> names(checked.begin(), checked.end());
      std::string hint = DidYouMean(name, names);
      if (hint.empty()) {
        hint = fmt::format("; check.invariants lists {}",
                           fmt::join(checked, ", "));
      }
      return Error(
          node, field,
          fmt::format("'{}' is not in check.invariants{}", name, hint));
    }
    std::vector<std::string>& violated = out_.expect->violated;
    if (std::find(violated.begin(), violated.end(), name) != violated.end()) {
      return Error(node, field, fmt::format("'{}' is listed twice", name));
    }
    violated.push_back(name);
    return Status::Ok();
  }

  const std::string& path_;
  Scenario& out_;
  ExpectTable expect_;
  std::vector<std::pair<std::string, SourcePosition>> noted_;
  // Where each of out_.expressions is named (its `name` key), index for
  // index.
  std::vector<SourcePosition> expression_positions_;
};

}  // namespace

Result<Scenario> ParseScenario(std::string_view text, const std::string& path,
                               ExpectTable expect) {
  Scenario scenario;
  scenario.path = path;
  scenario.name = std::filesystem::path(path).stem().string();
  Result<toml::table> root = ParseTomlText(text, path);
  if (!root.ok()) return root.status();
  Status s = Reader(path, scenario, expect).Read(root.value());
  if (!s.ok()) return s;
  return scenario;
}

Result<InvariantExpression> ParseInvariantDefinition(std::string_view text,
                                                     const std::string& path,
                                                     const Config& config) {
  Result<toml::table> parsed = ParseTomlText(text, path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = parsed.value();
  Scenario scenario;
  scenario.config = config;
  Reader reader(path, scenario);
  Status s = reader.CheckKeys(root, "", kDefinitionKeys);
  InvariantExpression x;
  if (s.ok()) s = reader.ReadExpression(root, "", /*builtin_name=*/true, x);
  if (!s.ok()) return s;
  return x;
}

Result<InvariantExpression> LoadInvariantDefinition(const std::string& path,
                                                    const Config& config) {
  const Result<std::string> text = ReadFileText(path);
  if (!text.ok()) return text.status();
  return ParseInvariantDefinition(text.value(), path, config);
}

Result<Scenario> LoadScenario(const std::string& path, ExpectTable expect) {
  const Result<std::string> text = ReadFileText(path);
  if (!text.ok()) return text.status();
  return ParseScenario(text.value(), path, expect);
}

namespace {

template <class List>
std::vector<std::string_view> Keys(const List& list) {
  return {std::begin(list), std::end(list)};
}
template <class List>
std::vector<std::string> Words(const List& list) {
  return {std::begin(list), std::end(list)};
}

}  // namespace

std::vector<KeyTable> ScenarioKeyTables() {
  return {
      {.path = "", .keys = Keys(kTopKeys)},
      {.path = "events[]", .keys = Keys(kEventKeys), .open = true},
      {.path = "groups[]", .keys = Keys(kGroupKeys)},
      {.path = "groups[].strategy", .keys = Keys(kDeclaredKeys)},
      {.path = "relay", .keys = Keys(kRelayKeys)},
      {.path = "source", .keys = Keys(kSourceKeys)},
      {.path = "switches", .keys = Keys(kSwitchKeys)},
      {.path = "faults", .keys = Keys(kFaultKeys)},
      {.path = "time", .keys = Keys(kTimeKeys)},
      {.path = "broker", .keys = Keys(kBrokerKeys)},
      {.path = "bounds", .keys = Keys(kBoundKeys)},
      {.path = "check", .keys = Keys(kCheckKeys)},
      {.path = "check.walk_weights", .keys = Keys(ActionClassNames())},
      {.path = "expect", .keys = Keys(kExpectKeys)},
      {.path = "invariants[]", .keys = Keys(kExpressionKeys)},
  };
}

std::vector<WordList> ScenarioWordLists() {
  std::vector<std::string> strategies;
  for (Strategy s : kAllStrategies) {
    strategies.emplace_back(StrategyName(s));
  }
  return {
      {.path = "groups[].strategy", .words = std::move(strategies)},
      {.path = "relay.style", .words = Words(kRelayStyleNames)},
      {.path = "relay.message_id", .words = Words(kMessageIdentityNames)},
      {.path = "source.commits", .words = Words(kCommitTimes)},
      {.path = "time.clocks", .words = Words(kClocks)},
      {.path = "broker.dedup", .words = Words(kDedupModes)},
      {.path = "broker.delivery", .words = Words(kDeliveries)},
      {.path = "groups[].commit", .words = Words(kCommitModes)},
      {.path = "groups[].on_failure", .words = Words(kFailureModes)},
      {.path = "check.must_fire[]", .words = MustFireNames()},
      {.path = "expect.verdict", .words = Words(kVerdicts)},
      {.path = "invariants[].kind", .words = Words(kInvariantKinds)},
  };
}

std::vector<KeyTable> InvariantDefinitionKeyTables() {
  return {{.path = "", .keys = Keys(kDefinitionKeys)}};
}

std::vector<WordList> InvariantDefinitionWordLists() {
  std::vector<std::string> builtins;
  for (const Invariant& invariant : AllInvariants()) {
    builtins.emplace_back(invariant.name);
  }
  return {{.path = "name", .words = std::move(builtins)},
          {.path = "kind", .words = Words(kInvariantKinds)}};
}

}  // namespace oc
