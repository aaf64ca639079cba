// The outbox / relay / broker / consumer model of docs/SEMANTICS.md
// sections 1-5.
//
// An OutboxModel is immutable once built and thread-compatible: every member
// is const and deterministic, so the same state always yields the same
// successors in the same order. It knows nothing of search; it offers what a
// generic explorer needs (InitialStates, Successors, BlockedByBound, the
// encoding, and the symmetry), a Fingerprint for looking states up, and what
// a replay needs (WhyDisabled, Apply).
//
// Successor order, which fixes which of several shortest traces a
// breadth-first search reports: for each relay in order, claim(r, e) for each
// event, send, send_ack_lost, complete, crash_relay; then expire(e) for each
// event; then for each group and instance in order, consume(g, i, e) for each
// event, step, acknowledge, ack_lost, crash_consumer, redeliver; then, in a
// timed scenario (model/TIME.md), for each group retry(g, e), redrive(g, e),
// dead_letter_expire(g, e), cleanup(g, e) for each event and
// consumer_outage(g); then database_outage; then the relay styles' actions:
// source_commit(e) for each event, commit_fails and flush_offset for each
// relay, lose_write(e) for each event; then, with a partitioned broker,
// rebalance(g, p, i) for each group, partition and instance; last, tick.

#ifndef OUTBOX_CHECK_MODEL_OUTBOX_MODEL_H_
#define OUTBOX_CHECK_MODEL_OUTBOX_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "model/action.h"
#include "model/config.h"
#include "model/partial_order.h"
#include "model/state.h"
#include "model/state_codec.h"
#include "model/symmetry.h"
#include "model/timing.h"

namespace oc {

class OutboxModel {
 public:
  using State = oc::State;
  using Action = oc::Action;

  // REQUIRES: Validate(config).ok().
  // When some budget is "any" (or relays claim with no lease and no claim
  // bound), the model abstracts what would grow without bound
  // (docs/SEMANTICS.md section 14) unless `concrete` is set: a concrete
  // model is for replaying a path, not for a search, whose state space it
  // would not keep finite.
  explicit OutboxModel(Config config, bool concrete = false);

  const Config& config() const { return config_; }

  // The one initial state: nothing claimed, published, offered or consumed;
  // every cache entry stale; budgets full.
  std::vector<State> InitialStates() const;

  // Appends (action, successor) for every enabled action of `s`, in the
  // order documented above. Does not clear `out`.
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const;

  // True when some claim(r, e) is disabled only because token[e] reached
  // the claim bound. Such a state, if it has no successors, is a bounded
  // dead end rather than a terminal state.
  bool BlockedByBound(const State& s) const;
  // Every action but tick that some state might enable, in the order
  // Successors offers them; fixed by the configuration.
  const std::vector<Action>& Candidates() const { return candidates_; }

  std::uint64_t Fingerprint(const State& s) const { return oc::Fingerprint(s); }

  // A canonical fixed-length byte encoding of this model's states, which a
  // visited set may store instead of States (see model/state_codec.h).
  std::size_t EncodedSize() const { return codec_.size(); }
  void Encode(const State& s, std::uint8_t* out) const {
    codec_.Encode(s, out);
  }
  // Encode, returning the key's hash (common/key_hash.h) made on the way.
  std::uint64_t EncodeHashed(const State& s, std::uint8_t* out) const {
    return codec_.EncodeHashed(s, out);
  }
  State Decode(const std::uint8_t* in) const { return codec_.Decode(in); }

  // Symmetry reduction (model/symmetry.h): whether any relays, instances
  // or events are interchangeable, which ones, the encoding of the least
  // renaming of `s`, and how many distinct renamings `s` has.
  bool HasSymmetry() const { return !symmetry_.trivial(); }
  std::string SymmetryDescription() const { return symmetry_.Describe(); }
  // Each takes the calling thread's buffers (SymmetryScratch).
  using SymmetryScratch = Symmetry::Scratch;
  void Canonicalize(const State& s, std::uint8_t* out,
                    SymmetryScratch& scratch) const {
    symmetry_.Canonicalize(s, codec_, out, scratch);
  }
  std::uint64_t OrbitSize(const State& s, SymmetryScratch& scratch) const {
    return symmetry_.OrbitSize(s, codec_, scratch);
  }
  // For the leads-to check on the symmetry quotient (docs/SEMANTICS.md
  // section 15). Canonicalize, also giving a renaming r with r(s) the
  // orbit's least member. A renaming r takes action a at s to action
  // RenameAction(a, r) at r(s), and a mask of CountFlows' counts of s to
  // RenameFlowPairs(mask, r) of r(s); the latter is a renaming of the bits
  // only while no two counts share one (FlowPairsDistinct). EncodeRenamed
  // writes the encoding of r(s).
  Renaming CanonicalRenaming(const State& s, std::uint8_t* out,
                             SymmetryScratch& scratch) const {
    Renaming used = Renaming::Identity();
    symmetry_.Canonicalize(s, codec_, out, scratch, &used);
    return used;
  }
  Action RenameAction(const Action& a, const Renaming& r) const;
  std::uint64_t RenameFlowPairs(std::uint64_t mask, const Renaming& r) const;
  bool FlowPairsDistinct() const;
  void EncodeRenamed(const State& s, const Renaming& r,
                     std::uint8_t* out) const {
    codec_.EncodeRenamed(s, r, out);
  }

