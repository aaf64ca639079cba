// The hash of a packed state key, shared by the search (which keys its
// visited store by it) and by a model's encoder (which can hash a key
// while it writes it, from the words it holds in registers, instead of the
// search reading the key back).
//
// A key of n bytes is hashed as its length, then its whole 8-byte words in
// order, then its last n % 8 bytes as one little-endian word (0 when there
// are none). KeyHasher takes the words one at a time; HashBytes reads them
// from memory. Both give the same value for the same bytes, which is what
// lets an encoder and the search agree (a test holds them to it). The
// value is not stable across versions: nothing stores it.

#ifndef OUTBOX_CHECK_COMMON_KEY_HASH_H_
#define OUTBOX_CHECK_COMMON_KEY_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace oc {

class KeyHasher {
 public:
  // For a key of `n` bytes. The length is mixed in first, as a word of
  // its own: xored into the seed, a change of length could be undone by a
  // change of the first word.
  explicit KeyHasher(std::size_t n) : h_(0x9e3779b97f4a7c15ULL) { Word(n); }
  // The next whole word of the key, multiplied into the state.
  void Word(std::uint64_t w) {
    h_ = (h_ ^ w) * 0xff51afd7ed558ccdULL;
    h_ ^= h_ >> 29;
  }
  // The key's last n % 8 bytes as a little-endian word (0 if n % 8 is 0):
  // the hash, after splitmix64's finalizer.
  std::uint64_t Finish(std::uint64_t tail) const {
    std::uint64_t h = (h_ ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
  }

 private:
  std::uint64_t h_;
};

// The hash of the `n` bytes at `p`, as KeyHasher gives it.
inline std::uint64_t HashBytes(const std::uint8_t* p, std::size_t n) {
  KeyHasher hasher(n);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    hasher.Word(w);
    p += 8;
    n -= 8;
  }
  // The last 0 to 7 bytes, read without a call as a piece of four, one of
  // two and a byte, as far as each is needed. (A model's encoder writes a
  // key's last bytes in the same pieces: a load that matches a store just
  // made is served from it, while one that spans two waits for both.)
  std::uint64_t tail = 0;
  unsigned shift = 0;
  if (n & 4) {
    std::uint32_t four;
    std::memcpy(&four, p, 4);
    tail = four;
    p += 4;
    shift = 32;
  }
  if (n & 2) {
    std::uint16_t two;
    std::memcpy(&two, p, 2);
    tail |= std::uint64_t{two} << shift;
    p += 2;
    shift += 16;
  }
  if (n & 1) tail |= std::uint64_t{*p} << shift;
  return hasher.Finish(tail);
}

}  // namespace oc

#endif  // OUTBOX_CHECK_COMMON_KEY_HASH_H_
