#include "model/state_codec.h"

// Compiled for any x86-64; the functions that use BMI2 say so themselves
// and run only where the processor has it (FastBitInstructions).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OC_CODEC_BMI2 1
#include <immintrin.h>
#else
#define OC_CODEC_BMI2 0
#endif

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>

#include "common/key_hash.h"
#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "model/timing.h"

namespace oc {
namespace {

// What a field holds, which decides its largest value.
enum class Field : std::uint8_t {
  kPublished,
  kRelayRef,  // 0 or relay index + 1
  kEventRef,  // 0 or event index + 1
  kToken,
  kLease,
  kPhase,  // RelayPhase or InstancePhase
  kOffered,
  kMemo,
  kReady,
  kEffects,
  kInbox,
  kLedger,
  kSent,
  kVersion,
  kCache,
  kBudget,  // the budgets of docs/SEMANTICS.md section 1 (BudgetFamily::kSeed),
            // in order
  kStyleBudget,  // the relay styles' budgets (BudgetFamily::kStyle)
  kTimeBudget,   // model/TIME.md's outages (BudgetFamily::kTime)
  // Time (model/TIME.md).
  kLeaseClock,
  kWindowAge,
  kRetrying,
  kInboxAge,
  kParked,
  kAttempts,
  kParkAge,
  kKeyAge,
  kDown,
  kDatabaseDown,
  kNow,
  // Relay styles, message identity, source commits and lost writes.
  kPending,
  kLogPosition,  // a position in the commit log, or an id: 0..E
  kOffset,
  kReadPosition,
  // The age sweeper.
  kBegun,
  kSendClock,
  // Tables declared by strategy files.
  kUserRow,
  kUserNumber,  // stored with a bias: value + StateCodec::user_bias_
  kStage,       // InstanceCells::stage
  // The partitioned broker (docs/SEMANTICS.md section 16).
  kBrokerBudget,  // BudgetFamily::kBroker
  kLength,        // records in a partition
  kOwner,         // the instance a group's partition is assigned to
  kEpoch,         // an assignment epoch
  kOffsetInLog,   // a committed offset or a fetch position: 0..length
  kDone,          // bits of processed records
  kStaleCommit,
  kPartitionRef,  // 0 or partition + 1
  kRecordOffset,  // an instance's record: 0..length - 1
  kFetched,
  kApplied,  // a rank among a key's events
  kRetry,    // a relay's write waiting for its retry: 0 or event + 1
};

// Which renaming a field's cell follows: a cell read from
// `s.events[m.event_from[i]]` is Place{kEvent, i, sizeof(EventCells)}, so
// under a renaming it lies `stride * (event_from[i] - i)` bytes away from
// where it lies under the identity. VisitFields announces each run of
// cells with `Enter`, which only the program builder (FieldFinder) listens
// to; the other visitors ignore it.
enum class Perm : std::uint8_t { kNone, kEvent, kRelay, kInstance };
struct Place {
  Perm perm = Perm::kNone;
  std::uint8_t index = 0;
  std::uint16_t stride = 0;
};

template <class F>
void Enter(F& f, Perm perm, std::size_t index, std::size_t stride) {
  if constexpr (requires { f.Enter(Place{}); }) {
    f.Enter(Place{perm, static_cast<std::uint8_t>(index),
                  static_cast<std::uint16_t>(stride)});
  }
}
template <class F>
void EnterFixed(F& f) {
  Enter(f, Perm::kNone, 0, 0);
}

// VisitFields' cells of the partitioned broker (`capacity`: records each
// partition can hold; empty for the bag) and of applied_in_key_order
// (`key_order`), in packing order. Symmetry swaps relays and the
// instances that start with no partition, never events or partitions, with
// a partitioned broker (model/symmetry.cpp): `m` moves relays and
// instances, and the encoder renames the owners; records name events and
// follow `m` anyway.
template <class S, class F>
[[gnu::noinline]] void VisitBrokerFields(S& s, int groups,
                                         const int* instance_group,
                                         const Renaming& m,
                                         const std::vector<int>& capacity,
                                         bool key_order, F& f) {
  const int partitions = static_cast<int>(capacity.size());
  EnterFixed(f);
  if (partitions > 0) {
    ForEachBudget(BudgetFamily::kBroker, [&](const FaultBudget& budget) {
      f(s.budgets.*budget.left, Field::kBrokerBudget, -1);
    });
    for (int p = 0; p < partitions; ++p) {
      f(s.lengths[p], Field::kLength, -1);
      for (int j = 0; j < capacity[static_cast<std::size_t>(p)]; ++j) {
        f(s.records[p * kMaxRecords + j], Field::kEventRef, -1);
      }
    }
    for (int g = 0; g < groups; ++g) {
      for (int p = 0; p < partitions; ++p) {
        auto& c = s.partitions[g * partitions + p];
        f(c.owner, Field::kOwner, g);
        f(c.epoch, Field::kEpoch, g);
        f(c.committed, Field::kOffsetInLog, g);
        f(c.position, Field::kOffsetInLog, g);
        f(c.done, Field::kDone, g);
        f(c.stale_commit, Field::kStaleCommit, g);
      }
    }
    for (std::size_t r = 0; r < s.relays.size(); ++r) {
      Enter(f, Perm::kRelay, r, sizeof(RelayCells));
      f(s.relays[m.relay_from[r]].retry, Field::kRetry, -1);
    }
    for (std::size_t i = 0; i < s.instances.size(); ++i) {
      Enter(f, Perm::kInstance, i, sizeof(InstanceCells));
      auto& inst = s.instances[m.instance_from[i]];
      f(inst.partition, Field::kPartitionRef, instance_group[i]);
      f(inst.offset, Field::kRecordOffset, instance_group[i]);
      f(inst.epoch, Field::kEpoch, instance_group[i]);
      f(inst.fetched, Field::kFetched, instance_group[i]);
    }
  }
  // applied_in_key_order's cells, on either broker.
  EnterFixed(f);
  if (key_order) {
    const std::size_t keys =
        groups == 0 ? 0
                    : s.group_keys.size() / static_cast<std::size_t>(groups);
    for (int g = 0; g < groups; ++g) {
      for (std::size_t k = 0; k < keys; ++k) {
        f(s.group_keys[static_cast<std::size_t>(g) * keys + k].applied,
          Field::kApplied, g);
      }
    }
  }
}

// Calls `f(field, what, group)` for every field of `s` renamed by `m`, in
// packing order: the cells at each new index are read from their old index
// (references inside them are left to `f`, which knows `what` they are).
// `group` is the consumer group the field belongs to, or -1;
// `instance_group[i]` is the group of instance i. The one place that fixes
// the packing order: the widths and the program that Encode,
// EncodeRenamed and Decode run (StateCodec::program_) are made by it, once
// per configuration; `f.Enter(place)`, where `f` has it, hears which
// renaming each run of cells follows. `styles` false skips the cells of
// the other relay styles, and `time` false those of model/TIME.md, which
// the seed's pipeline and an untimed config never set (they would take 0
// bits anyway).
template <class S, class F>
void VisitFields(S& s, int events, int groups, const int* instance_group,
                 const Renaming& m, bool styles, bool time,
                 const std::vector<UserTableLayout>& user, bool stages,
                 const std::vector<int>& capacity, bool key_order, F f) {
  for (std::size_t i = 0; i < s.events.size(); ++i) {
    Enter(f, Perm::kEvent, i, sizeof(EventCells));
    auto& e = s.events[m.event_from[i]];
    f(e.published, Field::kPublished, -1);
    f(e.owner, Field::kRelayRef, -1);
    f(e.token, Field::kToken, -1);
    f(e.lease, Field::kLease, -1);
    f(e.completed_token, Field::kToken, -1);
    f(e.offered, Field::kOffered, -1);
    if (time) {
      f(e.clock, Field::kLeaseClock, -1);
      f(e.window, Field::kWindowAge, -1);
    }
    if (styles) {
      f(e.pending, Field::kPending, -1);
      f(e.log_position, Field::kLogPosition, -1);
      f(e.begun, Field::kBegun, -1);
    }
  }
  for (std::size_t i = 0; i < s.relays.size(); ++i) {
    Enter(f, Perm::kRelay, i, sizeof(RelayCells));
    auto& r = s.relays[m.relay_from[i]];
    f(r.phase, Field::kPhase, -1);
    f(r.event, Field::kEventRef, -1);
    f(r.token, Field::kToken, -1);
    if (time) {
      f(r.retrying, Field::kRetrying, -1);
      f(r.clock, Field::kSendClock, -1);
    }
  }
  for (std::size_t i = 0; i < s.instances.size(); ++i) {
    Enter(f, Perm::kInstance, i, sizeof(InstanceCells));
    auto& inst = s.instances[m.instance_from[i]];
    f(inst.phase, Field::kPhase, instance_group[i]);
    f(inst.event, Field::kEventRef, instance_group[i]);
    f(inst.memo, Field::kMemo, instance_group[i]);
    if (stages) f(inst.stage, Field::kStage, instance_group[i]);
  }
  for (int g = 0; g < groups; ++g) {
    for (int e = 0; e < events; ++e) {
      Enter(f, Perm::kEvent, static_cast<std::size_t>(e),
            sizeof(GroupEventCells));
      auto& c = s.group_events[static_cast<std::size_t>(g * events) +
                               m.event_from[static_cast<std::size_t>(e)]];
      f(c.ready, Field::kReady, g);
      f(c.effects, Field::kEffects, g);
      f(c.inbox, Field::kInbox, g);
      f(c.ledger, Field::kLedger, g);
      f(c.sent, Field::kSent, g);
      if (time) {
        f(c.inbox_age, Field::kInboxAge, g);
        f(c.parked, Field::kParked, g);
        f(c.attempts, Field::kAttempts, g);
        f(c.park_age, Field::kParkAge, g);
        f(c.key_age, Field::kKeyAge, g);
      }
    }
  }
  EnterFixed(f);
  const std::size_t keys =
      groups == 0 ? 0 : s.group_keys.size() / static_cast<std::size_t>(groups);
  for (int g = 0; g < groups; ++g) {
    for (std::size_t k = 0; k < keys; ++k) {
      auto& c = s.group_keys[static_cast<std::size_t>(g) * keys + k];
      f(c.version, Field::kVersion, g);
      f(c.cache, Field::kCache, g);
    }
  }
  // Declared tables: a table per event follows the renaming of events.
  for (const UserTableLayout& l : user) {
    const Field what = l.row ? Field::kUserRow : Field::kUserNumber;
    for (int i = 0; i < l.size; ++i) {
      if (l.by_event) {
        Enter(f, Perm::kEvent, static_cast<std::size_t>(i),
              sizeof(std::int16_t));
      } else {
        EnterFixed(f);
      }
      const int cell = l.by_event ? l.first + m.event_from[i] : l.first + i;
      f(s.user[static_cast<std::size_t>(cell)], what, l.group);
    }
  }
  EnterFixed(f);
  auto budgets = [&](BudgetFamily family, Field what) {
    ForEachBudget(family, [&](const FaultBudget& budget) {
      f(s.budgets.*budget.left, what, -1);
    });
  };
  budgets(BudgetFamily::kSeed, Field::kBudget);
  // The relay styles' cells (0 bits each in a configuration that does not use
  // them), before time's, which an untimed config skips.
  if (styles) {
    budgets(BudgetFamily::kStyle, Field::kStyleBudget);
    f(s.log.offset, Field::kOffset, -1);
    f(s.log.position, Field::kReadPosition, -1);
  }
  // The partitioned broker's cells, and applied_in_key_order's: a bag
  // without that invariant has none, and its walk stays as short as it
  // was (the rare branch is a function of its own, not inlined here).
  if (!capacity.empty() || key_order) {
    VisitBrokerFields(s, groups, instance_group, m, capacity, key_order, f);
    EnterFixed(f);
  }
  if (!time) return;
  budgets(BudgetFamily::kTime, Field::kTimeBudget);
  for (int g = 0; g < groups; ++g) f(s.down[g], Field::kDown, g);
  f(s.database_down, Field::kDatabaseDown, -1);
  f(s.now, Field::kNow, -1);
}

int Bits(int max_value) {
  return max_value <= 0 ? 0 : std::bit_width(static_cast<unsigned>(max_value));
}

// The largest value a field can reach, 0 when the field never changes.
struct Bounds {
  const Config& config;
  const Timing& timing;
  int tokens = 0;
  int copies = 0;
  int max_version = 0;
  int user_bias = 0;
  // The partitioned broker: the most records a partition holds; the
  // most events one key has.
  int records = 0;
  int max_rank = 0;
  // Which budget of each kind comes next.
  int budget = 0, style_budget = 0, time_budget = 0, broker_budget = 0;