  // Partial-order reduction (model/partial_order.h): whether it applies to
  // this configuration, what it is (or why it is off), and the successors
  // of `s` by the enabled actions of one stubborn set, in successor order.
  // ReducedSuccessors appends to `out` and returns true when that is fewer
  // than Successors would give, else appends them all and returns false.
  bool HasPartialOrder() const { return partial_order_.applies(); }
  std::string PartialOrderDescription() const {
    return partial_order_.Describe();
  }
  using PartialOrderScratch = PartialOrder::Scratch;
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch& scratch) const;

  // Coverage classes: every action kind, with complete split by whether it
  // published the row ("complete_published", "complete_rejected": fenced
  // out or already published) and expire by whether it spent the premature
  // budget ("expire_premature", "expire_orphaned").
  // The relay styles' classes (source_commit, commit_fails, flush_offset,
  // lose_write) come last.
  static std::vector<std::string> ActionClassNames();
  // REQUIRES: `to` is the successor of `from` by `a`.
  // Most kinds have one class, found here without a call (the search asks
  // once per transition); send, complete and expire look at the states.
  std::size_t ActionClass(const State& from, const Action& a,
                          const State& to) const {
    const std::uint8_t c = kClassOfKind[static_cast<std::size_t>(a.kind)];
    if (c != kClassByStates) return c;
    return ClassByStates(from, a, to);
  }
  // The classes an action name stands for in `check.must_fire`: a class
  // name, or "complete" / "expire" for both of their classes. Empty when the
  // name is neither.
  static std::vector<std::size_t> ClassesNamed(std::string_view name);
  // Whether this config can fire class c at all: the classes of time and
  // of broker deduplication only where the scenario sets them up.
  bool ClassPossible(std::size_t c) const;

  // nullopt when `a` is enabled in `s`; otherwise why not, in words
  // ("relay A is claimed(e1, token 1), not idle").
  // REQUIRES: the indices of `a` are within the config.
  std::optional<std::string> WhyDisabled(const State& s, const Action& a) const;

  // The successor of `s` by `a`, or why `a` is not enabled.
  Result<State> Apply(const State& s, const Action& a) const;

  // The scenario's durations in units (model/timing.h).
  const Timing& timing() const { return timing_; }

  // Index of group g's first instance in State::instances.
  int FirstInstance(int group) const { return first_instance_[group]; }
  int KeyCount() const { return static_cast<int>(keys_.size()); }
  // Index into Keys(config) of event e's key, or -1 if it has none.
  int KeyOf(int event) const { return key_of_[event]; }
  // The event of rank `rank` (from 1, in configuration order) among the
  // events of key `key`.
  int KeyEvent(int key, int rank) const {
    return key_events_[static_cast<std::size_t>(key)]
                      [static_cast<std::size_t>(rank - 1)];
  }
  // The partitioned broker (docs/SEMANTICS.md section 16): partitions (0
  // for the bag), and the partition event e goes to.
  int Partitions() const { return partitions_; }
  int PartitionOfEvent(int event) const { return partition_of_[event]; }

