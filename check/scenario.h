// A scenario: one model configuration, the invariants to check on it, how to
// search it (exhaustively, or along one pinned order of actions), and what
// the author expects, if anything. The file format is described in
// scenarios/FORMAT.md; scenario_loader.h turns a file into this struct.

#ifndef OUTBOX_CHECK_CHECK_SCENARIO_H_
#define OUTBOX_CHECK_CHECK_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "invariants/invariant_expression.h"
#include "model/action.h"
#include "model/config.h"

namespace oc {

// Where something came from in a scenario file, for diagnostics.
struct SourcePosition {
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
};

struct PinnedStep {
  Action action;
  std::string text;  // as written in the file, for messages
  SourcePosition position;
};

enum class Verdict : std::uint8_t { kHolds, kViolated };

struct Expectation {
  Verdict verdict = Verdict::kHolds;
  // With kViolated: the invariants that must be violated; every other
  // checked invariant must hold. Empty with kHolds.
  std::vector<std::string> violated;
  // Length (number of actions) of the shortest violation found, over all
  // violated invariants. Only with kViolated.
  std::optional<int> trace_length;
  // Distinct states reached (exhaustive scenarios only).
  std::optional<std::uint64_t> states;
  SourcePosition position;  // of the [expect] table
};

// Search limits. A search stopped by one of them is incomplete: it can show
// a violation but never prove "holds".
struct SearchLimits {
  std::optional<int> max_depth;  // states at this depth are not expanded
  // Stop once this many states are stored: one per symmetry orbit when
  // the search reduces by symmetry, else every distinct state.
  std::optional<std::uint64_t> max_states;
};

// The largest weight check.walk_weights gives an action class.
inline constexpr std::uint32_t kMaxWalkWeight = 1000;

struct Scenario {
  std::string path;         // the file, as given on the command line
  std::string name;         // `name`, or the file's stem
  std::string description;  // optional prose
  Config config;
  // The invariants checked, no repeats: those check.invariants lists, in
  // its order, then every invariant declared in [[invariants]] that it does
  // not list, in declaration order (a declared invariant is checked unless
  // its block says `check = false`).
  std::vector<std::string> invariants;
  // Where the file names each of `invariants`, index for index: its
  // check.invariants element, or, for a declared invariant that list
  // leaves out, the `name` of its [[invariants]] block. For tools that
  // point at a line (SARIF). May be shorter than `invariants` (empty for a
  // Scenario built in code): a missing entry is an unknown position.
  std::vector<SourcePosition> invariant_positions;
  // Declared invariants whose block says `check = false`, in declaration
  // order: not checked, and every report says so.
  std::vector<std::string> unchecked;
  // Stop at the shortest violation of any invariant instead of finding the
  // shortest violation of each.
  bool stop_at_first_violation = false;
  // Action classes or kinds that must fire at least once (check.must_fire),
  // so that a "holds" cannot come from a hazard that never happened. Names
  // are those of OutboxModel::ClassesNamed.
  std::vector<std::string> must_fire;
  // check.walk_weights: the weight of each action class in a random walk
  // (check --simulate), by class index (OutboxModel::ActionClassNames), each
  // 0..kMaxWalkWeight; empty when the file gives none, or when every weight
  // it gives is 1 (which changes no walk). Not every weight is 0. The
  // exhaustive search and a pinned order ignore it.
  std::vector<std::uint32_t> walk_weights;
  SearchLimits limits;
  // Non-empty: replay exactly this order instead of exploring.
  std::vector<PinnedStep> order;
  // check.loop, only with an order: a lasso's loop, which a fair run
  // repeats for ever after the order. The check replays the order, then
  // the loop twice, and an at-rest property that fails in every state of
  // both turns is violated by the lasso (scenario_check.h). Empty: none.
  std::vector<PinnedStep> loop;
  // The [expect] table. Without one (a file that has none, or one loaded
  // to explore), the check reports what it finds and its outcome is "no
  // expectation" (scenario_check.h).
  std::optional<Expectation> expect;
  // Invariants declared in the file ([[invariants]]), in file order; each
  // is in `invariants` or in `unchecked`.
  std::vector<InvariantExpression> expressions;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_SCENARIO_H_
