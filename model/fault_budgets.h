// The fault budgets, one row each: the one list the loader, the writer,
// Validate, the state's cells and encoding, the unused-budget warning and
// every report's list of budgets are generated from.
//
// A budget is an initial pool in the Config (FaultBudgets) and a count left
// in the State (Budgets); an action of its class spends one. Adding a
// budget means a field in both structs, a row here, and the guard and
// effect of its action in model/outbox_model.cpp.

#ifndef OUTBOX_CHECK_MODEL_FAULT_BUDGETS_H_
#define OUTBOX_CHECK_MODEL_FAULT_BUDGETS_H_

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "model/config.h"
#include "model/state.h"

namespace oc {

// Where a budget comes from, which fixes its place in the state's encoding
// and fingerprint and in the reports.
enum class BudgetFamily : std::uint8_t {
  kSeed,    // the six of docs/SEMANTICS.md section 1, in every configuration
  kTime,    // model/TIME.md's outages
  kStyle,   // the relay styles' faults
  kBroker,  // the partitioned broker's (docs/SEMANTICS.md section 16)
};

// When a budget is shown (as a cell, in a report's list of budgets, in the
// scope of a verdict): always, when set (> 0), or also, when 0, if the
// configuration's relay style takes it.
enum class BudgetShown : std::uint8_t { kAlways, kWhenSet, kWithStyle };

struct FaultBudget {
  std::string_view key;         // under [faults]; the cell is "faults.KEY"
  std::string_view spender;     // the action class that spends one
  std::string_view singular;    // what reports call one: "relay crash"
  std::string_view plural;      // and several: "relay crashes"
  int FaultBudgets::*pool;      // the initial pool in the Config
  std::uint8_t Budgets::*left;  // the count left in the State
  BudgetFamily family;
  BudgetShown shown;
};

// Every budget, in the order of FaultBudgets (and of scenario files).
inline constexpr FaultBudget kFaultBudgets[] = {
    {"premature_expiries", "expire_premature", "premature expiry",
     "premature expiries", &FaultBudgets::premature_expiries,
     &Budgets::premature_expiries, BudgetFamily::kSeed, BudgetShown::kAlways},
    {"relay_crashes", "crash_relay", "relay crash", "relay crashes",
     &FaultBudgets::relay_crashes, &Budgets::relay_crashes, BudgetFamily::kSeed,
     BudgetShown::kAlways},
    {"lost_publish_acks", "send_ack_lost", "lost publish acknowledgement",
     "lost publish acknowledgements", &FaultBudgets::lost_publish_acks,
     &Budgets::lost_publish_acks, BudgetFamily::kSeed, BudgetShown::kAlways},
    {"lost_consumer_acks", "ack_lost", "lost consumer acknowledgement",
     "lost consumer acknowledgements", &FaultBudgets::lost_consumer_acks,
     &Budgets::lost_consumer_acks, BudgetFamily::kSeed, BudgetShown::kAlways},
    {"consumer_crashes", "crash_consumer", "consumer crash", "consumer crashes",
     &FaultBudgets::consumer_crashes, &Budgets::consumer_crashes,
     BudgetFamily::kSeed, BudgetShown::kAlways},
    {"redeliveries", "redeliver", "broker redelivery", "broker redeliveries",
     &FaultBudgets::redeliveries, &Budgets::redeliveries, BudgetFamily::kSeed,
     BudgetShown::kAlways},
    {"consumer_outages", "consumer_outage", "consumer outage",
     "consumer outages", &FaultBudgets::consumer_outages,
     &Budgets::consumer_outages, BudgetFamily::kTime, BudgetShown::kWhenSet},
    {"database_outages", "database_outage", "database outage",
     "database outages", &FaultBudgets::database_outages,
     &Budgets::database_outages, BudgetFamily::kTime, BudgetShown::kWhenSet},
    {"failed_commits", "commit_fails", "failed commit", "failed commits",
     &FaultBudgets::failed_commits, &Budgets::failed_commits,
     BudgetFamily::kStyle, BudgetShown::kWithStyle},
    {"lost_broker_writes", "lose_write", "lost broker write",
     "lost broker writes", &FaultBudgets::lost_broker_writes,
     &Budgets::lost_broker_writes, BudgetFamily::kStyle, BudgetShown::kWhenSet},
    {"rebalances", "rebalance", "rebalance", "rebalances",
     &FaultBudgets::rebalances, &Budgets::rebalances, BudgetFamily::kBroker,
     BudgetShown::kWhenSet},
    {"send_failures", "send_fails", "transient send failure",
     "transient send failures", &FaultBudgets::send_failures,
     &Budgets::send_failures, BudgetFamily::kBroker, BudgetShown::kWhenSet},
    {"handler_failures", "consume_fails", "handler failure", "handler failures",
     &FaultBudgets::handler_failures, &Budgets::handler_failures,
     BudgetFamily::kBroker, BudgetShown::kWhenSet},
};

// The keys of [faults], in table order.
inline constexpr auto kFaultKeys = [] {
  std::array<std::string_view, std::size(kFaultBudgets)> keys{};
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = kFaultBudgets[i].key;
  return keys;
}();

// The pool `config` sets for `budget`.
inline int Pool(const Config& config, const FaultBudget& budget) {
  return config.budgets.*budget.pool;
}

// Whether `config` lets `budget`'s fault happen any number of times.
inline bool Unbounded(const Config& config, const FaultBudget& budget) {
  return Pool(config, budget) == kAnyBudget;
}

// Whether some budget of `config` is "any".
bool AnyUnboundedBudget(const Config& config);

// Whether the search of `config` must abstract counts to stay finite
// (docs/SEMANTICS.md section 14): some budget is "any", or relays without
// a lease claim with no claim bound.
bool CountsAbstracted(const Config& config);

// A pool as scenario files and reports write it: "2", or "any" (quoted,
// "\"any\"", for a TOML value).
std::string BudgetText(int pool, bool toml = false);

// "at most 1 premature expiry", "at most 2 relay crashes", "any number of
// relay crashes".
std::string BudgetLimit(int pool, const FaultBudget& budget);

// Calls f(budget) for each budget of `family`, in table order.
template <class F>
void ForEachBudget(BudgetFamily family, F f) {
  for (const FaultBudget& budget : kFaultBudgets) {
    if (budget.family == family) f(budget);
  }
}

// Whether `budget` is shown for `config` (BudgetShown): a budget the
// configuration sets is always shown.
bool Shown(const Config& config, const FaultBudget& budget);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_FAULT_BUDGETS_H_
