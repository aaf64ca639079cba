// Which paths of a scenario a conformance run replays against the database,
// chosen deterministically: the pinned order of a pinned scenario (with
// two turns of its check.loop after it, if it has one); every
// counterexample of an explored one (a lasso's stem and one turn of its
// loop); then up to N further paths of its
// explored state graph, first to cover every action class that fires in
// the graph, then to take transitions no path took yet.
//
// A further path is built greedily. It starts with the shortest path to
// the first edge, in breadth-first vertex order, whose action class no
// chosen path has yet, or, once every class is covered, to the first edge
// no chosen further path has taken. Then, step by step, it takes the first
// edge of a still uncovered class, else the first edge not yet taken, else
// the first edge to a state not yet on the path, until a state with no
// successor (or kMaxPathLength steps). So the same scenario always gives
// the same paths, and spare paths go to transitions not yet replayed.

#ifndef OUTBOX_CHECK_CONFORM_CONFORM_PATHS_H_
#define OUTBOX_CHECK_CONFORM_CONFORM_PATHS_H_

#include <string>
#include <vector>

#include "check/scenario_check.h"

namespace oc::conform {

inline constexpr std::size_t kMaxPathLength = 200;

struct ConformPath {
  // "pinned order", "counterexample of effect_at_most_once",
  // "explored path 1", ...
  std::string label;
  Trace trace;
};

struct PathSelection {
  std::vector<ConformPath> paths;
  // Action classes (OutboxModel::ActionClassNames) some chosen path takes,
  // and those that fired in the search but no chosen path takes (because
  // of the limit, or a walk that missed them), in class order.
  std::vector<std::string> covered;
  std::vector<std::string> uncovered;
  // Set when the search kept no graph (too many states, or too many
  // bytes): the further paths ("walked path N") were then walked through
  // the model's successors, preferring uncovered classes and untaken
  // actions, without the graph's shortest prefixes; coverage is of what
  // they took.
  bool no_graph = false;
};

// REQUIRES: `result` comes from CheckScenario.
PathSelection SelectPaths(const ScenarioResult& result, int further_paths);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_CONFORM_PATHS_H_