  int Max(Field what, int group) {
    if (group >= 0 && config.groups[group].declared) {
      if (std::optional<int> m =
              MaxDeclared(what, *config.groups[group].declared)) {
        return *m;
      }
    }
    const Strategy st =
        group >= 0 ? config.groups[group].strategy : Strategy::kCreditNaive;
    const StrategyFamily family = FamilyOf(st);
    switch (what) {
      case Field::kPublished:
        return 1;
      case Field::kRelayRef:
        return static_cast<int>(config.relays.size());
      case Field::kEventRef:
        return static_cast<int>(config.events.size());
      case Field::kToken:
        return tokens;
      case Field::kLease:
        return config.lease && StyleOf(config).lease_and_token
                   ? static_cast<int>(Lease::kExpired)
                   : 0;
      case Field::kPhase:
        return 2;
      case Field::kOffered:
      case Field::kReady:
        return copies;
      case Field::kMemo:
        return MemoOf(st) == StrategyMemo::kNone ? 0 : 1;
      case Field::kEffects:
        return family == StrategyFamily::kCredit ? copies : 0;
      case Field::kInbox:
        return HasInbox(st) ? 1 : 0;
      case Field::kLedger:
        return family == StrategyFamily::kNotification ? 1 : 0;
      case Field::kSent:
        return family == StrategyFamily::kNotification ? copies : 0;
      case Field::kVersion:
        return family == StrategyFamily::kProjection ? max_version : 0;
      case Field::kCache:
        return family == StrategyFamily::kCache ? 1 : 0;
      case Field::kBudget:
        return NextPool(BudgetFamily::kSeed, budget);
      case Field::kStyleBudget:
        return NextPool(BudgetFamily::kStyle, style_budget);
      case Field::kTimeBudget:
        return NextPool(BudgetFamily::kTime, time_budget);
      case Field::kLeaseClock:
        if (timing.sweeper) return timing.Cap(timing.sweep_due);
        if (timing.gap_clock) return timing.Cap(timing.gap_clock_cap);
        return timing.has_lease_clock ? timing.lease_clock_cap : 0;
      case Field::kWindowAge:
        return timing.Cap(timing.window);
      case Field::kRetrying:
        return config.broker.dedup == Dedup::kProducerSession ? 1 : 0;
      case Field::kInboxAge: {
        if (!timing.timed || !timing.groups[group].has_retention) return 0;
        return timing.Cap(timing.groups[group].cleanup_due);
      }
      case Field::kParked:
        return timing.timed && timing.groups[group].parks() ? 2 : 0;
      case Field::kAttempts:
        return timing.timed && timing.groups[group].parks()
                   ? static_cast<int>(timing.groups[group].delays.size()) + 1
                   : 0;
      case Field::kParkAge:
        return timing.timed && timing.groups[group].parks()
                   ? timing.Cap(timing.groups[group].park_cap)
                   : 0;
      case Field::kKeyAge:
        return timing.timed ? timing.Cap(timing.groups[group].key_window) : 0;
      case Field::kDown:
        return timing.consumer_outage;
      case Field::kDatabaseDown:
        return timing.database_outage;
      case Field::kNow:
        return timing.tracks_now ? timing.horizon : 0;
      case Field::kPending:
        return config.commits_during_run ? 1 : 0;
      case Field::kLogPosition:
        return config.commits_during_run && StyleOf(config).commit_log
                   ? static_cast<int>(config.events.size())
                   : 0;
      case Field::kOffset:
        return !StyleOf(config).offset_cell.empty()
                   ? static_cast<int>(config.events.size())
                   : 0;
      case Field::kReadPosition:
        return StyleOf(config).commit_log
                   ? static_cast<int>(config.events.size())
                   : 0;
      case Field::kBegun:
        return timing.sweeper ||
                       config.relay_style == RelayStyle::kInlineDispatch
                   ? 1
                   : 0;
      case Field::kSendClock:
        return timing.sweeper ? timing.Cap(timing.send_time) : 0;
      case Field::kUserRow:
        return 1;
      case Field::kUserNumber:
        return 2 * user_bias;
      case Field::kStage:
        return group >= 0 ? std::max(0, StepCount(config.groups[group]) - 2)
                          : 0;
      case Field::kBrokerBudget:
        return NextPool(BudgetFamily::kBroker, broker_budget);
      case Field::kLength:
      case Field::kOffsetInLog:
        return records;
      case Field::kRecordOffset:
        return std::max(0, records - 1);
      case Field::kOwner:
        return config.groups[group].instances - 1;
      case Field::kEpoch:
        return config.budgets.rebalances;
      case Field::kDone:
        return config.observed & kObserveProcessed ? (1 << records) - 1 : 0;
      case Field::kStaleCommit:
        return config.observed & kObserveStaleCommit ? 1 : 0;
      case Field::kPartitionRef:
        return config.broker.partitions;
      case Field::kFetched:
        return config.groups[group].commit_before ? 1 : 0;
      case Field::kApplied:
        return max_rank;
      case Field::kRetry:
        return config.budgets.send_failures > 0
                   ? static_cast<int>(config.events.size())
                   : 0;
    }
    return 0;
  }

