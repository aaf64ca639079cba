#include "model/partial_order.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace oc {
namespace {

bool Split(ActionKind k) {
  switch (k) {
    case ActionKind::kSend:
    case ActionKind::kSendAckLost:
    case ActionKind::kComplete:
    case ActionKind::kCrashRelay:
    case ActionKind::kStep:
    case ActionKind::kAcknowledge:
    case ActionKind::kAckLost:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver:
      return true;
    default:
      return false;
  }
}

bool OnInstance(ActionKind k) {
  switch (k) {
    case ActionKind::kConsume:
    case ActionKind::kStep:
    case ActionKind::kAcknowledge:
    case ActionKind::kAckLost:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver:
      return true;
    default:
      return false;
  }
}

// A set of cells, as bits.
class CellSet {
 public:
  explicit CellSet(std::size_t cells) : words_((cells + 63) / 64) {}
  void Add(std::size_t c) { words_[c >> 6] |= std::uint64_t{1} << (c & 63); }
  bool Meets(const CellSet& o) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      if (words_[w] & o.words_[w]) return true;
    }
    return false;
  }

 private:
  std::vector<std::uint64_t> words_;
};

// The tables of a group's cells for one event, in the order of the
// kReads* bits after kReadsReady.
enum Field { kEffects, kInbox, kLedger, kSent, kFields };
static_assert(kReadsEffects == 2u << kEffects && kReadsInbox == 2u << kInbox &&
              kReadsLedger == 2u << kLedger && kReadsSent == 2u << kSent);

// What one step of a strategy reads and writes of the group's cells for
// the event: fields and whether it touches the key cells and the declared
// tables. Writes are reads too (counters are incremented).
struct StepFootprint {
  std::uint8_t reads = 0, writes = 0;  // bit f: Field f
  bool key_reads = false, key_writes = false;
  bool user = false;
};

StepFootprint FootprintOf(const Group& g, int step) {
  StepFootprint f;
  auto r = [&](Field x) { f.reads |= std::uint8_t(1u << x); };
  auto w = [&](Field x) {
    f.reads |= std::uint8_t(1u << x);
    f.writes |= std::uint8_t(1u << x);
  };
  switch (g.strategy) {
    case Strategy::kCreditNaive:
      w(kEffects);
      break;
    case Strategy::kCreditInbox:
      w(kInbox);
      w(kEffects);
      break;
    case Strategy::kCreditCheckThenAct:
      if (step == 0) {
        r(kInbox);
      } else {
        w(kEffects);
        w(kInbox);
      }
      break;
    case Strategy::kCreditEffectThenInbox:
      if (step == 0) {
        r(kInbox);
        w(kEffects);
      } else {
        w(kInbox);
      }
      break;
    case Strategy::kProjectionLww:
    case Strategy::kProjectionMonotonic:
    case Strategy::kCacheInvalidate:
      f.key_writes = f.key_reads = true;
      break;
    case Strategy::kNotificationLedgerThenSend:
      if (step == 0) {
        w(kLedger);
      } else {
        w(kSent);
      }
      break;
    case Strategy::kNotificationSendThenLedger:
      if (step == 0) {
        r(kLedger);
        w(kSent);
      } else {
        w(kLedger);
      }
      break;
    case Strategy::kDeclared:
      // Whatever its statements say: every table of the event, its key,
      // its declared cells.
      for (int x = 0; x < kFields; ++x) w(static_cast<Field>(x));
      f.key_writes = f.key_reads = true;
      f.user = true;
      break;
  }
  return f;
}