  // Whether this model abstracts counts and tokens (docs/SEMANTICS.md
  // section 14), what it does in words, and whether the abstraction is
  // exact (false: it adds behaviours a concrete run may not have, so a
  // violation found must be replayed on a concrete model).
  bool Abstracted() const { return abstract_; }
  std::string AbstractionDescription() const;
  bool AbstractionExact() const { return abstract_ && !over_approximates_; }
  // For the liveness check of an over-approximating abstraction: the
  // counts (by bit: broker copies of event e at bit e mod 64, waiting
  // copies of group g and event e at bit (16 + g * E + e) mod 64) that the
  // transition from `from` by `a` to `to` took one from while leaving
  // them at the cap (`stays`), and those it may have added to (`adds`, an
  // over-estimate). A run that stays at the cap for ever without adding is
  // not a real run (explorer/compassion.h).
  void CountFlows(const State& from, const Action& a, const State& to,
                  std::uint64_t& stays, std::uint64_t& adds) const;
  // The same from the counts alone, as FlowCounts writes them, so that a
  // caller can keep them per state instead of decoding every edge's ends.
  std::size_t FlowCountsSize() const {
    return config_.events.size() * (1 + config_.groups.size());
  }
  // Writes FlowCountsSize() bytes: each event's broker copies, then each
  // group's waiting copies of each event.
  void FlowCounts(const State& s, std::uint8_t* out) const;
  void CountFlows(const std::uint8_t* from, const Action& a,
                  const std::uint8_t* to, std::uint64_t& stays,
                  std::uint64_t& adds) const;
  // The abstract state that stands for the concrete state `s` (its counts
  // saturated, its tokens renumbered), as the search's states and graph
  // hold it; `s` itself when the model does not abstract. For looking up a
  // concrete trace's states in the graph.
  State AbstractOf(const State& s) const;
  // The value at which abstracted counts saturate.
  static constexpr int kCountCap = 2;

  // Liveness (docs/SEMANTICS.md section 15): whether `a` in `from` is a
  // fault (an action that spends a budget, a premature expiry included),
  // which no fair run takes for ever; and the weak-fairness class of a
  // normal action: the action itself, so each relay, instance and event
  // is treated fairly on its own.
  bool IsFault(const State& from, const Action& a) const;
  static std::uint64_t FairnessClass(const Action& a) {
    return static_cast<std::uint64_t>(a.kind) |
           static_cast<std::uint64_t>(a.relay) << 8 |
           static_cast<std::uint64_t>(a.event) << 16 |
           static_cast<std::uint64_t>(a.group) << 24 |
           static_cast<std::uint64_t>(a.instance) << 32;
  }
  // The action whose class FairnessClass gave (its partition left 0).
  static Action ActionOfFairnessClass(std::uint64_t fair_class) {
    Action a;
    a.kind = static_cast<ActionKind>(fair_class & 0xff);
    a.relay = static_cast<std::uint8_t>(fair_class >> 8);
    a.event = static_cast<std::uint8_t>(fair_class >> 16);
    a.group = static_cast<std::uint8_t>(fair_class >> 24);
    a.instance = static_cast<std::uint8_t>(fair_class >> 32);
    return a;
  }

  // A lease expiry of `event` in `s` would be premature (it spends the
  // budget X, and reports call it so).
  bool Premature(const State& s, int event) const;

 private:
  enum class Guard : std::uint8_t;

  Guard Check(const State& s, const Action& a) const;
  // Turns `s` into its successor by `a`, in place.
  // REQUIRES: Check(s, a) == Guard::kEnabled.
  void Effect(State& s, const Action& a) const;
  // Runs step `step` (0 or 1) of group's strategy for `event`, as one
  // transaction on the group's tables and the instance's private data.
  void RunStrategyStep(State& s, int group, int instance, int event,
                       int step) const;
  // Time (model/TIME.md). Due: an enabled action that must happen before
  // time passes. Waiting: some clock whose passing time can enable
  // something. AnyDue: some enabled action is due.
  bool Due(const State& s, const Action& a) const;
  bool Waiting(const State& s) const;
  bool AnyDue(const State& s) const;
  // One fault of the budget whose count left is `left` happened: spends it,
  // unless the scenario sets it to "any".
  void Spend(State& s, std::uint8_t Budgets::*left) const;
  void Tick(State& s) const;
  // ack_lost / crash_consumer: the delivery of `event` to `group` failed.
  void FailDelivery(State& s, int group, int event) const;
  // Runs step `step` of the instance's handler (RunStrategyStep), and keeps
  // the partitioned broker's observation cells: the key's last applied
  // event, and whether the instance's record is now processed.
  void HandlerStep(State& s, int group, int instance, int event,
                   int step) const;
  // The partitioned broker's producer (docs/SEMANTICS.md section 16.1):
  // relay `relay`, claimed, must wait for the retry of its failed write
  // before it writes again.
  bool WaitsForRetry(const State& s, int relay) const;
  // The partitioned broker: instance (group, instance) commits offset
  // `offset` for the partition of the record it holds.
  void Commit(State& s, int group, int instance, int offset) const;
  GroupPartitionCells& PartitionCells(State& s, int group, int p) const {
    return s.partitions[static_cast<std::size_t>(group * partitions_ + p)];
  }
  // The delay before a delayed copy's retry after `attempts` failed
  // deliveries. 0 failures (an acknowledgement of another copy reset the
  // count while this one was parked): no delay.
  int RetryDelay(int group, int attempts) const {
    return attempts == 0 ? 0 : timing_.groups[group].delays[attempts - 1];
  }
  bool Parks(int group) const {
    return timing_.timed && timing_.groups[group].parks();
  }
  // cdc_offset: the 1-based position of event e in the commit log.
  int LogPosition(const State& s, int e) const;
  // sequence_cursor and cdc_offset: the event the next read returns, or -1.
  int NextRow(const State& s) const;

