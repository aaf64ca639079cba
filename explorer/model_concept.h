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
#include <string_view>
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
//  - EncodedSize(), Encode(s, out), Decode(in): a canonical encoding of
//    states as EncodedSize() bytes (equal states, equal bytes; different
//    states, different bytes), which is what the visited store keeps.
template <class M>
concept Model = std::regular<typename M::State> &&
    std::copyable<typename M::Action> &&
    std::default_initializable<typename M::Action> &&
    requires(const M& m, const typename M::State& s,
             std::vector<std::pair<typename M::Action, typename M::State>>& out,
             std::uint8_t* bytes, const std::uint8_t* in) {
  { m.InitialStates() } -> std::same_as<std::vector<typename M::State>>;
  m.Successors(s, out);
  { m.BlockedByBound(s) } -> std::convertible_to<bool>;
  { m.EncodedSize() } -> std::convertible_to<std::size_t>;
  m.Encode(s, bytes);
  { m.Decode(in) } -> std::same_as<typename M::State>;
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

// Optionally, a model may hash a key as it encodes it: EncodeHashed(s,
// out) writes what Encode(s, out) writes and returns
// HashBytes(out, EncodedSize()) (common/key_hash.h), which the search
// would otherwise compute by reading the key back.
template <class M>
concept HashesKeys = Model<M> &&
    requires(const M& m, const typename M::State& s, std::uint8_t* out) {
  { m.EncodeHashed(s, out) } -> std::same_as<std::uint64_t>;
};

// Optionally, a model may declare a symmetry: a group of renamings that
// map reachable states to reachable states, transitions to transitions,
// and keep every property's verdict. Then
//  - HasSymmetry(): some renaming is not the identity;
//  - SymmetryDescription(): which renamings, for reports;
//  - SymmetryScratch: buffers the two calls below may reuse from call to
//    call; the search keeps one per thread and passes it in, so the model
//    holds no per-thread state of its own;
//  - Canonicalize(s, out, scratch): writes EncodedSize() bytes, equal for
//    two states exactly when one is a renaming of the other;
//  - OrbitSize(s, scratch): how many distinct states the renamings of s
//    make.
// The search then stores one state per orbit, and still reports the counts
// of the unreduced state space (sums of orbit sizes).
template <class M>
concept Symmetric = Model<M> &&
    std::default_initializable<typename M::SymmetryScratch> &&
    requires(const M& m, const typename M::State& s, std::uint8_t* out,
             typename M::SymmetryScratch& scratch) {
  { m.HasSymmetry() } -> std::convertible_to<bool>;
  { m.SymmetryDescription() } -> std::convertible_to<std::string>;
  m.Canonicalize(s, out, scratch);
  { m.OrbitSize(s, scratch) } -> std::convertible_to<std::uint64_t>;
};

// Optionally, a model may offer partial-order reduction: in each state, a
// subset of the enabled actions whose expansion alone keeps every terminal
// state and every violation of the checked properties reachable, given
// the search's cycle condition (a stubborn or ample set). Then
//  - HasPartialOrder(): it applies to this model (with its properties);
//  - PartialOrderDescription(): what it is, or why it does not apply;
//  - PartialOrderScratch: per-thread buffers, as for symmetry;
//  - ReducedSuccessors(s, out, scratch): appends the successors by such a
//    subset, in the order Successors gives them, and returns true; or
//    appends every successor and returns false.
// The search expands a state fully when a reduced successor is already
// stored at the state's depth or before (the cycle condition for
// breadth-first search), so the set need not care about cycles. Safety
// and transition properties must be invisible to the actions left out
// (the model knows what they read); at-rest properties need nothing.
template <class M>
concept PartiallyOrdered = Model<M> &&
    std::default_initializable<typename M::PartialOrderScratch> &&
    requires(const M& m, const typename M::State& s,
             std::vector<std::pair<typename M::Action, typename M::State>>& out,
             typename M::PartialOrderScratch& scratch) {
  { m.HasPartialOrder() } -> std::convertible_to<bool>;
  { m.PartialOrderDescription() } -> std::convertible_to<std::string>;
  { m.ReducedSuccessors(s, out, scratch) } -> std::convertible_to<bool>;
};

enum class PropertyKind {
  kSafety,      // holds(s) in every reachable state
  kTransition,  // holds_on(before, after) on every transition
  kAtRest,      // holds(s) in every terminal state
};

// The kind's key in machine-readable output: "safety", "transition",
// "at_rest".
inline std::string_view PropertyKindKey(PropertyKind kind) {
  switch (kind) {
    case PropertyKind::kSafety:
      return "safety";
    case PropertyKind::kTransition:
      return "transition";
    case PropertyKind::kAtRest:
      return "at_rest";
  }
  return "?";
}

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