  // The pool of the `next`-th budget of `family`, and move on to the next.
  int NextPool(BudgetFamily family, int& next) const {
    int i = 0;
    int pool = 0;
    ForEachBudget(family, [&](const FaultBudget& b) {
      // An unbounded budget's count stays 1.
      if (i++ == next) pool = Unbounded(config, b) ? 1 : Pool(config, b);
    });
    ++next;
    return pool;
  }

  // The bounds of a declared strategy's cells: each `+=` statement runs at
  // most once per delivered copy; rows are 0 or 1; versions are event
  // versions or the program's constants. nullopt: as for every group.
  std::optional<int> MaxDeclared(Field what, const HandlerProgram& p) const {
    const auto adds = [&](HandlerTable t) {
      return copies * p.adds[static_cast<std::size_t>(t)];
    };
    switch (what) {
      case Field::kMemo:
        return (1 << p.memo_bits) - 1;
      case Field::kEffects:
        return adds(HandlerTable::kEffects);
      case Field::kSent:
        return adds(HandlerTable::kSent);
      case Field::kInbox:
        return p.writes[static_cast<std::size_t>(HandlerTable::kInbox)];
      case Field::kLedger:
        return p.writes[static_cast<std::size_t>(HandlerTable::kLedger)];
      case Field::kCache:
        return p.writes[static_cast<std::size_t>(HandlerTable::kCache)];
      case Field::kVersion:
        return p.writes[static_cast<std::size_t>(HandlerTable::kVersion)]
                   ? std::max(max_version, p.max_constant)
                   : 0;
      default:
        return std::nullopt;
    }
  }
};

// Where VisitFields finds each field of a State, for StateCodec's program:
// the bytes from the State's start (under the renaming visited with), the
// Place last entered, the value's size and kind.
struct FoundField {
  std::size_t offset;
  Place place;
  std::size_t size;
  Field what;
  int group;
};
struct FieldFinder {
  const State* state;
  std::vector<FoundField>* found;
  Place place{};
  void Enter(Place p) { place = p; }
  template <class V>
  void operator()(V& value, Field what, int group) {
    static_assert(sizeof(V) == 1 || sizeof(V) == 2 || sizeof(V) == 4);
    static_assert(std::is_unsigned_v<V> || std::is_enum_v<V> ||
                  std::is_same_v<V, std::int16_t>);
    found->push_back(FoundField{
        static_cast<std::size_t>(reinterpret_cast<const char*>(&value) -
                                 reinterpret_cast<const char*>(state)),
        place, sizeof(V), what, group});
  }
};

// Whether the processor has fast bit gather and scatter instructions
// (PEXT, PDEP). AMD's before family 19h run them in microcode, taking
// dozens of cycles where a field-by-field loop takes a few.
bool FastBitInstructions() {
#if OC_CODEC_BMI2
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam15h") &&
         !__builtin_cpu_is("amdfam17h");
#else
  return false;
#endif
}

[[noreturn]] void FieldOverflow(std::size_t field, unsigned value,
                                unsigned width) {
  std::fprintf(stderr,
               "outbox-check: internal error: state field %zu holds %u, "
               "which does not fit its %u bits (model/state_codec.cpp)\n",
               field, value, width);
  std::abort();
}

}  // namespace

StateCodec::StateCodec(const Config& config, const State& shape, int count_cap,
                       int token_cap)
    : shape_(shape) {
  const FaultBudgets& b = config.budgets;
  const Timing timing = ComputeTiming(config);
  Bounds bounds{config, timing};
  bounds.tokens = config.claim_bound;
  if (config.lease) {
    // A database outage can hold a relay's completion past its lease.
    const int by_lease =
        1 + b.premature_expiries + b.relay_crashes + b.database_outages;
    bounds.tokens =
        bounds.tokens > 0 ? std::min(bounds.tokens, by_lease) : by_lease;
  }
  if (!StyleOf(config).lease_and_token) bounds.tokens = 0;
  bounds.copies = CopyBound(config);
  if (count_cap > 0) {
    bounds.copies = count_cap;
    bounds.tokens = StyleOf(config).lease_and_token ? token_cap : 0;
  }
  for (int g = 0; g < static_cast<int>(config.groups.size()); ++g) {
    bounds.user_bias = std::max(bounds.user_bias, UserNumberBound(config, g));
  }
  user_bias_ = bounds.user_bias;
  user_ = UserTableLayouts(config);
  for (const Group& g : config.groups) stages_ = stages_ || StepCount(g) > 2;
  for (const Event& e : config.events) {
    if (e.version)
      bounds.max_version = std::max<int>(bounds.max_version, *e.version);
  }
  for (int g = 0; g < static_cast<int>(config.groups.size()); ++g) {
    group_first_.push_back(static_cast<int>(instance_group_.size()));
    instance_group_.insert(instance_group_.end(),
                           static_cast<std::size_t>(config.groups[g].instances),
                           g);
  }
  events_ = static_cast<int>(config.events.size());
  groups_ = static_cast<int>(config.groups.size());
  styles_ = !IsSeedPipeline(config);
  time_ = TimeFeatureUsed(config).has_value();
  ForEachBudget(BudgetFamily::kTime, [&](const FaultBudget& budget) {
    time_ = time_ || Pool(config, budget) != 0;
  });
  if (config.broker.delivery == Delivery::kPartitioned) {
    for (int p = 0; p < config.broker.partitions; ++p) {
      capacity_.push_back(PartitionCapacity(config, p));
      bounds.records = std::max(bounds.records, capacity_.back());
    }
  }
  key_order_ = (config.observed & kObserveKeyOrder) != 0;
  for (const std::string& key : Keys(config)) {
    bounds.max_rank =
        std::max(bounds.max_rank,
                 static_cast<int>(std::count_if(
                     config.events.begin(), config.events.end(),
                     [&](const Event& e) { return e.key && *e.key == key; })));
  }
  // One walk finds every field in packing order; each gets its width
  // there (Bounds::Max takes the budgets in that order too).
  State s = shape_;
  std::vector<FoundField> found;
  VisitFields(s, events_, groups_, instance_group_.data(), identity_, styles_,
              time_, user_, stages_, capacity_, key_order_,
              FieldFinder{&s, &found});
  bits_ = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const FoundField& f = found[i];
    const int width = Bits(bounds.Max(f.what, f.group));
    bits_ += static_cast<std::size_t>(width);
    if (width == 0) continue;
    FieldOp op{};
    op.offset = static_cast<std::uint32_t>(f.offset);
    op.stride = f.place.stride;
    op.perm = static_cast<std::uint8_t>(f.place.perm);
    op.index = f.place.index;
    op.size = static_cast<std::uint8_t>(f.size);
    op.width = static_cast<std::uint8_t>(width);
    op.field = static_cast<std::uint32_t>(i);
    switch (f.what) {
      case Field::kRelayRef:
        op.convert = 1;
        break;
      case Field::kEventRef:
        op.convert = 2;
        break;
      case Field::kOwner:
        op.convert = 3;
        op.first = static_cast<std::uint8_t>(
            group_first_[static_cast<std::size_t>(f.group)]);
        break;
      case Field::kUserNumber:
        op.convert = 4;
        break;
      default:
        op.convert = 0;
    }
    program_.push_back(op);
  }
  BuildSteps();
  bit_instructions_ = FastBitInstructions();
  FindRests();
}

