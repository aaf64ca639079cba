// Turning a counterexample into a regression test: the scenario that
// replays it as a pinned order.

#ifndef OUTBOX_CHECK_CHECK_REGRESSION_SCENARIO_H_
#define OUTBOX_CHECK_CHECK_REGRESSION_SCENARIO_H_

#include <cstddef>
#include <string>

#include "check/scenario.h"
#include "check/scenario_check.h"
#include "common/status.h"

namespace oc {

// The scenario that replays violation `i` of `result`: the same
// configuration and invariants, `check.order` = the trace's actions (for a
// lasso, its stem's, and `check.loop` = its loop's), and an
// [expect] table that says exactly what the replay finds (the invariants
// that break along the trace and the step of the first break), so that a
// change of behaviour along this order fails it. Its name is
// "NAME.INVARIANT" and its path is empty. `folder` is where the scenario
// will be saved (relative to the working folder, or absolute): a declared
// strategy's file is written relative to it, as the loader reads it, so the
// saved scenario and the strategy files can move together to another
// checkout. Only when no relative path leads there is it written absolute.
// REQUIRES: i < result.exploration.violations.size().
Result<Scenario> RegressionScenario(const ScenarioResult& result, std::size_t i,
                                    const std::string& folder);

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_REGRESSION_SCENARIO_H_
