// The key hash: HashBytes and a KeyHasher fed word by word agree, and the
// hash tells apart keys that differ in one bit or in length.

#include "common/key_hash.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace oc {
namespace {

// Bytes that are not all alike, so that every position matters.
std::vector<std::uint8_t> SomeKey(std::size_t n) {
  std::vector<std::uint8_t> key(n);
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = static_cast<std::uint8_t>(i * 37 + 11);
  }
  return key;
}

TEST_CASE("a key hashed word by word hashes as HashBytes does") {
  for (std::size_t n = 0; n <= 40; ++n) {
    CAPTURE(n);
    const std::vector<std::uint8_t> key = SomeKey(n);
    KeyHasher hasher(n);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, key.data() + i, 8);
      hasher.Word(w);
    }
    // The last bytes as one little-endian word.
    std::uint64_t tail = 0;
    for (std::size_t j = 0; i + j < n; ++j) {
      tail |= std::uint64_t{key[i + j]} << (8 * j);
    }
    CHECK(hasher.Finish(tail) == HashBytes(key.data(), n));
  }
}

TEST_CASE("the key hash tells apart one flipped bit and another length") {
  std::set<std::uint64_t> hashes;
  std::size_t made = 0;
  for (std::size_t n = 0; n <= 24; ++n) {
    std::vector<std::uint8_t> key(n, 0);
    hashes.insert(HashBytes(key.data(), n));
    ++made;
    for (std::size_t bit = 0; bit < 8 * n; ++bit) {
      key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      hashes.insert(HashBytes(key.data(), n));
      key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      ++made;
    }
  }
  CHECK(hashes.size() == made);
  // The top six bits pick a store shard: keys that count up in their
  // first bytes spread over all 64.
  std::set<std::uint64_t> shards;
  for (std::uint32_t i = 0; i < 4096; ++i) {
    std::uint8_t key[12] = {};
    std::memcpy(key, &i, 4);
    shards.insert(HashBytes(key, sizeof key) >> 58);
  }
  CHECK(shards.size() == 64);
}

}  // namespace
}  // namespace oc