void StateCodec::BuildSteps() {
  for (std::size_t i = 0; i < program_.size();) {
    const FieldOp& first = program_[i];
    Step step{};
    step.offset = first.offset;
    step.op = static_cast<std::uint16_t>(i);
    // A word of eight bytes from `offset` must lie inside the State.
    const bool packable = first.size == 1 && first.convert != 4 &&
                          first.offset + 8 <= sizeof(State);
    std::size_t j = i;
    while (packable && j < program_.size() && step.count < 8) {
      const FieldOp& op = program_[j];
      if (op.size != 1 || op.convert == 4 || op.perm != first.perm ||
          op.index != first.index || op.offset < first.offset ||
          op.offset >= first.offset + 8 ||
          (step.count > 0 && op.offset <= program_[j - 1].offset) ||
          step.bits + op.width > 32) {
        break;
      }
      const unsigned lane = op.offset - first.offset;
      step.lane[step.count] = static_cast<std::uint8_t>(lane);
      step.width[step.count] = op.width;
      step.overflow |= (std::uint64_t{0xff} & ~((1u << op.width) - 1))
                       << (8 * lane);
      step.bits_mask |= std::uint64_t{(1u << op.width) - 1} << (8 * lane);
      step.byte_mask |= std::uint64_t{0xff} << (8 * lane);
      step.bits = static_cast<std::uint8_t>(step.bits + op.width);
      ++step.count;
      ++j;
    }
    if (step.count <= 1) {  // one field: as the program has it
      step.count = 0;
      j = i + 1;
    }
    steps_.push_back(step);
    i = j;
  }
}

