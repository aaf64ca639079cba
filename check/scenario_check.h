// Checking a scenario: build its model, explore it exhaustively or replay
// its pinned order, and compare what was found with what the scenario
// expects.
//
// This is the one place that joins the layers: model, invariants, explorer.
// It prints nothing; reports/ turns a ScenarioResult into text.

#ifndef OUTBOX_CHECK_CHECK_SCENARIO_CHECK_H_
#define OUTBOX_CHECK_CHECK_SCENARIO_CHECK_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/scenario.h"
#include "common/status.h"
#include "explorer/exploration.h"
#include "explorer/transport.h"
#include "model/outbox_model.h"

namespace oc {

using Trace = explorer::Trace<OutboxModel>;
using Violation = explorer::Violation<OutboxModel>;
using Exploration = explorer::Exploration<OutboxModel>;

// How the run compares with the scenario's [expect] table, or, for a
// scenario without one, what it found.
enum class Outcome {
  kAsExpected,    // exit code 0
  kUnexpected,    // exit code 1: a verdict, a length or a count differs, or
                  // an action of check.must_fire never fired
  kInconclusive,  // exit code 3: a limit stopped the search before it could
                  // decide (an incomplete search never proves "holds")
  // No expectation: the scenario has no [expect] table (or was loaded to
  // explore), so the outcome is what the check found.
  kNoExpectationHolds,     // exit code 0: every checked invariant holds
  kNoExpectationViolated,  // exit code 1: an invariant is violated (a
                           // counterexample is a proof even when a limit
                           // stopped the search; the others then are not
                           // proved to hold)
};

// Random walks instead of an exhaustive search (explorer/random_walk.h):
// for state spaces too large to search, a simulation may find a violation
// but never proves that an invariant holds. A pinned order is replayed as
// without it.
struct SimulationOptions {
  // Walk i draws from a generator seeded by (seed, i): the same seed gives
  // the same walks and the same result on any platform and thread count.
  std::uint64_t seed = 1;
  // Run walks 0 .. walks - 1 unless a violation comes first; and start no
  // walk after `time`. With neither: 1000 walks.
  std::optional<std::uint64_t> walks;
  std::optional<std::chrono::milliseconds> time;
  // Swarm: each walk also draws its own fault budgets (each from 0 to the
  // scenario's) and a weight from 0 to 4 per action class (default: no;
  // every walk has the scenario's budgets and takes every enabled action
  // alike).
  bool swarm = false;
  // Count distinct states up to this many, then say "at least" (default
  // 2^20).
  std::uint64_t distinct_limit = std::uint64_t{1} << 20;
  // A violation found is shortened, then a breadth-first search as deep
  // as the shortened trace looks for a shortest one, if it needs at most
  // this many stored states (default 2,000,000; 0: never search).
  std::uint64_t shortest_search_states = 2'000'000;
};

// What a simulation did, beside the Exploration it fills (whose stats are
// then: states = distinct states seen, transitions = steps taken,
// terminal_states = walks that ended at rest, depth = the longest walk).
struct SimulationSummary {
  std::uint64_t seed = 1;
  bool swarm = false;
  int max_depth = 0;        // steps per walk at most
  std::uint64_t walks = 0;  // walks run (up to the violating one)
  std::optional<std::uint64_t> walks_asked;
  std::optional<std::chrono::milliseconds> time;
  bool distinct_capped = false;      // stats.states is a lower bound
  std::uint64_t ended_at_depth = 0;  // walks cut by max_depth
  // The fault budgets of the scenario (pool > 0) whose action no walk
  // took, by key ("premature_expiries").
  std::vector<std::string> faults_never;
  // When a violation was found: the walk that found it, how long its trace
  // was as the walk met it, and whether a breadth-first search proved the
  // reported (shortened) trace a shortest one, or why not.
  std::optional<std::uint64_t> walk;
  std::size_t walk_length = 0;
  bool shortest = false;
  std::string shortest_unknown_because;
  // Swarm: the fault budgets and class weights that walk drew (the
  // regression scenario is written with these budgets).
  std::optional<FaultBudgets> budgets;
  std::vector<std::uint32_t> class_weights;
  // The scenario's check.walk_weights that every walk used, by class index
  // (a swarm walk's drawn weight times this); empty when it gives none.
  std::vector<std::uint32_t> walk_weights;
};

struct CheckOptions {
  // Set: simulate instead of searching exhaustively (max_depth then bounds
  // each walk; default the scenario's bounds.max_depth, else 200).
  std::optional<SimulationOptions> simulate;
  // Override the scenario's [bounds] and [check] settings when set.
  std::optional<int> max_depth;
  std::optional<std::uint64_t> max_states;
  std::optional<bool> stop_at_first_violation;
  // Stop a search before it holds more than this many bytes (default: no
  // limit; see explorer::Options::max_bytes); the search is then
  // incomplete. The graph counts too: one that would pass the limit is
  // not kept.
  std::optional<std::uint64_t> max_bytes;
  // Forwarded to the explorer (see explorer::Options::on_progress).
  std::function<void(const explorer::Stats&)> on_progress;
  // Keep the explored graph of searches with at most this many states, for
  // the point of no return and Graphviz output (0: never), and only if it
  // needs at most graph_bytes_limit bytes (default 256 MiB).
  std::uint64_t graph_limit = 100'000;
  std::uint64_t graph_bytes_limit = std::uint64_t{256} << 20;
  // Threads to search on (0, the default: every hardware thread), and
  // whether to reduce by symmetry (default: yes). Neither changes a
  // verdict, a count or a trace length.
  int threads = 0;
  bool symmetry = true;
  // Partial-order reduction (model/partial_order.h). kAuto (the default):
  // for a search that can prove "holds": one whose scenario expects it or
  // expects nothing, pins no state count and no must_fire. kOn: also when
  // it expects a violation or pins a state count (which is then not
  // compared: the reduced search does not count distinct states). Either way, a
  // reduced search that finds a violation is followed by the unreduced search,
  // whose counts and shortest traces are reported (partial_order_rerun says
  // so). kOff: never.
  enum class PartialOrderUse { kAuto, kOn, kOff };
  PartialOrderUse partial_order = PartialOrderUse::kAuto;
  // Also search with and without partial-order reduction and compare: the
  // same invariants violated, the same terminal states and bounded dead
  // ends, and every reduced trace a real one that breaks its invariant.
  // A difference is a mismatch (outcome kUnexpected); the comparison is in
  // partial_order_check.
  bool partial_order_check = false;
  // Forwarded to the explorer (see explorer::Options::cancel): once it
  // reads true the search stops, incomplete (default: none).
  const std::atomic<bool>* cancel = nullptr;
  // Set: the exhaustive search is spread over the ranks of this transport
  // (explorer/distributed_search.h), each of which runs the same check
  // with the same options; every rank gets the same result. Not with
  // `simulate`.
  explorer::Transport* distributed = nullptr;
};

// The first step of a violation's trace after which the violation is
// unavoidable: every continuation from that state reaches it.
struct PointOfNoReturn {
  // 1-based index of that step; 0 when it was unavoidable from the initial
  // state. nullopt when it could not be computed (see unknown_because).
  std::optional<std::size_t> step;
  // The actions enabled in the state before `step` (the last state from
  // which a different choice stayed safe) that do not lead into
  // unavoidability, in successor order.
  std::vector<Action> safe_alternatives;
  // Why `step` is unknown, as a sentence; empty when it is known.
  std::string unknown_because;
};

struct ScenarioResult {
  Scenario scenario;
  std::shared_ptr<const OutboxModel> model;
  // For an exhaustive scenario, the search; for a pinned order, the replay
  // seen as a search of one path (states = steps + 1), whose violations are
  // the first step at which each invariant broke along it.
  Exploration exploration;
  // The pinned order, replayed (pinned scenarios only); with check.loop,
  // followed by two turns of the loop.
  std::optional<Trace> replay;
  // Of replay's steps, how many are the order's, and how many one turn of
  // check.loop has (0 without a loop): replay has order + 2 * loop steps.
  std::size_t replay_order_steps = 0;
  std::size_t replay_loop_steps = 0;
  // Pinned only: whether the last state of the replay (of the order, or of
  // the loop's second turn) is terminal, so that at-rest invariants were
  // checked on it.
  bool replay_ends_at_rest = false;

