// Symmetry of an outbox configuration, for the visited-set key only.
//
// Three kinds of things are interchangeable in docs/SEMANTICS.md: relays
// (nothing tells them apart but their names), the instances of one group,
// and events that agree on every attribute something reads (the model's
// rules, and the checks when Config::checks_read says what they read;
// otherwise every attribute counts), except events a check names, and except
// with the sequence_cursor and cdc_offset relay styles,
// where an event's index is its id or its place in the commit log and the
// relay reads events in that order (those styles run one relay, so
// only instances are interchangeable there). With a partitioned broker
// neither events nor partitions swap (events go to partitions by key), and
// of a group's instances only those that start with no partition do. With
// the age sweeper, a
// relay's send clock and a row's age and dispatch flag move with their
// relay and row like every other cell. Renaming them maps reachable
// states to reachable states, transitions to transitions, and leaves every
// invariant's verdict alone, since invariants quantify over all events, groups
// and relays.
//
// Canonicalize(s) encodes the least member of s's orbit in a fixed order.
// Interchangeable events are first put in order of a signature that no
// renaming changes (their own cells but the owner, their queue and tables,
// and what the relays and instances that hold them hold); for every order
// of events whose signatures tie (all orders, at worst: their number is
// capped, see kMaxEventPermutations), relays are sorted by their cells and
// the events they own, and each group's instances by their cells; the
// smallest encoding wins. Two states get the same bytes exactly when one is
// a renaming of the other. OrbitSize(s) says how many distinct states the
// orbit holds, so a reduced search can still report unreduced counts.

#ifndef OUTBOX_CHECK_MODEL_SYMMETRY_H_
#define OUTBOX_CHECK_MODEL_SYMMETRY_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/state.h"
#include "model/state_codec.h"

namespace oc {

class Symmetry {
 public:
  // Events are permuted only while the product of their classes'
  // factorials stays within this cap (classes are taken in order).
  static constexpr std::uint64_t kMaxEventPermutations = 720;

  Symmetry() = default;
  // REQUIRES: Validate(config).ok().
  explicit Symmetry(const Config& config);

  // No two relays, instances of a group or events are interchangeable.
  bool trivial() const;
  // "relays r1 r2 r3 (3!); instances of billing (2!); events e1 e2 (2!)",
  // or "none".
  std::string Describe() const;

  using Permutation = std::array<std::uint8_t, kMaxEvents>;

  // Buffers Canonicalize and OrbitSize reuse from call to call, so that
  // they allocate nothing once warm. One per thread: the caller owns it and
  // passes it in (the explorer keeps one per worker).
  struct Scratch {
    std::vector<Permutation> perms;
    std::vector<int> relay_ties, instance_ties, best_relay_ties,
        best_instance_ties, runs;
  };

  // Writes codec.size() bytes: the encoding of the orbit's least member.
  // `used`, when given, gets a renaming that takes s to that member (its
  // entries past the configuration's relays, events and instances are
  // left as they were).
  void Canonicalize(const State& s, const StateCodec& codec, std::uint8_t* out,
                    Scratch& scratch, Renaming* used = nullptr) const;
  // The number of distinct states s's orbit holds (saturates at 2^64 - 1).
  std::uint64_t OrbitSize(const State& s, const StateCodec& codec,
                          Scratch& scratch) const;

 private:
  // The event permutations worth trying for `s`: within each class, events
  // in order of signature, and every order of tied ones. Identity first
  // when no class is used.
  void Candidates(const State& s, std::vector<Permutation>* out) const;

  // The renaming of `s` that takes event e to to[e] and sorts relays and
  // each group's instances; `relay_ties` and `instance_ties` (if not null)
  // get the sizes of runs of equal relays and instances.
  Renaming Arrange(const State& s, const Permutation& to,
                   std::vector<int>* relay_ties,
                   std::vector<int>* instance_ties) const;

  int events_ = 0;
  int relays_ = 0;
  // First instance of each class of interchangeable instances, and the
  // end: a group's instances, or with a partitioned broker each instance
  // that starts with a partition and the rest of its group.
  std::vector<int> group_first_;
  // The partitioned broker: its partitions (0 for the bag), each group's
  // first instance, and each instance's group.
  int partitions_ = 0;
  std::vector<int> group_base_, instance_group_;
  std::vector<std::string> group_names_, relay_names_;
  std::vector<std::vector<int>> event_classes_;  // used classes, size >= 2
  std::vector<bool> in_class_;                   // event is in one of them
  std::vector<std::string> event_names_;
  // The attributes events carry that something reads, and those on which
  // events differ but that nothing reads, set aside (only when
  // Config::checks_read says what the checks read).
  std::vector<std::string> read_attributes_, ignored_attributes_;
  std::uint64_t event_group_order_ = 1;  // |product of class symmetric groups|
};

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_SYMMETRY_H_