void StateCodec::FindRests() {
  // The bytes of a State that some step before has written.
  std::vector<bool> written(sizeof(State), false);
  const auto* shape = reinterpret_cast<const unsigned char*>(&shape_);
  for (Step& step : steps_) {
    if (step.count == 0) {
      const FieldOp& op = program_[step.op];
      for (std::size_t b = 0; b < op.size; ++b) written[op.offset + b] = true;
      continue;
    }
    step.rest_known = true;
    step.rest = 0;
    for (unsigned b = 0; b < 8; ++b) {
      if ((step.byte_mask >> (8 * b)) & 0xff) continue;
      if (written[step.offset + b]) step.rest_known = false;
      step.rest |= std::uint64_t{shape[step.offset + b]} << (8 * b);
    }
    for (std::size_t k = 0; k < step.count; ++k) {
      written[step.offset + step.lane[k]] = true;
    }
  }
}

namespace {

// Stands in for a KeyHasher where nothing is hashed.
struct Unhashed {
  explicit Unhashed(std::size_t) {}
  void Word(std::uint64_t) {}
  std::uint64_t Finish(std::uint64_t) const { return 0; }
};

// Packs values of the given widths, least significant bit first. Whole
// words of eight bytes are stored as such, and what is left as a word of
// four, one of two and a byte, as far as each is needed: the visited
// store's hash reads a key in the same pieces, so that each of its loads
// is answered by one store still on its way to memory. With kHash, it
// also hashes the key as HashBytes would (common/key_hash.h), from the
// words it stores.
template <bool kHash>
class BitWriter {
 public:
  BitWriter(std::uint8_t* out, std::size_t size) : at_(out), hasher_(size) {}
  void Put(unsigned value, unsigned width) {  // width <= 32
    if (width == 0) return;
    word_ |= static_cast<std::uint64_t>(value) << used_;
    used_ += width;
    if (used_ >= 64) {
      Store();
      used_ -= 64;
      // The bits of `value` that did not fit (used_ < width <= 32).
      word_ = used_ == 0 ? 0 : std::uint64_t{value} >> (width - used_);
    }
  }
  // Stores what is left; with kHash, returns the key's hash (else 0).
  std::uint64_t Finish() {
    const unsigned bytes = (used_ + 7) / 8;
    if (bytes == 8) {
      Store();
      return hasher_.Finish(0);
    }
    // The bits past used_ are 0: word_ is the key's last bytes as one
    // little-endian word.
    const std::uint64_t tail = word_;
    if (bytes & 4) {
      const auto four = static_cast<std::uint32_t>(word_);
      std::memcpy(at_, &four, 4);
      at_ += 4;
      word_ >>= 32;
    }
    if (bytes & 2) {
      const auto two = static_cast<std::uint16_t>(word_);
      std::memcpy(at_, &two, 2);
      at_ += 2;
      word_ >>= 16;
    }
    if (bytes & 1) *at_ = static_cast<std::uint8_t>(word_);
    return hasher_.Finish(tail);
  }