  // One per exploration.violations, in the same order.
  std::vector<PointOfNoReturn> points_of_no_return;
  // Things that do not change the outcome but weaken a verdict, one
  // sentence each: fault budgets that no transition ever spent.
  std::vector<std::string> warnings;
  // The comparisons between durations the verdict rests on, for a timed
  // scenario (model/timing.h TimingAssumptions); empty otherwise.
  std::vector<std::string> time_assumptions;

  Outcome outcome = Outcome::kAsExpected;
  // Why the outcome is not kAsExpected (or, without an expectation, why it
  // is kUnexpected or kInconclusive), one sentence each.
  std::vector<std::string> mismatches;

  // Relay styles: the assumptions the verdict rests on that the seed's pipeline
  // does not make (a per-attempt message id, a broker that loses
  // acknowledged writes), one sentence each; also in `warnings`, and shown
  // in the one-line-per-scenario summary.
  std::vector<std::string> assumptions;

  // The reduced search found a violation, and `exploration` is the
  // unreduced search that followed: what the reduction was, for reports.
  std::optional<std::string> partial_order_rerun;
  // Then, the states the reduced search stored (what it cost).
  std::uint64_t partial_order_stored = 0;
  // With CheckOptions::partial_order_check: what the comparison found, one
  // sentence ("same verdicts and terminal states; 1,234 states stored
  // reduced, 5,678 unreduced"), or why it did not run.
  std::optional<std::string> partial_order_check;