  // The abstraction (see Abstracted): saturates the counts of the
  // successor `out.back()` of `before` and renumbers its tokens; where a
  // saturated count fell, also appends the successors in which it stays
  // saturated.
  void Abstract(const State& before,
                std::vector<std::pair<Action, State>>& out) const;
  // Saturates the counts of `s` and renumbers its tokens, in place.
  void ToAbstract(State& s) const;
  // Renumbers each event's tokens 1, 2, ... in their order, 0 kept.
  static void RenumberTokens(State& s);

  Config config_;
  bool abstract_ = false;
  bool renumber_tokens_ = false;
  bool over_approximates_ = false;
  // For declared strategies, per group and event (g * E + e): the
  // declared tables' cells the event's handler may touch (for
  // partial-order reduction), and the event's number attributes the
  // strategy reads (numbers_).
  std::vector<std::vector<std::uint16_t>> user_slots_;
  // Per group: each declared table's first cell; per group and event: the
  // event's value index per text attribute the handler reads.
  std::vector<std::vector<std::uint16_t>> table_first_;
  std::vector<std::vector<std::int16_t>> values_;
  std::vector<std::int16_t> initial_user_;  // State::user at the start
  std::vector<std::vector<std::int32_t>> numbers_;
  int user_cells_ = 0;
  std::vector<std::string> keys_;
  std::vector<int> key_of_;
  // Per event: its rank among its key's events (0 without a key); per key:
  // its events by rank.
  std::vector<int> key_rank_;
  std::vector<std::vector<int>> key_events_;
  int partitions_ = 0;
  std::vector<int> partition_of_;
  std::vector<int> first_instance_;
  int instance_count_ = 0;
  Timing timing_;
  StateCodec codec_;  // set in the constructor, once sizes are known
  Symmetry symmetry_;
  bool seed_pipeline_ = true;  // IsSeedPipeline(config_)
  // Every action but tick that some state might enable, in the order
  // Successors offers them (which decides the shortest trace printed);
  // fixed by the configuration.
  std::vector<Action> candidates_;
  // Per candidate, up to two bytes of the State that must each hold a
  // value (or be other than 0) for Check to enable it: the test Check
  // makes first, and another it makes that often fails (a fault's budget
  // spent, an event already published), made here without a call, so that
  // Successors passes over most disabled candidates with a load or two. A
  // gate never enables anything; Check decides.
  struct Test {
    std::uint32_t offset = 0;  // the byte's place from the State's start
    std::uint8_t test = 0;     // 0 none, 1 equal to `value`, 2 not 0
    std::uint8_t value = 0;
    bool Passes(const std::uint8_t* state) const {
      if (test == 0) return true;
      const std::uint8_t b = state[offset];
      return test == 1 ? b == value : b != 0;
    }
  };
  struct Gate {
    Test first, second;
  };
  std::vector<Gate> gates_;
  // ActionClass's table: the class of each action kind, in ActionKind's
  // order, or kClassByStates for a kind whose class depends on the states.
  static constexpr std::uint8_t kClassByStates = 0xff;
  static constexpr std::uint8_t kClassOfKind[kActionKindCount] = {
      // claim, send, send_ack_lost, complete, expire, crash_relay
      0, kClassByStates, 2, kClassByStates, kClassByStates, 7,
      // consume, step, acknowledge, ack_lost, crash_consumer, redeliver
      8, 9, 10, 11, 12, 13,
      // tick, retry, redrive, dead_letter_expire, cleanup, the outages
      15, 16, 17, 18, 19, 20, 21,
      // the relay styles' kinds, then the partitioned broker's
      22, 23, 24, 25, 26, 27, 28, 29, 30};
  std::size_t ClassByStates(const State& from, const Action& a,
                            const State& to) const;
  void ListCandidates();
  PartialOrder partial_order_;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_OUTBOX_MODEL_H_
