#include "export/promela_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "model/action.h"
#include "model/config.h"
#include "model/fault_budgets.h"
#include "model/outbox_model.h"

namespace oc::exports {
namespace {

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// `if :: cond -> then :: else -> otherwise fi` on one line.
std::string IfElse(const std::string& cond, const std::string& then,
                   const std::string& otherwise = "skip") {
  return fmt::format("if :: {} -> {} :: else -> {} fi", cond, then, otherwise);
}

// A cell index `base + (event - 1)`, where `event_plus_one` is a Promela
// expression holding an event index + 1 (relay_event[r], instance_event[j]).
std::string EventIndex(const std::string& event_plus_one, int base) {
  const int offset = base - 1;
  if (offset < 0) return event_plus_one + " - 1";
  if (offset == 0) return event_plus_one;
  return fmt::format("{} + {}", event_plus_one, offset);
}

class PromelaWriter {
 public:
  explicit PromelaWriter(const Scenario& scenario)
      : scenario_(scenario),
        config_(scenario.config),
        model_(scenario.config),
        events_(static_cast<int>(config_.events.size())),
        relays_(static_cast<int>(config_.relays.size())),
        groups_(static_cast<int>(config_.groups.size())),
        keys_(model_.KeyCount()) {
    for (const Group& g : config_.groups) instances_ += g.instances;
  }

  std::string Write() {
    Header();
    Declarations();
    Invariants();
    Process();
    return std::move(out_);
  }

