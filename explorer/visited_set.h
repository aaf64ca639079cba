// The visited set of a search: every distinct state once, with the parent
// link and action that first reached it (for shortest traces).
//
// Invariants:
//  - ids are dense, 0..size()-1, in insertion order;
//  - the set holds every id exactly once and finds it by its state;
//  - parent(id) < id for every non-initial id, and kNoParent for initial
//    states, so walking parents always ends.
// References returned by state() stay valid while the set lives.
// References returned by state() stay valid while the set lives.
// Not thread-safe.

#ifndef OUTBOX_CHECK_EXPLORER_VISITED_SET_H_
#define OUTBOX_CHECK_EXPLORER_VISITED_SET_H_

#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <vector>

namespace oc::explorer {

template <class State, class Action>
class VisitedSet {
 public:
  using Id = std::uint32_t;
  static constexpr Id kNoParent = std::numeric_limits<Id>::max();

  VisitedSet() : set_(0, IdHash{this}, IdEqual{this}) {}
  // For symmetry with PackedVisitedSet's constructor; the model is unused.
  template <class Model>
  explicit VisitedSet(const Model&) : VisitedSet() {}
  VisitedSet(const VisitedSet&) = delete;
  VisitedSet& operator=(const VisitedSet&) = delete;

  // Inserts `state` unless an equal one is present. Returns its new id, or
  // nullopt when it was already there. `fingerprint` must be the model's
  // fingerprint of `state`. REQUIRES: parent is kNoParent or an id.
  // `heap_bytes` is what `state` holds outside its own object (0 for a
  // flat state); it only feeds Bytes().
  std::optional<Id> Insert(const State& state, std::uint64_t fingerprint,
                           Id parent, const Action& action,
                           std::size_t heap_bytes = 0) {
    if (set_.find(Probe{&state, fingerprint}) != set_.end())
      return std::nullopt;
    const Id id = static_cast<Id>(states_.size());
    states_.push_back(state);
    fingerprints_.push_back(fingerprint);
    parents_.push_back(parent);
    actions_.push_back(action);
    set_.insert(id);
    heap_bytes_ += heap_bytes;
    return id;
  }

  // The id of the state equal to `state`, if present.
  std::optional<Id> Find(const State& state, std::uint64_t fingerprint) const {
    const auto it = set_.find(Probe{&state, fingerprint});
    if (it == set_.end()) return std::nullopt;
    return *it;
  }

  std::size_t size() const { return states_.size(); }

  // What the store occupies: its arrays at their capacity, the states' heap
  // data, and the hash table's slots with their one metadata byte each. An
  // estimate (allocator overhead is not counted), for benchmarks.
  std::size_t Bytes() const {
    return states_.size() * sizeof(State) + heap_bytes_ +
           fingerprints_.capacity() * sizeof(std::uint64_t) +
           parents_.capacity() * sizeof(Id) +
           actions_.capacity() * sizeof(Action) +
           set_.bucket_count() * (sizeof(Id) + 1);
  }
  const State& state(Id id) const { return states_[id]; }
  Id parent(Id id) const { return parents_[id]; }
  // REQUIRES: parent(id) != kNoParent.
  const Action& action(Id id) const { return actions_[id]; }

 private:
  struct Probe {
    const State* state;
    std::uint64_t fingerprint;
  };
  struct IdHash {
    using is_transparent = void;
    using is_avalanching = void;  // fingerprints are already well mixed
    const VisitedSet* self;
    std::size_t operator()(Id id) const { return self->fingerprints_[id]; }
    std::size_t operator()(const Probe& p) const { return p.fingerprint; }
  };
  struct IdEqual {
    using is_transparent = void;
    const VisitedSet* self;
    bool operator()(Id a, Id b) const { return a == b; }
    bool operator()(const Probe& p, Id id) const { return Same(p, id); }
    bool operator()(Id id, const Probe& p) const { return Same(p, id); }
    bool Same(const Probe& p, Id id) const {
      return self->fingerprints_[id] == p.fingerprint &&
             self->states_[id] == *p.state;
    }
  };

  std::deque<State> states_;  // a deque: references stay valid on insert
  std::vector<std::uint64_t> fingerprints_;
  std::vector<Id> parents_;
  std::vector<Action> actions_;  // actions_[id] is unused for initial states
  std::size_t heap_bytes_ = 0;
  boost::unordered_flat_set<Id, IdHash, IdEqual> set_;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_VISITED_SET_H_
