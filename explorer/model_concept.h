// What the explorer needs of a model, and what it checks on it.
//
// The explorer is generic: it knows a model only through this concept and a
// list of named Properties, and includes no header of any concrete model.

#ifndef OUTBOX_CHECK_EXPLORER_MODEL_CONCEPT_H_
#define OUTBOX_CHECK_EXPLORER_MODEL_CONCEPT_H_

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace oc::explorer {

// A model offers:
//  - State: a regular value type (copyable, operator==);
//  - Action: a copyable, default-constructible label of a transition;
//  - InitialStates(): at least one state;
//  - Successors(s, out): appends (action, successor) for every enabled
//    action, deterministically (same s, same list in the same order);
//  - BlockedByBound(s): true when the model's own bound (not the search's)
//    disabled some action of s; a state with no successors that is blocked
//    by the bound is a "bounded dead end", not a terminal state;
//  - Fingerprint(s): a fixed 64-bit hash, equal for equal states.
template <class M>
concept Model = std::regular<typename M::State> &&
    std::copyable<typename M::Action> &&
    std::default_initializable<typename M::Action> && requires(
        const M& m, const typename M::State& s,
        std::vector<std::pair<typename M::Action, typename M::State>>& out) {
  { m.InitialStates() } -> std::same_as<std::vector<typename M::State>>;
  m.Successors(s, out);
  { m.BlockedByBound(s) } -> std::convertible_to<bool>;
  { m.Fingerprint(s) } -> std::convertible_to<std::uint64_t>;
};

// Optionally, a model may also sort its transitions into a few named
// classes, so that the search can count how often each class fired
// (coverage): ActionClassNames() lists the names, and ActionClass(from, a,
// to) gives the index of a transition's class.
template <class M>
concept ClassifiesActions = Model<M> &&
    requires(const M& m, const typename M::State& s,
             const typename M::Action& a) {
  { m.ActionClassNames() } -> std::convertible_to<std::vector<std::string>>;
  { m.ActionClass(s, a, s) } -> std::convertible_to<std::size_t>;
};

// Optionally, a model whose states hold data on the heap says how much, so
// that the search can report the visited store's size (Stats::store_bytes).
template <class M>
concept ReportsHeapBytes = Model<M> &&
    requires(const M& m, const typename M::State& s) {
  { m.StateHeapBytes(s) } -> std::convertible_to<std::size_t>;
};

// Optionally, a model may encode its states canonically as EncodedSize()
// bytes; the search then stores them packed (explorer/packed_visited_set.h).
template <class M>
concept EncodesStates = Model<M> &&
    requires(const M& m, const typename M::State& s, std::uint8_t* out,
             const std::uint8_t* in) {
  { m.EncodedSize() } -> std::convertible_to<std::size_t>;
  m.Encode(s, out);
  { m.Decode(in) } -> std::same_as<typename M::State>;
};

enum class PropertyKind {
  kSafety,      // holds(s) in every reachable state
  kTransition,  // holds_on(before, after) on every transition
  kAtRest,      // holds(s) in every terminal state
};

// A named predicate the search checks. `holds` is set for kSafety and
// kAtRest, `holds_on` for kTransition. Both must be pure and thread-safe.
template <class State>
struct Property {
  std::string name;
  PropertyKind kind = PropertyKind::kSafety;
  std::function<bool(const State&)> holds;
  std::function<bool(const State&, const State&)> holds_on;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_MODEL_CONCEPT_H_
