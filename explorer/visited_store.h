// The visited store of a search: every stored state's key (its encoding,
// or its canonical encoding under symmetry) end to end in one array, and an
// index from keys to ids split into kShards hash tables of 32-bit slots
// (IdTable), so that threads can deduplicate different shards at once. It keeps
// no parent links: a breadth-first search numbers states level by level, and
// finds a state's parent again by expanding the level before it
// (breadth_first_search.h).
//
// Ids are dense and given in insertion order. A batch
// of candidates is inserted in two steps: Deduplicate marks, shard by
// shard, the first candidate of each new key as fresh (placing it in the
// table under a provisional id), and after the caller numbered the fresh
// candidates and Set them, Renumber gives the table entries their ids.
// Calls for different shards may run on different threads at once; all
// other calls are for one thread at a time.

#ifndef OUTBOX_CHECK_EXPLORER_VISITED_STORE_H_
#define OUTBOX_CHECK_EXPLORER_VISITED_STORE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "explorer/id_table.h"

namespace oc::explorer {

// A fixed 64-bit hash of a byte string: eight bytes at a time, each word
// multiplied into the state, then the splitmix64 finalizer.
inline std::uint64_t HashBytes(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  // The last 0 to 7 bytes, read without a call: two overlapping words of
  // four, or the first, middle and last byte of a shorter tail (each byte
  // read at least once, in a fixed place for each length).
  std::uint64_t tail = 0;
  if (n >= 4) {
    std::uint32_t low, high;
    std::memcpy(&low, p, 4);
    std::memcpy(&high, p + n - 4, 4);
    tail = low | (std::uint64_t{high} << 32);
  } else if (n > 0) {
    tail =
        p[0] | (std::uint64_t{p[n / 2]} << 8) | (std::uint64_t{p[n - 1]} << 16);
  }
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// Whether the `n` bytes at `a` and `b` are equal. Keys are short (a
// packed state is often 8 to 24 bytes), so from 8 bytes on they are
// compared a word at a time, the last word overlapping the one before,
// without a call.
// (GCC, inlining a call with a key shorter than a word, warns of the word
// loads in the branch that key never takes.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
inline bool SameBytes(const std::uint8_t* a, const std::uint8_t* b,
                      std::size_t n) {
  if (n >= 8) {
    std::uint64_t x, y, differ = 0;
    std::size_t i = 0;
    for (; i + 8 < n; i += 8) {
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b + i, 8);
      differ |= x ^ y;
    }
    i = n - 8;  // the last word, overlapping the one before
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    return (differ | (x ^ y)) == 0;
  }
  return std::memcmp(a, b, n) == 0;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// Records of `width` bytes, numbered densely, kept in blocks of 2^16
// records that are never moved: growing allocates one more block, copies
// nothing, and leaves at most one block unused. New records are
// uninitialized, so their pages are first touched by the threads that fill
// them rather than by a serial pass.
class RecordBlocks {
 public:
  static constexpr int kShift = 16;
  static constexpr std::size_t kPerBlock = std::size_t{1} << kShift;

  explicit RecordBlocks(std::size_t width) : width_(width) {}
  std::size_t size() const { return size_; }
  // Records that fit without allocating.
  std::size_t capacity() const { return blocks_.size() * kPerBlock; }
  std::size_t Bytes() const { return BytesAfterResize(size_); }
  // What Bytes() would be after Resize(n) (the block list itself left
  // aside when it grows: a few bytes per 2^16 records).
  std::size_t BytesAfterResize(std::size_t n) const {
    const std::size_t blocks =
        std::max(blocks_.size(), (n + kPerBlock - 1) / kPerBlock);
    return blocks * kPerBlock * width_ +
           blocks_.capacity() * sizeof(blocks_[0]);
  }
  std::uint8_t* at(std::size_t i) {
    return blocks_[i >> kShift].get() + (i & (kPerBlock - 1)) * width_;
  }
  const std::uint8_t* at(std::size_t i) const {
    return blocks_[i >> kShift].get() + (i & (kPerBlock - 1)) * width_;
  }
  void Resize(std::size_t n) {
    while (blocks_.size() * kPerBlock < n) {
      blocks_.emplace_back(new std::uint8_t[kPerBlock * width_]);
    }
    size_ = n;
  }

 private:
  std::size_t width_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
};

class VisitedStore {
 public:
  static constexpr std::size_t kShards = 64;
  // No id: not stored, or (for a state of the first level) no parent.
  static constexpr std::uint32_t kNoId =
      std::numeric_limits<std::uint32_t>::max();
  // Ids below 2^31; the top bit marks provisional entries.
  static constexpr std::uint64_t kMaxStates = std::uint64_t{1} << 31;
  static std::size_t ShardOf(std::uint64_t hash) { return hash >> 58; }

  // `width`: bytes per key.
  explicit VisitedStore(std::size_t width) : width_(width), keys_(width) {}
  VisitedStore(const VisitedStore&) = delete;
  VisitedStore& operator=(const VisitedStore&) = delete;

  std::size_t size() const { return keys_.size(); }
  const std::uint8_t* at(std::uint32_t id) const { return keys_.at(id); }

  // The id of the stored `key` (whose hash is `hash`), if it is stored.
  // Safe from several threads while nothing is inserted.
  std::optional<std::uint32_t> Find(const std::uint8_t* key,
                                    std::uint64_t hash) const {
    return tables_[ShardOf(hash)].Find(hash, [&](std::uint32_t id) {
      return id < size() && SameBytes(at(id), key, width_);
    });
  }

  // Lookups of many keys hide the memory's latency by asking for what a
  // later lookup reads while an earlier one runs: the index slot of the
  // key kSlotAhead places on, and the stored key behind the slot of the
  // one kKeyAhead places on (whose slot was asked for earlier).
  static constexpr std::size_t kSlotAhead = 16;
  static constexpr std::size_t kKeyAhead = 8;
  void PrefetchSlot(std::uint64_t hash) const {
    tables_[ShardOf(hash)].Prefetch(hash);
  }
  void PrefetchKey(std::uint64_t hash) const {
    const auto id = tables_[ShardOf(hash)].FirstMatch(hash);
    if (id && *id < size()) __builtin_prefetch(at(*id));
  }

  // Stores `key` unless it is there: its id, and whether it
  // is new.
  std::pair<std::uint32_t, bool> InsertOne(const std::uint8_t* key) {
    return InsertOne(key, HashBytes(key, width_));
  }
  // The same, for a key whose hash is `hash`.
  std::pair<std::uint32_t, bool> InsertOne(const std::uint8_t* key,
                                           std::uint64_t hash) {
    IdTable& table = tables_[ShardOf(hash)];
    const auto id = static_cast<std::uint32_t>(size());
    table.Reserve(1, KeyHashes{*this});
    table.ReserveIds(std::uint64_t{id} + 1);
    IdTable::Slot slot;
    const auto [found, fresh] = table.FindOrInsert(
        hash, id,
        [&](std::uint32_t other) { return SameBytes(at(other), key, width_); },
        &slot);
    if (fresh) {
      Resize(size() + 1);
      Set(id, key);
    }
    return {found, fresh};
  }

  // One chunk's candidates for a shard: their indices (in order), and the
  // chunk's keys, hashes and fresh marks, indexed by candidate; and, when
  // not null, where to write the id each candidate that is not fresh was
  // found under (see Deduplicate).
  struct Candidates {
    const std::vector<std::uint32_t>& indices;
    const std::uint8_t* keys;
    const std::uint64_t* hashes;
    std::uint8_t* fresh;
    std::uint32_t* found = nullptr;
  };

  // Looks up `incoming` candidates of shard `shard`, from chunks 0 ..
  // chunks - 1 in order (`candidates(c)`), marking each candidate whose key
  // is neither stored nor held by an earlier candidate as fresh. With
  // `found`, a candidate that is not fresh gets the id of its key; when an
  // earlier candidate of this call holds that key, the id is provisional
  // (IsProvisional), and FreshCandidate names that earlier candidate until
  // the next Deduplicate.
  template <class CandidatesOf>
  void Deduplicate(std::size_t shard, std::size_t incoming, std::size_t chunks,
                   CandidatesOf candidates) {
    IdTable& table = tables_[shard];
    std::vector<Pending>& pending = pending_[shard];
    pending.clear();
    table.Reserve(incoming, KeyHashes{*this});
    // In the table, the candidate pending[i] stands as id base + i.
    const auto base = static_cast<std::uint32_t>(size());
    table.ReserveIds(std::uint64_t{base} + incoming);
    for (std::size_t c = 0; c < chunks; ++c) {
      const Candidates in = candidates(c);
      for (std::uint32_t k : in.indices) {
        const std::uint8_t* key =
            in.keys + static_cast<std::size_t>(k) * width_;
        IdTable::Slot slot;
        const auto provisional =
            static_cast<std::uint32_t>(base + pending.size());
        const auto [found, fresh] = table.FindOrInsert(
            in.hashes[k], provisional,
            [&](std::uint32_t id) {
              const std::uint8_t* other =
                  id >= base ? pending[id - base].key : at(id);
              return SameBytes(other, key, width_);
            },
            &slot);
        if (fresh) {
          in.fresh[k] = 1;
          pending.push_back(
              Pending{static_cast<std::uint32_t>(c), k, slot, key});
        } else if (in.found != nullptr) {
          in.found[k] = found >= base ? kPending | (found - base) : found;
        }
      }
    }
  }

  // Makes room for ids below `n`; what is new is set by Set.
  void Resize(std::size_t n) { keys_.Resize(n); }
  // REQUIRES: id < size().
  void Set(std::uint32_t id, const std::uint8_t* key) {
    std::memcpy(keys_.at(id), key, width_);
  }

  // Gives the shard's fresh entries of the last Deduplicate their ids:
  // `id_of(chunk, candidate)`, or kNoId for one that was not stored
  // (its entry then stays provisional; the search is over).
  template <class IdOf>
  void Renumber(std::size_t shard, IdOf id_of) {
    tables_[shard].ReserveIds(size());
    for (const Pending& p : pending_[shard]) {
      const std::uint32_t id = id_of(p.chunk, p.candidate);
      if (id != kNoId) tables_[shard].SetId(p.slot, id);
    }
  }

  // Whether an id Deduplicate wrote to `found` is provisional, and the
  // (chunk, candidate) that was fresh with that key: the key's id is the
  // one that candidate was given.
  static bool IsProvisional(std::uint32_t id) { return (id & kPending) != 0; }
  std::pair<std::uint32_t, std::uint32_t> FreshCandidate(
      std::uint64_t hash, std::uint32_t provisional) const {
    const Pending& p = pending_[ShardOf(hash)][provisional & ~kPending];
    return {p.chunk, p.candidate};
  }

  // The store's size: keys and tables.
  std::size_t Bytes() const {
    std::size_t bytes = keys_.Bytes();
    for (const IdTable& t : tables_) bytes += t.Bytes();
    return bytes;
  }
  // All it holds: Bytes() and the bookkeeping a deduplication keeps for
  // the next one.
  std::size_t HeldBytes() const {
    std::size_t bytes = Bytes();
    for (const auto& p : pending_) bytes += p.capacity() * sizeof(Pending);
    return bytes;
  }
  // At most what HeldBytes() would be during a Deduplicate of `incoming[s]`
  // candidates for each shard s, counting the old slots a growing table
  // holds while it moves them (one table at a time per thread; counted
  // for the largest).
  std::size_t BytesToDeduplicate(
      const std::array<std::size_t, kShards>& incoming) const {
    std::size_t bytes = keys_.Bytes(), moving = 0;
    for (std::size_t s = 0; s < kShards; ++s) {
      const std::size_t after = tables_[s].BytesAfterReserve(incoming[s]);
      if (after != tables_[s].Bytes()) {
        moving = std::max(moving, tables_[s].Bytes());
      }
      std::size_t pending = pending_[s].capacity();
      while (pending < incoming[s])
        pending = std::max<std::size_t>(1, pending * 2);
      bytes += after + pending * sizeof(Pending);
    }
    return bytes + moving;
  }
  // Ids that fit without allocating, and what HeldBytes() would be after
  // Resize(n).
  std::size_t Capacity() const { return keys_.capacity(); }
  std::size_t BytesAfterResize(std::size_t n) const {
    std::size_t bytes = keys_.BytesAfterResize(n);
    for (std::size_t s = 0; s < kShards; ++s) {
      bytes += tables_[s].Bytes() + pending_[s].capacity() * sizeof(Pending);
    }
    return bytes;
  }

 private:
  static constexpr std::uint32_t kPending = 1u << 31;
  struct Pending {
    std::uint32_t chunk, candidate;
    IdTable::Slot slot;
    const std::uint8_t* key;
  };
  // What a table asks of its keys when it grows: an id's hash. (An entry
  // left provisional by a search that stopped names no key of its own:
  // where it goes does not matter, as a lookup that meets it compares the
  // key stored under that id, if any, and a match is then that key's.)
  struct KeyHashes {
    const VisitedStore& store;
    std::uint64_t Hash(std::uint32_t id) const {
      return id < store.size() ? HashBytes(store.at(id), store.width_) : 0;
    }
    void Prefetch(std::uint32_t id) const {
      if (id < store.size()) __builtin_prefetch(store.at(id));
    }
  };

  std::size_t width_;
  RecordBlocks keys_;  // width_ bytes per id
  std::array<IdTable, kShards> tables_;
  std::array<std::vector<Pending>, kShards> pending_;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_VISITED_STORE_H_