 private:
  template <class... Args>
  void Print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out_), format,
                   std::forward<Args>(args)...);
  }

  bool Named(std::string_view invariant) const {
    return std::find(scenario_.invariants.begin(), scenario_.invariants.end(),
                     invariant) != scenario_.invariants.end();
  }

  void Header() {
    Print(
        "/* Promela model of the outbox-check scenario '{}'{}.\n"
        " * Written by `outbox-check export --promela`: the same state "
        "variables,\n"
        " * guards and effects as the checker, so SPIN's \"states, stored\" "
        "equals\n"
        " * the checker's distinct-state count. To run it:\n"
        " *   spin -o2 -a model.pml\n"
        " *   gcc -O2 -DNOREDUCE -DNOCLAIM -DSAFETY -o pan pan.c\n"
        " *   ./pan -m1000000 -A\n"
        " * -o2 keeps write-only variables (offered, owner without fencing) "
        "in the\n"
        " * state vector; without it SPIN hides them and stores fewer "
        "states.\n"
        " * -A ignores assertions, -c0 reports them without stopping: "
        "either\n"
        " * way the whole space is explored. Search limits of the scenario "
        "are\n"
        " * not exported. */\n\n",
        scenario_.name,
        scenario_.path.empty() ? "" : fmt::format(" ({})", scenario_.path));
    Print(
        "#define LEASE_NONE 0\n#define LEASE_ACTIVE 1\n"
        "#define LEASE_EXPIRED 2\n"
        "#define RELAY_IDLE 0\n#define RELAY_CLAIMED 1\n#define RELAY_SENT 2\n"
        "#define INSTANCE_IDLE 0\n#define INSTANCE_HOLDING 1\n"
        "#define INSTANCE_MIDWAY 2\n\n");
  }

  void Array(std::string_view type, std::string_view name, int size,
             std::string_view comment) {
    if (size == 0) return;
    Print("{} {}[{}];  /* {} */\n", type, name, size, comment);
  }

  void Declarations() {
    Print("/* Outbox row and broker counter, per event ({}", events_);
    for (const Event& e : config_.events) Print(" {}", e.name);
    Print("). */\n");
    Array("bit", "published", events_, "0 or 1");
    Array("byte", "owner", events_, "0: never claimed; else relay index + 1");
    Array("byte", "token", events_, "fencing token, +1 on every claim");
    Array("byte", "lease", events_, "LEASE_NONE, LEASE_ACTIVE, LEASE_EXPIRED");
    Array("byte", "completed_token", events_,
          "token whose completion published the row");
    Array("byte", "offered", events_, "copies the broker accepted");

    Print("\n/* Relays ({}):", relays_);
    for (const std::string& r : config_.relays) Print(" {}", r);
    Print(". */\n");
    Array("byte", "relay_phase", relays_,
          "RELAY_IDLE, RELAY_CLAIMED, RELAY_SENT");
    Array("byte", "relay_event", relays_, "event index + 1; 0 while idle");
    Array("byte", "relay_token", relays_,
          "token it claimed with; 0 while idle");

    if (instances_ > 0) {
      Print("\n/* Consumer instances, flattened over groups:");
      for (int g = 0; g < groups_; ++g) {
        Print(" {} {}..{}", config_.groups[g].name, model_.FirstInstance(g),
              model_.FirstInstance(g) + config_.groups[g].instances - 1);
      }
      Print(". */\n");
    }
    Array("byte", "instance_phase", instances_,
          "INSTANCE_IDLE, INSTANCE_HOLDING, INSTANCE_MIDWAY");
    Array("byte", "instance_event", instances_,
          "event index + 1; 0 while idle");
    Array("bit", "instance_memo", instances_,
          "strategy's private data; 0 unless midway");

    if (groups_ > 0) {
      Print("\n/* Broker queue and durable tables, per group x event, index ");
      Print("g * {} + e; groups:", events_);
      for (const Group& g : config_.groups) {
        Print(" {} ({})", g.name, StrategyName(g.strategy));
      }
      Print(". */\n");
    }
    const int cells = groups_ * events_;
    Array("byte", "ready", cells, "copies waiting for delivery");
    Array("byte", "effects", cells, "business effects committed");
    Array("bit", "inbox", cells, "0 or 1");
    Array("bit", "ledger", cells, "0 or 1");
    Array("byte", "sent", cells, "notifications sent");

    int max_version = 0;
    for (const Event& e : config_.events) {
      max_version =
          std::max(max_version, static_cast<int>(e.version.value_or(0)));
    }
    const char* version_type =
        max_version <= 255 ? "byte" : (max_version <= 32767 ? "short" : "int");
    if (groups_ > 0 && keys_ > 0) {
      Print("\n/* Durable tables per group x key, index g * {} + k; keys:",
            keys_);
      for (const std::string& k : Keys(config_)) Print(" {}", k);
      Print(". */\n");
    }
    Array(version_type, "version", groups_ * keys_, "projection");
    Array("bit", "fresh", groups_ * keys_, "cache: 0 stale, 1 fresh");

    Print("\n/* Remaining fault budgets. */\n");
    ForEachBudget(BudgetFamily::kSeed, [&](const FaultBudget& budget) {
      Print("byte {} = {};\n", budget.key, Pool(config_, budget));
    });
  }

  // Conjunction over group x event cells of the groups of `family`.
  std::string EveryCell(StrategyFamily family, std::string_view array,
                        std::string_view test) const {
    std::vector<std::string> terms;
    for (int g = 0; g < groups_; ++g) {
      if (FamilyOf(config_.groups[g].strategy) != family) continue;
      for (int e = 0; e < events_; ++e) {
        terms.push_back(fmt::format("{}[{}] {}", array, g * events_ + e, test));
      }
    }
    return terms.empty() ? "1" : Join(terms, " && ");
  }

  void Invariants() {
    std::vector<std::pair<std::string, std::string>> safety;
    if (Named("effect_at_most_once")) {
      safety.emplace_back(
          "effect_at_most_once",
          EveryCell(StrategyFamily::kCredit, "effects", "<= 1"));
    }
    if (Named("stale_completion_rejected")) {
      std::vector<std::string> terms;
      for (int e = 0; e < events_; ++e) {
        terms.push_back(fmt::format(
            "(published[{0}] == 0 || completed_token[{0}] == token[{0}])", e));
      }
      safety.emplace_back("stale_completion_rejected", Join(terms, " && "));
    }
    if (Named("notify_at_most_once")) {
      safety.emplace_back(
          "notify_at_most_once",
          EveryCell(StrategyFamily::kNotification, "sent", "<= 1"));
    }
    std::vector<std::string> names;
    std::vector<std::string> left_out;
    for (const std::string& name : scenario_.invariants) {
      if (name == "projection_monotonic") continue;  // asserted at writes
      if (std::none_of(safety.begin(), safety.end(),
                       [&](const auto& p) { return p.first == name; })) {
        left_out.push_back(name);
      }
    }
    Print(
        "\n/* Safety invariants of the scenario, asserted after every action");
    if (Named("projection_monotonic")) {
      Print(
          ";\n * projection_monotonic is asserted before each "
          "last-writer-wins write");
    }
    if (!left_out.empty()) {
      Print(";\n * at-rest invariants left out: {}", Join(left_out, ", "));
    }
    Print(". */\n");
    for (const auto& [name, expr] : safety) {
      Print("#define {} ({})\n", name, expr);
      names.push_back(name);
    }
    safety_assert_ =
        names.empty() ? "" : fmt::format("assert({})", Join(names, " && "));
  }

  void Option(const Action& action, const std::string& guard,
              std::vector<std::string> effect) {
    if (!safety_assert_.empty()) effect.push_back(safety_assert_);
    Print("  /* {} */\n  :: d_step {{\n       {} ->\n       {}\n     }}\n",
          FormatAction(config_, action), guard, Join(effect, ";\n       "));
  }

  static std::vector<std::string> ZeroRelay(int r) {
    return {fmt::format("relay_phase[{}] = RELAY_IDLE", r),
            fmt::format("relay_event[{}] = 0", r),
            fmt::format("relay_token[{}] = 0", r)};
  }

  static std::vector<std::string> ZeroInstance(int j) {
    return {fmt::format("instance_phase[{}] = INSTANCE_IDLE", j),
            fmt::format("instance_event[{}] = 0", j),
            fmt::format("instance_memo[{}] = 0", j)};
  }

  // The broker accepts a copy of relay r's event.
  std::vector<std::string> Offer(int r) const {
    const std::string ev = fmt::format("relay_event[{}]", r);
    std::vector<std::string> effect = {
        fmt::format("offered[{}]++", EventIndex(ev, 0))};
    for (int g = 0; g < groups_; ++g) {
      effect.push_back(fmt::format("ready[{}]++", EventIndex(ev, g * events_)));
    }
    return effect;
  }

  void RelayOptions(int r) {
    const std::string idle = fmt::format("relay_phase[{}] == RELAY_IDLE", r);
    const std::string claimed =
        fmt::format("relay_phase[{}] == RELAY_CLAIMED", r);
    const auto rr = static_cast<std::uint8_t>(r);
    for (int e = 0; e < events_; ++e) {
      std::string guard = fmt::format("{} && published[{}] == 0", idle, e);
      if (config_.lease)
        guard += fmt::format(" && lease[{}] != LEASE_ACTIVE", e);
      if (config_.claim_bound > 0) {
        guard += fmt::format(" && token[{}] < {}", e, config_.claim_bound);
      }
      std::vector<std::string> effect = {
          fmt::format("token[{}]++", e),
          fmt::format("owner[{}] = {}", e, r + 1)};
      if (config_.lease) {
        effect.push_back(fmt::format("lease[{}] = LEASE_ACTIVE", e));
      }
      effect.push_back(fmt::format("relay_phase[{}] = RELAY_CLAIMED", r));
      effect.push_back(fmt::format("relay_event[{}] = {}", r, e + 1));
      effect.push_back(fmt::format("relay_token[{}] = token[{}]", r, e));
      Option(Action{ActionKind::kClaim, rr, static_cast<std::uint8_t>(e), 0, 0},
             guard, effect);
    }

    std::vector<std::string> send = Offer(r);
    send.push_back(fmt::format("relay_phase[{}] = RELAY_SENT", r));
    Option(Action{ActionKind::kSend, rr, 0, 0, 0}, claimed, send);

    std::vector<std::string> lost = Offer(r);
    lost.push_back("lost_publish_acks--");  // stays claimed, will send again
    Option(Action{ActionKind::kSendAckLost, rr, 0, 0, 0},
           claimed + " && lost_publish_acks > 0", lost);

    const std::string row = EventIndex(fmt::format("relay_event[{}]", r), 0);
    std::string publish = fmt::format("published[{}] == 0", row);
    if (config_.fencing) {
      publish +=
          fmt::format(" && owner[{0}] == {1} && token[{0}] == relay_token[{2}]",
                      row, r + 1, r);
    }
    std::vector<std::string> complete = {IfElse(
        publish, fmt::format("published[{0}] = 1; completed_token[{0}] = "
                             "relay_token[{1}]",
                             row, r))};
    for (std::string& s : ZeroRelay(r)) complete.push_back(std::move(s));
    Option(Action{ActionKind::kComplete, rr, 0, 0, 0},
           fmt::format("relay_phase[{}] == RELAY_SENT", r), complete);

    std::vector<std::string> crash = ZeroRelay(r);
    crash.push_back("relay_crashes--");
    Option(Action{ActionKind::kCrashRelay, rr, 0, 0, 0},
           fmt::format("relay_phase[{}] != RELAY_IDLE && relay_crashes > 0", r),
           crash);
  }

  void ExpireOption(int e) {
    std::vector<std::string> holders;
    for (int r = 0; r < relays_; ++r) {
      holders.push_back(fmt::format(
          "(relay_phase[{0}] != RELAY_IDLE && relay_event[{0}] == {1} && "
          "relay_token[{0}] == token[{2}])",
          r, e + 1, e));
    }
    const std::string held = "(" + Join(holders, " || ") + ")";
    Option(Action{ActionKind::kExpire, 0, static_cast<std::uint8_t>(e), 0, 0},
           fmt::format("lease[{0}] == LEASE_ACTIVE && published[{0}] == 0 && "
                       "(!{1} || premature_expiries > 0)",
                       e, held),
           {IfElse(held, "premature_expiries--"),
            fmt::format("lease[{}] = LEASE_EXPIRED", e)});
  }

  // Step `step` of group g's strategy for instance j on the group x event
  // cell `cell` (a Promela index expression). Event e and key are only
  // known (>= 0) for the first step; only one-step strategies and the
  // first steps use them. Mirrors OutboxModel::RunStrategyStep.
  std::vector<std::string> StrategyStep(int g, int j, const std::string& cell,
                                        int e, int step) const {
    const std::string memo = fmt::format("instance_memo[{}]", j);
    const auto key_cell = [&] { return g * keys_ + model_.KeyOf(e); };
    switch (config_.groups[g].strategy) {
      case Strategy::kDeclared:  // refused by the export command
        return {};
      case Strategy::kCreditNaive:
        return {fmt::format("effects[{}]++", cell)};
      case Strategy::kCreditInbox:
        return {IfElse(fmt::format("inbox[{}] == 0", cell),
                       fmt::format("inbox[{0}] = 1; effects[{0}]++", cell))};
      case Strategy::kCreditCheckThenAct:
        if (step == 0) return {fmt::format("{} = inbox[{}]", memo, cell)};
        return {IfElse(memo + " == 0",
                       fmt::format("effects[{0}]++; inbox[{0}] = 1", cell))};
      case Strategy::kCreditEffectThenInbox:
        if (step == 0) {
          return {IfElse(fmt::format("inbox[{}] == 0", cell),
                         fmt::format("effects[{}]++", cell))};
        }
        return {fmt::format("inbox[{}] = 1", cell)};
      case Strategy::kProjectionLww: {
        const int v = *config_.events[e].version;
        std::vector<std::string> effect;
        if (Named("projection_monotonic")) {
          effect.push_back(
              fmt::format("assert(version[{}] <= {})", key_cell(), v));
        }
        effect.push_back(fmt::format("version[{}] = {}", key_cell(), v));
        return effect;
      }
      case Strategy::kProjectionMonotonic:
        return {IfElse(fmt::format("version[{}] < {}", key_cell(),
                                   *config_.events[e].version),
                       fmt::format("version[{}] = {}", key_cell(),
                                   *config_.events[e].version))};
      case Strategy::kNotificationLedgerThenSend:
        if (step == 0) {
          return {IfElse(fmt::format("ledger[{}] == 0", cell), memo + " = 1",
                         memo + " = 0"),
                  fmt::format("ledger[{}] = 1", cell)};
        }
        return {IfElse(memo + " == 1", fmt::format("sent[{}]++", cell))};
      case Strategy::kNotificationSendThenLedger:
        if (step == 0) {
          return {IfElse(fmt::format("ledger[{}] == 0", cell),
                         fmt::format("sent[{}]++", cell))};
        }
        return {fmt::format("ledger[{}] = 1", cell)};
      case Strategy::kCacheInvalidate:
        return {fmt::format("fresh[{}] = 1", key_cell())};
    }
    return {};
  }

  void InstanceOptions(int g, int i) {
    const int j = model_.FirstInstance(g) + i;
    const auto gg = static_cast<std::uint8_t>(g);
    const auto ii = static_cast<std::uint8_t>(i);
    const Strategy strategy = config_.groups[g].strategy;
    const bool two_steps = StepCount(strategy) == 2;
    // The cell of the event the instance holds.
    const std::string held_cell =
        EventIndex(fmt::format("instance_event[{}]", j), g * events_);

    for (int e = 0; e < events_; ++e) {
      const std::string cell = std::to_string(g * events_ + e);
      std::vector<std::string> effect = {
          fmt::format("ready[{}]--", cell),
          fmt::format("instance_event[{}] = {}", j, e + 1)};
      for (std::string& s : StrategyStep(g, j, cell, e, 0)) {
        effect.push_back(std::move(s));
      }
      effect.push_back(
          fmt::format("instance_phase[{}] = {}", j,
                      two_steps ? "INSTANCE_MIDWAY" : "INSTANCE_HOLDING"));
      Option(
          Action{ActionKind::kConsume, 0, static_cast<std::uint8_t>(e), gg, ii},
          fmt::format("instance_phase[{}] == INSTANCE_IDLE && ready[{}] > 0", j,
                      cell),
          effect);
    }

    const std::string midway =
        fmt::format("instance_phase[{}] == INSTANCE_MIDWAY", j);
    const std::string holding =
        fmt::format("instance_phase[{}] == INSTANCE_HOLDING", j);

    // A one-step strategy is never midway: its step option never fires.
    std::vector<std::string> step = two_steps
                                        ? StrategyStep(g, j, held_cell, -1, 1)
                                        : std::vector<std::string>{};
    step.push_back(fmt::format("instance_phase[{}] = INSTANCE_HOLDING", j));
    step.push_back(fmt::format("instance_memo[{}] = 0", j));
    Option(Action{ActionKind::kStep, 0, 0, gg, ii}, midway, step);

    Option(Action{ActionKind::kAcknowledge, 0, 0, gg, ii}, holding,
           ZeroInstance(j));

    auto requeue = [&](const char* budget) {
      std::vector<std::string> effect = {fmt::format("ready[{}]++", held_cell)};
      for (std::string& s : ZeroInstance(j)) effect.push_back(std::move(s));
      effect.push_back(fmt::format("{}--", budget));
      return effect;
    };
    Option(Action{ActionKind::kAckLost, 0, 0, gg, ii},
           holding + " && lost_consumer_acks > 0",
           requeue("lost_consumer_acks"));
    Option(Action{ActionKind::kCrashConsumer, 0, 0, gg, ii},
           midway + " && consumer_crashes > 0", requeue("consumer_crashes"));
    Option(Action{ActionKind::kRedeliver, 0, 0, gg, ii},
           midway + " && redeliveries > 0",
           {fmt::format("ready[{}]++", held_cell), "redeliveries--"});
  }

  void Process() {
    Print(
        "\n/* One process; every option is one indivisible transition back to "
        "the\n * loop head, so the control state is the same in every state. "
        "*/\n"
        "active proctype main() {{\nend:\n  do\n");
    for (int r = 0; r < relays_; ++r) RelayOptions(r);
    for (int e = 0; e < events_; ++e) ExpireOption(e);
    for (int g = 0; g < groups_; ++g) {
      for (int i = 0; i < config_.groups[g].instances; ++i) {
        InstanceOptions(g, i);
      }
    }
    Print("  od\n}}\n");
  }

  const Scenario& scenario_;
  const Config& config_;
  OutboxModel model_;
  int events_;
  int relays_;
  int groups_;
  int keys_;
  int instances_ = 0;
  std::string safety_assert_;  // empty when no safety invariant is named
  std::string out_;
};

}  // namespace

std::string PromelaModel(const Scenario& scenario) {
  assert(scenario.order.empty());
  return PromelaWriter(scenario).Write();
}

}  // namespace oc::exports
