#include "model/fault_budgets.h"

#include "model/relay_styles.h"

namespace oc {

bool Shown(const Config& config, const FaultBudget& budget) {
  if (Pool(config, budget) > 0) return true;
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

}  // namespace oc