 private:
  void Store() {
    std::memcpy(at_, &word_, 8);
    at_ += 8;
    hasher_.Word(word_);
  }
  std::uint8_t* at_;
  std::uint64_t word_ = 0;  // bits not yet written
  unsigned used_ = 0;       // how many bits of word_ are filled
  [[no_unique_address]] std::conditional_t<kHash, KeyHasher, Unhashed> hasher_;
};

}  // namespace

// The value field `op` holds in the State at `base` renamed by `r`, as it
// is encoded (kRenamed false: `r` is the identity, and no cell moves and
// no reference changes). Aborts if it does not fit the field's bits.
template <bool kRenamed>
[[gnu::always_inline]] inline unsigned StateCodec::Value(
    const FieldOp& op, const unsigned char* base, const Renaming& r) const {
  const unsigned char* at = base + op.offset;
  if constexpr (kRenamed) {
    if (op.perm != 0) {
      const std::uint8_t* from = op.perm == 1   ? r.event_from.data()
                                 : op.perm == 2 ? r.relay_from.data()
                                                : r.instance_from.data();
      at += static_cast<std::ptrdiff_t>(op.stride) *
            (static_cast<int>(from[op.index]) - static_cast<int>(op.index));
    }
  }
  unsigned v;
  if (op.size == 1) {
    v = *at;
  } else if (op.size == 2) {
    std::uint16_t x;
    std::memcpy(&x, at, 2);
    v = x;
  } else {
    std::uint32_t x;
    std::memcpy(&x, at, 4);
    v = x;
  }
  if (op.convert == 4) {
    v = static_cast<unsigned>(static_cast<std::int16_t>(v) + user_bias_);
  } else if constexpr (kRenamed) {
    if (op.convert == 1 && v != 0) {
      v = r.relay_to[v - 1] + 1u;
    } else if (op.convert == 2 && v != 0) {
      v = r.event_to[v - 1] + 1u;
    } else if (op.convert == 3) {
      // An instance of the group, from 0.
      v = static_cast<unsigned>(r.instance_to[op.first + v] - op.first);
    }
  }
  if ((v >> op.width) != 0) FieldOverflow(op.field, v, op.width);
  return v;
}