// False when no state enables both: they act on the same relay or
// instance, one while it is idle and the other while it holds an event, or
// while it holds different events, or in phases that exclude each other;
// or one claims e, which needs e's lease inactive, and the other expires
// it, which needs it active. Such a pair never meets to interfere.
bool MayBeEnabledTogether(const PartialOrder::Transition& t,
                          const PartialOrder::Transition& u) {
  const Action& a = t.action;
  const Action& b = u.action;
  auto claim_expire = [](const Action& x, const Action& y) {
    return x.kind == ActionKind::kClaim && y.kind == ActionKind::kExpire &&
           x.event == y.event;
  };
  if (claim_expire(a, b) || claim_expire(b, a)) return false;
  const bool relays = !OnInstance(a.kind) && !OnInstance(b.kind) &&
                      a.kind != ActionKind::kExpire &&
                      b.kind != ActionKind::kExpire && a.relay == b.relay;
  const bool instances = OnInstance(a.kind) && OnInstance(b.kind) &&
                         a.group == b.group && a.instance == b.instance;
  if (!relays && !instances) return true;
  // What the relay or instance must be doing: 0 idle, 1 claimed or
  // midway, 2 sent or holding, 3 either of 1 and 2.
  auto needs = [](ActionKind k) {
    switch (k) {
      case ActionKind::kClaim:
      case ActionKind::kConsume:
        return 0;
      case ActionKind::kSend:
      case ActionKind::kSendAckLost:
      case ActionKind::kStep:
      case ActionKind::kCrashConsumer:
      case ActionKind::kRedeliver:
        return 1;
      case ActionKind::kComplete:
      case ActionKind::kAcknowledge:
      case ActionKind::kAckLost:
        return 2;
      default:  // crash_relay: claimed or sent
        return 3;
    }
  };
  const int x = needs(a.kind), y = needs(b.kind);
  if ((x == 0) != (y == 0)) return false;
  if (x == 0) return true;  // both idle
  if (t.held_event != u.held_event) return false;
  return x == 3 || y == 3 || x == y;
}

}  // namespace

