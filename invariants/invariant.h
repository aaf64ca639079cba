// The named invariants of docs/SEMANTICS.md section 6. Each reads durable state
// only (outbox rows, broker counters, group tables), never a relay's or an
// instance's local phase.
//
// kSafety invariants must hold in every reachable state, kTransition ones on
// every transition, kAtRest ones in every terminal state (no action enabled,
// and not a dead end of the claim bound).

#ifndef OUTBOX_CHECK_INVARIANTS_INVARIANT_H_
#define OUTBOX_CHECK_INVARIANTS_INVARIANT_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "model/config.h"
#include "model/outbox_model.h"
#include "model/state.h"

namespace oc {

enum class InvariantKind { kSafety, kTransition, kAtRest };

struct Invariant {
  std::string_view name;
  InvariantKind kind;
  // The durable state it reads, in words (for --help and the docs).
  std::string_view reads;
  // The family of groups it is about; a scenario without such a group
  // cannot check it. nullopt: about the outbox, needs no group.
  std::optional<StrategyFamily> needs;
  // It reads every group's tables, whatever the strategy: a scenario needs
  // at least one group.
  bool needs_any_group = false;
  // kSafety and kAtRest: does it hold in `s`?
  bool (*holds)(const OutboxModel& model, const State& s) = nullptr;
  // kTransition: does it hold on the step from `before` to `after`?
  bool (*holds_on)(const OutboxModel& model, const State& before,
                   const State& after) = nullptr;
  // kSafety and kTransition: the cells it reads, for partial-order
  // reduction: StateReadBits of the groups of family `needs`, and the
  // outbox rows or the broker's offered counts.
  std::uint8_t group_reads = 0;
  bool reads_rows = false;
  bool reads_offered = false;
  // It is about a partitioned broker's offsets (docs/SEMANTICS.md section
  // 16), or about the order of events of one key: a scenario without such
  // a broker, or without keyed events, cannot check it.
  bool needs_partitions = false;
  bool needs_keys = false;
  // The observation cells it reads (ObservedBits), which a configuration
  // that checks it must keep.
  std::uint8_t observes = 0;
};

// "safety", "transition", "at rest": the kind in a sentence or a listing.
std::string_view InvariantKindWord(InvariantKind kind);

// Every invariant, in the order of docs/SEMANTICS.md section 6.
std::span<const Invariant> AllInvariants();

// nullptr when there is no invariant of that name.
const Invariant* FindInvariant(std::string_view name);

// The closest known name to `name` (as ClosestName decides), for "did you
// mean" hints; empty when nothing is close.
std::string SuggestInvariant(std::string_view name);

// Ok when `config` has what `invariant` reads; otherwise says what is
// missing ("'effect_at_most_once' is about credit groups; this scenario has
// none").
Status CheckApplicable(const Invariant& invariant, const Config& config);

}  // namespace oc

#endif  // OUTBOX_CHECK_INVARIANTS_INVARIANT_H_
