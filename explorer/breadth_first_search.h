// Breadth-first explicit-state search over any Model.
//
// The search expands the state space level by level, so the first path found
// to any state is a shortest one, and with a deterministic model the whole
// result (counts, verdicts, traces) is deterministic. It checks
//  - kSafety properties on every distinct state when it is first reached,
//  - kTransition properties on every transition, also into known states,
//  - kAtRest properties on every terminal state (no successor, and not a
//    dead end of the model's own bound).
// It records the shortest violation of each property. Unless asked to stop
// at the first violation, it goes on to the end so that the statistics
// describe the whole reachable state space.
//
// Thread safety: Explore is reentrant; the model and properties are only
// read. Determinism: everything but Stats::seconds depends only on the
// model, the properties and the options.

#ifndef OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_
#define OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "explorer/exploration.h"
#include "explorer/model_concept.h"
#include "explorer/packed_visited_set.h"
#include "explorer/visited_set.h"

namespace oc::explorer {

struct Options {
  // States at this depth are not expanded (default: no limit). If one of
  // them has a successor, the search is incomplete (Stop::kMaxDepth).
  std::optional<int> max_depth;
  // Stop once this many distinct states are stored (default: no limit).
  std::optional<std::uint64_t> max_states;
  // Stop once the visited store reaches this many bytes (default: no
  // limit), so that a search ends cleanly, incomplete, instead of being
  // killed for want of memory.
  std::optional<std::uint64_t> max_store_bytes;
  // Stop at the shortest violation of any property (default: find the
  // shortest violation of each, and explore everything).
  bool stop_at_first_violation = false;
  // Called with the running statistics about every `progress_every`
  // expanded states, from the searching thread (default: never).
  std::function<void(const Stats&)> on_progress;
  std::uint64_t progress_every = 1 << 16;
  // Keep the explored graph (Exploration::graph) if it has at most this
  // many states; 0 (default): do not keep it.
  std::uint64_t graph_limit = 0;
};

template <Model M>
Exploration<M> Explore(const M& model,
                       std::span<const Property<typename M::State>> properties,
                       const Options& options = {}) {
  using State = typename M::State;
  using Action = typename M::Action;
  // Models that encode their states get the packed store.
  using Set = std::conditional_t<EncodesStates<M>, PackedVisitedSet<M>,
                                 VisitedSet<State, Action>>;
  using Id = typename Set::Id;
  const auto start = std::chrono::steady_clock::now();

  Exploration<M> result;
  Set visited(model);
  using Graph = StateGraph<State, Action>;
  std::optional<Graph> graph;
  if (options.graph_limit > 0) graph.emplace();
  // Adds vertex `id` (ids and vertices are both dense and in order).
  auto add_vertex = [&](Id id) {
    if (!graph) return;
    if (id >= options.graph_limit) {
      graph.reset();
      result.graph_over_limit = true;
      return;
    }
    boost::add_vertex(StateVertex<State>{visited.state(id)}, *graph);
  };
  if constexpr (ClassifiesActions<M>) {
    for (const auto& name : model.ActionClassNames()) {
      result.action_classes.push_back(std::string(name));
    }
    result.action_counts.assign(result.action_classes.size(), 0);
  }
  // Per property: the violation found so far, and when it was found (for a
  // deterministic tie-break in the final order).
  std::vector<std::optional<Violation<M>>> found(properties.size());
  std::vector<std::uint64_t> found_order(properties.size());
  std::uint64_t discoveries = 0;
  int violation_depth = -1;  // length of the first violation, stop-first mode

  auto trace_to = [&](Id id) {
    Trace<M> trace;
    for (Id at = id;; at = visited.parent(at)) {
      trace.states.push_back(visited.state(at));
      if (visited.parent(at) == Set::kNoParent) break;
      trace.actions.push_back(visited.action(at));
    }
    std::reverse(trace.states.begin(), trace.states.end());
    std::reverse(trace.actions.begin(), trace.actions.end());
    return trace;
  };
  auto record = [&](std::size_t p, Trace<M> trace) {
    if (found[p]) return;
    const int length = static_cast<int>(trace.length());
    found[p] =
        Violation<M>{properties[p].name, properties[p].kind, std::move(trace)};
    found_order[p] = discoveries++;
    if (violation_depth < 0 || length < violation_depth)
      violation_depth = length;
  };
  auto check_state = [&](Id id) {
    for (std::size_t p = 0; p < properties.size(); ++p) {
      if (properties[p].kind == PropertyKind::kSafety && !found[p] &&
          !properties[p].holds(visited.state(id))) {
        record(p, trace_to(id));
      }
    }
  };
  // Why the store must take no more states, if it must not.
  auto full = [&]() -> std::optional<Stop> {
    if (options.max_states && visited.size() >= *options.max_states) {
      return Stop::kMaxStates;
    }
    if (options.max_store_bytes &&
        visited.Bytes() >= *options.max_store_bytes) {
      return Stop::kMaxMemory;
    }
    return std::nullopt;
  };

  for (const State& s : model.InitialStates()) {
    if (const std::optional<Stop> stop = full()) {
      result.stop = *stop;
      break;
    }
    if (auto id =
            visited.Insert(s, model.Fingerprint(s), Set::kNoParent, Action{})) {
      add_vertex(*id);
      check_state(*id);
    }
  }

  std::vector<std::pair<Action, State>> successors;
  std::size_t level_begin = 0;
  int depth = 0;
  std::uint64_t expanded = 0;
  while (result.stop == Stop::kComplete && level_begin < visited.size()) {
    const std::size_t level_end = visited.size();
    result.stats.depth = depth;
    for (std::size_t i = level_begin;
         i < level_end && result.stop == Stop::kComplete; ++i) {
      const Id id = static_cast<Id>(i);
      // A reference into a VisitedSet, a decoded copy from a packed one.
      decltype(auto) current = visited.state(id);
      successors.clear();
      model.Successors(current, successors);
      if (successors.empty()) {
        if (model.BlockedByBound(current)) {
          ++result.stats.bounded_dead_ends;
          if (graph) (*graph)[id].bounded_dead_end = true;
        } else {
          ++result.stats.terminal_states;
          if (graph) (*graph)[id].terminal = true;
          for (std::size_t p = 0; p < properties.size(); ++p) {
            if (properties[p].kind == PropertyKind::kAtRest && !found[p] &&
                !properties[p].holds(current)) {
              record(p, trace_to(id));
            }
          }
        }
        continue;
      }
      if (options.max_depth && depth >= *options.max_depth) {
        result.stop = Stop::kMaxDepth;
        break;
      }
      for (auto& [action, next] : successors) {
        ++result.stats.transitions;
        if constexpr (ClassifiesActions<M>) {
          ++result.action_counts[model.ActionClass(current, action, next)];
        }
        for (std::size_t p = 0; p < properties.size(); ++p) {
          if (properties[p].kind == PropertyKind::kTransition && !found[p] &&
              !properties[p].holds_on(current, next)) {
            Trace<M> trace = trace_to(id);
            trace.states.push_back(next);
            trace.actions.push_back(action);
            record(p, std::move(trace));
          }
        }
        if (const std::optional<Stop> stop = full()) {
          result.stop = *stop;
          break;
        }
        // The packed store hashes its own encoding; fingerprint and heap
        // size are only for the plain one.
        std::uint64_t fingerprint = 0;
        std::size_t heap_bytes = 0;
        if constexpr (!EncodesStates<M>) {
          fingerprint = model.Fingerprint(next);
          if constexpr (ReportsHeapBytes<M>) {
            heap_bytes = model.StateHeapBytes(next);
          }
        }
        if (auto new_id =
                visited.Insert(next, fingerprint, id, action, heap_bytes)) {
          add_vertex(*new_id);
          check_state(*new_id);
          if (graph) {
            boost::add_edge(id, *new_id, ActionEdge<Action>{action}, *graph);
          }
        } else if (graph) {
          boost::add_edge(id, *visited.Find(next, fingerprint),
                          ActionEdge<Action>{action}, *graph);
        }
      }
      if (options.on_progress && ++expanded % options.progress_every == 0) {
        result.stats.states = visited.size();
        result.stats.seconds = std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
        options.on_progress(result.stats);
      }
    }
    // A violation found while expanding this level has length depth or
    // depth + 1; finishing the level first lets a shorter at-rest violation
    // of this level win.
    if (options.stop_at_first_violation && violation_depth >= 0 &&
        result.stop == Stop::kComplete) {
      result.stop = Stop::kFirstViolation;
    }
    level_begin = level_end;
    ++depth;
  }
  if (result.stop == Stop::kFirstViolation && level_begin >= visited.size()) {
    result.stop = Stop::kComplete;  // nothing was left to explore anyway
  }

  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < properties.size(); ++p) {
    if (found[p]) order.push_back(p);
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const std::size_t la = found[a]->trace.length();
    const std::size_t lb = found[b]->trace.length();
    return la != lb ? la < lb : found_order[a] < found_order[b];
  });
  if (options.stop_at_first_violation && order.size() > 1) order.resize(1);
  for (std::size_t p : order) result.violations.push_back(std::move(*found[p]));

  result.stats.store_bytes = visited.Bytes();
  result.stats.states = visited.size();
  // A graph of an incomplete search would show states whose successors are
  // unknown as dead ends; only a complete one is worth keeping.
  if (graph && result.stop == Stop::kComplete) result.graph = std::move(graph);
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_