PartialOrder::PartialOrder(const Config& config,
                           const PartialOrderLayout& layout)
    : layout_(layout) {
  relays_ = static_cast<int>(config.relays.size());
  events_ = static_cast<int>(config.events.size());
  for (const Group& g : config.groups) instances_.push_back(g.instances);
  lease_ = config.lease;
  claim_bound_ = config.claim_bound;
  if (layout.timed) {
    description_ = "off: the scenario is timed";
    return;
  }
  if (!layout.seed_pipeline) {
    description_ =
        "off: the scenario uses a relay style or feature beyond "
        "the seed pipeline";
    return;
  }
  for (const Action& a : layout.candidates) {
    if (Split(a.kind)) {
      for (int e = 0; e < events_; ++e) transitions_.push_back({a, e});
    } else {
      transitions_.push_back({a, -1});
    }
  }
  if (transitions_.size() > static_cast<std::size_t>(kMaxTransitions)) {
    description_ = fmt::format(
        "off: {} transitions, more than the {} it "
        "analyses",
        transitions_.size(), kMaxTransitions);
    transitions_.clear();
    return;
  }
  const std::size_t n = transitions_.size();
  words_ = (n + 63) / 64;
  index_.assign(static_cast<std::size_t>(kActionKindCount) * kUnits *
                    static_cast<std::size_t>(events_),
                kNone);
  for (std::size_t t = 0; t < n; ++t) {
    const Action& a = transitions_[t].action;
    const int unit = OnInstance(a.kind)
                         ? layout_.first_instance[a.group] + a.instance
                         : a.relay;
    const int e = Split(a.kind) ? transitions_[t].held_event : a.event;
    index_[IndexSlot(a.kind, unit, e)] = static_cast<std::uint32_t>(t);
  }

  // Cells.
  const int groups = static_cast<int>(config.groups.size());
  const int instances =
      layout.first_instance.empty()
          ? 0
          : layout.first_instance.back() + config.groups.back().instances;
  const std::size_t E = static_cast<std::size_t>(events_);
  // A relay's hold of e is two cells: whether it holds e and with which
  // token (what a lease expiry asks), and its phase (claimed or sent).
  const std::size_t held = 0;                             // [r][e]
  const std::size_t phase = held + relays_ * E;           // [r][e]
  const std::size_t row = phase + relays_ * E;            // [e]
  const std::size_t offered = row + E;                    // [e]
  const std::size_t ready = offered + E;                  // [g][e]
  const std::size_t field = ready + groups * E;           // [g][e][f]
  const std::size_t key = field + groups * E * kFields;   // [g][k]
  const std::size_t user = key + groups * layout.keys;    // [c]
  const std::size_t instance = user + layout.user_cells;  // [i][e]
  const std::size_t budget = instance + instances * E;    // [b]
  const std::size_t cells = budget + 6;
  enum { kX, kC, kP, kA, kQ, kV };

  // Counters only ever added to (a group's copies ready, the broker's
  // copies accepted) are in `adds` of the transitions that add to them, and
  // in `takes` of those that take one when there is one (consume): adds
  // commute with adds and takes, and never disable anything; two takes
  // of the last copy do not commute.
  std::vector<CellSet> reads(n, CellSet(cells)), writes(n, CellSet(cells));
  std::vector<CellSet> takes(n, CellSet(cells));
  CellSet visible_cells(cells);
  const StateReads everything{
      true, true, std::vector<std::uint8_t>(config.groups.size(), 0xff)};
  const StateReads& seen = config.checks_state.value_or(everything);
  for (int e = 0; e < events_; ++e) {
    if (seen.rows) visible_cells.Add(row + e);
    if (seen.offered) visible_cells.Add(offered + e);
    for (int g = 0; g < groups; ++g) {
      const std::uint8_t bits = static_cast<std::size_t>(g) < seen.groups.size()
                                    ? seen.groups[g]
                                    : 0xff;
      if (bits & kReadsReady) visible_cells.Add(ready + g * E + e);
      for (int f = 0; f < kFields; ++f) {
        if (bits & (2u << f))
          visible_cells.Add(field + (g * E + e) * kFields + f);
      }
      if ((bits & kReadsKeys) && layout.key_of[e] >= 0) {
        visible_cells.Add(key + g * layout.keys + layout.key_of[e]);
      }
      if (bits & kReadsUser) {
        for (std::uint16_t c : layout.user_slots[g * E + e])
          visible_cells.Add(user + c);
      }
    }
  }

  for (std::size_t t = 0; t < n; ++t) {
    const Action& a = transitions_[t].action;
    CellSet& r = reads[t];
    CellSet& w = writes[t];
    auto rw = [&](std::size_t c) {
      r.Add(c);
      w.Add(c);
    };
    const std::size_t e =
        Split(a.kind) ? static_cast<std::size_t>(transitions_[t].held_event)
                      : a.event;
    const std::size_t i =
        OnInstance(a.kind) ? static_cast<std::size_t>(
                                 layout_.first_instance[a.group] + a.instance)
                           : 0;
    auto strategy = [&](int from, int to) {
      const Group& g = config.groups[a.group];
      for (int step = from; step < to; ++step) {
        const StepFootprint f = FootprintOf(g, step);
        for (int x = 0; x < kFields; ++x) {
          const std::size_t c = field + (a.group * E + e) * kFields + x;
          if (f.reads & (1u << x)) r.Add(c);
          if (f.writes & (1u << x)) w.Add(c);
        }
        if (layout.key_of[e] >= 0) {
          const std::size_t c = key + a.group * layout.keys + layout.key_of[e];
          if (f.key_reads) r.Add(c);
          if (f.key_writes) w.Add(c);
        }
        if (f.user) {
          for (std::uint16_t c : layout.user_slots[a.group * E + e]) {
            rw(user + c);
          }
        }
      }
    };
    switch (a.kind) {
      case ActionKind::kClaim:
        for (std::size_t x = 0; x < E; ++x) r.Add(held + a.relay * E + x);
        rw(held + a.relay * E + e);
        rw(phase + a.relay * E + e);
        rw(row + e);
        break;
      case ActionKind::kSend:
      case ActionKind::kSendAckLost:
        // Adds a copy (unless deduplicated: the relay's own cells say).
        r.Add(held + a.relay * E + e);
        rw(phase + a.relay * E + e);
        if (a.kind == ActionKind::kSendAckLost) rw(budget + kP);
        break;
      case ActionKind::kComplete:
      case ActionKind::kCrashRelay:
        rw(held + a.relay * E + e);
        rw(phase + a.relay * E + e);
        if (a.kind == ActionKind::kComplete) rw(row + e);
        if (a.kind == ActionKind::kCrashRelay) rw(budget + kC);
        break;
      case ActionKind::kExpire:
        rw(row + e);
        rw(budget + kX);
        for (int x = 0; x < relays_; ++x) r.Add(held + x * E + e);
        break;
      case ActionKind::kConsume:
        for (std::size_t x = 0; x < E; ++x) r.Add(instance + i * E + x);
        rw(instance + i * E + e);
        takes[t].Add(ready + a.group * E + e);
        strategy(0, 1);
        break;
      case ActionKind::kStep:
        rw(instance + i * E + e);
        strategy(1, StepCount(config.groups[a.group]));
        break;
      case ActionKind::kAcknowledge:
        rw(instance + i * E + e);
        break;
      case ActionKind::kAckLost:
      case ActionKind::kCrashConsumer:
      case ActionKind::kRedeliver:
        rw(instance + i * E + e);  // and adds a copy
        rw(budget + (a.kind == ActionKind::kAckLost         ? kA
                     : a.kind == ActionKind::kCrashConsumer ? kQ
                                                            : kV));
        break;
      default:
        // Not in an untimed seed pipeline.
        description_ = fmt::format("off: action kind {} is not analysed",
                                   ActionKindName(a.kind));
        transitions_.clear();
        return;
    }
  }

  interferes_.assign(n * words_, 0);
  visible_.assign(words_, 0);
  std::size_t visible = 0;
  for (std::size_t t = 0; t < n; ++t) {
    if (writes[t].Meets(visible_cells)) {
      Add(visible_, t);
      ++visible;
    }
    for (std::size_t u = 0; u < n; ++u) {
      if (!MayBeEnabledTogether(transitions_[t], transitions_[u])) continue;
      if (writes[t].Meets(reads[u]) || writes[t].Meets(writes[u]) ||
          writes[u].Meets(reads[t]) || takes[t].Meets(takes[u])) {
        interferes_[t * words_ + (u >> 6)] |= std::uint64_t{1} << (u & 63);
      }
    }
  }
  applies_ = true;
  description_ = fmt::format(
      "stubborn sets over {} transitions, {} of them visible to the checked "
      "safety and transition properties",
      n, visible);
}