  // Set when the search abstracted counts and tokens for unbounded fault
  // budgets (OutboxModel::AbstractionDescription), for reports.
  std::optional<std::string> abstraction;
  // Violations the abstracted search found that did not replay on the
  // concrete model: the property and why, as a sentence. Each makes the
  // verdict on its property inconclusive (exit code 3); they are not in
  // exploration.violations. Those that replayed are, with the concrete
  // states.
  std::vector<std::pair<std::string, std::string>> unconfirmed;

  // What the leads-to check of the at-rest properties did (docs/SEMANTICS.md
  // section 15), one sentence; unset when it did not run (a pinned order,
  // random walks, an incomplete search).
  std::optional<std::string> liveness;
  // How long that check took (building the graph, if the search kept none,
  // included); wall time, not deterministic.
  double liveness_seconds = 0;

  // Set when CheckOptions::simulate ran random walks instead of a search.
  std::optional<SimulationSummary> simulation;

  // The names of the violated invariants, shortest violation first.
  std::vector<std::string> ViolatedInvariants() const;
};

// Runs `scenario`. The error case is bad input found only by running it: a
// pinned step that is not enabled at its turn ("FILE:LINE:COL: check.order
// step 4 'claim(B, e1)' is not enabled: ...", or "check.loop step 2
// 'send(A)' is not enabled on the loop's second turn: ...").
//
// A pinned scenario with check.loop is a lasso replayed: the order, then
// two turns of the loop, every invariant checked along them as along the
// order. An at-rest property that fails in every state of both turns is
// violated by the lasso (the Violation's trace is the order, its loop the
// first turn), provided the loop is a fair cycle as FindFairLasso's are: it
// takes no fault, and every fairness class enabled throughout it is taken
// on it. When it is not, a warning says why and nothing is violated.
Result<ScenarioResult> CheckScenario(const Scenario& scenario,
                                     const CheckOptions& options = {});

// The exit code of one outcome: 0, 1 or 3, as listed in Outcome.
int ExitCodeOf(Outcome outcome);

// The exit code for a set of outcomes: 1 if any outcome's is 1, else 3 if
// any outcome's is 3, else 0.
int ExitCodeFor(const std::vector<Outcome>& outcomes);

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_SCENARIO_CHECK_H_
