#include "model/state_codec.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

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
      f(s.relays[m.relay_from[r]].retry, Field::kRetry, -1);
    }
    for (std::size_t i = 0; i < s.instances.size(); ++i) {
      auto& inst = s.instances[m.instance_from[i]];
      f(inst.partition, Field::kPartitionRef, instance_group[i]);
      f(inst.offset, Field::kRecordOffset, instance_group[i]);
      f(inst.epoch, Field::kEpoch, instance_group[i]);
      f(inst.fetched, Field::kFetched, instance_group[i]);
    }
  }
  // applied_in_key_order's cells, on either broker.
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
// the packing order: Encode, EncodeRenamed, Decode and the widths use it.
// `styles` false skips the cells of the other relay styles, and `time`
// false those of model/TIME.md, which the seed's pipeline and an untimed
// config never set (they would take 0 bits anyway; skipping them keeps the
// walk, the hottest loop of a search, as short as the seed's model needs).
template <class S, class F>
void VisitFields(S& s, int events, int groups, const int* instance_group,
                 const Renaming& m, bool styles, bool time,
                 const std::vector<UserTableLayout>& user, bool stages,
                 const std::vector<int>& capacity, bool key_order, F f) {
  for (std::size_t i = 0; i < s.events.size(); ++i) {
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
    auto& inst = s.instances[m.instance_from[i]];
    f(inst.phase, Field::kPhase, instance_group[i]);
    f(inst.event, Field::kEventRef, instance_group[i]);
    f(inst.memo, Field::kMemo, instance_group[i]);
    if (stages) f(inst.stage, Field::kStage, instance_group[i]);
  }
  for (int g = 0; g < groups; ++g) {
    for (int e = 0; e < events; ++e) {
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
      const int cell = l.by_event ? l.first + m.event_from[i] : l.first + i;
      f(s.user[static_cast<std::size_t>(cell)], what, l.group);
    }
  }
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
  State s = shape_;
  VisitFields(s, events_, groups_, instance_group_.data(), identity_, styles_,
              time_, user_, stages_, capacity_, key_order_,
              [&](auto&, Field what, int group) {
                widths_.push_back(
                    static_cast<std::uint8_t>(Bits(bounds.Max(what, group))));
              });
  bits_ = 0;
  for (std::uint8_t w : widths_) bits_ += w;
}

namespace {

// Packs values of the given widths, least significant bit first.
class BitWriter {
 public:
  explicit BitWriter(std::uint8_t* out) : at_(out) {}
  void Put(unsigned value, unsigned width) {
    if (width == 0) return;
    word_ |= static_cast<std::uint64_t>(value) << used_;
    used_ += width;
    if (used_ >= 32) {  // flush four bytes; widths are <= 16
      const auto low = static_cast<std::uint32_t>(word_);
      std::memcpy(at_, &low, 4);
      at_ += 4;
      word_ >>= 32;
      used_ -= 32;
    }
  }
  void Finish() {
    for (unsigned i = 0; i < used_; i += 8) {
      *at_++ = static_cast<std::uint8_t>(word_ >> i);
    }
  }

 private:
  std::uint8_t* at_;
  std::uint64_t word_ = 0;  // bits not yet written
  unsigned used_ = 0;       // how many bits of word_ are filled
};

}  // namespace

void StateCodec::Encode(const State& s, std::uint8_t* out) const {
  EncodeRenamed(s, identity_, out);
}

void StateCodec::EncodeRenamed(const State& s, const Renaming& r,
                               std::uint8_t* out) const {
  BitWriter writer(out);
  std::size_t field = 0;
  VisitFields(
      s, events_, groups_, instance_group_.data(), r, styles_, time_, user_,
      stages_, capacity_, key_order_,
      [&](const auto& value, Field what, int group) {
        auto v = static_cast<unsigned>(value);
        if (what == Field::kUserNumber) {
          v = static_cast<unsigned>(static_cast<int>(value) + user_bias_);
        } else if (v != 0 && what == Field::kRelayRef) {
          v = r.relay_to[v - 1] + 1u;
        } else if (v != 0 && what == Field::kEventRef) {
          v = r.event_to[v - 1] + 1u;
        } else if (what == Field::kOwner) {
          // An instance of the group, from 0.
          const int first = group_first_[static_cast<std::size_t>(group)];
          v = static_cast<unsigned>(r.instance_to[first + v] - first);
        }
        const unsigned width = widths_[field];
        if ((v >> width) != 0) FieldOverflow(field, v, width);
        ++field;
        writer.Put(v, width);
      });
  writer.Finish();
}

State StateCodec::Decode(const std::uint8_t* in) const {
  State s = shape_;
  std::uint64_t word = 0;
  unsigned have = 0;
  std::size_t field = 0;
  const std::uint8_t* end = in + size();
  VisitFields(s, events_, groups_, instance_group_.data(), identity_, styles_,
              time_, user_, stages_, capacity_, key_order_,
              [&](auto& value, Field what, int) {
                const unsigned width = widths_[field++];
                if (width == 0) return;
                while (have < width) {
                  const std::uint64_t byte = in < end ? *in++ : 0;
                  word |= byte << have;
                  have += 8;
                }
                const auto raw =
                    static_cast<int>(word & ((std::uint64_t{1} << width) - 1));
                value = static_cast<std::remove_reference_t<decltype(value)>>(
                    what == Field::kUserNumber ? raw - user_bias_ : raw);
                word >>= width;
                have -= width;
              });
  return s;
}

}  // namespace oc