bool PartialOrder::HeldMatches(const State& s, const Transition& t) const {
  if (t.held_event < 0) return true;
  const Action& a = t.action;
  if (OnInstance(a.kind)) {
    const InstanceCells& inst = s.instances[static_cast<std::size_t>(
        layout_.first_instance[a.group] + a.instance)];
    return inst.event == t.held_event + 1;
  }
  return s.relays[a.relay].event == t.held_event + 1;
}

void PartialOrder::AddRelayOp(ActionKind k, int r, int e,
                              std::vector<std::uint64_t>& out) const {
  const std::uint32_t t = index_[IndexSlot(k, r, e)];
  if (t != kNone) Add(out, t);
}

void PartialOrder::AddInstanceOp(ActionKind k, int i, int e,
                                 std::vector<std::uint64_t>& out) const {
  const std::uint32_t t = index_[IndexSlot(k, i, e)];
  if (t != kNone) Add(out, t);
}

void PartialOrder::AddEnablers(const State& s, std::size_t t,
                               std::vector<std::uint64_t>& out) const {
  const Transition& tr = transitions_[t];
  const Action& a = tr.action;
  const int e = tr.held_event >= 0 ? tr.held_event : a.event;
  const Budgets& b = s.budgets;
  switch (a.kind) {
    case ActionKind::kClaim: {
      const EventCells& row = s.events[e];
      // Published and tokens past the bound stay so: nothing enables it.
      if (row.published) return;
      if (claim_bound_ > 0 && row.token >= claim_bound_) return;
      if (lease_ && row.lease == Lease::kActive) {
        AddRelayOp(ActionKind::kExpire, 0, e, out);
        return;
      }
      // The relay is busy with the event it holds until it completes or
      // crashes.
      const RelayCells& relay = s.relays[a.relay];
      if (relay.phase == RelayPhase::kIdle) break;  // not expected
      const int h = relay.event - 1;
      AddRelayOp(ActionKind::kComplete, a.relay, h, out);
      AddRelayOp(ActionKind::kCrashRelay, a.relay, h, out);
      return;
    }
    case ActionKind::kSend:
    case ActionKind::kSendAckLost:
    case ActionKind::kCrashRelay: {
      if (a.kind == ActionKind::kSendAckLost && b.lost_publish_acks == 0)
        return;
      if (a.kind == ActionKind::kCrashRelay && b.relay_crashes == 0) return;
      // Only claim(r, e) makes the relay hold e (claimed).
      AddRelayOp(ActionKind::kClaim, a.relay, e, out);
      return;
    }
    case ActionKind::kComplete:
      // Only send(r, e) makes the relay hold e sent.
      AddRelayOp(ActionKind::kSend, a.relay, e, out);
      return;
    case ActionKind::kExpire: {
      const EventCells& row = s.events[e];
      if (row.published) return;
      const bool active = row.lease == Lease::kActive;
      for (int r = 0; r < relays_; ++r) {
        AddRelayOp(ActionKind::kClaim, r, e, out);
        if (active) {
          // Premature with no budget left: it waits for the holder to
          // let go (or a new claim to make its token stale).
          AddRelayOp(ActionKind::kComplete, r, e, out);
          AddRelayOp(ActionKind::kCrashRelay, r, e, out);
        }
      }
      return;
    }
    case ActionKind::kConsume: {
      const int i = layout_.first_instance[a.group] + a.instance;
      const InstanceCells& inst = s.instances[static_cast<std::size_t>(i)];
      if (inst.phase != InstancePhase::kIdle) {
        const int h = inst.event - 1;
        AddInstanceOp(ActionKind::kAcknowledge, i, h, out);
        AddInstanceOp(ActionKind::kAckLost, i, h, out);
        AddInstanceOp(ActionKind::kCrashConsumer, i, h, out);
        return;
      }
      if (s.group_events[a.group * static_cast<std::size_t>(events_) + e]
              .ready > 0) {
        break;  // not expected
      }
      // No copy ready for the group: a send, or a failed delivery or a
      // redelivery of one of its instances, adds one.
      for (int r = 0; r < relays_; ++r) {
        AddRelayOp(ActionKind::kSend, r, e, out);
        AddRelayOp(ActionKind::kSendAckLost, r, e, out);
      }
      const int first = layout_.first_instance[a.group];
      for (int j = first; j < first + instances_[a.group]; ++j) {
        AddInstanceOp(ActionKind::kAckLost, j, e, out);
        AddInstanceOp(ActionKind::kCrashConsumer, j, e, out);
        AddInstanceOp(ActionKind::kRedeliver, j, e, out);
      }
      return;
    }
    case ActionKind::kStep:
    case ActionKind::kCrashConsumer:
    case ActionKind::kRedeliver:
    case ActionKind::kAcknowledge:
    case ActionKind::kAckLost: {
      if (a.kind == ActionKind::kCrashConsumer && b.consumer_crashes == 0)
        return;
      if (a.kind == ActionKind::kRedeliver && b.redeliveries == 0) return;
      if (a.kind == ActionKind::kAckLost && b.lost_consumer_acks == 0) return;
      const int i = layout_.first_instance[a.group] + a.instance;
      // Midway with e: only consume(g, i, e) starts it. Holding e: consume
      // (one step) or the last step.
      AddInstanceOp(ActionKind::kConsume, i, e, out);
      if (a.kind == ActionKind::kAcknowledge ||
          a.kind == ActionKind::kAckLost) {
        AddInstanceOp(ActionKind::kStep, i, e, out);
      }
      return;
    }
    default:
      break;
  }
  // A reason not analysed (the constructor refuses configurations that
  // have one): every transition is a safe enabling set.
  for (std::size_t x = 0; x < transitions_.size(); ++x) Add(out, x);
}

