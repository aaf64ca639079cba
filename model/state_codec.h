// A fixed-length byte encoding of States of one configuration, so that a
// visited set can store states packed end to end instead of as structs of
// vectors (about 50 bytes instead of about 300 for the benchmarks).
//
// Every field of the State is one byte, in declaration order, except a
// projection version, which is two (little-endian). The encoding is
// canonical: equal states have equal bytes and different states different
// bytes, so bytes can be hashed and compared in place of states.

#ifndef OUTBOX_CHECK_MODEL_STATE_CODEC_H_
#define OUTBOX_CHECK_MODEL_STATE_CODEC_H_

#include <cstddef>
#include <cstdint>

#include "model/state.h"

namespace oc {

class StateCodec {
 public:
  // `shape` gives the sizes of the state's vectors; every state encoded or
  // decoded later must have the same sizes.
  explicit StateCodec(const State& shape);

  std::size_t size() const { return size_; }

  // Writes size() bytes to `out`. REQUIRES: `s` has the shape's sizes.
  void Encode(const State& s, std::uint8_t* out) const;
  // REQUIRES: `in` holds size() bytes written by Encode.
  State Decode(const std::uint8_t* in) const;

 private:
  State shape_;
  std::size_t size_ = 0;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_STATE_CODEC_H_
