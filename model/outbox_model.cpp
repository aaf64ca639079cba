#include "model/outbox_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>

#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "model/state_text.h"

namespace oc {

// Why an action is not enabled. The first failing condition in the guard
// column order of docs/SEMANTICS.md section 3 wins, so kClaimBound means
// "enabled but for the bound".
enum class OutboxModel::Guard : std::uint8_t {
  kEnabled,
  kRelayNotIdle,
  kAlreadyPublished,
  kLeaseActive,
  kClaimBound,
  kRelayNotClaimed,
  kRelayNotSent,
  kRelayIdle,
  kNoPublishAckBudget,
  kNoRelayCrashBudget,
  kLeaseNotActive,
  kLeaseHeld,
  kInstanceNotIdle,
  kNoCopyReady,
  kInstanceNotMidway,
  kInstanceNotHolding,
  kNoConsumerAckBudget,
  kNoConsumerCrashBudget,
  kNoRedeliveryBudget,
  // Time (model/TIME.md).
  kDatabaseDown,
  kGroupDown,
  kCopyParked,
  kNotTimed,
  kSomethingDue,
  kNothingWaits,
  kHorizon,
  kNotDelayed,
  kDelayRunning,
  kNotDeadLetter,
  kNoRedrive,
  kRedriveRunning,
  kNoDeadLetterRetention,
  kDeadLetterRetentionRunning,
  kNoRetention,
  kNoInboxRow,
  kRetentionRunning,
  kGroupAlreadyDown,
  kNoConsumerOutageBudget,
  kDatabaseAlreadyDown,
  kNoDatabaseOutageBudget,
  // Relay styles, message identity, source commits and lost writes.
  kSourcePending,
  kRowLocked,
  kNotNextRow,
  kNotPending,
  kNoFailedCommitBudget,
  kNoOffsetToFlush,
  kNotCdc,
  kNoLostWriteBudget,
  kNoUndeliveredCopy,
  // The age sweeper.
  kRowTooYoung,
  // inline_dispatch: the row's delivery pass has run.
  kPassRan,
  // The partitioned broker.
  kNotAssigned,
  kNoRecordToRead,
  kNotNextRecord,
  kCommittedBefore,
  kNoVisibilityTimeout,
  kAlreadyAssigned,
  kNoRebalanceBudget,
  kWaitingForRetry,
  kNoSendFailureBudget,
  kNoRetryPending,
  kNoHandlerFailureBudget,
  kNoRetryTopic,
  kNotInRetryTopic,
};

namespace {

// Some relay still holds event e with its current token: the lease is not
// orphaned, so its expiry is premature.
bool LeaseHeld(const State& s, int e) {
  return std::any_of(s.relays.begin(), s.relays.end(),
                     [&](const RelayCells& r) {
                       return r.phase != RelayPhase::kIdle &&
                              r.event == e + 1 && r.token == s.events[e].token;
                     });
}

// Some relay is claimed or sent with event e (row_lock: the row is locked).
bool RowLocked(const State& s, int e) {
  return std::any_of(s.relays.begin(), s.relays.end(),
                     [&](const RelayCells& r) {
                       return r.phase != RelayPhase::kIdle && r.event == e + 1;
                     });
}

}  // namespace

int OutboxModel::LogPosition(const State& s, int e) const {
  if (config_.commits_during_run) return s.events[e].log_position;
  return e + 1;
}

int OutboxModel::NextRow(const State& s) const {
  const int events = static_cast<int>(config_.events.size());
  switch (config_.relay_style) {
    case RelayStyle::kSequenceCursor:
      // WHERE id > last_seen ORDER BY id LIMIT 1: pending rows are
      // invisible, so a lower id that commits later is passed over; a
      // cursor that waits at gaps passes over only those timed out.
      for (int e = s.log.offset; e < events; ++e) {
        const EventCells& row = s.events[e];
        if (row.pending == 0) return e;
        if (config_.gaps_wait &&
            (timing_.gap_timeout == 0 || row.clock < timing_.gap_timeout)) {
          return -1;
        }
      }
      return -1;
    case RelayStyle::kCdcOffset:
      for (int e = 0; e < events; ++e) {
        if (s.events[e].pending == 0 &&
            LogPosition(s, e) == s.log.position + 1) {
          return e;
        }
      }
      return -1;
    case RelayStyle::kLeaseToken:
    case RelayStyle::kRowLock:
    case RelayStyle::kAgeSweeper:
    case RelayStyle::kInlineDispatch:
      break;
  }
  return -1;
}

OutboxModel::OutboxModel(Config config, bool concrete)
    : config_(std::move(config)) {
  assert(Validate(config_).ok());
  if (CountsAbstracted(config_)) {
    abstract_ = !concrete;
    renumber_tokens_ = abstract_ && config_.claim_bound == 0;
    // Counts of waiting copies both grow and fall; saturating them adds
    // behaviours (section 14).
    over_approximates_ = abstract_;
  }
  keys_ = Keys(config_);
  for (const Event& e : config_.events) {
    if (!e.key) {
      key_of_.push_back(-1);
      continue;
    }
    key_of_.push_back(static_cast<int>(
        std::find(keys_.begin(), keys_.end(), *e.key) - keys_.begin()));
  }
  key_events_.resize(keys_.size());
  for (std::size_t e = 0; e < config_.events.size(); ++e) {
    const int k = key_of_[e];
    if (k < 0) {
      key_rank_.push_back(0);
      continue;
    }
    key_events_[static_cast<std::size_t>(k)].push_back(static_cast<int>(e));
    key_rank_.push_back(
        static_cast<int>(key_events_[static_cast<std::size_t>(k)].size()));
  }
  if (config_.broker.delivery == Delivery::kPartitioned) {
    partitions_ = config_.broker.partitions;
    for (int e = 0; e < static_cast<int>(config_.events.size()); ++e) {
      partition_of_.push_back(PartitionOf(config_, e));
    }
  }
  for (const Group& g : config_.groups) {
    first_instance_.push_back(instance_count_);
    instance_count_ += g.instances;
  }
  const std::size_t events = config_.events.size();
  user_slots_.resize(config_.groups.size() * events);
  numbers_.resize(config_.groups.size() * events);
  values_.resize(config_.groups.size() * events);
  table_first_.resize(config_.groups.size());
  const std::vector<UserTableLayout> layouts = UserTableLayouts(config_);
  for (const UserTableLayout& l : layouts) {
    table_first_[static_cast<std::size_t>(l.group)].push_back(
        static_cast<std::uint16_t>(l.first));
    user_cells_ = std::max(user_cells_, l.first + l.size);
    initial_user_.resize(static_cast<std::size_t>(user_cells_));
    std::copy(l.initial.begin(), l.initial.end(),
              initial_user_.begin() + l.first);
  }
  for (std::size_t g = 0; g < config_.groups.size(); ++g) {
    if (!config_.groups[g].declared) continue;
    const HandlerProgram& p = *config_.groups[g].declared;
    for (std::size_t e = 0; e < events; ++e) {
      values_[g * events + e] =
          EventValueIndices(config_, p, config_.events[e]);
      // The cells the event's handler may touch: its own in each table by
      // event, and in each table by a domain those of the values its
      // attributes of that domain hold.
      std::vector<std::uint16_t>& cells = user_slots_[g * events + e];
      for (std::size_t t = 0; t < p.tables.size(); ++t) {
        const int first = table_first_[g][t];
        if (p.tables[t].by < 0) {
          cells.push_back(static_cast<std::uint16_t>(first + e));
          continue;
        }
        for (std::size_t a = 0; a < p.text_attributes.size(); ++a) {
          const int value = values_[g * events + e][a];
          if (p.text_domain[a] == p.tables[t].by && value >= 0 &&
              std::find(cells.begin(), cells.end(), first + value) ==
                  cells.end()) {
            cells.push_back(static_cast<std::uint16_t>(first + value));
          }
        }
      }
      for (const std::string& a :
           config_.groups[g].declared->number_attributes) {
        numbers_[g * events + e].push_back(static_cast<std::int32_t>(
            NumberAttribute(config_.events[e], a).value_or(0)));
      }
    }
  }
  timing_ = ComputeTiming(config_);
  if (abstract_) {
    // Renumbered, an event's tokens are its row's, its completion's and
    // one per relay: at most relays + 2 values.
    const int tokens = config_.claim_bound > 0
                           ? config_.claim_bound
                           : static_cast<int>(config_.relays.size()) + 2;
    codec_ = StateCodec(config_, InitialStates().front(), kCountCap, tokens);
  } else if (CountsAbstracted(config_)) {
    // A concrete model of an unbounded configuration replays paths; its
    // counts fit the state's bytes, not a bound known in advance.
    codec_ = StateCodec(config_, InitialStates().front(), 255, 255);
  } else {
    codec_ = StateCodec(config_, InitialStates().front());
  }
  seed_pipeline_ = IsSeedPipeline(config_);
  symmetry_ = Symmetry(config_);
  ListCandidates();
  partial_order_ = PartialOrder(
      config_,
      PartialOrderLayout{
          first_instance_, key_of_, static_cast<int>(keys_.size()), user_slots_,
          user_cells_, candidates_, timing_.timed,
          seed_pipeline_ && config_.relay_style == RelayStyle::kLeaseToken &&
              !config_.commits_during_run});
  if (partitions_ > 0) {
    partial_order_ = PartialOrder::Off(
        "off: its independence relation does not cover the partitioned "
        "broker yet");
  } else if ((config_.observed & kObserveKeyOrder) != 0) {
    partial_order_ = PartialOrder::Off(
        "off: its visibility does not cover applied_in_key_order yet");
  }
  if (abstract_) {
    // Its stubborn sets are computed for the concrete successor function.
    partial_order_ = PartialOrder::Off(
        "off: counts are abstracted for unbounded budgets (section 14 of "
        "the semantics)");
  }
}

void OutboxModel::ListCandidates() {
  const auto events = static_cast<std::uint8_t>(config_.events.size());
  for (std::uint8_t r = 0; r < config_.relays.size(); ++r) {
    for (std::uint8_t e = 0; e < events; ++e) {
      candidates_.push_back(Action{ActionKind::kClaim, r, e, 0, 0});
    }
    candidates_.push_back(Action{ActionKind::kSend, r, 0, 0, 0});
    candidates_.push_back(Action{ActionKind::kSendAckLost, r, 0, 0, 0});
    candidates_.push_back(Action{ActionKind::kComplete, r, 0, 0, 0});
    candidates_.push_back(Action{ActionKind::kCrashRelay, r, 0, 0, 0});
    if (config_.budgets.send_failures > 0) {
      candidates_.push_back(Action{ActionKind::kSendFails, r, 0, 0, 0});
      candidates_.push_back(Action{ActionKind::kRetrySend, r, 0, 0, 0});
    }
  }
  for (std::uint8_t e = 0; e < events; ++e) {
    candidates_.push_back(Action{ActionKind::kExpire, 0, e, 0, 0});
  }
  for (std::uint8_t g = 0; g < config_.groups.size(); ++g) {
    for (int i = 0; i < config_.groups[g].instances; ++i) {
      const auto inst = static_cast<std::uint8_t>(i);
      for (std::uint8_t e = 0; e < events; ++e) {
        candidates_.push_back(Action{ActionKind::kConsume, 0, e, g, inst});
      }
      for (ActionKind k :
           {ActionKind::kStep, ActionKind::kAcknowledge, ActionKind::kAckLost,
            ActionKind::kCrashConsumer, ActionKind::kRedeliver}) {
        candidates_.push_back(Action{k, 0, 0, g, inst});
      }
    }
  }
  if (timing_.timed) {
    for (std::uint8_t g = 0; g < config_.groups.size(); ++g) {
      for (std::uint8_t e = 0; e < events; ++e) {
        for (ActionKind k :
             {ActionKind::kRetry, ActionKind::kRedrive,
              ActionKind::kDeadLetterExpire, ActionKind::kCleanup}) {
          candidates_.push_back(Action{k, 0, e, g, 0});
        }
      }
      candidates_.push_back(Action{ActionKind::kConsumerOutage, 0, 0, g, 0});
    }
    candidates_.push_back(Action{ActionKind::kDatabaseOutage, 0, 0, 0, 0});
  }
  if (!seed_pipeline_) {
    // The relay styles' actions come after the seed's and time's (whose
    // order and traces stay as they were). Of the styles, only age_sweeper
    // is timed, and it has none of these actions enabled.
    for (std::uint8_t e = 0; e < events; ++e) {
      candidates_.push_back(Action{ActionKind::kSourceCommit, 0, e, 0, 0});
    }
    for (std::uint8_t r = 0; r < config_.relays.size(); ++r) {
      candidates_.push_back(Action{ActionKind::kCommitFails, r, 0, 0, 0});
      candidates_.push_back(Action{ActionKind::kFlushOffset, r, 0, 0, 0});
    }
    for (std::uint8_t e = 0; e < events; ++e) {
      candidates_.push_back(Action{ActionKind::kLoseWrite, 0, e, 0, 0});
    }
  }
  for (std::uint8_t g = 0; g < config_.groups.size(); ++g) {
    for (int p = 0; p < partitions_; ++p) {
      for (int i = 0; i < config_.groups[g].instances; ++i) {
        candidates_.push_back(Action{ActionKind::kRebalance, 0, 0, g,
                                     static_cast<std::uint8_t>(i),
                                     static_cast<std::uint8_t>(p)});
      }
    }
  }
  // Handler failures and retry topics (docs/SEMANTICS.md section 16.2).
  for (std::uint8_t g = 0; g < config_.groups.size(); ++g) {
    if (config_.budgets.handler_failures == 0) break;
    for (int i = 0; i < config_.groups[g].instances; ++i) {
      const auto inst = static_cast<std::uint8_t>(i);
      for (std::uint8_t e = 0; e < events; ++e) {
        candidates_.push_back(Action{ActionKind::kConsumeFails, 0, e, g, inst});
      }
      if (!config_.groups[g].retry_topic) continue;
      for (std::uint8_t e = 0; e < events; ++e) {
        candidates_.push_back(Action{ActionKind::kConsumeRetry, 0, e, g, inst});
      }
    }
  }

  // The gates: each is the first test Check makes of its action's kind
  // (for a consume on the bag, the copy waiting; the instance's being idle
  // comes first in Check, but a copy waiting is rarer), and a second test
  // that Check makes too, where there is one that often fails.
  const State shape = InitialStates().front();
  const auto* base = reinterpret_cast<const std::uint8_t*>(&shape);
  const std::size_t events_n = config_.events.size();
  auto place = [&](const auto& cell) {
    static_assert(sizeof(cell) == 1);
    return static_cast<std::uint32_t>(
        reinterpret_cast<const std::uint8_t*>(&cell) - base);
  };
  auto equal = [&](const auto& cell, auto value) {
    return Test{place(cell), 1, static_cast<std::uint8_t>(value)};
  };
  auto nonzero = [&](const auto& cell) { return Test{place(cell), 2, 0}; };
  // Check refuses a claim of a published row in these styles (the others
  // pick their row otherwise).
  const bool claims_unpublished =
      config_.relay_style == RelayStyle::kLeaseToken ||
      config_.relay_style == RelayStyle::kRowLock ||
      config_.relay_style == RelayStyle::kAgeSweeper;
  const Budgets& budgets = shape.budgets;
  for (const Action& a : candidates_) {
    const auto instance = [&]() -> const InstanceCells& {
      return shape.instances[static_cast<std::size_t>(first_instance_[a.group] +
                                                      a.instance)];
    };
    const auto group_event = [&]() -> const GroupEventCells& {
      return shape.group_events[a.group * events_n + a.event];
    };
    Gate gate;
    switch (a.kind) {
      case ActionKind::kClaim:
        gate.first = equal(shape.relays[a.relay].phase, RelayPhase::kIdle);
        if (claims_unpublished) {
          gate.second = equal(shape.events[a.event].published, 0);
        }
        break;
      case ActionKind::kSend:
        gate.first = equal(shape.relays[a.relay].phase, RelayPhase::kClaimed);
        break;
      case ActionKind::kSendAckLost:
        gate.first = equal(shape.relays[a.relay].phase, RelayPhase::kClaimed);
        gate.second = nonzero(budgets.lost_publish_acks);
        break;
      case ActionKind::kSendFails:
        gate.first = equal(shape.relays[a.relay].phase, RelayPhase::kClaimed);
        gate.second = nonzero(budgets.send_failures);
        break;
      case ActionKind::kRetrySend:
        gate.first = nonzero(shape.relays[a.relay].retry);
        break;
      case ActionKind::kComplete:
        gate.first = equal(shape.relays[a.relay].phase, RelayPhase::kSent);
        break;
      case ActionKind::kExpire:
        gate.first = equal(shape.events[a.event].lease, Lease::kActive);
        gate.second = equal(shape.events[a.event].published, 0);
        break;
      case ActionKind::kCrashRelay:
        gate.first = nonzero(budgets.relay_crashes);
        break;
      case ActionKind::kConsume:
      case ActionKind::kConsumeFails:
      case ActionKind::kConsumeRetry:
        if (partitions_ > 0) {
          gate.first = equal(instance().phase, InstancePhase::kIdle);
        } else {
          gate.first = nonzero(group_event().ready);
        }
        if (a.kind == ActionKind::kConsumeFails) {
          gate.second = nonzero(budgets.handler_failures);
        } else if (partitions_ == 0) {
          gate.second = equal(instance().phase, InstancePhase::kIdle);
        }
        break;
      case ActionKind::kStep:
        gate.first = equal(instance().phase, InstancePhase::kMidway);
        break;
      case ActionKind::kCrashConsumer:
        gate.first = equal(instance().phase, InstancePhase::kMidway);
        gate.second = nonzero(budgets.consumer_crashes);
        break;
      case ActionKind::kRedeliver:
        gate.first = equal(instance().phase, InstancePhase::kMidway);
        gate.second = nonzero(budgets.redeliveries);
        break;
      case ActionKind::kAcknowledge:
        gate.first = equal(instance().phase, InstancePhase::kHolding);
        break;
      case ActionKind::kAckLost:
        gate.first = equal(instance().phase, InstancePhase::kHolding);
        gate.second = nonzero(budgets.lost_consumer_acks);
        break;
      case ActionKind::kRetry:
        gate.first = equal(group_event().parked, kDelayed);
        break;
      case ActionKind::kRedrive:
      case ActionKind::kDeadLetterExpire:
        gate.first = equal(group_event().parked, kDeadLetter);
        break;
      case ActionKind::kConsumerOutage:
        gate.first = nonzero(budgets.consumer_outages);
        break;
      case ActionKind::kDatabaseOutage:
        gate.first = nonzero(budgets.database_outages);
        break;
      default:
        break;  // no gate: Check decides
    }
    gates_.push_back(gate);
  }
}

std::vector<State> OutboxModel::InitialStates() const {
  const std::size_t events = config_.events.size();
  const std::size_t groups = config_.groups.size();
  State s;
  s.events.resize(events);
  s.relays.resize(config_.relays.size());
  s.instances.resize(static_cast<std::size_t>(instance_count_));
  s.group_events.resize(groups * events);
  s.group_keys.resize(groups * keys_.size());
  s.user.assign(initial_user_.begin(), initial_user_.end());
  for (const FaultBudget& budget : kFaultBudgets) {
    // An unbounded budget stays at 1: never spent, never exhausted.
    s.budgets.*budget.left = static_cast<std::uint8_t>(
        Unbounded(config_, budget) ? 1 : Pool(config_, budget));
  }
  s.down.resize(groups);
  if (partitions_ > 0) {
    // Partition p starts with instance p mod K of every group.
    s.lengths.resize(static_cast<std::size_t>(partitions_));
    s.records.resize(static_cast<std::size_t>(partitions_ * kMaxRecords));
    s.partitions.resize(groups * static_cast<std::size_t>(partitions_));
    for (std::size_t g = 0; g < groups; ++g) {
      for (int p = 0; p < partitions_; ++p) {
        s.partitions[g * static_cast<std::size_t>(partitions_) +
                     static_cast<std::size_t>(p)]
            .owner = static_cast<std::uint8_t>(p % config_.groups[g].instances);
      }
    }
  }
  if (config_.commits_during_run) {
    for (EventCells& e : s.events) e.pending = 1;
  }
  return {s};
}

OutboxModel::Guard OutboxModel::Check(const State& s, const Action& a) const {
  const std::size_t events = config_.events.size();
  switch (a.kind) {
    case ActionKind::kClaim: {
      const EventCells& row = s.events[a.event];
      if (s.relays[a.relay].phase != RelayPhase::kIdle) {
        return Guard::kRelayNotIdle;
      }
      if (config_.relay_style == RelayStyle::kInlineDispatch) {
        // The row's one delivery pass; racing its transaction, it may run
        // before the row is there.
        if (row.begun) return Guard::kPassRan;
        if (row.pending && config_.dispatch_waits_for_commit) {
          return Guard::kSourcePending;
        }
        return Guard::kEnabled;
      }
      if (row.pending) return Guard::kSourcePending;
      switch (config_.relay_style) {
        case RelayStyle::kLeaseToken:
          break;
        case RelayStyle::kRowLock:
          if (row.published) return Guard::kAlreadyPublished;
          return RowLocked(s, a.event) ? Guard::kRowLocked : Guard::kEnabled;
        case RelayStyle::kSequenceCursor:
        case RelayStyle::kCdcOffset:
          return NextRow(s) == a.event ? Guard::kEnabled : Guard::kNotNextRow;
        case RelayStyle::kInlineDispatch:
          break;  // decided above
        case RelayStyle::kAgeSweeper:
          // The producer's dispatch needs no read: it sends the row it has
          // just written. The sweeper reads rows old enough and unmarked.
          if (row.published) return Guard::kAlreadyPublished;
          if (row.begun == 0) return Guard::kEnabled;
          if (row.clock < timing_.min_age) return Guard::kRowTooYoung;
          return s.database_down > 0 ? Guard::kDatabaseDown : Guard::kEnabled;
      }
      if (row.published) return Guard::kAlreadyPublished;
      if (config_.lease && row.lease == Lease::kActive) {
        return Guard::kLeaseActive;
      }
      if (config_.claim_bound > 0 && row.token >= config_.claim_bound) {
        return Guard::kClaimBound;
      }
      if (timing_.timed && s.database_down > 0) return Guard::kDatabaseDown;
      return Guard::kEnabled;
    }
    case ActionKind::kSend:
      if (s.relays[a.relay].phase != RelayPhase::kClaimed) {
        return Guard::kRelayNotClaimed;
      }
      return WaitsForRetry(s, a.relay) ? Guard::kWaitingForRetry
                                       : Guard::kEnabled;
    case ActionKind::kSendAckLost:
      if (s.relays[a.relay].phase != RelayPhase::kClaimed) {
        return Guard::kRelayNotClaimed;
      }
      if (WaitsForRetry(s, a.relay)) return Guard::kWaitingForRetry;
      return s.budgets.lost_publish_acks > 0 ? Guard::kEnabled
                                             : Guard::kNoPublishAckBudget;
    case ActionKind::kSendFails:
      if (s.relays[a.relay].phase != RelayPhase::kClaimed) {
        return Guard::kRelayNotClaimed;
      }
      if (s.relays[a.relay].retry != 0) return Guard::kWaitingForRetry;
      return s.budgets.send_failures > 0 ? Guard::kEnabled
                                         : Guard::kNoSendFailureBudget;
    case ActionKind::kRetrySend:
      return s.relays[a.relay].retry != 0 ? Guard::kEnabled
                                          : Guard::kNoRetryPending;
    case ActionKind::kComplete:
      if (s.relays[a.relay].phase != RelayPhase::kSent) {
        return Guard::kRelayNotSent;
      }
      return timing_.timed && s.database_down > 0 ? Guard::kDatabaseDown
                                                  : Guard::kEnabled;
    case ActionKind::kExpire: {
      const EventCells& row = s.events[a.event];
      if (row.lease != Lease::kActive) return Guard::kLeaseNotActive;
      if (row.published) return Guard::kAlreadyPublished;
      if (Premature(s, a.event) && s.budgets.premature_expiries == 0) {
        return Guard::kLeaseHeld;
      }
      return Guard::kEnabled;
    }
    case ActionKind::kCrashRelay:
      // A connector that read past its flushed offset loses that when it
      // restarts, even between two reads.
      if (s.relays[a.relay].phase == RelayPhase::kIdle &&
          !(StyleOf(config_).commit_log && s.log.position > s.log.offset))
        return Guard::kRelayIdle;
      return s.budgets.relay_crashes > 0 ? Guard::kEnabled
                                         : Guard::kNoRelayCrashBudget;
    case ActionKind::kConsumeRetry: {
      const InstanceCells& inst =
          s.instances[static_cast<std::size_t>(FirstInstance(a.group)) +
                      a.instance];
      if (inst.phase != InstancePhase::kIdle) return Guard::kInstanceNotIdle;
      if (!config_.groups[a.group].retry_topic) return Guard::kNoRetryTopic;
      return s.group_events[a.group * events + a.event].ready > 0
                 ? Guard::kEnabled
                 : Guard::kNotInRetryTopic;
    }
    case ActionKind::kConsumeFails:
    case ActionKind::kConsume: {
      const InstanceCells& inst =
          s.instances[static_cast<std::size_t>(FirstInstance(a.group)) +
                      a.instance];
      if (inst.phase != InstancePhase::kIdle) return Guard::kInstanceNotIdle;
      if (a.kind == ActionKind::kConsumeFails &&
          s.budgets.handler_failures == 0) {
        return Guard::kNoHandlerFailureBudget;
      }
      if (partitions_ > 0) {
        const int p = partition_of_[a.event];
        const GroupPartitionCells& c =
            s.partitions[static_cast<std::size_t>(a.group * partitions_ + p)];
        if (c.owner != a.instance) return Guard::kNotAssigned;
        if (c.position >= s.lengths[p]) return Guard::kNoRecordToRead;
        return s.records[p * kMaxRecords + c.position] == a.event + 1
                   ? Guard::kEnabled
                   : Guard::kNotNextRecord;
      }
      if (s.group_events[a.group * events + a.event].ready == 0) {
        return Guard::kNoCopyReady;
      }
      return timing_.timed && s.down[a.group] > 0 ? Guard::kGroupDown
                                                  : Guard::kEnabled;
    }
    case ActionKind::kStep:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver: {
      const InstanceCells& inst =
          s.instances[static_cast<std::size_t>(FirstInstance(a.group)) +
                      a.instance];
      if (inst.phase != InstancePhase::kMidway) {
        return Guard::kInstanceNotMidway;
      }
      if (a.kind == ActionKind::kCrashConsumer &&
          s.budgets.consumer_crashes == 0) {
        return Guard::kNoConsumerCrashBudget;
      }
      if (a.kind == ActionKind::kRedeliver && partitions_ > 0) {
        return Guard::kNoVisibilityTimeout;
      }
      if (a.kind == ActionKind::kRedeliver && s.budgets.redeliveries == 0) {
        return Guard::kNoRedeliveryBudget;
      }
      if (a.kind == ActionKind::kStep && timing_.timed && s.down[a.group] > 0) {
        return Guard::kGroupDown;
      }
      if (a.kind == ActionKind::kCrashConsumer && Parks(a.group) &&
          s.group_events[a.group * events + (inst.event - 1)].parked !=
              kNotParked) {
        return Guard::kCopyParked;
      }
      return Guard::kEnabled;
    }
    case ActionKind::kAcknowledge:
    case ActionKind::kAckLost: {
      const InstanceCells& inst =
          s.instances[static_cast<std::size_t>(FirstInstance(a.group)) +
                      a.instance];
      if (inst.phase != InstancePhase::kHolding) {
        return Guard::kInstanceNotHolding;
      }
      if (a.kind == ActionKind::kAckLost && inst.partition != 0 &&
          config_.groups[a.group].commit_before) {
        return Guard::kCommittedBefore;
      }
      if (a.kind == ActionKind::kAckLost && s.budgets.lost_consumer_acks == 0) {
        return Guard::kNoConsumerAckBudget;
      }
      if (a.kind == ActionKind::kAcknowledge && timing_.timed &&
          s.down[a.group] > 0) {
        return Guard::kGroupDown;
      }
      if (a.kind == ActionKind::kAckLost && Parks(a.group) &&
          s.group_events[a.group * events + (inst.event - 1)].parked !=
              kNotParked) {
        return Guard::kCopyParked;
      }
      return Guard::kEnabled;
    }
    case ActionKind::kTick:
      if (!timing_.timed) return Guard::kNotTimed;
      if (AnyDue(s)) return Guard::kSomethingDue;
      if (!Waiting(s)) return Guard::kNothingWaits;
      if (timing_.tracks_now && s.now >= timing_.horizon) {
        return Guard::kHorizon;
      }
      return Guard::kEnabled;
    case ActionKind::kRetry: {
      const GroupEventCells& c = s.group_events[a.group * events + a.event];
      if (c.parked != kDelayed) return Guard::kNotDelayed;
      return c.park_age >= RetryDelay(a.group, c.attempts)
                 ? Guard::kEnabled
                 : Guard::kDelayRunning;
    }
    case ActionKind::kRedrive:
    case ActionKind::kDeadLetterExpire: {
      const GroupEventCells& c = s.group_events[a.group * events + a.event];
      if (c.parked != kDeadLetter) return Guard::kNotDeadLetter;
      const GroupTiming& g = timing_.groups[a.group];
      if (a.kind == ActionKind::kRedrive) {
        if (g.redrive == 0) return Guard::kNoRedrive;
        return c.park_age >= g.redrive ? Guard::kEnabled
                                       : Guard::kRedriveRunning;
      }
      if (g.dead_expiry == 0) return Guard::kNoDeadLetterRetention;
      return c.park_age >= g.dead_expiry ? Guard::kEnabled
                                         : Guard::kDeadLetterRetentionRunning;
    }
    case ActionKind::kCleanup: {
      if (!timing_.timed || !timing_.groups[a.group].has_retention) {
        return Guard::kNoRetention;
      }
      const GroupEventCells& c = s.group_events[a.group * events + a.event];
      if (c.inbox == 0) return Guard::kNoInboxRow;
      return c.inbox_age > timing_.groups[a.group].retention
                 ? Guard::kEnabled
                 : Guard::kRetentionRunning;
    }
    case ActionKind::kConsumerOutage:
      if (s.down[a.group] > 0) return Guard::kGroupAlreadyDown;
      return s.budgets.consumer_outages > 0 ? Guard::kEnabled
                                            : Guard::kNoConsumerOutageBudget;
    case ActionKind::kDatabaseOutage:
      if (s.database_down > 0) return Guard::kDatabaseAlreadyDown;
      return s.budgets.database_outages > 0 ? Guard::kEnabled
                                            : Guard::kNoDatabaseOutageBudget;
    case ActionKind::kSourceCommit:
      return s.events[a.event].pending ? Guard::kEnabled : Guard::kNotPending;
    case ActionKind::kCommitFails:
      if (s.relays[a.relay].phase != RelayPhase::kSent) {
        return Guard::kRelayNotSent;
      }
      return s.budgets.failed_commits > 0 ? Guard::kEnabled
                                          : Guard::kNoFailedCommitBudget;
    case ActionKind::kFlushOffset:
      if (!StyleOf(config_).commit_log) return Guard::kNotCdc;
      if (s.relays[a.relay].phase != RelayPhase::kIdle) {
        return Guard::kRelayNotIdle;
      }
      return s.log.position > s.log.offset ? Guard::kEnabled
                                           : Guard::kNoOffsetToFlush;
    case ActionKind::kLoseWrite: {
      if (s.budgets.lost_broker_writes == 0) return Guard::kNoLostWriteBudget;
      if (s.events[a.event].offered == 0) return Guard::kNoUndeliveredCopy;
      for (std::size_t g = 0; g < config_.groups.size(); ++g) {
        if (s.group_events[g * events + a.event].ready == 0) {
          return Guard::kNoUndeliveredCopy;
        }
      }
      return Guard::kEnabled;
    }
    case ActionKind::kRebalance:
      if (s.budgets.rebalances == 0) return Guard::kNoRebalanceBudget;
      return s.partitions[static_cast<std::size_t>(a.group * partitions_ +
                                                   a.partition)]
                         .owner == a.instance
                 ? Guard::kAlreadyAssigned
                 : Guard::kEnabled;
  }
  return Guard::kEnabled;
}

namespace {

// The kinds every action of which spends a fault budget (an expiry spends
// one only when it is premature).
bool AlwaysFault(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSendAckLost:
    case ActionKind::kCrashRelay:
    case ActionKind::kAckLost:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver:
    case ActionKind::kConsumerOutage:
    case ActionKind::kDatabaseOutage:
    case ActionKind::kCommitFails:
    case ActionKind::kLoseWrite:
    case ActionKind::kRebalance:
    case ActionKind::kSendFails:
    case ActionKind::kConsumeFails:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool OutboxModel::IsFault(const State& from, const Action& a) const {
  if (AlwaysFault(a.kind)) return true;
  return a.kind == ActionKind::kExpire && Premature(from, a.event);
}

void OutboxModel::Spend(State& s, std::uint8_t Budgets::*left) const {
  for (const FaultBudget& budget : kFaultBudgets) {
    if (budget.left != left) continue;
    if (!Unbounded(config_, budget)) s.budgets.*left -= 1;
    return;
  }
}

bool OutboxModel::Premature(const State& s, int event) const {
  if (timing_.timed && config_.time.lease) {
    return s.events[event].clock < timing_.lease;
  }
  return LeaseHeld(s, event);
}

bool OutboxModel::Due(const State& s, const Action& a) const {
  const std::size_t events = config_.events.size();
  // Faults are never due (the relay styles' meet no clock: Validate keeps
  // them out of timed scenarios), nor is time passing.
  if (AlwaysFault(a.kind)) return false;
  switch (a.kind) {
    case ActionKind::kTick:
      return false;
    case ActionKind::kExpire:
      return !Premature(s, a.event);
    case ActionKind::kClaim:
      if (timing_.sweeper) {
        // The dispatch comes at once; the sweeper within its poll interval
        // of the row's reaching the minimum age.
        return s.events[a.event].begun == 0 ||
               s.events[a.event].clock >= timing_.sweep_due;
      }
      return s.events[a.event].clock >= timing_.poll;
    case ActionKind::kSourceCommit:
      // A transaction commits any time within its longest length.
      return timing_.commit_within > 0 &&
             s.events[a.event].clock >= timing_.commit_within;
    case ActionKind::kSend:
      // A send returns any time within the longest send time.
      return !timing_.sweeper || s.relays[a.relay].clock >= timing_.send_time;
    case ActionKind::kCleanup: {
      return s.group_events[a.group * events + a.event].inbox_age >=
             timing_.groups[a.group].cleanup_due;
    }
    default:
      return true;
  }
}

bool OutboxModel::AnyDue(const State& s) const {
  // Only the guards: no successor is built, so nothing is allocated.
  return std::any_of(candidates_.begin(), candidates_.end(),
                     [&](const Action& a) {
                       return Check(s, a) == Guard::kEnabled && Due(s, a);
                     });
}

bool OutboxModel::Waiting(const State& s) const {
  const std::size_t events = config_.events.size();
  if (timing_.sweeper) {
    for (const EventCells& row : s.events) {
      if (!row.published && row.clock < timing_.sweep_due) return true;
    }
    for (const RelayCells& r : s.relays) {
      if (r.phase == RelayPhase::kClaimed && r.clock < timing_.send_time) {
        return true;
      }
    }
  }
  if (timing_.gap_clock) {
    for (const EventCells& row : s.events) {
      if (row.pending == 0) continue;
      if (row.clock < timing_.gap_timeout ||
          row.clock < timing_.commit_within) {
        return true;
      }
    }
  }
  if (timing_.has_lease_clock) {
    for (const EventCells& row : s.events) {
      if (row.published) continue;
      if (row.lease == Lease::kActive) {
        if (config_.time.lease && row.clock < timing_.lease) return true;
      } else if (row.clock < timing_.poll) {
        return true;
      }
    }
  }
  for (std::size_t g = 0; g < config_.groups.size(); ++g) {
    if (s.down[g] > 0) return true;
    const GroupTiming& t = timing_.groups[g];
    for (std::size_t e = 0; e < events; ++e) {
      const GroupEventCells& c = s.group_events[g * events + e];
      if (t.has_retention && c.inbox == 1 && c.inbox_age < t.cleanup_due) {
        return true;
      }
      if (c.parked == kDelayed &&
          c.park_age < RetryDelay(static_cast<int>(g), c.attempts)) {
        return true;
      }
      if (c.parked == kDeadLetter && c.park_age < t.park_cap) return true;
    }
  }
  return s.database_down > 0;
}

void OutboxModel::Tick(State& s) const {
  const std::size_t events = config_.events.size();
  auto age = [&](std::uint16_t& clock, int cap) {
    if (clock < timing_.Cap(cap)) ++clock;
  };
  for (EventCells& row : s.events) {
    if (timing_.has_lease_clock && !row.published) {
      if (row.lease == Lease::kActive) {
        if (config_.time.lease) age(row.clock, timing_.lease);
      } else {
        age(row.clock, timing_.poll);
      }
    }
    if (timing_.sweeper && !row.published) age(row.clock, timing_.sweep_due);
    if (timing_.gap_clock && row.pending) age(row.clock, timing_.gap_clock_cap);
    if (timing_.window > 0 && row.offered > 0) age(row.window, timing_.window);
  }
  if (timing_.sweeper) {
    for (RelayCells& r : s.relays) {
      if (r.phase == RelayPhase::kClaimed) age(r.clock, timing_.send_time);
    }
  }
  for (std::size_t g = 0; g < config_.groups.size(); ++g) {
    if (s.down[g] > 0) --s.down[g];
    const GroupTiming& t = timing_.groups[g];
    for (std::size_t e = 0; e < events; ++e) {
      GroupEventCells& c = s.group_events[g * events + e];
      if (t.has_retention && c.inbox == 1) {
        age(c.inbox_age, t.cleanup_due);
      }
      if (c.parked != kNotParked) age(c.park_age, t.park_cap);
      if (t.key_window > 0 && c.sent > 0) age(c.key_age, t.key_window);
    }
  }
  if (s.database_down > 0) --s.database_down;
  if (timing_.tracks_now) ++s.now;
}

void OutboxModel::FailDelivery(State& s, int group, int event) const {
  GroupEventCells& c =
      s.group_events[static_cast<std::size_t>(group) * config_.events.size() +
                     event];
  if (!Parks(group)) {
    c.ready += 1;
    return;
  }
  const GroupTiming& t = timing_.groups[group];
  const int n = static_cast<int>(t.delays.size());
  const int k = c.attempts + 1;
  if (k <= n) {
    c.parked = kDelayed;
  } else if (t.has_dead_letter) {
    c.parked = kDeadLetter;
  } else {
    c.ready += 1;
  }
  c.park_age = 0;
  c.attempts = static_cast<std::uint8_t>(std::min(k, n + 1));
}

void OutboxModel::RunStrategyStep(State& s, int group, int instance, int event,
                                  int step) const {
  const std::size_t events = config_.events.size();
  GroupEventCells& cells = s.group_events[group * events + event];
  InstanceCells& inst = s.instances[FirstInstance(group) + instance];
  const int key = key_of_[event];
  GroupKeyCells* key_cells =
      key < 0 ? nullptr : &s.group_keys[group * keys_.size() + key];
  // With per-attempt message ids every copy a consumer gets is a message
  // it has never seen (redeliveries to consumers are excluded by Validate),
  // so a lookup of its id in the inbox or the ledger finds no row.
  const bool fresh_id = config_.message_id == MessageIdentity::kPerAttempt;
  switch (config_.groups[group].strategy) {
    case Strategy::kCreditNaive:
      cells.effects += 1;
      break;
    case Strategy::kCreditInbox:
      // INSERT ... ON CONFLICT DO NOTHING, then the effect only if a row
      // was inserted, in one transaction.
      if (cells.inbox == 0 || fresh_id) {
        cells.inbox = 1;
        cells.effects += 1;
      }
      break;
    case Strategy::kCreditCheckThenAct:
      if (step == 0) {
        inst.memo = fresh_id ? 0 : cells.inbox;  // what the read saw
      } else if (inst.memo == 0) {
        cells.effects += 1;
        cells.inbox = 1;
      }
      break;
    case Strategy::kCreditEffectThenInbox:
      if (step == 0) {
        if (cells.inbox == 0 || fresh_id) cells.effects += 1;
      } else {
        cells.inbox = 1;
      }
      break;
    case Strategy::kProjectionLww:
      key_cells->version = *config_.events[event].version;
      break;
    case Strategy::kProjectionMonotonic:
      key_cells->version =
          std::max(key_cells->version, *config_.events[event].version);
      break;
    case Strategy::kNotificationLedgerThenSend:
      if (step == 0) {
        inst.memo = cells.ledger == 0 || fresh_id ? 1 : 0;  // row new?
        cells.ledger = 1;
      } else if (inst.memo == 1) {
        cells.sent += 1;
      }
      break;
    case Strategy::kNotificationSendThenLedger:
      if (step == 0) {
        if (cells.ledger == 0 || fresh_id) cells.sent += 1;
      } else {
        cells.ledger = 1;
      }
      break;
    case Strategy::kCacheInvalidate:
      key_cells->cache = 1;
      break;
    case Strategy::kDeclared: {
      const HandlerProgram& program = *config_.groups[group].declared;
      const std::size_t at = group * events + event;
      RunHandlerStep(
          program, step,
          HandlerCells{
              &cells, key_cells, s.user.data(), table_first_[group].data(),
              static_cast<int>(event), values_[at].data(), numbers_[at].data(),
              &inst.memo, step + 1 == static_cast<int>(program.steps.size()),
              timing_.timed ? timing_.groups[group].key_window : 0, fresh_id});
      break;
    }
  }
}

void OutboxModel::Effect(State& s, const Action& a) const {
  const std::size_t events = config_.events.size();
  switch (a.kind) {
    case ActionKind::kClaim: {
      EventCells& row = s.events[a.event];
      // A producer's write waiting for its retry outlives the relay's
      // loop (docs/SEMANTICS.md section 16.1).
      const std::uint8_t retry = s.relays[a.relay].retry;
      if (config_.relay_style == RelayStyle::kInlineDispatch) {
        row.begun = 1;  // the context's one pass
        // Before the commit it finds nothing: the context counts as
        // delivered, and its cleanup will remove the row unsent.
        if (row.pending) break;
      }
      if (!StyleOf(config_).lease_and_token) {
        // A row lock, a cursor read or a log read: no token, no owner.
        s.relays[a.relay] = RelayCells{
            RelayPhase::kClaimed, static_cast<std::uint8_t>(a.event + 1), 0};
        s.relays[a.relay].retry = retry;
        if (StyleOf(config_).commit_log) {
          s.log.position += 1;
        }
        if (config_.relay_style != RelayStyle::kInlineDispatch) {
          row.begun = timing_.sweeper ? 1 : 0;
        }
        break;
      }
      row.token += 1;
      row.owner = a.relay + 1;
      row.clock = 0;
      if (config_.lease) row.lease = Lease::kActive;
      s.relays[a.relay] =
          RelayCells{RelayPhase::kClaimed,
                     static_cast<std::uint8_t>(a.event + 1), row.token};
      s.relays[a.relay].retry = retry;
      break;
    }
    case ActionKind::kSendFails: {
      // Nothing is written; the producer keeps the record for a retry.
      RelayCells& relay = s.relays[a.relay];
      relay.retry = relay.event;
      if (config_.max_in_flight > 1) relay.phase = RelayPhase::kSent;
      Spend(s, &Budgets::send_failures);
      break;
    }
    case ActionKind::kRetrySend:
    case ActionKind::kSend:
    case ActionKind::kSendAckLost: {
      RelayCells& relay = s.relays[a.relay];
      const int e =
          a.kind == ActionKind::kRetrySend ? relay.retry - 1 : relay.event - 1;
      EventCells& row = s.events[e];
      const bool dropped =
          config_.broker.dedup == Dedup::kWindow
              ? row.offered > 0 && row.window < timing_.window
              : config_.broker.dedup == Dedup::kProducerSession &&
                    relay.retrying == 1;
      if (a.kind == ActionKind::kRetrySend) {
        // The retried write lands; a relay that waited for it goes on.
        relay.retry = 0;
        if (relay.phase == RelayPhase::kClaimed && relay.event == e + 1) {
          relay.phase = RelayPhase::kSent;
        }
      }
      if (!dropped && partitions_ > 0) {
        // The partition's log gets a record (docs/SEMANTICS.md section 16).
        row.offered += 1;
        row.window = 0;
        const int p = partition_of_[e];
        s.records[p * kMaxRecords + s.lengths[p]] =
            static_cast<std::uint8_t>(e + 1);
        s.lengths[p] += 1;
      } else if (!dropped) {
        row.offered += 1;
        row.window = 0;
        for (std::size_t g = 0; g < config_.groups.size(); ++g) {
          s.group_events[g * events + e].ready += 1;
        }
      }
      if (a.kind == ActionKind::kRetrySend) break;
      relay.clock = 0;  // the age sweeper's send clock: this send is over
      if (a.kind == ActionKind::kSend) {
        relay.phase = RelayPhase::kSent;
      } else {
        Spend(s,
              &Budgets::lost_publish_acks);  // stays claimed, will send again
        if (config_.broker.dedup == Dedup::kProducerSession) {
          relay.retrying = 1;
        }
      }
      break;
    }
    case ActionKind::kComplete: {
      RelayCells& relay = s.relays[a.relay];
      const std::uint8_t retry = relay.retry;
      EventCells& row = s.events[relay.event - 1];
      if (!StyleOf(config_).lease_and_token) {
        // row_lock: UPDATE published and COMMIT (the lock kept others
        // out); sequence_cursor: the cursor moves to this id; cdc_offset:
        // the broker acknowledged the record.
        row.published = 1;
        row.clock = 0;  // the age sweeper's row age stops
        if (config_.relay_style == RelayStyle::kSequenceCursor) {
          s.log.offset = std::max<std::uint8_t>(s.log.offset, relay.event);
        }
        relay = RelayCells{};
        relay.retry = retry;
        break;
      }
      const bool fenced_in = !config_.fencing || (row.owner == a.relay + 1 &&
                                                  row.token == relay.token);
      if (row.published == 0 && fenced_in) {
        row.published = 1;
        row.completed_token = relay.token;
        row.clock = 0;
      }
      relay = RelayCells{};  // zero rows updated or not, the relay is idle
      relay.retry = retry;
      break;
    }
    case ActionKind::kExpire: {
      EventCells& row = s.events[a.event];
      if (Premature(s, a.event)) Spend(s, &Budgets::premature_expiries);
      row.lease = Lease::kExpired;
      row.clock = 0;
      break;
    }
    case ActionKind::kCrashRelay:
      // Its lease stays until it expires; a row lock is released (the
      // transaction rolls back); a connector restarts from its last flush;
      // a producer's write waiting for its retry is lost with it; an
      // inline pass that had not delivered its row runs again (the message
      // that wrote the row is redelivered).
      if (config_.relay_style == RelayStyle::kInlineDispatch &&
          s.relays[a.relay].event != 0 &&
          s.events[s.relays[a.relay].event - 1].published == 0) {
        s.events[s.relays[a.relay].event - 1].begun = 0;
      }
      s.relays[a.relay] = RelayCells{};
      Spend(s, &Budgets::relay_crashes);
      if (StyleOf(config_).commit_log) {
        s.log.position = s.log.offset;
      }
      break;
    case ActionKind::kConsumeFails: {
      // The handler fails before it changes anything.
      Spend(s, &Budgets::handler_failures);
      if (!config_.groups[a.group].retry_topic) break;  // retried in place
      // Forwarded to the retry topic; the partition moves on, its offset
      // committed by its owner; the record counts as handled here.
      const int p = partition_of_[a.event];
      GroupPartitionCells& c = PartitionCells(s, a.group, p);
      if ((config_.observed & kObserveProcessed) != 0) {
        c.done |= static_cast<std::uint16_t>(1u << c.position);
      }
      c.position += 1;
      c.committed = c.position;
      s.group_events[a.group * events + a.event].ready += 1;
      break;
    }
    case ActionKind::kConsumeRetry:
    case ActionKind::kConsume: {
      InstanceCells& inst = s.instances[FirstInstance(a.group) + a.instance];
      inst.event = a.event + 1;
      // A copy from the bag or from a retry topic carries no offset.
      if (partitions_ > 0 && a.kind == ActionKind::kConsume) {
        // The next record of the partition, at the owner's position.
        const int p = partition_of_[a.event];
        GroupPartitionCells& c = PartitionCells(s, a.group, p);
        inst.partition = static_cast<std::uint8_t>(p + 1);
        inst.offset = c.position;
        inst.epoch = c.epoch;
        c.position += 1;
        if (config_.groups[a.group].commit_before) {
          Commit(s, a.group, a.instance, inst.offset + 1);
          inst.fetched = 1;
          inst.phase = InstancePhase::kMidway;
          break;
        }
      } else {
        s.group_events[a.group * events + a.event].ready -= 1;
      }
      HandlerStep(s, a.group, a.instance, a.event, 0);
      inst.phase = StepCount(config_.groups[a.group]) == 1
                       ? InstancePhase::kHolding
                       : InstancePhase::kMidway;
      break;
    }
    case ActionKind::kStep: {
      InstanceCells& inst = s.instances[FirstInstance(a.group) + a.instance];
      if (inst.fetched) {
        // A record committed before processing: its handler's first step.
        inst.fetched = 0;
        HandlerStep(s, a.group, a.instance, inst.event - 1, 0);
        if (StepCount(config_.groups[a.group]) == 1) {
          inst.phase = InstancePhase::kHolding;
        }
        break;
      }
      const int step = inst.stage + 1;
      HandlerStep(s, a.group, a.instance, inst.event - 1, step);
      if (step + 1 < StepCount(config_.groups[a.group])) {
        inst.stage = static_cast<std::uint8_t>(step);  // still midway
        break;
      }
      inst.phase = InstancePhase::kHolding;
      inst.memo = 0;  // private data means nothing once done
      inst.stage = 0;
      break;
    }
    case ActionKind::kAcknowledge: {
      InstanceCells& inst = s.instances[FirstInstance(a.group) + a.instance];
      if (inst.partition != 0 && !config_.groups[a.group].commit_before) {
        Commit(s, a.group, a.instance, inst.offset + 1);
      }
      s.group_events[a.group * events + (inst.event - 1)].attempts = 0;
      inst = InstanceCells{};
      break;
    }
    case ActionKind::kAckLost:
    case ActionKind::kCrashConsumer: {
      InstanceCells& inst = s.instances[FirstInstance(a.group) + a.instance];
      if (inst.partition == 0) {
        // The bag's copy, or a record of a retry topic: delivered again.
        FailDelivery(s, a.group, inst.event - 1);
      }
      if (partitions_ > 0 && a.kind == ActionKind::kCrashConsumer) {
        // The restarted instance resumes each partition it owns from the
        // committed offset. A lost commit changes nothing on the broker.
        for (int p = 0; p < partitions_; ++p) {
          GroupPartitionCells& c = PartitionCells(s, a.group, p);
          if (c.owner == a.instance) c.position = c.committed;
        }
      }
      inst = InstanceCells{};
      if (a.kind == ActionKind::kAckLost) {
        Spend(s, &Budgets::lost_consumer_acks);
      } else {
        Spend(s, &Budgets::consumer_crashes);
      }
      break;
    }
    case ActionKind::kRedeliver: {
      const InstanceCells& inst =
          s.instances[FirstInstance(a.group) + a.instance];
      s.group_events[a.group * events + (inst.event - 1)].ready += 1;
      Spend(s, &Budgets::redeliveries);  // the instance goes on
      break;
    }
    case ActionKind::kTick:
      Tick(s);
      break;
    case ActionKind::kRetry:
    case ActionKind::kRedrive:
    case ActionKind::kDeadLetterExpire: {
      GroupEventCells& c = s.group_events[a.group * events + a.event];
      if (a.kind != ActionKind::kDeadLetterExpire) c.ready += 1;
      if (a.kind != ActionKind::kRetry) c.attempts = 0;
      c.parked = kNotParked;
      c.park_age = 0;
      break;
    }
    case ActionKind::kCleanup: {
      GroupEventCells& c = s.group_events[a.group * events + a.event];
      c.inbox = 0;
      c.inbox_age = 0;
      break;
    }
    case ActionKind::kConsumerOutage: {
      const int first = FirstInstance(a.group);
      for (int i = 0; i < config_.groups[a.group].instances; ++i) {
        InstanceCells& inst = s.instances[first + i];
        if (inst.phase == InstancePhase::kIdle) continue;
        s.group_events[a.group * events + (inst.event - 1)].ready += 1;
        inst = InstanceCells{};
      }
      s.down[a.group] = static_cast<std::uint16_t>(timing_.consumer_outage);
      Spend(s, &Budgets::consumer_outages);
      break;
    }
    case ActionKind::kDatabaseOutage:
      s.database_down = static_cast<std::uint16_t>(timing_.database_outage);
      Spend(s, &Budgets::database_outages);
      break;
    case ActionKind::kSourceCommit: {
      EventCells& row = s.events[a.event];
      row.pending = 0;
      row.clock = 0;  // the gap-waiting cursor's row age: the gap is filled
      if (StyleOf(config_).commit_log) {
        // The commit appends the row to the log, after every earlier
        // commit.
        row.log_position = static_cast<std::uint8_t>(
            std::count_if(s.events.begin(), s.events.end(),
                          [](const EventCells& c) { return c.pending == 0; }));
      }
      break;
    }
    case ActionKind::kCommitFails:
      // Rolled back: unpublished, unlocked (a producer's write waiting for
      // its retry stays).
      s.relays[a.relay] = RelayCells{.retry = s.relays[a.relay].retry};
      Spend(s, &Budgets::failed_commits);
      break;
    case ActionKind::kFlushOffset:
      s.log.offset = s.log.position;
      break;
    case ActionKind::kLoseWrite:
      s.events[a.event].offered -= 1;
      for (std::size_t g = 0; g < config_.groups.size(); ++g) {
        s.group_events[g * events + a.event].ready -= 1;
      }
      Spend(s, &Budgets::lost_broker_writes);
      break;
    case ActionKind::kRebalance: {
      // The new owner resumes from the committed offset; the old one is
      // not told, and finishes any record it holds.
      GroupPartitionCells& c = PartitionCells(s, a.group, a.partition);
      c.owner = a.instance;
      c.epoch += 1;
      c.position = c.committed;
      Spend(s, &Budgets::rebalances);
      break;
    }
  }
}

bool OutboxModel::WaitsForRetry(const State& s, int relay) const {
  const RelayCells& r = s.relays[static_cast<std::size_t>(relay)];
  if (r.retry == 0) return false;
  if (config_.max_in_flight == 1) return true;  // waits for every outcome
  // An idempotent producer keeps the partition's order: a later write to
  // the failed one's partition waits.
  return config_.idempotent_producer &&
         partition_of_[static_cast<std::size_t>(r.retry - 1)] ==
             partition_of_[static_cast<std::size_t>(r.event - 1)];
}

void OutboxModel::Commit(State& s, int group, int instance, int offset) const {
  const InstanceCells& inst = s.instances[FirstInstance(group) + instance];
  GroupPartitionCells& c = PartitionCells(s, group, inst.partition - 1);
  const bool current = c.owner == instance && c.epoch == inst.epoch;
  if (!current && config_.broker.commit_fencing) return;  // rejected
  c.committed = static_cast<std::uint8_t>(offset);
  if (!current && (config_.observed & kObserveStaleCommit) != 0) {
    c.stale_commit = 1;
  }
}

void OutboxModel::HandlerStep(State& s, int group, int instance, int event,
                              int step) const {
  const int key = key_of_[event];
  const bool key_order = (config_.observed & kObserveKeyOrder) != 0 && key >= 0;
  if (!key_order) {
    RunStrategyStep(s, group, instance, event, step);
  } else {
    // Did the step change any of the group's tables?
    const std::size_t events = config_.events.size();
    const std::size_t keys = keys_.size();
    const auto g = static_cast<std::size_t>(group);
    // The tables only: not the clocks of time (an inbox row's age).
    const State before = s;
    RunStrategyStep(s, group, instance, event, step);
    bool changed = s.user != before.user;
    for (std::size_t e = 0; e < events && !changed; ++e) {
      const GroupEventCells& x = s.group_events[g * events + e];
      const GroupEventCells& y = before.group_events[g * events + e];
      changed = x.effects != y.effects || x.inbox != y.inbox ||
                x.ledger != y.ledger || x.sent != y.sent;
    }
    for (std::size_t k = 0; k < keys && !changed; ++k) {
      const GroupKeyCells& x = s.group_keys[g * keys + k];
      const GroupKeyCells& y = before.group_keys[g * keys + k];
      changed = x.version != y.version || x.cache != y.cache;
    }
    if (changed) {
      s.group_keys[g * keys + static_cast<std::size_t>(key)].applied =
          static_cast<std::uint8_t>(key_rank_[static_cast<std::size_t>(event)]);
    }
  }
  // The record is processed once the handler's last step has run.
  InstanceCells& inst = s.instances[FirstInstance(group) + instance];
  if (inst.partition != 0 && (config_.observed & kObserveProcessed) != 0 &&
      step + 1 == StepCount(config_.groups[static_cast<std::size_t>(group)])) {
    PartitionCells(s, group, inst.partition - 1).done |=
        static_cast<std::uint16_t>(1u << inst.offset);
  }
}

void OutboxModel::Successors(const State& s,
                             std::vector<std::pair<Action, State>>& out) const {
  bool due = false;
  auto offer = [&](const Action& a) {
    if (Check(s, a) == Guard::kEnabled) {
      if (timing_.timed && !due) due = Due(s, a);
      out.emplace_back(a, s);
      Effect(out.back().second, a);
      if (abstract_) Abstract(s, out);
    }
  };
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&s);
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    const Gate& gate = gates_[i];
    if (!gate.first.Passes(bytes) || !gate.second.Passes(bytes)) continue;
    offer(candidates_[i]);
  }
  if (!timing_.timed) return;
  // tick: Check's own test of due actions would enumerate them again.
  if (!due && Waiting(s) && (!timing_.tracks_now || s.now < timing_.horizon)) {
    out.emplace_back(Action{ActionKind::kTick, 0, 0, 0, 0}, s);
    Tick(out.back().second);
  }
}

void OutboxModel::RenumberTokens(State& s) {
  for (std::size_t e = 0; e < s.events.size(); ++e) {
    EventCells& row = s.events[e];
    // The tokens of event e in use, sorted, no repeats; row.token is the
    // largest (every claim takes the next one).
    std::array<std::uint8_t, kMaxRelays + 2> used{};
    std::size_t n = 0;
    auto note = [&](std::uint8_t t) {
      if (t != 0) used[n++] = t;
    };
    note(row.token);
    note(row.completed_token);
    for (const RelayCells& r : s.relays) {
      if (r.event == e + 1) note(r.token);
    }
    std::sort(used.begin(), used.begin() + n);
    n = static_cast<std::size_t>(std::unique(used.begin(), used.begin() + n) -
                                 used.begin());
    auto rank = [&](std::uint8_t& t) {
      if (t == 0) return;
      t = static_cast<std::uint8_t>(
          std::lower_bound(used.begin(), used.begin() + n, t) - used.begin() +
          1);
    };
    rank(row.token);
    rank(row.completed_token);
    for (RelayCells& r : s.relays) {
      if (r.event == e + 1) rank(r.token);
    }
  }
}

void OutboxModel::Abstract(const State& before,
                           std::vector<std::pair<Action, State>>& out) const {
  constexpr std::uint8_t kCap = kCountCap;
  // The counts that fell from the cap: the real count was the cap or more,
  // so it may still be at least the cap. A broker copy count (offered, by
  // event) or a waiting copy count (ready, by group and event).
  struct Fell {
    bool ready;
    std::size_t index;
  };
  std::array<Fell, 1 + kMaxGroups> fell{};
  std::size_t fell_count = 0;
  {
    State& after = out.back().second;
    auto note_fall = [&](std::uint8_t was, std::uint8_t now, Fell where) {
      if (was == kCap && now == kCap - 1 && fell_count < fell.size()) {
        fell[fell_count++] = where;
      }
    };
    for (std::size_t e = 0; e < after.events.size(); ++e) {
      note_fall(before.events[e].offered, after.events[e].offered, {false, e});
    }
    for (std::size_t i = 0; i < after.group_events.size(); ++i) {
      note_fall(before.group_events[i].ready, after.group_events[i].ready,
                {true, i});
    }
    ToAbstract(after);
  }
  if (fell_count == 0) return;
  // Every choice of which fallen counts stay at the cap, but the one where
  // none does (already in `out`), in the order of the mask.
  const std::pair<Action, State> base = out.back();
  for (std::uint32_t mask = 1; mask < (1u << fell_count); ++mask) {
    out.push_back(base);
    State& t = out.back().second;
    for (std::size_t k = 0; k < fell_count; ++k) {
      if (((mask >> k) & 1) == 0) continue;
      if (fell[k].ready) {
        t.group_events[fell[k].index].ready = kCap;
      } else {
        t.events[fell[k].index].offered = kCap;
      }
    }
  }
}

void OutboxModel::CountFlows(const State& from, const Action& a,
                             const State& to, std::uint64_t& stays,
                             std::uint64_t& adds) const {
  std::array<std::uint8_t, kMaxEvents*(1 + kMaxGroups)> was, now;
  FlowCounts(from, was.data());
  FlowCounts(to, now.data());
  CountFlows(was.data(), a, now.data(), stays, adds);
}

Action OutboxModel::RenameAction(const Action& a, const Renaming& r) const {
  const ArgumentsTaken takes = ArgumentsOf(a.kind);
  Action b = a;
  if (takes.relay) b.relay = r.relay_to[a.relay];
  if (takes.event) b.event = r.event_to[a.event];
  if (takes.instance) {
    const int first = first_instance_[a.group];
    b.instance =
        static_cast<std::uint8_t>(r.instance_to[first + a.instance] - first);
  }
  return b;
}

// CountFlows' bits: event e's broker copies at bit e, and the waiting
// copies of (group g, event e) at bit 16 + g * events + e, modulo 64.
bool OutboxModel::FlowPairsDistinct() const {
  return config_.events.size() <= 16 &&
         16 + config_.groups.size() * config_.events.size() <= 64;
}

std::uint64_t OutboxModel::RenameFlowPairs(std::uint64_t mask,
                                           const Renaming& r) const {
  const std::size_t events = config_.events.size();
  std::uint64_t out = 0;
  for (std::size_t e = 0; e < events; ++e) {
    if (mask >> e & 1) out |= std::uint64_t{1} << r.event_to[e];
  }
  for (std::size_t g = 0; g < config_.groups.size(); ++g) {
    for (std::size_t e = 0; e < events; ++e) {
      const std::size_t bit = (16 + g * events + e) % 64;
      if (mask >> bit & 1) {
        out |= std::uint64_t{1} << ((16 + g * events + r.event_to[e]) % 64);
      }
    }
  }
  return out;
}

void OutboxModel::FlowCounts(const State& s, std::uint8_t* out) const {
  for (const EventCells& row : s.events) *out++ = row.offered;
  for (const GroupEventCells& c : s.group_events) *out++ = c.ready;
}

void OutboxModel::CountFlows(const std::uint8_t* from, const Action& a,
                             const std::uint8_t* to, std::uint64_t& stays,
                             std::uint64_t& adds) const {
  stays = adds = 0;
  if (!abstract_) return;
  const std::size_t events = config_.events.size();
  auto offered_bit = [&](std::size_t e) {
    return std::uint64_t{1} << (e % 64);
  };
  auto ready_bit = [&](std::size_t i) {
    return std::uint64_t{1} << ((16 + i) % 64);
  };
  // Kinds that can add a waiting copy, or a broker copy (send).
  bool adder = false;
  switch (a.kind) {
    case ActionKind::kSend:
    case ActionKind::kAckLost:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver:
    case ActionKind::kRetry:
    case ActionKind::kRedrive:
    case ActionKind::kConsumerOutage:
      adder = true;
      break;
    default:
      break;
  }
  const bool taker =
      a.kind == ActionKind::kConsume || a.kind == ActionKind::kLoseWrite;
  for (std::size_t e = 0; e < events; ++e) {
    const std::uint8_t was = from[e], now = to[e];
    if (now > was || (adder && was == kCountCap && now == kCountCap)) {
      adds |= offered_bit(e);
    }
    if (taker && a.kind == ActionKind::kLoseWrite && a.event == e &&
        was == kCountCap && now == kCountCap) {
      stays |= offered_bit(e);
    }
  }
  const std::size_t cells = events * config_.groups.size();
  for (std::size_t i = 0; i < cells; ++i) {
    const std::uint8_t was = from[events + i];
    const std::uint8_t now = to[events + i];
    if (now > was || (adder && was == kCountCap && now == kCountCap)) {
      adds |= ready_bit(i);
    }
    const bool taken =
        (a.kind == ActionKind::kConsume &&
         i == static_cast<std::size_t>(a.group) * events + a.event) ||
        (a.kind == ActionKind::kLoseWrite && i % events == a.event);
    if (taker && taken && was == kCountCap && now == kCountCap) {
      stays |= ready_bit(i);
    }
  }
}

void OutboxModel::ToAbstract(State& s) const {
  constexpr std::uint8_t kCap = kCountCap;
  for (EventCells& row : s.events) row.offered = std::min(row.offered, kCap);
  for (GroupEventCells& c : s.group_events) {
    c.ready = std::min(c.ready, kCap);
    c.effects = std::min(c.effects, kCap);
    c.sent = std::min(c.sent, kCap);
  }
  if (renumber_tokens_) RenumberTokens(s);
}

State OutboxModel::AbstractOf(const State& s) const {
  if (!abstract_) return s;
  State t = s;
  ToAbstract(t);
  return t;
}

std::string OutboxModel::AbstractionDescription() const {
  if (!abstract_) return "none";
  std::string text = fmt::format(
      "broker copies, waiting copies, effects and notifications counted up "
      "to {} (\"{} or more\"; a count of waiting copies that falls from "
      "there may stay there, which adds behaviours)",
      kCountCap, kCountCap);
  if (renumber_tokens_) {
    text += "; each event's fencing tokens renumbered 1, 2, ... in order";
  }
  return text;
}

bool OutboxModel::ReducedSuccessors(const State& s,
                                    std::vector<std::pair<Action, State>>& out,
                                    PartialOrderScratch& scratch) const {
  if (!partial_order_.applies()) {
    Successors(s, out);
    return false;
  }
  const std::vector<PartialOrder::Transition>& transitions =
      partial_order_.transitions();
  scratch.enabled.assign(partial_order_.Words(), 0);
  for (std::size_t t = 0; t < transitions.size(); ++t) {
    if (partial_order_.HeldMatches(s, transitions[t]) &&
        Check(s, transitions[t].action) == Guard::kEnabled) {
      scratch.enabled[t >> 6] |= std::uint64_t{1} << (t & 63);
    }
  }
  if (!partial_order_.Choose(s, scratch)) {
    Successors(s, out);
    return false;
  }
  for (std::size_t t = 0; t < transitions.size(); ++t) {
    if ((scratch.best[t >> 6] >> (t & 63)) & 1) {
      out.emplace_back(transitions[t].action, s);
      Effect(out.back().second, transitions[t].action);
    }
  }
  return true;
}

bool OutboxModel::BlockedByBound(const State& s) const {
  if (timing_.tracks_now && s.now >= timing_.horizon && Waiting(s)) {
    return true;  // time would go on but for the horizon
  }
  if (config_.claim_bound == 0) return false;
  for (std::uint8_t r = 0; r < config_.relays.size(); ++r) {
    for (std::uint8_t e = 0; e < config_.events.size(); ++e) {
      if (Check(s, Action{ActionKind::kClaim, r, e, 0, 0}) ==
          Guard::kClaimBound) {
        return true;
      }
    }
  }
  return false;
}

std::optional<std::string> OutboxModel::WhyDisabled(const State& s,
                                                    const Action& a) const {
  const Guard guard = Check(s, a);
  if (guard == Guard::kEnabled) return std::nullopt;
  auto relay_text = [&](int r) {
    return fmt::format("relay {} is {}", config_.relays[r],
                       RelayText(config_, s.relays[r]));
  };
  auto instance_text = [&]() {
    return fmt::format(
        "instance {} of group {} is {}", a.instance + 1,
        config_.groups[a.group].name,
        InstanceText(config_, config_.groups[a.group],
                     s.instances[FirstInstance(a.group) + a.instance]));
  };
  const std::string& event_name = config_.events[a.event].name;
  const std::string_view style = RelayStyleName(config_.relay_style);
  switch (guard) {
    case Guard::kEnabled:
      break;
    case Guard::kRelayNotIdle:
      return relay_text(a.relay) + ", not idle";
    case Guard::kAlreadyPublished:
      return fmt::format("event {} is already published", event_name);
    case Guard::kLeaseActive:
      return fmt::format("the lease of event {} is active (token {}, owner {})",
                         event_name, s.events[a.event].token,
                         config_.relays[s.events[a.event].owner - 1]);
    case Guard::kClaimBound:
      return fmt::format("event {} has token {}, the claim bound", event_name,
                         s.events[a.event].token);
    case Guard::kRelayNotClaimed:
      return relay_text(a.relay) + ", not claimed";
    case Guard::kRelayNotSent:
      return relay_text(a.relay) + ", not sent";
    case Guard::kRelayIdle:
      return relay_text(a.relay) + "; there is nothing to crash";
    case Guard::kNoPublishAckBudget:
      return std::string(
          "no lost publish acknowledgement is left in the budget");
    case Guard::kNoRelayCrashBudget:
      return std::string("no relay crash is left in the budget");
    case Guard::kLeaseNotActive:
      return fmt::format("the lease of event {} is {}, not active", event_name,
                         LeaseText(s.events[a.event].lease));
    case Guard::kLeaseHeld:
      if (timing_.timed && config_.time.lease) {
        return fmt::format(
            "the lease of event {} has run {} of {} and no premature expiry "
            "is left in the budget",
            event_name, FormatDuration(s.events[a.event].clock * timing_.unit),
            FormatDuration(*config_.time.lease));
      }
      return fmt::format(
          "the lease of event {} is held by a working relay and no premature "
          "expiry is left in the budget",
          event_name);
    case Guard::kInstanceNotIdle:
      return instance_text() + ", not idle";
    case Guard::kNoCopyReady:
      return fmt::format("no copy of {} is ready for group {}", event_name,
                         config_.groups[a.group].name);
    case Guard::kInstanceNotMidway:
      return instance_text() + ", not midway";
    case Guard::kInstanceNotHolding:
      return instance_text() + ", not holding";
    case Guard::kNoConsumerAckBudget:
      return std::string(
          "no lost consumer acknowledgement is left in the budget");
    case Guard::kNoConsumerCrashBudget:
      return std::string("no consumer crash is left in the budget");
    case Guard::kNoRedeliveryBudget:
      return std::string("no broker redelivery is left in the budget");
    case Guard::kDatabaseDown:
      return fmt::format("the outbox database is down for {} more unit(s)",
                         s.database_down);
    case Guard::kGroupDown:
      return fmt::format("group {} is down for {} more unit(s)",
                         config_.groups[a.group].name, s.down[a.group]);
    case Guard::kCopyParked:
      return fmt::format(
          "a copy of this event is already parked for group {} (one parked "
          "copy per group and event)",
          config_.groups[a.group].name);
    case Guard::kNotTimed:
      return std::string("the scenario sets no duration, so it has no clock");
    case Guard::kSomethingDue:
      return std::string(
          "an action is due now (actions that are not faults happen before "
          "time passes)");
    case Guard::kNothingWaits:
      return std::string("nothing waits for time to pass");
    case Guard::kHorizon:
      return fmt::format("the clock is at the horizon, {}",
                         FormatDuration(config_.time.horizon.value_or(0)));
    case Guard::kNotDelayed:
      return fmt::format("no copy of {} waits for a delayed redelivery to {}",
                         event_name, config_.groups[a.group].name);
    case Guard::kNotDeadLetter:
      return fmt::format("no copy of {} is in {}'s dead-letter queue",
                         event_name, config_.groups[a.group].name);
    case Guard::kNoRedrive:
      return fmt::format("group {} sets no dead_letter_redrive",
                         config_.groups[a.group].name);
    case Guard::kNoDeadLetterRetention:
      return fmt::format("group {} sets no dead_letter_retention",
                         config_.groups[a.group].name);
    case Guard::kNoRetention:
      return fmt::format("group {} sets no inbox_retention",
                         config_.groups[a.group].name);
    case Guard::kNoInboxRow:
      return fmt::format("group {} has no inbox row for {}",
                         config_.groups[a.group].name, event_name);
    case Guard::kDelayRunning:
    case Guard::kRedriveRunning:
    case Guard::kDeadLetterRetentionRunning:
    case Guard::kRetentionRunning: {
      const GroupEventCells& c =
          s.group_events[a.group * config_.events.size() + a.event];
      const int age =
          guard == Guard::kRetentionRunning ? c.inbox_age : c.park_age;
      return fmt::format(
          "its time is not up: {} of {} waited",
          FormatDuration(age * timing_.unit),
          guard == Guard::kDelayRunning
              ? FormatDuration(RetryDelay(a.group, c.attempts) * timing_.unit)
          : guard == Guard::kRedriveRunning
              ? FormatDuration(*config_.groups[a.group].dead_letter_redrive)
          : guard == Guard::kRetentionRunning
              ? FormatDuration(*config_.groups[a.group].inbox_retention)
              : FormatDuration(*config_.groups[a.group].dead_letter_retention));
    }
    case Guard::kGroupAlreadyDown:
      return fmt::format("group {} is already down",
                         config_.groups[a.group].name);
    case Guard::kNoConsumerOutageBudget:
      return std::string("no consumer outage is left in the budget");
    case Guard::kDatabaseAlreadyDown:
      return std::string("the outbox database is already down");
    case Guard::kNoDatabaseOutageBudget:
      return std::string("no database outage is left in the budget");
    case Guard::kSourcePending:
      return fmt::format(
          "the source transaction of event {} has not committed, so its row "
          "is not visible",
          event_name);
    case Guard::kRowLocked:
      return fmt::format("the row of event {} is locked by another relay",
                         event_name);
    case Guard::kNotNextRow: {
      const int next = NextRow(s);
      const std::string next_text =
          next < 0 ? std::string("no row is")
                   : fmt::format("{} is", config_.events[next].name);
      if (config_.relay_style == RelayStyle::kSequenceCursor) {
        std::string gap;
        for (int e = s.log.offset; next < 0 && config_.gaps_wait &&
                                   e < static_cast<int>(config_.events.size());
             ++e) {
          const EventCells& row = s.events[e];
          if (row.pending == 0 ||
              (timing_.gap_timeout > 0 && row.clock >= timing_.gap_timeout)) {
            continue;
          }
          gap =
              fmt::format(": the cursor waits at the gap of {}, still pending",
                          config_.events[e].name);
          if (timing_.gap_timeout > 0) {
            gap += fmt::format(" ({} old; given up at {})",
                               FormatDuration(row.clock * timing_.unit),
                               FormatDuration(*config_.gap_timeout));
          }
          break;
        }
        return fmt::format(
            "event {} is not the next row above the cursor (last_seen {}); {} "
            "next{}",
            event_name, s.log.offset, next_text, gap);
      }
      return fmt::format(
          "event {} is not the next entry of the commit log (read up to {}); "
          "{} next",
          event_name, s.log.position, next_text);
    }
    case Guard::kNotPending:
      return fmt::format("the source transaction of event {} has committed",
                         event_name);
    case Guard::kNoFailedCommitBudget:
      return std::string("no failed commit is left in the budget");
    case Guard::kNoOffsetToFlush:
      return fmt::format("the flushed offset is already {}, the read position",
                         s.log.offset);
    case Guard::kNotCdc:
      return fmt::format(
          "relay.style is '{}'; only cdc_offset flushes an offset", style);
    case Guard::kNoLostWriteBudget:
      return std::string("no lost broker write is left in the budget");
    case Guard::kNoUndeliveredCopy:
      return fmt::format(
          "the broker holds no copy of {} that every group still waits for",
          event_name);
    case Guard::kPassRan:
      return fmt::format("the delivery pass of event {}'s context has run",
                         event_name);
    case Guard::kRowTooYoung:
      return fmt::format(
          "the row of event {} is {} old; its dispatch has begun, and the "
          "sweeper sends it again only from relay.min_age {} on",
          event_name, FormatDuration(s.events[a.event].clock * timing_.unit),
          FormatDuration(*config_.min_age));
    case Guard::kNotAssigned: {
      const int p = partition_of_[a.event];
      return fmt::format(
          "event {} is in partition p{}, which group {} has assigned to "
          "instance {}",
          event_name, p + 1, config_.groups[a.group].name,
          s.partitions[static_cast<std::size_t>(a.group * partitions_ + p)]
                  .owner +
              1);
    }
    case Guard::kNoRecordToRead: {
      const int p = partition_of_[a.event];
      return fmt::format(
          "group {} has read every record of partition p{} (position {})",
          config_.groups[a.group].name, p + 1,
          s.partitions[static_cast<std::size_t>(a.group * partitions_ + p)]
              .position);
    }
    case Guard::kNotNextRecord: {
      const int p = partition_of_[a.event];
      const int at =
          s.partitions[static_cast<std::size_t>(a.group * partitions_ + p)]
              .position;
      return fmt::format(
          "the record at group {}'s position {} of partition p{} is {}, not {}",
          config_.groups[a.group].name, at, p + 1,
          config_.events[s.records[p * kMaxRecords + at] - 1].name, event_name);
    }
    case Guard::kCommittedBefore:
      return fmt::format(
          "group {} commits before processing, so there is no commit left "
          "to lose",
          config_.groups[a.group].name);
    case Guard::kNoVisibilityTimeout:
      return std::string(
          "a partitioned broker has no visibility timeout (a slow handler "
          "shows up as a rebalance)");
    case Guard::kWaitingForRetry: {
      const RelayCells& r = s.relays[a.relay];
      return fmt::format(
          "relay {}'s producer waits for the retry of its write of {}{}",
          config_.relays[a.relay], config_.events[r.retry - 1].name,
          config_.max_in_flight == 1
              ? " (max_in_flight = 1)"
              : " (an idempotent producer keeps a partition's order)");
    }
    case Guard::kNoSendFailureBudget:
      return std::string("no transient send failure is left in the budget");
    case Guard::kNoRetryPending:
      return fmt::format("relay {}'s producer has no failed write to retry",
                         config_.relays[a.relay]);
    case Guard::kNoHandlerFailureBudget:
      return std::string("no handler failure is left in the budget");
    case Guard::kNoRetryTopic:
      return fmt::format("group {} retries failed records in place",
                         config_.groups[a.group].name);
    case Guard::kNotInRetryTopic:
      return fmt::format("group {}'s retry topic holds no record of {}",
                         config_.groups[a.group].name, event_name);
    case Guard::kAlreadyAssigned:
      return fmt::format("partition p{} of group {} is already instance {}'s",
                         a.partition + 1, config_.groups[a.group].name,
                         a.instance + 1);
    case Guard::kNoRebalanceBudget:
      return std::string("no rebalance is left in the budget");
  }
  return std::nullopt;
}

namespace {

constexpr std::string_view kActionClasses[] = {
    "claim", "send", "send_ack_lost", "complete_published", "complete_rejected",
    "expire_orphaned", "expire_premature", "crash_relay", "consume", "step",
    "acknowledge", "ack_lost", "crash_consumer", "redeliver",
    "send_deduplicated", "tick", "retry", "redrive", "dead_letter_expire",
    "cleanup", "consumer_outage", "database_outage",
    // Relay styles, message identity, source commits and lost writes.
    "source_commit", "commit_fails", "flush_offset", "lose_write",
    // The partitioned broker.
    "rebalance", "send_fails", "retry_send", "consume_fails", "consume_retry"};

}  // namespace

std::vector<std::string> OutboxModel::ActionClassNames() {
  return {std::begin(kActionClasses), std::end(kActionClasses)};
}

std::size_t OutboxModel::ClassByStates(const State& from, const Action& a,
                                       const State& to) const {
  switch (a.kind) {
    case ActionKind::kSend: {
      const int e = from.relays[a.relay].event - 1;
      // A saturated count (section 14) does not move on a send either.
      const bool dropped = from.events[e].offered == to.events[e].offered &&
                           !(abstract_ && from.events[e].offered == kCountCap);
      return dropped ? 14 : 1;
    }
    case ActionKind::kComplete: {
      // The relay styles' styles have no fencing: their completion always
      // counts as publishing (a re-acknowledged CDC record included).
      if (!StyleOf(config_).lease_and_token) return 3;
      const int e = from.relays[a.relay].event - 1;
      return from.events[e].published == to.events[e].published ? 4 : 3;
    }
    case ActionKind::kExpire:
      return Premature(from, a.event) ? 6 : 5;
    default:
      return kClassOfKind[static_cast<std::size_t>(a.kind)];
  }
}

bool OutboxModel::ClassPossible(std::size_t c) const {
  auto any_group = [&](auto pred) {
    return timing_.timed &&
           std::any_of(timing_.groups.begin(), timing_.groups.end(), pred);
  };
  switch (c) {
    case 14:
      return config_.broker.dedup != Dedup::kNone;
    case 15:
      return timing_.timed;
    case 16:
      return any_group([](const GroupTiming& g) { return !g.delays.empty(); });
    case 17:
      return any_group([](const GroupTiming& g) { return g.redrive > 0; });
    case 18:
      return any_group([](const GroupTiming& g) { return g.dead_expiry > 0; });
    case 19:
      return any_group([](const GroupTiming& g) { return g.has_retention; });
    case 20:
      return config_.budgets.consumer_outages != 0;
    case 21:
      return config_.budgets.database_outages != 0;
    case 22:  // source_commit
      return config_.commits_during_run;
    case 23:  // commit_fails
    case 24:  // flush_offset
      return StyleOf(config_).action_class == kActionClasses[c];
    case 25:  // lose_write
      return config_.budgets.lost_broker_writes != 0;
    case 13:  // redeliver: no visibility timeout on a partitioned broker
      return partitions_ == 0;
    case 26:  // rebalance
      return config_.budgets.rebalances != 0;
    case 27:  // send_fails
    case 28:  // retry_send
      return config_.budgets.send_failures != 0;
    case 29:  // consume_fails
      return config_.budgets.handler_failures != 0;
    case 30:  // consume_retry
      return config_.budgets.handler_failures != 0 &&
             std::any_of(config_.groups.begin(), config_.groups.end(),
                         [](const Group& g) { return g.retry_topic; });
    default:
      return true;
  }
}

std::vector<std::size_t> OutboxModel::ClassesNamed(std::string_view name) {
  if (name == "complete") return {3, 4};
  if (name == "expire") return {5, 6};
  for (std::size_t i = 0; i < std::size(kActionClasses); ++i) {
    if (kActionClasses[i] == name) return {i};
  }
  return {};
}

Result<State> OutboxModel::Apply(const State& s, const Action& a) const {
  if (std::optional<std::string> why = WhyDisabled(s, a)) {
    return Status::Error(*why);
  }
  State next = s;
  Effect(next, a);
  return next;
}

}  // namespace oc