// The word of step `step` (count > 0) in the State at `base`. Aborts, as
// Value does, if one of its fields is too large for its bits.
[[gnu::always_inline]] inline std::uint64_t StateCodec::StepWord(
    const Step& step, const unsigned char* base) const {
  std::uint64_t word;
  std::memcpy(&word, base + step.offset, 8);
  if ((word & step.overflow) != 0) {
    // Some field is too large: say which, as one field at a time would.
    for (std::size_t k = 0; k < step.count; ++k) {
      Value<false>(program_[step.op + k], base, identity_);
    }
  }
  return word;
}

// Not inlined into Encode: there it would make every call save the
// registers it uses, also on the way to EncodeGathering.
template <bool kRenamed>
[[gnu::noinline]] void StateCodec::Run(const State& s, const Renaming& r,
                                       std::uint8_t* out) const {
  BitWriter<false> writer(out, size());
  const auto* base = reinterpret_cast<const unsigned char*>(&s);
  if constexpr (kRenamed) {
    for (const FieldOp& op : program_) {
      writer.Put(Value<true>(op, base, r), op.width);
    }
  } else {
    for (const Step& step : steps_) {
      if (step.count == 0) {
        const FieldOp& op = program_[step.op];
        writer.Put(Value<false>(op, base, r), op.width);
        continue;
      }
      const std::uint64_t word = StepWord(step, base);
      std::uint64_t packed = 0;
      unsigned shift = 0;
      for (std::size_t k = 0; k < step.count; ++k) {
        packed |= ((word >> (8 * step.lane[k])) & 0xff) << shift;
        shift += step.width[k];
      }
      writer.Put(static_cast<unsigned>(packed), step.bits);
    }
  }
  writer.Finish();
}

void StateCodec::Encode(const State& s, std::uint8_t* out) const {
  if (bit_instructions_) {
    EncodeGathering<false>(s, out);
  } else {
    Run<false>(s, identity_, out);
  }
}

std::uint64_t StateCodec::EncodeHashed(const State& s,
                                       std::uint8_t* out) const {
  if (bit_instructions_) return EncodeGathering<true>(s, out);
  Run<false>(s, identity_, out);
  return HashBytes(out, size());
}

