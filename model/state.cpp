#include "model/state.h"

#include "model/fault_budgets.h"

namespace oc {
namespace {

// A fixed word-at-a-time hash: each value is mixed in as a 64-bit word, and
// the result goes through a final avalanche (the finalizer of splitmix64).
// The constants are arbitrary odd numbers; changing any of them changes every
// fingerprint, which the golden-value test in tests/model catches.
class Hasher {
 public:
  void Add(std::uint64_t v) {
    h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2);
    h_ *= 0xff51afd7ed558ccdULL;
  }
  std::uint64_t Finish() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t h_ = 0x6a09e667f3bcc908ULL;
};

}  // namespace

std::uint64_t Fingerprint(const State& s) {
  Hasher h;
  h.Add(s.events.size());
  for (const EventCells& e : s.events) {
    h.Add(e.published);
    h.Add(e.owner);
    h.Add(e.token);
    h.Add(static_cast<std::uint64_t>(e.lease));
    h.Add(e.completed_token);
    h.Add(e.offered);
  }
  h.Add(s.relays.size());
  for (const RelayCells& r : s.relays) {
    h.Add(static_cast<std::uint64_t>(r.phase));
    h.Add(r.event);
    h.Add(r.token);
  }
  h.Add(s.instances.size());
  for (const InstanceCells& i : s.instances) {
    h.Add(static_cast<std::uint64_t>(i.phase));
    h.Add(i.event);
    h.Add(i.memo);
  }
  h.Add(s.group_events.size());
  for (const GroupEventCells& c : s.group_events) {
    h.Add(c.ready);
    h.Add(c.effects);
    h.Add(c.inbox);
    h.Add(c.ledger);
    h.Add(c.sent);
  }
  h.Add(s.group_keys.size());
  for (const GroupKeyCells& k : s.group_keys) {
    h.Add(k.version);
    h.Add(k.cache);
  }
  ForEachBudget(BudgetFamily::kSeed, [&](const FaultBudget& budget) {
    h.Add(s.budgets.*budget.left);
  });
  // The cells of time (model/TIME.md) join the hash only when one is set,
  // so that untimed states keep the fingerprints the golden test pins.
  Hasher t;
  bool timed = s.database_down != 0 || s.now != 0;
  ForEachBudget(BudgetFamily::kTime, [&](const FaultBudget& budget) {
    timed = timed || s.budgets.*budget.left != 0;
  });
  for (const EventCells& e : s.events) {
    t.Add(e.clock);
    t.Add(e.window);
    timed = timed || e.clock != 0 || e.window != 0;
  }
  for (const RelayCells& r : s.relays) {
    t.Add(r.retrying);
    timed = timed || r.retrying != 0;
  }
  for (const GroupEventCells& c : s.group_events) {
    t.Add(c.inbox_age);
    t.Add(c.parked);
    t.Add(c.attempts);
    t.Add(c.park_age);
    t.Add(c.key_age);
    timed = timed || c.inbox_age != 0 || c.parked != 0 || c.attempts != 0 ||
            c.park_age != 0 || c.key_age != 0;
  }
  for (std::uint16_t d : s.down) {
    t.Add(d);
    timed = timed || d != 0;
  }
  ForEachBudget(BudgetFamily::kTime, [&](const FaultBudget& budget) {
    t.Add(s.budgets.*budget.left);
  });
  t.Add(s.database_down);
  t.Add(s.now);
  if (timed) h.Add(t.Finish());
  // The relay styles' fields (the age sweeper's clocks and flags included)
  // are mixed in only when set, tagged by field, so that the fingerprints
  // of the seed's states stay what they were.
  auto add_if_set = [&h](std::uint64_t tag, std::uint64_t v) {
    if (v != 0) {
      h.Add(tag);
      h.Add(v);
    }
  };
  for (std::size_t e = 0; e < s.events.size(); ++e) {
    add_if_set(0x801 + (e << 4), s.events[e].pending);
    add_if_set(0x802 + (e << 4), s.events[e].log_position);
    add_if_set(0x807 + (e << 4), s.events[e].begun);
  }
  for (std::size_t r = 0; r < s.relays.size(); ++r) {
    add_if_set(0x808 + (r << 4), s.relays[r].clock);
  }
  // The style budgets take tags 0x803 and 0x804; a third needs a free tag.
  std::uint64_t tag = 0x803;
  ForEachBudget(BudgetFamily::kStyle, [&](const FaultBudget& budget) {
    add_if_set(tag++, s.budgets.*budget.left);
  });
  add_if_set(0x805, s.log.offset);
  add_if_set(0x806, s.log.position);
  for (std::size_t i = 0; i < s.instances.size(); ++i) {
    add_if_set(0x807 + (i << 4), s.instances[i].stage);
  }
  // Declared tables, likewise.
  for (std::size_t i = 0; i < s.user.size(); ++i) {
    add_if_set(0x900 + (i << 4), static_cast<std::uint16_t>(s.user[i]));
  }
  // The partitioned broker's cells, likewise (a bag has none of them).
  add_if_set(0xa00, s.budgets.rebalances);
  add_if_set(0xa06, s.budgets.send_failures);
  add_if_set(0xa08, s.budgets.handler_failures);
  for (std::size_t r = 0; r < s.relays.size(); ++r) {
    add_if_set(0xa07 + (r << 4), s.relays[r].retry);
  }
  for (std::size_t i = 0; i < s.instances.size(); ++i) {
    const InstanceCells& c = s.instances[i];
    add_if_set(0xa01 + (i << 4), c.partition);
    add_if_set(0xa02 + (i << 4), c.offset);
    add_if_set(0xa03 + (i << 4), c.epoch);
    add_if_set(0xa04 + (i << 4), c.fetched);
  }
  for (std::size_t i = 0; i < s.group_keys.size(); ++i) {
    add_if_set(0xa05 + (i << 4), s.group_keys[i].applied);
  }
  for (std::size_t i = 0; i < s.lengths.size(); ++i) {
    add_if_set(0xb00 + (i << 4), s.lengths[i]);
  }
  for (std::size_t i = 0; i < s.records.size(); ++i) {
    add_if_set(0xc00 + (i << 4), s.records[i]);
  }
  for (std::size_t i = 0; i < s.partitions.size(); ++i) {
    const GroupPartitionCells& c = s.partitions[i];
    // The owner is mixed in + 1, so that instance 0 counts as set.
    add_if_set(0xd01 + (i << 4), c.owner + 1u);
    add_if_set(0xd02 + (i << 4), c.epoch);
    add_if_set(0xd03 + (i << 4), c.committed);
    add_if_set(0xd04 + (i << 4), c.position);
    add_if_set(0xd05 + (i << 4), c.done);
    add_if_set(0xd06 + (i << 4), c.stale_commit);
  }
  return h.Finish();
}

}  // namespace oc
