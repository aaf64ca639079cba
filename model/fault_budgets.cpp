#include "model/fault_budgets.h"

#include <fmt/format.h>

#include "model/relay_styles.h"

namespace oc {

bool Shown(const Config& config, const FaultBudget& budget) {
  if (Pool(config, budget) != 0) return true;
  switch (budget.shown) {
    case BudgetShown::kAlways:
      return true;
    case BudgetShown::kWhenSet:
      return false;
    case BudgetShown::kWithStyle:
      return StyleOf(config).failed_commits;
  }
  return false;
}

bool AnyUnboundedBudget(const Config& config) {
  for (const FaultBudget& budget : kFaultBudgets) {
    if (Unbounded(config, budget)) return true;
  }
  return false;
}

bool CountsAbstracted(const Config& config) {
  return AnyUnboundedBudget(config) ||
         (!config.lease && config.claim_bound == 0 &&
          StyleOf(config).lease_and_token);
}

std::string BudgetText(int pool, bool toml) {
  if (pool == kAnyBudget) return toml ? "\"any\"" : "any";
  return fmt::format("{}", pool);
}

std::string BudgetLimit(int pool, const FaultBudget& budget) {
  if (pool == kAnyBudget) return fmt::format("any number of {}", budget.plural);
  return fmt::format("at most {} {}", pool,
                     pool == 1 ? budget.singular : budget.plural);
}

}  // namespace oc