void StateCodec::EncodeRenamed(const State& s, const Renaming& r,
                               std::uint8_t* out) const {
  Run<true>(s, r, out);
}

namespace {

// Reads values of the given widths as BitWriter packed them.
class BitReader {
 public:
  BitReader(const std::uint8_t* in, std::size_t size)
      : in_(in), end_(in + size) {}
  // The next `width` bits (at most 32).
  [[gnu::always_inline]] unsigned Take(unsigned width) {
    while (have_ < width) {
      const std::uint64_t byte = in_ < end_ ? *in_++ : 0;
      word_ |= byte << have_;
      have_ += 8;
    }
    const auto raw =
        static_cast<unsigned>(word_ & ((std::uint64_t{1} << width) - 1));
    word_ >>= width;
    have_ -= width;
    return raw;
  }

 private:
  const std::uint8_t* in_;
  const std::uint8_t* end_;
  std::uint64_t word_ = 0;
  unsigned have_ = 0;
};

}  // namespace

// Stores the field `op` read as `raw` into the State at `base`.
[[gnu::always_inline]] inline void StateCodec::Store(
    const FieldOp& op, unsigned raw, unsigned char* base) const {
  unsigned char* at = base + op.offset;
  if (op.size == 1) {
    *at = static_cast<unsigned char>(raw);
  } else if (op.size == 2) {
    const auto x = static_cast<std::uint16_t>(
        op.convert == 4 ? static_cast<int>(raw) - user_bias_
                        : static_cast<int>(raw));
    std::memcpy(at, &x, 2);
  } else {
    const std::uint32_t x = raw;
    std::memcpy(at, &x, 4);
  }
}

State StateCodec::Decode(const std::uint8_t* in) const {
  if (bit_instructions_) return DecodeScattering(in);
  return DecodeFieldByField(in);
}

// Apart from Decode, so that Decode builds its State in place (one return
// path) and gives every call the stack of this one.
[[gnu::noinline]] State StateCodec::DecodeFieldByField(
    const std::uint8_t* in) const {
  State s = shape_;
  auto* base = reinterpret_cast<unsigned char*>(&s);
  BitReader reader(in, size());
  for (const Step& step : steps_) {
    if (step.count > 0) {
      unsigned packed = reader.Take(step.bits);
      for (std::size_t k = 0; k < step.count; ++k) {
        base[step.offset + step.lane[k]] =
            static_cast<unsigned char>(packed & ((1u << step.width[k]) - 1));
        packed >>= step.width[k];
      }
      continue;
    }
    const FieldOp& op = program_[step.op];
    Store(op, reader.Take(op.width), base);
  }
  return s;
}

// Encode and Decode with a step's fields gathered from its word (PEXT) and
// scattered back into it (PDEP) at once, in place of the loops over the
// fields of Run and Decode.
#if OC_CODEC_BMI2
template <bool kHash>
[[gnu::target("bmi2")]] std::uint64_t StateCodec::EncodeGathering(
    const State& s, std::uint8_t* out) const {
  BitWriter<kHash> writer(out, size());
  const auto* base = reinterpret_cast<const unsigned char*>(&s);
  for (const Step& step : steps_) {
    if (step.count == 0) {
      const FieldOp& op = program_[step.op];
      writer.Put(Value<false>(op, base, identity_), op.width);
      continue;
    }
    const std::uint64_t word = StepWord(step, base);
    writer.Put(static_cast<unsigned>(_pext_u64(word, step.bits_mask)),
               step.bits);
  }
  return writer.Finish();
}

[[gnu::target("bmi2")]] State StateCodec::DecodeScattering(
    const std::uint8_t* in) const {
  State s = shape_;
  auto* base = reinterpret_cast<unsigned char*>(&s);
  BitReader reader(in, size());
  for (const Step& step : steps_) {
    if (step.count == 0) {
      const FieldOp& op = program_[step.op];
      Store(op, reader.Take(op.width), base);
      continue;
    }
    // The word's other bytes belong to other fields or to none: kept. When
    // no step before wrote them they are known, and the word is not read
    // (reading eight bytes just written in smaller pieces waits for them).
    std::uint64_t word = step.rest;
    if (!step.rest_known) {
      std::memcpy(&word, base + step.offset, 8);
      word &= ~step.byte_mask;
    }
    word |= _pdep_u64(reader.Take(step.bits), step.bits_mask);
    std::memcpy(base + step.offset, &word, 8);
  }
  return s;
}
#else
template <bool kHash>
std::uint64_t StateCodec::EncodeGathering(const State& s,
                                          std::uint8_t* out) const {
  Run<false>(s, identity_, out);  // never called: no bit instructions
  return kHash ? HashBytes(out, size()) : 0;
}
State StateCodec::DecodeScattering(const std::uint8_t* in) const {
  return DecodeFieldByField(in);  // never called: no bit instructions
}
#endif

}  // namespace oc
