// Shortening a violation's trace found by a random walk: cut the loops
// (a state met twice), then try leaving steps out and replaying the rest.
// The result is a real path that breaks the same property, at most as long
// as the trace given, but not necessarily a shortest one: only a
// breadth-first search can prove that.
//
// Thread safety: a pure function of its arguments; the model and the
// property are only read.

#ifndef OUTBOX_CHECK_EXPLORER_SHORTEN_TRACE_H_
#define OUTBOX_CHECK_EXPLORER_SHORTEN_TRACE_H_

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "explorer/exploration.h"
#include "explorer/model_concept.h"

namespace oc::explorer {

namespace detail {

// Replays `actions` from `initial`, each the enabled action equal to it,
// and returns the path up to the first break of `property` (kAtRest: only
// in a terminal state at the end); nothing if a step is not enabled or the
// property never breaks.
template <Model M>
std::optional<Trace<M>> ReplayToBreak(
    const M& model, const Property<typename M::State>& property,
    const typename M::State& initial,
    const std::vector<typename M::Action>& actions) {
  Trace<M> t;
  t.states.push_back(initial);
  if (property.kind == PropertyKind::kSafety && !property.holds(initial)) {
    return t;
  }
  std::vector<std::pair<typename M::Action, typename M::State>> next;
  for (const typename M::Action& a : actions) {
    next.clear();
    model.Successors(t.states.back(), next);
    const auto it = std::find_if(next.begin(), next.end(),
                                 [&](const auto& n) { return n.first == a; });
    if (it == next.end()) return std::nullopt;
    t.actions.push_back(a);
    t.states.push_back(std::move(it->second));
    const bool broke =
        property.kind == PropertyKind::kTransition
            ? !property.holds_on(t.states[t.states.size() - 2], t.states.back())
            : property.kind == PropertyKind::kSafety &&
                  !property.holds(t.states.back());
    if (broke) return t;
  }
  if (property.kind == PropertyKind::kAtRest) {
    next.clear();
    model.Successors(t.states.back(), next);
    if (next.empty() && !model.BlockedByBound(t.states.back()) &&
        !property.holds(t.states.back())) {
      return t;
    }
  }
  return std::nullopt;
}

}  // namespace detail

// A trace no longer than `violation.trace` from the same initial state that
// breaks the same property. Replays at most `max_replays` candidate orders
// (default 4000), so its cost is bounded by about max_replays times the
// trace's length in successor computations.
// REQUIRES: `property` is the one `violation` names, and the trace breaks
// it (at its last state, or on its last step).
template <Model M>
requires std::equality_comparable<typename M::Action> Trace<M> ShortenTrace(
    const M& model, const Property<typename M::State>& property,
    const Trace<M>& trace, std::size_t max_replays = 4000) {
  Trace<M> best = trace;
  // Loops: a state met again makes the steps between them useless. A
  // transition break needs its last step, so no loop may end in the last
  // state then.
  const std::size_t keep_last =
      property.kind == PropertyKind::kTransition ? 1 : 0;
  for (std::size_t i = 0; i < best.states.size(); ++i) {
    std::size_t last = i;
    for (std::size_t j = best.states.size() - keep_last; j-- > i + 1;) {
      if (best.states[j] == best.states[i]) {
        last = j;
        break;
      }
    }
    if (last == i) continue;
    best.states.erase(
        best.states.begin() + static_cast<std::ptrdiff_t>(i) + 1,
        best.states.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    best.actions.erase(
        best.actions.begin() + static_cast<std::ptrdiff_t>(i),
        best.actions.begin() + static_cast<std::ptrdiff_t>(last));
  }
  // The states after a cut loop are the same, so the break stays; the
  // replay makes sure (and gives up the cuts if not).
  std::optional<Trace<M>> cut =
      detail::ReplayToBreak(model, property, best.states.front(), best.actions);
  best = cut && cut->length() <= trace.length() ? std::move(*cut) : trace;
  // Then leave out runs of steps, long runs first, as long as the rest
  // still replays to a break.
  std::size_t replays = 0;
  for (std::size_t run = std::max<std::size_t>(best.length() / 2, 1);
       run >= 1 && replays < max_replays; run /= 2) {
    bool shorter = true;
    while (shorter && replays < max_replays) {
      shorter = false;
      for (std::size_t at = best.length(); at-- > 0 && replays < max_replays;) {
        if (at + run > best.length()) continue;
        std::vector<typename M::Action> actions = best.actions;
        actions.erase(actions.begin() + static_cast<std::ptrdiff_t>(at),
                      actions.begin() + static_cast<std::ptrdiff_t>(at + run));
        ++replays;
        std::optional<Trace<M>> t = detail::ReplayToBreak(
            model, property, best.states.front(), actions);
        if (t && t->length() < best.length()) {
          best = std::move(*t);
          shorter = true;
          at = std::min(at, best.length());
        }
      }
    }
    if (run == 1) break;
  }
  return best;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_SHORTEN_TRACE_H_
