// The index of the visited store: an open-addressing hash table of ids in
// 32-bit slots, half the size of StateTable's.
//
// A slot holds id + 1 in its low `id_bits` bits (0: empty) and, above
// them, bits of the low half of the state's hash as a tag, so that most
// slots of other states are passed without reading their keys. The table
// widens `id_bits` (and narrows the tag) as the ids it must hold grow:
// with 30 million ids a tag has 7 bits, with 40 million 6. A slot has no room
// to keep the bits that place its entry, so growing asks the owner for each
// id's hash again (HashOf), from the stored key. The home slot of a hash is
// bits 32 and up of it; linear probing; the capacity is a power of two and the
// load stays at most 7/10. The caller says whether the state behind an id
// equals the one it looks for. Not thread-safe.

#ifndef OUTBOX_CHECK_EXPLORER_ID_TABLE_H_
#define OUTBOX_CHECK_EXPLORER_ID_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "explorer/prefetch.h"

namespace oc::explorer {

class IdTable {
 public:
  // Where an id sits, so that it can be renumbered (SetId) later.
  using Slot = std::size_t;
  // Ids (and every value passed as one) stay below this.
  static constexpr std::uint64_t kIdLimit = (std::uint64_t{1} << 32) - 1;

  std::size_t size() const { return size_; }
  std::size_t Bytes() const {
    return slots_.capacity() * sizeof(std::uint32_t);
  }
  int id_bits() const { return id_bits_; }

  // Makes room for ids below `limit`: widens the id field of every slot
  // when it is too narrow (the tag loses its lowest bits; nothing moves).
  void ReserveIds(std::uint64_t limit) {
    int bits = id_bits_;
    while (bits < 32 && (std::uint64_t{1} << bits) - 1 < limit) ++bits;
    if (bits == id_bits_) return;
    const std::uint32_t keep = ~LowBits(bits);
    const std::uint32_t value = LowBits(id_bits_);
    for (std::uint32_t& s : slots_) s = (s & keep) | (s & value);
    id_bits_ = bits;
  }

  // Makes room for `more` further entries without growing in between.
  // `ids` gives the hash of each stored id (ids.Hash(id)), and may be asked
  // to bring an id's key into cache first (ids.Prefetch(id)).
  template <class HashOf>
  void Reserve(std::size_t more, const HashOf& ids) {
    const std::size_t capacity = CapacityFor(size_ + more, slots_.size());
    if (capacity != slots_.size()) Grow(capacity, ids);
  }
  // What Bytes() would be after Reserve(more). (Growing holds the old
  // slots too while it moves them.)
  std::size_t BytesAfterReserve(std::size_t more) const {
    return CapacityFor(size_ + more, slots_.size()) * sizeof(std::uint32_t);
  }

  // Asks the processor to bring into cache the slot where a lookup of
  // `hash` starts (a hint: nothing changes).
  void Prefetch(std::uint64_t hash) const {
    if (mask_ == 0) return;
    PrefetchLine(slots_.data() + Home(hash));
  }
  // The id in the slot where a lookup of `hash` starts, if that slot's tag
  // is hash's: the entry a lookup most likely compares first.
  std::optional<std::uint32_t> FirstMatch(std::uint64_t hash) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint32_t entry = slots_[Home(hash)];
    if (entry == 0 || (entry & ~LowBits(id_bits_)) != Tag(hash)) {
      return std::nullopt;
    }
    return (entry & LowBits(id_bits_)) - 1;
  }

  // The id of an entry with this hash for which same(id) holds, if any.
  template <class Same>
  std::optional<std::uint32_t> Find(std::uint64_t hash, Same same) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint32_t tag = Tag(hash), value = LowBits(id_bits_);
    const std::size_t mask = mask_;
    for (std::size_t i = Home(hash);; i = (i + 1) & mask) {
      const std::uint32_t entry = slots_[i];
      if (entry == 0) return std::nullopt;
      if ((entry & ~value) == tag) {
        const std::uint32_t found = (entry & value) - 1;
        if (same(found)) return found;
      }
    }
  }

  // The id of an entry with this hash for which same(id) holds, and false;
  // or, when there is none, inserts `id` and returns it with true. Either
  // way `*slot` says where the entry sits.
  // REQUIRES: room for one more entry (Reserve), and for id (ReserveIds).
  template <class Same>
  std::pair<std::uint32_t, bool> FindOrInsert(std::uint64_t hash,
                                              std::uint32_t id, Same same,
                                              Slot* slot) {
    const std::uint32_t tag = Tag(hash), value = LowBits(id_bits_);
    const std::size_t mask = mask_;
    for (std::size_t i = Home(hash);; i = (i + 1) & mask) {
      const std::uint32_t entry = slots_[i];
      if (entry == 0) {
        slots_[i] = tag | (id + 1);
        ++size_;
        *slot = i;
        return {id, true};
      }
      if ((entry & ~value) == tag) {
        const std::uint32_t found = (entry & value) - 1;
        if (same(found)) {
          *slot = i;
          return {found, false};
        }
      }
    }
  }

  // Renumbers the entry at `slot`. REQUIRES: no growth since it was placed,
  // and room for id (ReserveIds).
  void SetId(Slot slot, std::uint32_t id) {
    slots_[slot] = (slots_[slot] & ~LowBits(id_bits_)) | (id + 1);
  }

 private:
  static std::uint32_t LowBits(int bits) {
    return static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);
  }
  std::uint32_t Tag(std::uint64_t hash) const {
    return static_cast<std::uint32_t>(hash) & ~LowBits(id_bits_);
  }
  std::size_t Home(std::uint64_t hash) const {
    return static_cast<std::size_t>(hash >> 32) & mask_;
  }
  static std::size_t CapacityFor(std::size_t entries, std::size_t now) {
    std::size_t capacity = now == 0 ? 16 : now;
    while (entries * 10 > capacity * 7) capacity *= 2;
    return capacity;
  }
  template <class HashOf>
  void Grow(std::size_t capacity, const HashOf& ids) {
    // Each key is read again to place its entry; keys a few entries on are
    // asked for early, so that those reads overlap.
    constexpr std::size_t kAhead = 8;
    std::vector<std::uint32_t> old(capacity, 0);
    old.swap(slots_);
    mask_ = capacity - 1;
    const std::uint32_t value = LowBits(id_bits_);
    for (std::size_t j = 0; j < old.size(); ++j) {
      if (j + kAhead < old.size() && old[j + kAhead] != 0) {
        ids.Prefetch((old[j + kAhead] & value) - 1);
      }
      const std::uint32_t entry = old[j];
      if (entry == 0) continue;
      std::size_t i = Home(ids.Hash((entry & value) - 1));
      while (slots_[i] != 0) i = (i + 1) & mask_;
      slots_[i] = entry;
    }
  }

  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0;  // slots_.size() - 1 (0: no slots yet)
  std::size_t size_ = 0;
  int id_bits_ = 8;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_ID_TABLE_H_
