// The result of a search: statistics, whether it was complete, and the
// shortest violation found of each property. Plain data; reports read it.

#ifndef OUTBOX_CHECK_EXPLORER_EXPLORATION_H_
#define OUTBOX_CHECK_EXPLORER_EXPLORATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explorer/model_concept.h"
#include "explorer/state_graph.h"

namespace oc::explorer {

// Counts are those of the whole (unreduced) state space, also when the
// search stored one state per symmetry orbit: a state stands for its whole
// orbit, and its transitions for those of every state of the orbit.
struct Stats {
  std::uint64_t states = 0;           // distinct states reached
  std::uint64_t transitions = 0;      // successors generated, duplicates too
  std::uint64_t terminal_states = 0;  // no successor, not bounded
  std::uint64_t bounded_dead_ends =
      0;               // no successor, blocked by the model's bound
  int depth = 0;       // deepest level reached (initial = 0)
  double seconds = 0;  // wall time; not deterministic
  // Of `seconds`, the wall time a one-process breadth-first search spent
  // in each phase of its batches (breadth_first_search.h): generating
  // successors, deduplicating them, numbering and checking the new states,
  // storing their keys, and renumbering the index. The rest went to the
  // initial states, traces and the serial work between phases. All 0 for
  // the other searches.
  struct Phases {
    double generate = 0, deduplicate = 0, commit = 0, store = 0, renumber = 0;
  } phases;
  std::uint64_t stored_states = 0;  // what the visited store holds: states,
                                    // or one per orbit under symmetry
  std::uint64_t store_bytes = 0;    // the visited store's size
  // The most the search held at once, in bytes: the visited store and the
  // buffers of the level being expanded (what Options::max_bytes caps),
  // then the kept graph with the store (StateGraph::Bytes()).
  std::uint64_t peak_bytes = 0;
  std::uint64_t graph_bytes = 0;  // the kept graph's size; 0: none kept
  // How far a running search is, set for Options::on_progress (after the
  // search they stay as at its last report). Stored states are numbered in
  // breadth-first order: those below `expanded_states` were expanded, the
  // others wait (the frontier). `level_states` were stored at the depth
  // being expanded, `previous_level_states` at the depth before, and
  // `next_level_states` so far at the depth after.
  std::uint64_t expanded_states = 0;
  std::uint64_t level_states = 0;
  std::uint64_t previous_level_states = 0;
  std::uint64_t next_level_states = 0;
  // A simulation's (random_walk.h) walks run so far; 0 for a search. Its
  // progress reports count distinct states seen in `states`, steps taken
  // in `transitions`, and the longest walk in `depth`.
  std::uint64_t walks = 0;
  // A distributed search's (distributed_search.h) ranks, and the fewest
  // and most states one of them stores; 0 for a search in one process.
  // Its peak_bytes are then the largest rank's.
  int ranks = 0;
  std::uint64_t rank_stored_min = 0, rank_stored_max = 0;
};

// Why a search did not cover the whole state space. A search stopped by a
// limit may show a violation but proves nothing holds.
enum class Stop {
  kComplete,        // every reachable state was expanded
  kMaxDepth,        // a state at the depth limit had successors
  kMaxStates,       // the state limit was reached
  kFirstViolation,  // stop_at_first_violation found one
  kMaxMemory,       // the search's buffers reached their memory limit
  kInterrupted,     // Options::cancel was set (a signal, say)
  kSampled,         // random walks (random_walk.h): a sample of the paths,
                    // never the whole state space
};

// A concrete path from an initial state: states[0] is initial and
// states[i + 1] is the successor of states[i] by actions[i].
template <class M>
struct Trace {
  std::vector<typename M::State> states;
  std::vector<typename M::Action> actions;
  std::size_t length() const { return actions.size(); }
};

template <class M>
struct Violation {
  std::string property;
  PropertyKind kind = PropertyKind::kSafety;
  // Shortest: no path to a violation of this property is shorter. The
  // violation is in the last state (kSafety, kAtRest) or on the last step
  // (kTransition).
  Trace<M> trace;
  // A lasso (kAtRest only, found by the liveness check of fair_cycles.h):
  // `trace` is the stem, shortest, and `loop` a cycle from its last state,
  // which a fair run repeats for ever without the property's state ever
  // coming: loop.states[0] is the stem's last state, and the loop's last
  // state equals it (for a model that abstracts, equal after abstraction).
  // Empty (no actions) for every other violation.
  Trace<M> loop = {};
  bool lasso() const { return !loop.actions.empty(); }
};

// How a search spread over several processes (distributed_search.h) went;
// none of it changes a result, and reports leave it out.
struct Distribution {
  int ranks = 1;
  std::uint64_t candidates = 0;  // successors sent to their owners
  std::uint64_t crossing = 0;    // of which to another rank
  std::uint64_t bytes_sent = 0;  // to other ranks, every exchange
  // By rank: the states it stored, and the most it held (what
  // Options::max_bytes caps on each).
  std::vector<std::uint64_t> rank_stored;
  std::vector<std::uint64_t> rank_peak_bytes;
};

template <class M>
struct Exploration {
  Stats stats;
  Stop stop = Stop::kComplete;
  // The symmetry the search reduced by (the model's description), or
  // "none"; and how many threads it ran on (results do not depend on it).
  std::string reduction = "none";
  // The partial-order reduction the search used (the model's description),
  // or nothing. With one, the counts are of the states the reduced search
  // stored and the transitions it took (weighted by orbit under symmetry),
  // not of the whole state space, except terminal_states and
  // bounded_dead_ends, which a stubborn set keeps every one of; and a
  // violation's trace is a path, not necessarily a shortest one.
  std::optional<std::string> partial_order;
  int threads = 1;
  // Set by a search spread over several processes.
  std::optional<Distribution> distribution;
  // At most one per property, ordered by trace length, ties by discovery
  // order (deterministic).
  std::vector<Violation<M>> violations;

  // Coverage, for models that classify their actions: how many transitions
  // of each class the search generated (0: the class never fired).
  std::vector<std::string> action_classes;
  std::vector<std::uint64_t> action_counts;

  // The whole explored graph, when Options::graph_limit asked for it and the
  // search stayed within the limit; graph_over_limit says it did not, and
  // graph_over_memory that the graph would have passed
  // Options::graph_bytes_limit or, with the search's own bytes,
  // Options::max_bytes.
  std::optional<StateGraph<M>> graph;
  bool graph_over_limit = false;
  bool graph_over_memory = false;

  // The graph of the stored states, with labelled edges, when the search
  // was asked to record it (ExploreRecording), completed, and it fitted.
  std::optional<StateGraph<M>> recorded;

  bool complete() const { return stop == Stop::kComplete; }
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_EXPLORATION_H_
