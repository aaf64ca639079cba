// The state of the outbox model: exactly the tuple of docs/SEMANTICS.md
// section 2.
//
// Invariants of a State (kept by OutboxModel, checked by tests):
//  - an idle relay has event 0 and token 0; an idle instance has event 0;
//    an instance's `memo` is 0 unless it is midway;
//  - every vector has the size its Config gives it (rows and group cells per
//    event, relays, instances flattened over groups, key cells per key);
//  - tables a group's strategy does not use stay 0.
// Everything else keeps its value when it loses its meaning (a published
// row keeps owner, token and lease), as the reference semantics require, so
// that distinct-state counts match an independent model of the same page.
//
// A State is a regular value: copyable, comparable, no pointers out of
// itself, no unordered containers. Its Fingerprint is a fixed 64-bit hash of
// a canonical encoding (a golden-value test pins it).

#ifndef OUTBOX_CHECK_MODEL_STATE_H_
#define OUTBOX_CHECK_MODEL_STATE_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "model/config.h"

namespace oc {

enum class Lease : std::uint8_t { kNone, kActive, kExpired };
enum class RelayPhase : std::uint8_t { kIdle, kClaimed, kSent };
enum class InstancePhase : std::uint8_t { kIdle, kHolding, kMidway };
// Where a group's parked copy of an event waits (GroupEventCells::parked).
enum Parked : std::uint8_t { kNotParked, kDelayed, kDeadLetter };

// Outbox row and broker counter of one event.
struct EventCells {
  std::uint8_t published = 0;  // 0 or 1
  std::uint8_t owner = 0;      // 0: never claimed; else relay index + 1
  std::uint8_t token = 0;      // fencing token, +1 on every claim
  Lease lease = Lease::kNone;
  std::uint8_t completed_token = 0;  // token whose completion published it
  std::uint8_t offered = 0;          // copies the broker accepted and holds
  // Time (model/TIME.md): the lease clock (with the age_sweeper style, the
  // row's age), and the age of the last copy the broker accepted (for its
  // dedup window).
  std::uint16_t clock = 0;
  std::uint16_t window = 0;
  // Relay styles, with source.commits = "during_run" only (0 otherwise):
  // 1 while the source transaction that writes the row has not committed;
  // with the cdc_offset style, the row's position in the commit log
  // (1-based, 0 while pending).
  std::uint8_t pending = 0;
  std::uint8_t log_position = 0;
  // age_sweeper only (0 otherwise): 1 once the producer's dispatch of the
  // row began; from then on only the sweeper sends it.
  std::uint8_t begun = 0;
  bool operator==(const EventCells&) const = default;
};

struct RelayCells {
  RelayPhase phase = RelayPhase::kIdle;
  std::uint8_t event = 0;  // event index + 1 while claimed or sent
  std::uint8_t token = 0;  // the token it claimed with
  // 1 after a lost publish acknowledgement: its next send retries in the
  // same producer session (broker.dedup = "producer_session").
  std::uint8_t retrying = 0;
  // age_sweeper only (0 otherwise): units since its send began, while
  // claimed (model/TIME.md, "The age sweeper").
  std::uint16_t clock = 0;
  // The partitioned broker's producer: event index + 1 of the write that
  // failed and waits for its retry (docs/SEMANTICS.md section 16.1).
  std::uint8_t retry = 0;
  bool operator==(const RelayCells&) const = default;
};

struct InstanceCells {
  InstancePhase phase = InstancePhase::kIdle;
  std::uint8_t event = 0;  // event index + 1 while holding or midway
  // The strategy's private in-flight data while midway: the inbox value
  // check_then_act's first step read, or whether ledger_then_send's ledger
  // row was new (1) or already there (0); a declared strategy's locals.
  std::uint32_t memo = 0;
  // With a declared strategy of more than two steps: how many steps after
  // the first it has run while midway (0 otherwise).
  std::uint8_t stage = 0;
  // The partitioned broker (docs/SEMANTICS.md section 16), while holding
  // or midway: the record's partition + 1, its offset, the assignment
  // epoch it was fetched under, and 1 while a record committed before
  // processing has had no step run yet.
  std::uint8_t partition = 0;
  std::uint8_t offset = 0;
  std::uint8_t epoch = 0;
  std::uint8_t fetched = 0;
  bool operator==(const InstanceCells&) const = default;
};

// A group's broker queue and durable tables for one event.
struct GroupEventCells {
  std::uint8_t ready = 0;    // copies waiting for delivery to the group
  std::uint8_t effects = 0;  // business effects committed (credit)
  std::uint8_t inbox = 0;    // 0 or 1
  std::uint8_t ledger = 0;   // 0 or 1
  std::uint8_t sent = 0;     // notifications the outside world received
  // Time (model/TIME.md): the inbox row's age, a parked copy (delayed
  // redelivery or dead letter), failed deliveries, and the parked copy's age.
  std::uint16_t inbox_age = 0;
  std::uint8_t parked = 0;  // Parked
  std::uint8_t attempts = 0;
  std::uint16_t park_age = 0;
  // The age of the last call the outside world let through with this
  // event's idempotency key (with groups.idempotency_key_window).
  std::uint16_t key_age = 0;
  bool operator==(const GroupEventCells&) const = default;
};

// A group's durable tables for one key.
struct GroupKeyCells {
  std::uint16_t version = 0;  // projection
  std::uint8_t cache = 0;     // cache: 0 stale (initially), 1 fresh
  // With kObserveKeyOrder: the rank among the key's events of the last one
  // whose handler changed the group's tables (0: none yet).
  std::uint8_t applied = 0;
  bool operator==(const GroupKeyCells&) const = default;
};

struct Budgets {
  std::uint8_t premature_expiries = 0;  // X
  std::uint8_t relay_crashes = 0;       // C
  std::uint8_t lost_publish_acks = 0;   // P
  std::uint8_t lost_consumer_acks = 0;  // A
  std::uint8_t consumer_crashes = 0;    // Q
  std::uint8_t redeliveries = 0;        // V
  std::uint8_t consumer_outages = 0;
  std::uint8_t database_outages = 0;
  std::uint8_t failed_commits = 0;      // F (relay styles)
  std::uint8_t lost_broker_writes = 0;  // B (relay styles)
  std::uint8_t rebalances = 0;          // the partitioned broker
  std::uint8_t send_failures = 0;
  std::uint8_t handler_failures = 0;
  bool operator==(const Budgets&) const = default;
};

// Relay styles: the relay's position in the outbox, for the styles that keep
// one (0 for the others). sequence_cursor: `offset` is the durable cursor, the
// id of the last relayed row. cdc_offset: `offset` is the last flushed
// offset (durable), `position` how far the connector has read the commit
// log (in memory; a restart resets it to `offset`).
struct LogCells {
  std::uint8_t offset = 0;
  std::uint8_t position = 0;
  bool operator==(const LogCells&) const = default;
};

// The partitioned broker (docs/SEMANTICS.md section 16): one group's view of
// one partition.
struct GroupPartitionCells {
  std::uint8_t owner = 0;      // the assigned instance, from 0
  std::uint8_t epoch = 0;      // +1 each time the partition moves
  std::uint8_t committed = 0;  // the committed offset
  std::uint8_t position = 0;   // the owner's fetch position, in memory
  // With kObserveProcessed: bit j set once record j was processed.
  std::uint16_t done = 0;
  // With kObserveStaleCommit: 1 once a commit from an instance that did
  // not hold the partition under its current epoch was accepted.
  std::uint8_t stale_commit = 0;
  bool operator==(const GroupPartitionCells&) const = default;
};

// The cells live inside the State, in vectors of fixed capacity (the
// Config limits), so that copying a State never allocates: successor
// generation copies a state once per action. A copy moves the bytes of
// the cells in use, rounded up to whole blocks of 16 bytes and at least
// the first two blocks, without a call; bytes past the size hold whatever
// they held (no one reads them as cells).
template <class T, int N>
class FixedCells {
  static_assert(std::is_trivially_copyable_v<T>, "plain cells only");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  FixedCells() = default;
  FixedCells(std::initializer_list<T> cells) {
    for (const T& c : cells) push_back(c);
  }
  FixedCells(const FixedCells& other) : size_(other.size_) { CopyFrom(other); }
  FixedCells& operator=(const FixedCells& other) {
    size_ = other.size_;
    CopyFrom(other);
    return *this;
  }

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return reinterpret_cast<T*>(bytes_); }
  const T* data() const { return reinterpret_cast<const T*>(bytes_); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }

  void push_back(const T& cell) {
    CheckRoom(size_ + 1);
    data()[size_++] = cell;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    CheckRoom(size_ + 1);
    data()[size_] = T{std::forward<Args>(args)...};
    return data()[size_++];
  }
  void clear() { size_ = 0; }
  void resize(std::size_t n) { resize(n, T{}); }
  void resize(std::size_t n, const T& fill) {
    CheckRoom(n);
    for (std::size_t i = size_; i < n; ++i) data()[i] = fill;
    size_ = static_cast<Size>(n);
  }
  void assign(std::size_t n, const T& fill) {
    clear();
    resize(n, fill);
  }
  template <class It>
  requires(!std::is_integral_v<It>) void assign(It first, It last) {
    clear();
    for (; first != last; ++first) push_back(static_cast<T>(*first));
  }

  friend bool operator==(const FixedCells& a, const FixedCells& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  using Size = std::conditional_t<(N < 256), std::uint8_t, std::uint16_t>;
  static constexpr std::size_t kBlock = 16;
  static constexpr std::size_t kBytes = sizeof(T) * N;
  static constexpr std::size_t kFirst =
      std::min(kBytes / kBlock, std::size_t{2}) * kBlock;

  static void CheckRoom(std::size_t n) {
    if (n > N) std::abort();  // the Config limits are checked on load
  }
  void CopyFrom(const FixedCells& other) {
    const std::size_t used = size_ * sizeof(T);
    unsigned char* to = bytes_;
    const unsigned char* from = other.bytes_;
    // The first blocks unconditionally: in most configurations they hold
    // every cell in use, and the copy then takes no branch.
    std::memcpy(to, from, kFirst);
    std::size_t i = kFirst;
    for (; i + kBlock <= kBytes && i < used; i += kBlock) {
      std::memcpy(to + i, from + i, kBlock);
    }
    for (; i < used; ++i) to[i] = from[i];  // a tail shorter than a block
  }

  Size size_ = 0;
  // Raw bytes, not T[N]: a cell with default values would have every one
  // of the N set at each copy. Cells are plain (trivially copyable), so
  // copying their bytes makes them.
  alignas(T) unsigned char bytes_[kBytes];
};

struct State {
  FixedCells<EventCells, kMaxEvents> events;  // [e]
  FixedCells<RelayCells, kMaxRelays> relays;  // [r]
  FixedCells<InstanceCells, kMaxGroups * kMaxInstances>
      instances;  // [first_instance(g) + i]
  FixedCells<GroupEventCells, kMaxGroups * kMaxEvents>
      group_events;  // [g * E + e]
  FixedCells<GroupKeyCells, kMaxGroups * kMaxEvents>
      group_keys;  // [g * keys + k]
  Budgets budgets;
  // Time (model/TIME.md): units left of each group's outage and of the
  // outbox database's, and units since the start (with a horizon).
  FixedCells<std::uint16_t, kMaxGroups> down;  // [g]
  std::uint16_t database_down = 0;
  std::uint16_t now = 0;
  LogCells log;  // relay styles
  // The tables declared by strategy files (UserTableLayouts): rows (0, 1)
  // and numbers.
  FixedCells<std::int16_t, kMaxUserCells> user;
  // The partitioned broker (empty for the bag): each partition's length,
  // its records (event index + 1) at [p * kMaxRecords + j], and each
  // group's view of each partition at [g * partitions + p].
  FixedCells<std::uint8_t, kMaxPartitions> lengths;
  FixedCells<std::uint8_t, kMaxPartitions * kMaxRecords> records;
  FixedCells<GroupPartitionCells, kMaxGroups * kMaxPartitions> partitions;
  bool operator==(const State&) const = default;
};

// A fixed 64-bit hash of the canonical encoding of `s` (every field, in
// declaration order, one value at a time; never raw struct bytes).
std::uint64_t Fingerprint(const State& s);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_STATE_H_
