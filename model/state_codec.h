// A fixed-length bit-packed encoding of the States of one configuration, so
// that a visited set can store states packed end to end: a dozen bytes for
// the benchmarks instead of a struct of vectors.
//
// Every field gets as many bits as its largest reachable value needs, and
// that value is derived from the Config (docs/SEMANTICS.md section 1's bounds):
//  - a fencing token counts claims: at most 1 + X + C with a lease (a
//    lease expires early only by the premature budget, or after its relay
//    crashed), and never more than the claim bound;
//  - a broker or queue counter counts sends and redeliveries: at most the
//    token bound plus P + A + Q + V;
//  - tables a group's strategy never writes, and a lease column without
//    leases, take no bits at all;
//  - relay styles: with another relay style, a row is read again only after a
//    relay crash or a failed commit (1 + C + F reads), tokens stay 0, and
//    the commit flag, log places, cursor and read position take bits only
//    in the configurations that use them (0..E for places and offsets);
//    with age_sweeper each relay takes a row at most once per crash (R + C
//    sends), and the dispatch flag and the send clocks take bits only
//    there.
// Fields are packed in declaration order, least significant bit first.
// The encoding is canonical: equal states have equal bytes and different
// states different bytes, so bytes can be hashed and compared instead of
// states. Encode aborts (a broken internal contract, not an input error) if
// a value does not fit its width, so a wrong bound can never alias states.
//
// Bytes are written as whole 8-byte words and a tail of 4, 2 and 1, the
// pieces the visited store's hash reads. Where the processor has fast bit
// gather and scatter (BMI2 PEXT and PDEP), a step of several one-byte
// fields is packed or unpacked by one instruction; the bytes are the same.

#ifndef OUTBOX_CHECK_MODEL_STATE_CODEC_H_
#define OUTBOX_CHECK_MODEL_STATE_CODEC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/config.h"
#include "model/state.h"

namespace oc {

// A renaming of a State's relays, instances and events: new index from old
// (`*_to`) and old index from new (`*_from`). Instance indices are global
// (State::instances), and a renaming keeps each instance in its group.
struct Renaming {
  std::array<std::uint8_t, kMaxEvents> event_to, event_from;
  std::array<std::uint8_t, kMaxRelays> relay_to, relay_from;
  // Instances by index over all groups; a renaming moves an instance
  // within its group only. `instance_to` renames the partitioned broker's
  // owner cells, which name an instance of their group.
  std::array<std::uint8_t, kMaxGroups * kMaxInstances> instance_from,
      instance_to;

  // The renaming that changes nothing.
  static Renaming Identity() {
    Renaming r;
    for (std::size_t i = 0; i < r.event_to.size(); ++i) {
      r.event_to[i] = r.event_from[i] = static_cast<std::uint8_t>(i);
    }
    for (std::size_t i = 0; i < r.relay_to.size(); ++i) {
      r.relay_to[i] = r.relay_from[i] = static_cast<std::uint8_t>(i);
    }
    for (std::size_t i = 0; i < r.instance_from.size(); ++i) {
      r.instance_from[i] = r.instance_to[i] = static_cast<std::uint8_t>(i);
    }
    return r;
  }
};

class StateCodec {
 public:
  StateCodec() = default;
  // `shape` gives the sizes of the state's vectors; every state encoded or
  // decoded later must have the same sizes. REQUIRES: Validate(config).ok().
  // `count_cap` > 0: the configuration's counts are abstracted
  // (docs/SEMANTICS.md section 14), so copies and per-event counts never
  // pass count_cap and tokens never pass token_cap.
  StateCodec(const Config& config, const State& shape, int count_cap = 0,
             int token_cap = 0);

  // Bytes per encoded state, and the bits they hold.
  std::size_t size() const { return (bits_ + 7) / 8; }
  std::size_t bits() const { return bits_; }

  // Writes size() bytes to `out` (unused high bits of the last byte are 0).
  // REQUIRES: `s` has the shape's sizes and is reachable in the config.
  void Encode(const State& s, std::uint8_t* out) const;
  // Encode, and returns the key's HashBytes (common/key_hash.h), computed
  // from the words as they are written.
  std::uint64_t EncodeHashed(const State& s, std::uint8_t* out) const;
  // Encode of `s` renamed by `r`, without building the renamed State:
  // every cell moves to its new index and every reference to a relay or
  // an event follows. REQUIRES: as Encode; `r` is a renaming of s's shape.
  void EncodeRenamed(const State& s, const Renaming& r,
                     std::uint8_t* out) const;
  // REQUIRES: `in` holds size() bytes written by Encode.
  State Decode(const std::uint8_t* in) const;

