// The explored state graph of a scenario in Graphviz DOT: each state
// labelled with the cells that differ from the initial state, each edge with
// its action; the shortest counterexample's path drawn in red (a lasso's
// loop after it in blue), terminal
// states as double octagons, bounded dead ends dashed, states that break an
// invariant filled.

#ifndef OUTBOX_CHECK_REPORTS_GRAPHVIZ_REPORT_H_
#define OUTBOX_CHECK_REPORTS_GRAPHVIZ_REPORT_H_

#include <cstdint>
#include <string>

#include "check/scenario_check.h"
#include "common/status.h"

namespace oc::reports {

// Fails, saying why, when the result has no graph (a pinned order, an
// incomplete search, a graph over the checker's state or memory limit) or
// when it has more than `max_states` states.
Result<std::string> GraphvizReport(const ScenarioResult& result,
                                   std::uint64_t max_states);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_GRAPHVIZ_REPORT_H_
