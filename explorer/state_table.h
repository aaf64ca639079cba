// An open-addressing hash table of state ids, the index of the visited
// store: it finds the id of a stored encoding, or takes a new one.
//
// A slot is 64 bits: the high 32 are bits of the state's hash (a tag, which
// also places the entry when the table grows, so growing never reads the
// states), the low 32 are id + 1 (0: empty). Linear probing; the capacity
// is a power of two and the load stays at most 7/10. The table holds ids
// only; the caller says whether the state behind an id equals the one it
// looks for. Not thread-safe; the explorer gives each thread its own
// tables (see breadth_first_search.h).

#ifndef OUTBOX_CHECK_EXPLORER_STATE_TABLE_H_
#define OUTBOX_CHECK_EXPLORER_STATE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "explorer/prefetch.h"

namespace oc::explorer {

class StateTable {
 public:
  // Where an id sits, so that it can be renumbered (SetId) later.
  using Slot = std::size_t;

  std::size_t size() const { return size_; }
  std::size_t Bytes() const {
    return slots_.capacity() * sizeof(std::uint64_t);
  }

  // Makes room for `more` further entries without growing in between.
  void Reserve(std::size_t more) {
    const std::size_t capacity = CapacityFor(size_ + more, slots_.size());
    if (capacity != slots_.size()) Grow(capacity);
  }
  // What Bytes() would be after Reserve(more). (Growing holds the old
  // slots too while it moves them.)
  std::size_t BytesAfterReserve(std::size_t more) const {
    return CapacityFor(size_ + more, slots_.size()) * sizeof(std::uint64_t);
  }
  // Bytes() of a table that holds `entries`, reserved at once.
  static std::size_t BytesFor(std::size_t entries) {
    return CapacityFor(entries, 0) * sizeof(std::uint64_t);
  }

  // Asks the processor to bring into cache the slot where a lookup of
  // `hash` starts (a hint: nothing changes).
  void Prefetch(std::uint64_t hash) const {
    if (slots_.empty()) return;
    PrefetchLine(slots_.data() +
                 (static_cast<std::size_t>(hash >> 32) & (slots_.size() - 1)));
  }
  // The id in the slot where a lookup of `hash` starts, if that slot's tag
  // is hash's: the entry a lookup most likely compares first.
  std::optional<std::uint32_t> FirstMatch(std::uint64_t hash) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint64_t tag = hash >> 32;
    const std::uint64_t entry =
        slots_[static_cast<std::size_t>(tag) & (slots_.size() - 1)];
    if (entry == 0 || (entry >> 32) != tag) return std::nullopt;
    return static_cast<std::uint32_t>(entry) - 1;
  }

  // The id of an entry with this hash for which same(id) holds, if any.
  template <class Same>
  std::optional<std::uint32_t> Find(std::uint64_t hash, Same same) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint64_t tag = hash >> 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(tag) & mask;;
         i = (i + 1) & mask) {
      const std::uint64_t entry = slots_[i];
      if (entry == 0) return std::nullopt;
      if ((entry >> 32) == tag) {
        const auto found = static_cast<std::uint32_t>(entry) - 1;
        if (same(found)) return found;
      }
    }
  }

  // The id of an entry with this hash for which same(id) holds, and false;
  // or, when there is none, inserts `id` and returns it with true. Either
  // way `*slot` says where the entry sits.
  // REQUIRES: room for one more entry (Reserve), id < 2^32 - 1.
  template <class Same>
  std::pair<std::uint32_t, bool> FindOrInsert(std::uint64_t hash,
                                              std::uint32_t id, Same same,
                                              Slot* slot) {
    const std::uint64_t tag = hash >> 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(tag) & mask;;
         i = (i + 1) & mask) {
      const std::uint64_t entry = slots_[i];
      if (entry == 0) {
        slots_[i] = (tag << 32) | (static_cast<std::uint64_t>(id) + 1);
        ++size_;
        *slot = i;
        return {id, true};
      }
      if ((entry >> 32) == tag) {
        const auto found = static_cast<std::uint32_t>(entry) - 1;
        if (same(found)) {
          *slot = i;
          return {found, false};
        }
      }
    }
  }

  // Renumbers the entry at `slot`. REQUIRES: no growth since it was placed.
  void SetId(Slot slot, std::uint32_t id) {
    slots_[slot] = (slots_[slot] & ~std::uint64_t{0xffffffff}) |
                   (static_cast<std::uint64_t>(id) + 1);
  }

 private:
  static std::size_t CapacityFor(std::size_t entries, std::size_t now) {
    std::size_t capacity = now == 0 ? 16 : now;
    while (entries * 10 > capacity * 7) capacity *= 2;
    return capacity;
  }
  void Grow(std::size_t capacity) {
    std::vector<std::uint64_t> old(capacity, 0);
    old.swap(slots_);
    const std::size_t mask = capacity - 1;
    for (std::uint64_t entry : old) {
      if (entry == 0) continue;
      std::size_t i = static_cast<std::size_t>(entry >> 32) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = entry;
    }
  }

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_STATE_TABLE_H_