  // Whether Encode and Decode pack and unpack a step's fields with the
  // processor's bit gather and scatter instructions (x86-64 BMI2, where
  // they are fast) rather than field by field. The bytes are the same.
  bool bit_instructions() const { return bit_instructions_; }
  // From now on, field by field (to compare the two ways).
  void UseFieldByField() { bit_instructions_ = false; }

 private:
  State shape_;
  int events_ = 0;
  int groups_ = 0;
  std::vector<int> instance_group_;  // group of each instance
  std::vector<int> group_first_;     // index of each group's first instance
  bool styles_ = false;  // the config uses the other relay styles' cells
  bool time_ = false;    // the config uses model/TIME.md's cells
  std::vector<UserTableLayout> user_;  // declared tables (usually none)
  int user_bias_ = 0;                  // added to a declared number to store it
  bool stages_ = false;  // some declared strategy has more than two steps
  // The partitioned broker: records each partition can hold (empty for
  // the bag); and whether applied_in_key_order's cells are kept.
  std::vector<int> capacity_;
  bool key_order_ = false;
  // The fields of more than 0 bits, in packing order, as a program that
  // Encode, EncodeRenamed and Decode run instead of walking every cell:
  // where the field lies in a State (under the identity renaming), which
  // renaming moves it and by how many bytes per index, and how its value
  // is stored. Fields of 0 bits keep the shape's value and take no step.
  struct FieldOp {
    std::uint32_t offset;  // bytes from the State's start
    std::uint16_t stride;  // bytes between the cells of consecutive indices
    std::uint8_t perm;     // 0 none, 1 events, 2 relays, 3 instances
    std::uint8_t index;    // the index `perm` renames
    std::uint8_t size;     // bytes of the stored value: 1, 2 or 4
    std::uint8_t convert;  // 0 as is, 1 relay + 1, 2 event + 1, 3 owner,
                           // 4 declared number (signed, with a bias)
    std::uint8_t width;    // bits in the encoding
    std::uint8_t first;    // with convert 3: the group's first instance
    std::uint32_t field;   // place in packing order, for an overflow's
                           // message
  };
  std::vector<FieldOp> program_;
  // The same program for the identity renaming, in steps: a step is
  // either one field of program_ (`count` 0), or up to eight one-byte
  // fields of one cell that lie within eight bytes of `offset` and take
  // at most 32 bits together, read as one word and packed in one go.
  struct Step {
    std::uint32_t offset;     // the word's first byte, from the State's start
    std::uint16_t op;         // program_'s index of the (first) field
    std::uint8_t count;       // fields packed from the word, 0: one field
    std::uint8_t bits;        // bits they take together
    std::uint64_t overflow;   // the word's bits that no field may have set
    std::uint64_t bits_mask;  // the word's bits that the fields take
    std::uint64_t byte_mask;  // the word's bytes that hold the fields
    // The word's other bytes as Decode finds them when it reaches this
    // step, if no earlier step writes them (they are then the shape's,
    // and Decode stores the word without reading it first).
    std::uint64_t rest;
    bool rest_known;
    std::array<std::uint8_t, 8> lane;   // each field's byte in the word
    std::array<std::uint8_t, 8> width;  // and its bits
  };
  std::vector<Step> steps_;
  void BuildSteps();
  void FindRests();
  template <bool kRenamed>
  unsigned Value(const FieldOp& op, const unsigned char* base,
                 const Renaming& r) const;
  template <bool kRenamed>
  void Run(const State& s, const Renaming& r, std::uint8_t* out) const;
  std::uint64_t StepWord(const Step& step, const unsigned char* base) const;
  void Store(const FieldOp& op, unsigned raw, unsigned char* base) const;
  // (A member template takes its instruction set from its declaration.)
  template <bool kHash>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  [[gnu::target("bmi2")]]
#endif
  std::uint64_t
  EncodeGathering(const State& s, std::uint8_t* out) const;
  State DecodeScattering(const std::uint8_t* in) const;
  State DecodeFieldByField(const std::uint8_t* in) const;
  bool bit_instructions_ = false;
  Renaming identity_ = Renaming::Identity();
  std::size_t bits_ = 0;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_STATE_CODEC_H_
