// The visited store's 32-bit index on its own: ids kept through growth
// (which hashes the keys again) and through the widening of the id field,
// the tag that spares key comparisons, and the store's provisional ids
// across a widening.

#include "explorer/id_table.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "explorer/visited_store.h"

namespace {

using oc::explorer::IdTable;
using oc::explorer::VisitedStore;

// Keys are numbers; a key's hash is a fixed mix of it.
std::uint64_t Mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Keys {
  std::vector<std::uint64_t> of_id;
  mutable std::uint64_t hashed = 0;
  std::uint64_t Hash(std::uint32_t id) const {
    ++hashed;
    return Mix(of_id.at(id));
  }
  void Prefetch(std::uint32_t id) const { (void)of_id.at(id); }
};

std::optional<std::uint32_t> Lookup(const IdTable& table, const Keys& keys,
                                    std::uint64_t key) {
  return table.Find(Mix(key),
                    [&](std::uint32_t id) { return keys.of_id.at(id) == key; });
}

TEST_CASE("ids stay found while the table grows and its id field widens") {
  IdTable table;
  Keys keys;
  const int first_bits = table.id_bits();
  for (std::uint64_t key = 1000; key < 1000 + 70'000; ++key) {
    const auto id = static_cast<std::uint32_t>(keys.of_id.size());
    table.Reserve(1, keys);
    table.ReserveIds(std::uint64_t{id} + 1);
    IdTable::Slot slot;
    const auto [found, fresh] = table.FindOrInsert(
        Mix(key), id,
        [&](std::uint32_t other) { return keys.of_id.at(other) == key; },
        &slot);
    REQUIRE(fresh);
    REQUIRE(found == id);
    keys.of_id.push_back(key);
  }
  // 70,000 ids need 17 bits; growing read the keys' hashes again.
  CHECK(table.id_bits() == 17);
  CHECK(table.id_bits() > first_bits);
  CHECK(keys.hashed > 0);
  CHECK(table.size() == 70'000);
  CHECK(table.Bytes() >= 70'000 * 4 * 10 / 7);
  CHECK(table.Bytes() < 70'000 * 8 * 10 / 7);
  for (std::uint64_t key = 1000; key < 1000 + 70'000; ++key) {
    REQUIRE(Lookup(table, keys, key) ==
            std::optional<std::uint32_t>(key - 1000));
  }
  CHECK_FALSE(Lookup(table, keys, 999).has_value());
  CHECK_FALSE(Lookup(table, keys, 1000 + 70'000).has_value());
}

TEST_CASE("an entry's tag spares comparing keys of other hashes") {
  IdTable table;
  Keys keys;
  table.Reserve(2, keys);
  IdTable::Slot slot;
  int compared = 0;
  auto never = [&](std::uint32_t) {
    ++compared;
    return false;
  };
  // Both hashes start at the same slot (bits 32 and up) and differ in the
  // tag (the low bits above the id field).
  const std::uint64_t a = 0x0000'0001'8000'0000, b = 0x0000'0001'4000'0000;
  table.FindOrInsert(a, 0, never, &slot);
  CHECK(compared == 0);
  CHECK_FALSE(table.Find(b, never).has_value());
  CHECK(compared == 0);
  // With the same hash, the key decides.
  CHECK_FALSE(table.Find(a, never).has_value());
  CHECK(compared == 1);
  CHECK(table.FirstMatch(a) == std::optional<std::uint32_t>(0));
  CHECK_FALSE(table.FirstMatch(b).has_value());
}

TEST_CASE("a renumbered entry keeps its tag when the id field widens") {
  IdTable table;
  Keys keys;
  table.Reserve(1, keys);
  IdTable::Slot slot;
  const std::uint64_t hash = 0xabcd'ef01'2345'6789;
  table.FindOrInsert(
      hash, 3, [](std::uint32_t) { return false; }, &slot);
  table.ReserveIds(1u << 20);
  table.SetId(slot, (1u << 20) - 1);
  CHECK(table.FirstMatch(hash) == std::optional<std::uint32_t>((1u << 20) - 1));
  CHECK(table.Find(hash, [](std::uint32_t id) { return id == (1u << 20) - 1; })
            .has_value());
}

TEST_CASE("provisional ids of a batch cross the widening of the id field") {
  // 250 keys stored one at a time, then a batch of 100 more with repeats:
  // the batch's provisional ids run past 255, the first width's end.
  VisitedStore store(2);
  auto key_of = [](unsigned n) {
    return std::vector<std::uint8_t>{static_cast<std::uint8_t>(n & 0xff),
                                     static_cast<std::uint8_t>(n >> 8)};
  };
  for (unsigned n = 0; n < 250; ++n) {
    REQUIRE(store.InsertOne(key_of(n).data()).second);
  }
  std::vector<std::uint8_t> keys;
  for (unsigned i = 0; i < 200; ++i) {
    const auto k = key_of(200 + i / 2);  // 200 .. 299, each twice
    keys.insert(keys.end(), k.begin(), k.end());
  }
  const std::size_t n = keys.size() / 2;
  std::vector<std::uint64_t> hashes(n);
  std::vector<std::uint32_t> by_shard[VisitedStore::kShards];
  for (std::uint32_t k = 0; k < n; ++k) {
    hashes[k] = oc::explorer::HashBytes(&keys[2 * k], 2);
    by_shard[VisitedStore::ShardOf(hashes[k])].push_back(k);
  }
  std::vector<std::uint8_t> fresh(n, 0);
  std::vector<std::uint32_t> found(n, VisitedStore::kNoId);
  for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
    store.Deduplicate(s, by_shard[s].size(), 1, [&](std::size_t) {
      return VisitedStore::Candidates{by_shard[s], keys.data(), hashes.data(),
                                      fresh.data(), found.data()};
    });
  }
  // Fresh: the first copy of each of 250 .. 299. The second copy of those
  // is provisional and names its first; 200 .. 249 are found stored.
  std::vector<std::uint32_t> ids(n, VisitedStore::kNoId);
  std::uint32_t next = 250;
  for (std::uint32_t k = 0; k < n; ++k) {
    const unsigned key = 200 + k / 2;
    if (key < 250) {
      CHECK_FALSE(fresh[k]);
      CHECK(found[k] == key);
    } else if (k % 2 == 0) {
      CHECK(fresh[k]);
      ids[k] = next++;
    } else {
      CHECK_FALSE(fresh[k]);
      REQUIRE(VisitedStore::IsProvisional(found[k]));
      CHECK(store.FreshCandidate(hashes[k], found[k]) ==
            std::pair<std::uint32_t, std::uint32_t>{0, k - 1});
    }
  }
  store.Resize(300);
  for (std::uint32_t k = 0; k < n; ++k) {
    if (fresh[k]) store.Set(ids[k], &keys[2 * k]);
  }
  for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
    store.Renumber(s, [&](std::size_t, std::uint32_t k) { return ids[k]; });
  }
  for (unsigned key = 0; key < 300; ++key) {
    const auto k = key_of(key);
    CHECK(store.Find(k.data(), oc::explorer::HashBytes(k.data(), 2)) ==
          std::optional<std::uint32_t>(key));
  }
  const auto absent = key_of(300);
  CHECK(store.InsertOne(absent.data()).second);
  CHECK(store.size() == 301);
}

}  // namespace
