// What the breadth-first searches (breadth_first_search.h, one process;
// distributed_search.h, several) do alike with what they found: keep the
// first violation of each property, rebuild a trace from the keys along
// its path, order the violations for the result, and keep the state graph.

#ifndef OUTBOX_CHECK_EXPLORER_FOUND_VIOLATIONS_H_
#define OUTBOX_CHECK_EXPLORER_FOUND_VIOLATIONS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "explorer/exploration.h"
#include "explorer/model_concept.h"
#include "explorer/state_graph.h"

namespace oc::explorer::detail {

// The concrete path whose states have the keys `keys` (keys[0]: an
// initial state's), found again by expanding each state and taking the
// successor with the next key. `key_of(state, out)` writes a state's key
// (`width` bytes).
template <class M, class KeyOf>
Trace<M> TraceThroughKeys(const M& model, KeyOf&& key_of, std::size_t width,
                          std::span<const std::uint8_t* const> keys) {
  std::vector<std::uint8_t> probe(width);
  Trace<M> trace;
  for (const auto& s : model.InitialStates()) {
    key_of(s, probe.data());
    if (std::memcmp(probe.data(), keys[0], width) == 0) {
      trace.states.push_back(s);
      break;
    }
  }
  std::vector<std::pair<typename M::Action, typename M::State>> next;
  for (std::size_t k = 1; k < keys.size(); ++k) {
    next.clear();
    model.Successors(trace.states.back(), next);
    for (auto& [action, state] : next) {
      key_of(state, probe.data());
      if (std::memcmp(probe.data(), keys[k], width) == 0) {
        trace.actions.push_back(action);
        trace.states.push_back(state);
        break;
      }
    }
  }
  return trace;
}

// Appends to `trace` the step from its last state to a successor keyed
// `target` that breaks the transition property `p`.
template <class M, class KeyOf>
void AppendBreakingStep(const M& model, KeyOf&& key_of, std::size_t width,
                        const std::uint8_t* target,
                        const Property<typename M::State>& p, Trace<M>& trace) {
  std::vector<std::uint8_t> probe(width);
  std::vector<std::pair<typename M::Action, typename M::State>> next;
  model.Successors(trace.states.back(), next);
  for (auto& [action, state] : next) {
    key_of(state, probe.data());
    if (std::memcmp(probe.data(), target, width) == 0 &&
        !p.holds_on(trace.states.back(), state)) {
      trace.actions.push_back(action);
      trace.states.push_back(state);
      return;
    }
  }
}

// The first violation of each property, in the order a search met them.
template <class M>
class FoundViolations {
 public:
  explicit FoundViolations(
      std::span<const Property<typename M::State>> properties)
      : properties_(properties),
        found_(properties.size()),
        order_(properties.size()) {}

  bool has(std::size_t p) const { return found_[p].has_value(); }
  // The length of the shortest violation recorded; -1: none.
  int shortest() const { return shortest_; }

  // Keeps `trace` as property p's violation, unless it has one.
  void Record(std::size_t p, Trace<M> trace) {
    if (found_[p]) return;
    const int length = static_cast<int>(trace.length());
    found_[p] = Violation<M>{properties_[p].name, properties_[p].kind,
                             std::move(trace)};
    order_[p] = recorded_++;
    if (shortest_ < 0 || length < shortest_) shortest_ = length;
  }

  // The violations by trace length, ties in the order recorded; only the
  // first when `first_only`.
  std::vector<Violation<M>> Take(bool first_only) {
    std::vector<std::size_t> order;
    for (std::size_t p = 0; p < found_.size(); ++p) {
      if (found_[p]) order.push_back(p);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const std::size_t la = found_[a]->trace.length();
      const std::size_t lb = found_[b]->trace.length();
      return la != lb ? la < lb : order_[a] < order_[b];
    });
    if (first_only && order.size() > 1) order.resize(1);
    std::vector<Violation<M>> violations;
    for (std::size_t p : order) violations.push_back(std::move(*found_[p]));
    return violations;
  }

 private:
  std::span<const Property<typename M::State>> properties_;
  std::vector<std::optional<Violation<M>>> found_;
  std::vector<std::uint64_t> order_;
  std::uint64_t recorded_ = 0;
  int shortest_ = -1;
};

// The explored graph, kept in `result` when Options::graph_limit asks for
// it, the search was complete and unreduced by partial order, and it fits
// beside the store (`store_bytes` of `max_bytes`); `peak` grows by it.
template <class M>
void KeepGraph(const M& model, std::uint64_t graph_limit,
               std::optional<std::uint64_t> graph_bytes_limit, bool por,
               std::uint64_t store_bytes, std::uint64_t max_bytes,
               Exploration<M>& result, std::uint64_t& peak) {
  if (graph_limit == 0 || por) return;
  result.graph_over_limit = result.stats.states > graph_limit;
  // A graph of an incomplete search would show states whose successors
  // are unknown as dead ends; only a complete one is worth keeping.
  if (result.graph_over_limit || !result.complete()) return;
  std::uint64_t budget = graph_bytes_limit.value_or(max_bytes);
  budget =
      std::min(budget, max_bytes > store_bytes ? max_bytes - store_bytes : 0);
  result.graph = BuildStateGraph(model, budget, result.stats.states,
                                 result.stats.transitions);
  if (result.graph) {
    result.stats.graph_bytes = result.graph->Bytes();
    peak = std::max(peak, store_bytes + result.stats.graph_bytes);
  } else {
    result.graph_over_memory = true;
  }
}

}  // namespace oc::explorer::detail

#endif  // OUTBOX_CHECK_EXPLORER_FOUND_VIOLATIONS_H_
