// The visited set for models that encode their states as fixed-length
// bytes: states are stored packed end to end in one array and decoded when
// the search needs them, so a stored state costs its encoding (tens of
// bytes) rather than a State object with its heap data.
//
// Same contract as VisitedSet (dense ids in insertion order, parent links,
// parent(id) < id), except that state(id) returns a decoded copy. Hashing
// and equality work on the bytes, which the model guarantees canonical.
// Not thread-safe.

#ifndef OUTBOX_CHECK_EXPLORER_PACKED_VISITED_SET_H_
#define OUTBOX_CHECK_EXPLORER_PACKED_VISITED_SET_H_

#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "explorer/model_concept.h"

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
  std::uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// REQUIRES: EncodesStates<M> (not a constraint, so that the name can be
// used in std::conditional_t for any model).
template <class M>
class PackedVisitedSet {
 public:
  using State = typename M::State;
  using Action = typename M::Action;
  using Id = std::uint32_t;
  static constexpr Id kNoParent = std::numeric_limits<Id>::max();

  explicit PackedVisitedSet(const M& model)
      : model_(model),
        stride_(model.EncodedSize()),
        scratch_(stride_),
        set_(0, IdHash{this}, IdEqual{this}) {}
  PackedVisitedSet(const PackedVisitedSet&) = delete;
  PackedVisitedSet& operator=(const PackedVisitedSet&) = delete;

  // As VisitedSet::Insert; the fingerprint and heap size are not needed.
  std::optional<Id> Insert(const State& state, std::uint64_t, Id parent,
                           const Action& action, std::size_t = 0) {
    model_.Encode(state, scratch_.data());
    const Probe probe{scratch_.data(), HashBytes(scratch_.data(), stride_)};
    if (set_.find(probe) != set_.end()) return std::nullopt;
    const Id id = static_cast<Id>(parents_.size());
    bytes_.insert(bytes_.end(), scratch_.begin(), scratch_.end());
    parents_.push_back(parent);
    actions_.push_back(action);
    set_.insert(id);
    return id;
  }

  std::optional<Id> Find(const State& state, std::uint64_t) const {
    std::vector<std::uint8_t> bytes(stride_);
    model_.Encode(state, bytes.data());
    const auto it =
        set_.find(Probe{bytes.data(), HashBytes(bytes.data(), stride_)});
    if (it == set_.end()) return std::nullopt;
    return *it;
  }

  std::size_t size() const { return parents_.size(); }
  State state(Id id) const { return model_.Decode(At(id)); }
  Id parent(Id id) const { return parents_[id]; }
  const Action& action(Id id) const { return actions_[id]; }

  std::size_t Bytes() const {
    return bytes_.capacity() + parents_.capacity() * sizeof(Id) +
           actions_.capacity() * sizeof(Action) +
           set_.bucket_count() * (sizeof(Id) + 1);
  }

 private:
  struct Probe {
    const std::uint8_t* bytes;
    std::uint64_t hash;
  };
  struct IdHash {
    using is_transparent = void;
    using is_avalanching = void;
    const PackedVisitedSet* self;
    std::size_t operator()(Id id) const {
      return HashBytes(self->At(id), self->stride_);
    }
    std::size_t operator()(const Probe& p) const { return p.hash; }
  };
  struct IdEqual {
    using is_transparent = void;
    const PackedVisitedSet* self;
    bool operator()(Id a, Id b) const { return a == b; }
    bool operator()(const Probe& p, Id id) const { return Same(p, id); }
    bool operator()(Id id, const Probe& p) const { return Same(p, id); }
    bool Same(const Probe& p, Id id) const {
      return std::memcmp(p.bytes, self->At(id), self->stride_) == 0;
    }
  };

  const std::uint8_t* At(Id id) const {
    return bytes_.data() + static_cast<std::size_t>(id) * stride_;
  }

  const M& model_;
  std::size_t stride_;
  std::vector<std::uint8_t> scratch_;  // the candidate being inserted
  std::vector<std::uint8_t> bytes_;    // stride_ bytes per id
  std::vector<Id> parents_;
  std::vector<Action> actions_;
  boost::unordered_flat_set<Id, IdHash, IdEqual> set_;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_PACKED_VISITED_SET_H_
