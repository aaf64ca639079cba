// The visited store of a search: every stored state's key (its encoding,
// or its canonical encoding under symmetry) by id in one array of records,
// and an index from keys to ids split into kShards hash tables of 32-bit
// slots (IdTable), so that threads can deduplicate different shards at
// once. It keeps no parent links: a breadth-first search numbers states
// level by level, and finds a state's parent again by expanding the level
// before it (breadth_first_search.h).
//
// A record holds the key's bytes, or (keys of 8 bytes or more) two small
// indices: one into a table of the distinct first halves of keys, one into
// a table of the distinct second halves. The states of a search share
// most of their halves (bench-4-xlarge's ten million keys have 12,933
// distinct first halves and 38,112 second ones), so a key of 10 bytes is
// kept in 4. Reading a key back joins its halves; Key and CopyKey do it.
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
#include <span>
#include <utility>
#include <vector>

#include "common/key_hash.h"
#include "explorer/id_table.h"
#include "explorer/prefetch.h"

namespace oc::explorer {

// Keys are hashed by common/key_hash.h, which a model's encoder may also
// use to hash a key as it writes it (HashesKeys, model_concept.h).
using oc::HashBytes;

// Whether the `n` bytes at `a` and `b` are equal. Keys are short (a
// packed state is often 8 to 24 bytes), so from 8 bytes on they are
// compared a word at a time, the last word overlapping the one before,
// without a call (from 4 bytes on, two words of four).
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
  if (n >= 4) {  // two words of four, overlapping
    std::uint32_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 4);
    std::memcpy(&y0, b, 4);
    std::memcpy(&x1, a + n - 4, 4);
    std::memcpy(&y1, b + n - 4, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
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
  std::size_t width() const { return width_; }
  std::size_t size() const { return size_; }
  // Records that fit without allocating.
  std::size_t capacity() const { return blocks_.size() * kPerBlock; }
  std::size_t Bytes() const { return BytesAfterResize(size_); }
  // What Bytes() would be after Resize(n) (the block list itself left
  // aside when it grows: a few bytes per 2^16 records).
  std::size_t BytesAfterResize(std::size_t n) const {
    return BytesAfterResize(n, width_);
  }
  // The same, were the records `width` bytes each.
  std::size_t BytesAfterResize(std::size_t n, std::size_t width) const {
    const std::size_t blocks =
        std::max(blocks_.size(), (n + kPerBlock - 1) / kPerBlock);
    return blocks * kPerBlock * width + blocks_.capacity() * sizeof(blocks_[0]);
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
  // Frees block `b` (records b * kPerBlock on), which is not read again.
  void ReleaseBlock(std::size_t b) { blocks_[b].reset(); }

 private:
  std::size_t width_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
};

// How a store keeps its keys: whole, or split in two halves (below).
enum class KeyLayout {
  kAuto,   // split when keys are 8 bytes or more
  kWhole,  // each key's bytes in its record
  kSplit,  // each record two indices into tables of halves
};

class VisitedStore {
 public:
  static constexpr std::size_t kShards = 64;
  // No id: not stored, or (for a state of the first level) no parent.
  static constexpr std::uint32_t kNoId =
      std::numeric_limits<std::uint32_t>::max();
  // Ids below 2^31; the top bit marks provisional entries.
  static constexpr std::uint64_t kMaxStates = std::uint64_t{1} << 31;
  // A split store that has this many keys, and whose halves then take
  // more bytes than the keys whole would, keeps them whole from then on.
  static constexpr std::size_t kSplitReview = std::size_t{1} << 20;
  static std::size_t ShardOf(std::uint64_t hash) { return hash >> 58; }

  // `width`: bytes per key.
  explicit VisitedStore(std::size_t width, KeyLayout layout = KeyLayout::kAuto)
      : width_(width), records_(width) {
    if (layout == KeyLayout::kSplit ||
        (layout == KeyLayout::kAuto && width >= 8)) {
      split_ = width >= 2;
    }
    if (split_) {
      part_ = {width / 2, width - width / 2};
      index_bytes_ = {2, 2};
      records_ = RecordBlocks(4);
      for (std::size_t side = 0; side < 2; ++side) {
        halves_[side] =
            std::make_unique<VisitedStore>(part_[side], KeyLayout::kWhole);
      }
    }
  }
  VisitedStore(const VisitedStore&) = delete;
  VisitedStore& operator=(const VisitedStore&) = delete;

  std::size_t size() const { return records_.size(); }
  std::size_t width() const { return width_; }
  // Whether the keys are kept as halves, and how many distinct halves of
  // each side there are (0 when whole).
  bool split() const { return split_; }
  std::size_t halves(std::size_t side) const {
    return split_ ? halves_[side]->size() : 0;
  }

  // The key of `id`: where its bytes are kept, when they are kept whole;
  // else written to `buffer` (width() bytes), which is returned.
  // REQUIRES: id < size(), and the key was Set.
  const std::uint8_t* Key(std::uint32_t id, std::uint8_t* buffer) const {
    if (!split_) return records_.at(id);
    CopyKey(id, buffer);
    return buffer;
  }
  // Writes the key of `id` to `out` (width() bytes).
  void CopyKey(std::uint32_t id, std::uint8_t* out) const {
    const std::uint8_t* record = records_.at(id);
    if (!split_) {
      std::memcpy(out, record, width_);
      return;
    }
    CopyBytes(out, Half(0, record), part_[0]);
    CopyBytes(out + part_[0], Half(1, record), part_[1]);
  }
  // Whether `key` is the key of `id`.
  bool Holds(std::uint32_t id, const std::uint8_t* key) const {
    const std::uint8_t* record = records_.at(id);
    if (!split_) return SameBytes(record, key, width_);
    return SameBytes(Half(0, record), key, part_[0]) &&
           SameBytes(Half(1, record), key + part_[0], part_[1]);
  }

  // The id of the stored `key` (whose hash is `hash`), if it is stored.
  // Safe from several threads while nothing is inserted.
  std::optional<std::uint32_t> Find(const std::uint8_t* key,
                                    std::uint64_t hash) const {
    return shards_[ShardOf(hash)].table.Find(
        hash, [&](std::uint32_t id) { return id < size() && Holds(id, key); });
  }

  // Lookups of many keys hide the memory's latency by asking for what a
  // later lookup reads while an earlier one runs: the candidate's own hash
  // and key kOwnAhead places on (a batch's candidates outgrow the
  // processor's nearest caches), the index slot of the key kSlotAhead
  // places on, and the stored record behind the slot of the one kKeyAhead
  // places on (whose slot was asked for earlier).
  static constexpr std::size_t kSlotAhead = 16;
  static constexpr std::size_t kKeyAhead = 8;
  static constexpr std::size_t kOwnAhead = 32;
  static constexpr std::size_t kRing = 64;  // Deduplicate's, above kOwnAhead
  // SetMany's: how many keys ahead a key's halves are hashed, in a ring.
  static constexpr std::size_t kHalfAhead = 8;
  static constexpr std::size_t kHalfRing = 16;
  void PrefetchSlot(std::uint64_t hash) const {
    shards_[ShardOf(hash)].table.Prefetch(hash);
  }
  void PrefetchKey(std::uint64_t hash) const {
    PrefetchKeyIn(shards_[ShardOf(hash)].table, hash);
  }

  // Stores `key` unless it is there: its id, and whether it
  // is new.
  std::pair<std::uint32_t, bool> InsertOne(const std::uint8_t* key) {
    return InsertOne(key, HashBytes(key, width_));
  }
  // The same, for a key whose hash is `hash`.
  std::pair<std::uint32_t, bool> InsertOne(const std::uint8_t* key,
                                           std::uint64_t hash) {
    IdTable& table = shards_[ShardOf(hash)].table;
    const auto id = static_cast<std::uint32_t>(size());
    table.Reserve(1, KeyHashes(*this));
    table.ReserveIds(std::uint64_t{id} + 1);
    IdTable::Slot slot;
    const auto [found, fresh] = table.FindOrInsert(
        hash, id, [&](std::uint32_t other) { return Holds(other, key); },
        &slot);
    if (fresh) {
      Resize(size() + 1);
      Set(id, key);
    }
    return {found, fresh};
  }

  // One chunk's candidates for a shard: their indices (in order), and the
  // chunk's keys, hashes and (when not null) fresh marks, indexed by
  // candidate; and, when not null, where to write the id each candidate
  // that is not fresh was found under (see Deduplicate).
  struct Candidates {
    std::span<const std::uint32_t> indices;
    const std::uint8_t* keys;
    const std::uint64_t* hashes;
    std::uint8_t* fresh;
    std::uint32_t* found = nullptr;
  };

  // Looks up `incoming` candidates of shard `shard`, from chunks 0 ..
  // chunks - 1 in order (`candidates(c)`), marking each candidate whose key
  // is neither stored nor held by an earlier candidate as fresh, and
  // listing it in Fresh(shard). (A search whose threads deduplicate
  // different shards at once leaves the marks to each chunk's own thread,
  // from the lists: marks written from every shard would share cache
  // lines between the threads.) With
  // `found`, a candidate that is not fresh gets the id of its key; when an
  // earlier candidate of this call holds that key, the id is provisional
  // (IsProvisional), and FreshCandidate names that earlier candidate until
  // the next Deduplicate.
  // `marks`: whether any chunk asks for fresh marks or found ids (false:
  // their pointers are null in every chunk).
  template <class CandidatesOf>
  void Deduplicate(std::size_t shard, std::size_t incoming, std::size_t chunks,
                   CandidatesOf candidates, bool marks = true) {
    IdTable& table = shards_[shard].table;
    std::vector<Pending>& pending = shards_[shard].pending;
    pending.clear();
    table.Reserve(incoming, KeyHashes(*this));
    // In the table, the candidate pending[i] stands as id base + i.
    const auto base = static_cast<std::uint32_t>(size());
    table.ReserveIds(std::uint64_t{base} + incoming);
    // The lookups run over the chunks' lists as one sequence: a chunk's
    // list for one shard is short (a few dozen candidates), too short to
    // prefetch within. One cursor walks the lists kOwnAhead candidates
    // ahead of the lookups, asking for each candidate's hash and key, into
    // a ring that the later prefetches and the lookups read by position;
    // the hash is read kSlotAhead candidates ahead, for its slot.
    struct Ahead {
      const std::uint64_t* hash_at;
      std::uint64_t hash;  // *hash_at, once read
      const std::uint8_t* key;
      std::uint32_t chunk, candidate;
    };
    static_assert(kRing > kOwnAhead && kOwnAhead > kSlotAhead &&
                  kSlotAhead > kKeyAhead && (kRing & (kRing - 1)) == 0);
    std::array<Ahead, kRing> ring;
    CandidateCursor<CandidatesOf> lead(candidates, chunks);
    std::size_t taken = 0;  // candidates put in the ring
    auto take = [&] {
      const Candidates& c = lead.candidates();
      const std::uint32_t k = lead.candidate();
      const std::uint8_t* key = c.keys + static_cast<std::size_t>(k) * width_;
      PrefetchLine(c.hashes + k);
      PrefetchLine(key);
      ring[taken++ & (kRing - 1)] = Ahead{
          c.hashes + k, 0, key, static_cast<std::uint32_t>(lead.chunk()), k};
      lead.Next();
    };
    // Reads the hash of the candidate at `i`, and asks for its slot.
    auto read_hash = [&](std::size_t i) {
      Ahead& a = ring[i & (kRing - 1)];
      a.hash = *a.hash_at;
      table.Prefetch(a.hash);
    };
    while (lead.valid() && taken < kOwnAhead) take();
    for (std::size_t i = 0; i < kSlotAhead && i < taken; ++i) read_hash(i);
    // The chunk whose fresh marks and found ids are written, when asked.
    Candidates out{};
    std::size_t out_chunk = std::numeric_limits<std::size_t>::max();
    for (std::size_t i = 0; i < taken; ++i) {
      // Hides the memory's latency (see kSlotAhead).
      if (lead.valid()) take();
      if (i + kSlotAhead < taken) read_hash(i + kSlotAhead);
      if (i + kKeyAhead < taken) {
        PrefetchKeyIn(table, ring[(i + kKeyAhead) & (kRing - 1)].hash);
      }
      const Ahead& at = ring[i & (kRing - 1)];
      const std::uint8_t* key = at.key;
      IdTable::Slot slot;
      const auto provisional =
          static_cast<std::uint32_t>(base + pending.size());
      const auto [found, fresh] = table.FindOrInsert(
          at.hash, provisional,
          [&](std::uint32_t id) {
            return id >= base ? SameBytes(pending[id - base].key, key, width_)
                              : Holds(id, key);
          },
          &slot);
      if (fresh) {
        pending.push_back(Pending{at.chunk, at.candidate, slot, key});
      }
      if (marks) {
        if (at.chunk != out_chunk) {
          out_chunk = at.chunk;
          out = candidates(out_chunk);
        }
        if (fresh) {
          if (out.fresh != nullptr) out.fresh[at.candidate] = 1;
        } else if (out.found != nullptr) {
          out.found[at.candidate] =
              found >= base ? kPending | (found - base) : found;
        }
      }
    }
  }

  // Makes room for ids below `n`; what is new is set by Set or SetMany.
  // (A split store may first widen its records' indices, so that halves
  // of every new key fit, or decide to keep keys whole: see Bytes.)
  void Resize(std::size_t n) {
    if (split_) {
      const std::size_t more = n > size() ? n - size() : 0;
      if (Joins(n)) {
        Join();
      } else {
        std::array<std::size_t, 2> bytes = index_bytes_;
        for (std::size_t side = 0; side < 2; ++side) {
          bytes[side] = IndexBytesFor(halves_[side]->size() + more);
        }
        if (bytes != index_bytes_) Repack(bytes);
      }
    }
    records_.Resize(n);
  }
  // Stores `key` as id's. REQUIRES: id < size().
  void Set(std::uint32_t id, const std::uint8_t* key) {
    if (!split_) {
      std::memcpy(records_.at(id), key, width_);
      return;
    }
    SetHalf(0, id, key);
    SetHalf(1, id, key);
  }
  // Set(first + i, keys[i]) for every i, as calls of `run(n, task)` that
  // each call task(j) for every j < n, perhaps several at once on other
  // threads.
  template <class Run>
  void SetMany(std::uint32_t first,
               const std::vector<const std::uint8_t*>& keys, Run run) {
    SetKnownHalves(first, keys, run);
    AddNewHalves();
  }
  // SetMany in two parts. The first leaves the halves that no table holds
  // yet (few: bench-4-xlarge's ten million keys have about 51,000) to the
  // second, a serial pass. Until AddNewHalves returns, no record of these
  // keys may be read; Renumber may run meanwhile, on another thread, for
  // it reads no record. `keys` must outlive the two calls.
  template <class Run>
  void SetKnownHalves(std::uint32_t first,
                      const std::vector<const std::uint8_t*>& keys, Run run) {
    constexpr std::size_t kRun = 1024;
    new_halves_.clear();
    if (!split_) {
      run((keys.size() + kRun - 1) / kRun, [&](std::size_t j) {
        const std::size_t end = std::min(keys.size(), (j + 1) * kRun);
        for (std::size_t i = j * kRun; i < end; ++i) {
          std::memcpy(records_.at(first + i), keys[i], width_);
        }
      });
      return;
    }
    // The keys are taken in runs of kRun, several runs at once: each
    // half is looked up in its side's table, which nothing changes
    // meanwhile, and its index written. A half the table does not hold
    // yet is left to AddNewHalves, which adds those halves in id order,
    // so that the halves are numbered as if one thread had added every
    // key in turn. (Runs are a thousand keys: a batch stores some
    // sixteen thousand, and with runs of four thousand, two threads
    // often ended its runs far apart.)
    // A state's successors, stored one after another, often share a half:
    // the last half's index is kept, and the table asked only for another.
    const std::size_t runs = (keys.size() + kRun - 1) / kRun;
    if (missing_.size() < runs) missing_.resize(runs);
    run(runs, [&](std::size_t j) {
      std::vector<NewHalf>& missing = missing_[j];
      missing.clear();
      const std::size_t begin = j * kRun;
      const std::size_t end = std::min(keys.size(), begin + kRun);
      std::array<std::uint32_t, 2> half{};
      std::array<bool, 2> held{};  // whether half[side] is the last key's
      // Each key's halves are compared with the key before's, and those
      // that differ hashed and their slots asked for, kHalfAhead keys
      // before they are looked up.
      struct Ahead {
        std::array<std::uint64_t, 2> hash;
        std::array<bool, 2> same;  // as the key before's (hash not made)
      };
      std::array<Ahead, kHalfRing> ahead;
      auto ask = [&](std::size_t i) {
        Ahead& a = ahead[i % kHalfRing];
        for (std::size_t side = 0; side < 2; ++side) {
          const std::size_t at = side == 0 ? 0 : part_[0];
          const std::uint8_t* bytes = keys[i] + at;
          a.same[side] =
              i > begin && SameBytes(bytes, keys[i - 1] + at, part_[side]);
          if (!a.same[side]) {
            a.hash[side] = HashBytes(bytes, part_[side]);
            halves_[side]->PrefetchSlot(a.hash[side]);
          }
        }
      };
      for (std::size_t i = begin; i < end && i < begin + kHalfAhead; ++i) {
        ask(i);
      }
      for (std::size_t i = begin; i < end; ++i) {
        if (i + kHalfAhead < end) ask(i + kHalfAhead);
        const Ahead& a = ahead[i % kHalfRing];
        std::uint8_t* record = records_.at(first + i);
        for (std::size_t side = 0; side < 2; ++side) {
          const std::size_t at = side == 0 ? 0 : part_[0];
          const std::uint8_t* bytes = keys[i] + at;
          std::uint64_t hash = 0;
          if (!held[side] || !a.same[side]) {
            hash = a.same[side] ? HashBytes(bytes, part_[side]) : a.hash[side];
            const std::optional<std::uint32_t> found =
                halves_[side]->Find(bytes, hash);
            held[side] = found.has_value();
            if (found) half[side] = *found;
          }
          if (held[side]) {
            WriteIndex(record + (side == 0 ? 0 : index_bytes_[0]), half[side],
                       index_bytes_[side]);
          } else {
            missing.push_back(
                NewHalf{static_cast<std::uint32_t>(2 * i + side), hash});
          }
        }
      }
    });
    new_halves_first_ = first;
    new_halves_keys_ = &keys;
    for (std::size_t j = 0; j < runs; ++j) {
      new_halves_.insert(new_halves_.end(), missing_[j].begin(),
                         missing_[j].end());
    }
  }
  // The serial part of SetMany (see SetKnownHalves).
  void AddNewHalves() {
    for (const NewHalf& h : new_halves_) {
      const std::size_t side = h.half % 2;
      const std::uint8_t* key = (*new_halves_keys_)[h.half / 2];
      const std::uint32_t half =
          halves_[side]
              ->InsertOne(key + (side == 0 ? 0 : part_[0]), h.hash)
              .first;
      WriteIndex(records_.at(new_halves_first_ + h.half / 2) +
                     (side == 0 ? 0 : index_bytes_[0]),
                 half, index_bytes_[side]);
    }
    new_halves_.clear();
    new_halves_keys_ = nullptr;  // the caller's, not kept past this
  }

  // A candidate the last Deduplicate of a shard found fresh, and where its
  // entry sits.
  struct Pending {
    std::uint32_t chunk, candidate;
    IdTable::Slot slot;
    const std::uint8_t* key;
  };
  // The candidates the last Deduplicate of `shard` found fresh, in the
  // order it met them (so by chunk, then by candidate).
  std::span<const Pending> Fresh(std::size_t shard) const {
    return shards_[shard].pending;
  }

  // Gives the shard's fresh entries of the last Deduplicate their ids:
  // `id_of(chunk, candidate)`, or kNoId for one that was not stored
  // (its entry then stays provisional; the search is over).
  template <class IdOf>
  void Renumber(std::size_t shard, IdOf id_of) {
    shards_[shard].table.ReserveIds(size());
    for (const Pending& p : shards_[shard].pending) {
      const std::uint32_t id = id_of(p.chunk, p.candidate);
      if (id != kNoId) shards_[shard].table.SetId(p.slot, id);
    }
  }

  // Whether an id Deduplicate wrote to `found` is provisional, and the
  // (chunk, candidate) that was fresh with that key: the key's id is the
  // one that candidate was given.
  static bool IsProvisional(std::uint32_t id) { return (id & kPending) != 0; }
  std::pair<std::uint32_t, std::uint32_t> FreshCandidate(
      std::uint64_t hash, std::uint32_t provisional) const {
    const Pending& p = shards_[ShardOf(hash)].pending[provisional & ~kPending];
    return {p.chunk, p.candidate};
  }

  // The store's size: records, tables, and (split) the tables of halves.
  // A split store keeps, for each key, an index into a table of the
  // distinct first halves (the key's first width / 2 bytes) and one into a
  // table of the distinct second halves, each of 2 to 4 bytes as those
  // tables need. States of one search share most of their halves, so
  // this is far smaller than the keys; a store whose halves, once it has
  // kSplitReview keys, take more than the keys whole would, keeps them
  // whole from then on.
  std::size_t Bytes() const {
    std::size_t bytes = records_.Bytes() + HalvesBytes();
    for (const Shard& s : shards_) bytes += s.table.Bytes();
    return bytes;
  }
  // All it holds: Bytes() and the bookkeeping a deduplication keeps for
  // the next one.
  std::size_t HeldBytes() const {
    std::size_t bytes = Bytes();
    for (const Shard& s : shards_)
      bytes += s.pending.capacity() * sizeof(Pending);
    return bytes;
  }
  // At most what HeldBytes() would be during a Deduplicate of `incoming[s]`
  // candidates for each shard s, counting the old slots a growing table
  // holds while it moves them (one table at a time per thread; counted
  // for the largest).
  std::size_t BytesToDeduplicate(
      const std::array<std::size_t, kShards>& incoming) const {
    std::size_t bytes = records_.Bytes() + HalvesBytes(), moving = 0;
    for (std::size_t s = 0; s < kShards; ++s) {
      const std::size_t after = shards_[s].table.BytesAfterReserve(incoming[s]);
      if (after != shards_[s].table.Bytes()) {
        moving = std::max(moving, shards_[s].table.Bytes());
      }
      std::size_t pending = shards_[s].pending.capacity();
      while (pending < incoming[s])
        pending = std::max<std::size_t>(1, pending * 2);
      bytes += after + pending * sizeof(Pending);
    }
    return bytes + moving;
  }
  // Ids that fit without allocating, and what HeldBytes() would be after
  // Resize(n). (For a split store: with the records' indices as wide as
  // Resize would make them, and the tables of halves as they are now;
  // they grow by far less than the records in a search.)
  std::size_t Capacity() const { return records_.capacity(); }
  std::size_t BytesAfterResize(std::size_t n) const {
    std::size_t record = records_.width(), halves = HalvesBytes();
    if (Joins(n)) {
      record = width_;  // and the halves are dropped, a block at a time
      halves = 0;
    } else if (split_) {
      const std::size_t more = n > size() ? n - size() : 0;
      record = IndexBytesFor(halves_[0]->size() + more) +
               IndexBytesFor(halves_[1]->size() + more);
    }
    std::size_t bytes = records_.BytesAfterResize(n, record) + halves;
    for (std::size_t s = 0; s < kShards; ++s) {
      bytes += shards_[s].table.Bytes() +
               shards_[s].pending.capacity() * sizeof(Pending);
    }
    return bytes;
  }

 private:
  static constexpr std::uint32_t kPending = 1u << 31;
  // Asks for the stored record behind the slot where a lookup of `hash` in
  // `table` starts, if that slot's tag is hash's (a hint: nothing changes).
  void PrefetchKeyIn(const IdTable& table, std::uint64_t hash) const {
    const auto id = table.FirstMatch(hash);
    if (id && *id < size()) PrefetchLine(records_.at(*id));
  }
  // A place in the candidates of chunks 0 .. chunks - 1, taken in order
  // (`of(c)` gives chunk c's), passing over empty lists.
  template <class CandidatesOf>
  class CandidateCursor {
   public:
    CandidateCursor(const CandidatesOf& of, std::size_t chunks)
        : of_(of), chunks_(chunks) {
      Settle();
    }
    bool valid() const { return chunk_ < chunks_; }
    std::size_t chunk() const { return chunk_; }
    const Candidates& candidates() const { return in_; }
    std::uint32_t candidate() const { return in_.indices[i_]; }
    void Next() {
      ++i_;
      Settle();
    }

   private:
    // Moves to the next chunk with a candidate left, if at the end of one.
    void Settle() {
      while (i_ >= in_.indices.size()) {
        if (++chunk_ >= chunks_) {
          chunk_ = chunks_;
          return;
        }
        in_ = of_(chunk_);
        i_ = 0;
      }
    }
    const CandidatesOf& of_;
    std::size_t chunks_;
    std::size_t chunk_ = std::numeric_limits<std::size_t>::max();  // none yet
    std::size_t i_ = 0;
    Candidates in_{};
  };
  // What a table asks of its keys when it grows: an id's hash. (An entry
  // left provisional by a search that stopped names no key of its own:
  // where it goes does not matter, as a lookup that meets it compares the
  // key stored under that id, if any, and a match is then that key's.)
  struct KeyHashes {
    explicit KeyHashes(const VisitedStore& s)
        : store(s), buffer(s.split_ ? s.width_ : 0) {}
    const VisitedStore& store;
    mutable std::vector<std::uint8_t> buffer;
    std::uint64_t Hash(std::uint32_t id) const {
      if (id >= store.size()) return 0;
      return HashBytes(store.Key(id, buffer.data()), store.width_);
    }
    void Prefetch(std::uint32_t id) const {
      if (id < store.size()) PrefetchLine(store.records_.at(id));
    }
  };

  // The bytes an index needs to tell `n` halves apart.
  static std::size_t IndexBytesFor(std::size_t n) {
    std::size_t bytes = 2;
    while (bytes < 4 && n > (std::size_t{1} << (8 * bytes))) ++bytes;
    return bytes;
  }
  // memcpy of a few bytes, without a call: overlapping words.
  static void CopyBytes(std::uint8_t* to, const std::uint8_t* from,
                        std::size_t n) {
    if (n >= 8) {
      std::uint64_t w;
      for (std::size_t i = 0; i + 8 < n; i += 8) {
        std::memcpy(&w, from + i, 8);
        std::memcpy(to + i, &w, 8);
      }
      std::memcpy(&w, from + n - 8, 8);
      std::memcpy(to + n - 8, &w, 8);
    } else if (n >= 4) {
      std::uint32_t low, high;
      std::memcpy(&low, from, 4);
      std::memcpy(&high, from + n - 4, 4);
      std::memcpy(to, &low, 4);
      std::memcpy(to + n - 4, &high, 4);
    } else {
      for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
    }
  }
  static std::uint32_t ReadIndex(const std::uint8_t* at, std::size_t bytes) {
    std::uint32_t v = at[0] | (std::uint32_t{at[1]} << 8);
    if (bytes > 2) v |= std::uint32_t{at[2]} << 16;
    if (bytes > 3) v |= std::uint32_t{at[3]} << 24;
    return v;
  }
  static void WriteIndex(std::uint8_t* at, std::uint32_t v, std::size_t bytes) {
    for (std::size_t b = 0; b < bytes; ++b)
      at[b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  // The bytes of side `side`'s half of the key whose record is `record`.
  const std::uint8_t* Half(std::size_t side, const std::uint8_t* record) const {
    const std::size_t at = side == 0 ? 0 : index_bytes_[0];
    return halves_[side]->records_.at(
        ReadIndex(record + at, index_bytes_[side]));
  }
  void SetHalf(std::size_t side, std::uint32_t id, const std::uint8_t* key) {
    const std::uint32_t half =
        halves_[side]->InsertOne(key + (side == 0 ? 0 : part_[0])).first;
    WriteIndex(records_.at(id) + (side == 0 ? 0 : index_bytes_[0]), half,
               index_bytes_[side]);
  }
  // Whether Resize(n) makes a split store keep whole keys: it passes
  // kSplitReview keys, and its halves take more than whole keys would.
  bool Joins(std::size_t n) const {
    return split_ && size() < kSplitReview && n >= kSplitReview &&
           HalvesBytes() + records_.Bytes() > size() * width_;
  }
  std::size_t HalvesBytes() const {
    return split_ ? halves_[0]->Bytes() + halves_[1]->Bytes() : 0;
  }
  // Rewrites every record as one of `width` bytes, write(i, to) writing
  // record i's new bytes (it may read the old record i), a block at a
  // time: each old block is freed once rewritten.
  template <class Write>
  void Rewrite(std::size_t width, Write write) {
    RecordBlocks next(width);
    for (std::size_t b = 0; b * RecordBlocks::kPerBlock < size(); ++b) {
      const std::size_t end =
          std::min(size(), (b + 1) * RecordBlocks::kPerBlock);
      next.Resize(end);
      for (std::size_t i = b * RecordBlocks::kPerBlock; i < end; ++i) {
        write(i, next.at(i));
      }
      records_.ReleaseBlock(b);
    }
    records_ = std::move(next);
  }
  // Rewrites every record with indices of `bytes` bytes.
  void Repack(const std::array<std::size_t, 2>& bytes) {
    Rewrite(bytes[0] + bytes[1], [&](std::size_t i, std::uint8_t* to) {
      const std::uint8_t* from = records_.at(i);
      WriteIndex(to, ReadIndex(from, index_bytes_[0]), bytes[0]);
      WriteIndex(to + bytes[0],
                 ReadIndex(from + index_bytes_[0], index_bytes_[1]), bytes[1]);
    });
    index_bytes_ = bytes;
  }
  // Keeps every key whole from now on.
  void Join() {
    Rewrite(width_, [&](std::size_t i, std::uint8_t* to) {
      CopyKey(static_cast<std::uint32_t>(i), to);
    });
    split_ = false;
    halves_ = {};
  }

  std::size_t width_;
  bool split_ = false;
  std::array<std::size_t, 2> part_{};         // split: each half's bytes
  std::array<std::size_t, 2> index_bytes_{};  // split: each index's bytes
  RecordBlocks records_;  // by id: the key, or (split) its two indices
  std::array<std::unique_ptr<VisitedStore>, 2> halves_;
  // A half SetKnownHalves left to AddNewHalves (2 * key + side, the key
  // keys[key] of that call, which is record first + key) and its hash.
  struct NewHalf {
    std::uint32_t half;
    std::uint64_t hash;
  };
  // By run of SetKnownHalves: the halves it left (kept from call to call),
  // then all of them in order, and the call's first and keys.
  std::vector<std::vector<NewHalf>> missing_;
  std::vector<NewHalf> new_halves_;
  std::uint32_t new_halves_first_ = 0;
  const std::vector<const std::uint8_t*>* new_halves_keys_ = nullptr;
  // Each shard's index and its candidates pending in one cache line of its
  // own: threads deduplicating neighbouring shards at once write them.
  struct alignas(64) Shard {
    IdTable table;
    std::vector<Pending> pending;
  };
  std::array<Shard, kShards> shards_;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_VISITED_STORE_H_
