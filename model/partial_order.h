// Partial-order reduction for the outbox model: stubborn sets.
//
// In a state with several enabled actions that do not interfere (relay A
// claims e1 while relay B claims e2), every order of them reaches the same
// states, and a search need try only one. A stubborn set of a state is a
// set of actions, some enabled, closed under
//  1. interference: with an enabled action, every action that reads or
//     writes what it writes, or writes what it reads (enabled or not);
//  2. enabling: with a disabled action, every action that can make one of
//     its false conditions true (a necessary enabling set);
//  3. visibility: with an enabled action that writes what a checked safety
//     or transition property reads, every such action.
// Expanding only its enabled actions keeps every terminal state reachable,
// and (with the search's cycle condition, explorer/breadth_first_search.h)
// every property violation: Valmari's stubborn sets. At-rest properties are
// read in terminal states only, so they need no visibility.
//
// What actions read and write is worked out once, from the configuration,
// over "cells" finer than the State's fields: relay r's hold of event e,
// instance i's hold of e, the row of e, its broker count, a group's copies
// of e ready, each of its tables' cells for e, its key cells, each declared
// table cell, each fault budget. So that every action reads and writes
// fixed cells, the actions whose event is the one their relay or instance
// holds (send, complete, step, acknowledge, ...) are split into one
// transition per event, enabled only for the event held.
//
// It applies to untimed configurations of the seed pipeline (lease_token
// relays, rows committed before the run, no lost broker writes). Time and
// the other relay styles read clocks and cursors shared by every action,
// which this analysis does not yet split finely enough to gain anything;
// there it is off and the reason says why.
//
// The stubborn set of a state is the one of least enabled actions among
// those grown from each enabled action, ties to the first in successor
// order: a function of the state, so results stay deterministic.

#ifndef OUTBOX_CHECK_MODEL_PARTIAL_ORDER_H_
#define OUTBOX_CHECK_MODEL_PARTIAL_ORDER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/action.h"
#include "model/config.h"
#include "model/state.h"

namespace oc {

// What the model needs to tell the analysis about its layout.
struct PartialOrderLayout {
  std::vector<int> first_instance;  // per group
  std::vector<int> key_of;          // per event: key index, or -1
  int keys = 0;
  // Per group * events + event: the declared table cells the strategy
  // touches for the event (State::user indices).
  std::vector<std::vector<std::uint16_t>> user_slots;
  int user_cells = 0;
  // Every action that some state might enable, in successor order.
  std::vector<Action> candidates;
  bool timed = false;
  bool seed_pipeline = false;
};

class PartialOrder {
 public:
  // Transitions past this many are not analysed (the interference matrix
  // grows with their square).
  static constexpr int kMaxTransitions = 2048;

  // Off: applies() is false.
  PartialOrder() = default;
  PartialOrder(const Config& config, const PartialOrderLayout& layout);

  // Off, for the reason `why` gives ("counts are abstracted").
  static PartialOrder Off(std::string why) {
    PartialOrder p;
    p.description_ = std::move(why);
    return p;
  }

  bool applies() const { return applies_; }
  // "stubborn sets over 53 transitions; visible: billing.effects", or why
  // it does not apply.
  const std::string& Describe() const { return description_; }

  struct Transition {
    Action action;        // the concrete action (as Successors names it)
    int held_event = -1;  // split: enabled only while this event is held
  };
  const std::vector<Transition>& transitions() const { return transitions_; }

  // Per-thread buffers.
  struct Scratch {
    std::vector<std::uint64_t> enabled, set, best, fresh;
    std::vector<std::uint32_t> work;
  };

  // Given which transitions are enabled in `s` (`enabled`, one bit each),
  // leaves in `scratch.best` the enabled transitions of a stubborn set and
  // returns true, or returns false when that set is every enabled one.
  bool Choose(const State& s, Scratch& scratch) const;

  // Whether transition t is enabled as a split of the action `s` enables:
  // its held event is the one the action's relay or instance holds.
  bool HeldMatches(const State& s, const Transition& t) const;

  std::size_t Words() const { return words_; }

 private:
  // Adds to `out` the transitions of a necessary enabling set of the
  // disabled transition t in s.
  void AddEnablers(const State& s, std::size_t t,
                   std::vector<std::uint64_t>& out) const;
  void Add(std::vector<std::uint64_t>& bits, std::size_t t) const {
    bits[t >> 6] |= std::uint64_t{1} << (t & 63);
  }
  // The transition of an action on relay r (or flat instance i) and event
  // e, added to `out`.
  void AddRelayOp(ActionKind k, int r, int e,
                  std::vector<std::uint64_t>& out) const;
  void AddInstanceOp(ActionKind k, int i, int e,
                     std::vector<std::uint64_t>& out) const;

  bool applies_ = false;
  std::string description_;
  PartialOrderLayout layout_;
  int relays_ = 0, events_ = 0;
  std::vector<int> instances_;  // per group
  bool lease_ = true;
  int claim_bound_ = 0;
  std::vector<Transition> transitions_;
  std::size_t words_ = 0;
  // Per transition: the transitions that interfere with it (row-major,
  // words_ words per row), and whether it is visible.
  std::vector<std::uint64_t> interferes_;
  std::vector<std::uint64_t> visible_;
  // The transition of (kind, relay or flat instance, event), or kNone.
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::vector<std::uint32_t> index_;
  std::size_t IndexSlot(ActionKind k, int unit, int e) const {
    return (static_cast<std::size_t>(k) * kUnits + unit) * events_ + e;
  }
  static constexpr int kUnits = kMaxGroups * kMaxInstances;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_PARTIAL_ORDER_H_