bool PartialOrder::Choose(const State& s, Scratch& scratch) const {
  const std::size_t n = transitions_.size();
  const std::vector<std::uint64_t>& enabled = scratch.enabled;
  std::size_t total = 0;
  for (std::size_t w = 0; w < words_; ++w) total += std::popcount(enabled[w]);
  if (total <= 1) return false;
  std::size_t best = total;
  scratch.set.assign(words_, 0);
  scratch.fresh.assign(words_, 0);
  for (std::size_t seed = 0; seed < n && best > 1; ++seed) {
    if (!((enabled[seed >> 6] >> (seed & 63)) & 1)) continue;
    std::vector<std::uint64_t>& set = scratch.set;
    std::fill(set.begin(), set.end(), 0);
    std::vector<std::uint32_t>& work = scratch.work;
    work.clear();
    std::size_t count = 0;
    bool visible_added = false;
    // Adds `bits` to the set; false once the set has `best` enabled
    // transitions or more (no better than what we have).
    auto merge = [&](const std::uint64_t* bits) {
      for (std::size_t w = 0; w < words_; ++w) {
        std::uint64_t added = bits[w] & ~set[w];
        if (!added) continue;
        set[w] |= added;
        count += std::popcount(added & enabled[w]);
        while (added) {
          work.push_back(static_cast<std::uint32_t>(
              w * 64 + static_cast<std::size_t>(std::countr_zero(added))));
          added &= added - 1;
        }
      }
      return count < best;
    };
    std::fill(scratch.fresh.begin(), scratch.fresh.end(), 0);
    Add(scratch.fresh, seed);
    bool better = merge(scratch.fresh.data());
    while (better && !work.empty()) {
      const std::uint32_t t = work.back();
      work.pop_back();
      if ((enabled[t >> 6] >> (t & 63)) & 1) {
        better = merge(&interferes_[t * words_]);
        if (better && !visible_added && ((visible_[t >> 6] >> (t & 63)) & 1)) {
          visible_added = true;
          better = merge(visible_.data());
        }
      } else {
        std::fill(scratch.fresh.begin(), scratch.fresh.end(), 0);
        AddEnablers(s, t, scratch.fresh);
        better = merge(scratch.fresh.data());
      }
    }
    if (!better) continue;
    best = count;
    scratch.best.resize(words_);
    for (std::size_t w = 0; w < words_; ++w) {
      scratch.best[w] = set[w] & enabled[w];
    }
  }
  return best < total;
}

}  // namespace oc
