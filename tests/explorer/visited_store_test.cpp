// The visited store's parts on their own: the hash table under forced
// collisions, the store's two-step insertion, and the worker pool.

#include "explorer/visited_store.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "explorer/block_array.h"
#include "explorer/state_table.h"
#include "explorer/worker_pool.h"

namespace {

using oc::explorer::StateTable;
using oc::explorer::VisitedStore;
using oc::explorer::WorkerPool;

TEST_CASE("keys that share one hash are still told apart") {
  std::vector<int> keys;  // id -> key
  StateTable table;
  for (int round = 0; round < 2; ++round) {
    for (int key = 0; key < 1000; ++key) {
      table.Reserve(1);
      StateTable::Slot slot;
      const auto id = static_cast<std::uint32_t>(keys.size());
      const auto [found, fresh] = table.FindOrInsert(
          42, id, [&](std::uint32_t other) { return keys[other] == key; },
          &slot);
      if (round == 0) {
        REQUIRE(fresh);
        keys.push_back(key);
      } else {
        CHECK_FALSE(fresh);
        CHECK(keys[found] == key);
      }
    }
  }
  CHECK(table.size() == 1000);
  CHECK(table.Bytes() >= 1000 * 8);
}

TEST_CASE("the store keeps the first of equal candidates, in order") {
  VisitedStore store(1);
  const std::uint8_t root = 7;
  REQUIRE(store.InsertOne(&root).second);
  CHECK_FALSE(store.InsertOne(&root).second);
  // One chunk of candidates 3, 7 (stored), 3 (again), 5.
  const std::vector<std::uint8_t> keys = {3, 7, 3, 5};
  std::vector<std::uint64_t> hashes;
  std::vector<std::uint32_t> by_shard[VisitedStore::kShards];
  for (std::uint32_t k = 0; k < keys.size(); ++k) {
    hashes.push_back(oc::explorer::HashBytes(&keys[k], 1));
    by_shard[VisitedStore::ShardOf(hashes[k])].push_back(k);
  }
  std::vector<std::uint8_t> fresh(keys.size(), 0);
  for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
    store.Deduplicate(s, by_shard[s].size(), 1, [&](std::size_t) {
      return VisitedStore::Candidates{by_shard[s], keys.data(), hashes.data(),
                                      fresh.data()};
    });
  }
  CHECK(fresh == std::vector<std::uint8_t>{1, 0, 0, 1});
  store.Resize(3);
  store.Set(1, &keys[0]);
  store.Set(2, &keys[3]);
  const std::vector<std::uint32_t> ids = {1, VisitedStore::kNoId,
                                          VisitedStore::kNoId, 2};
  for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
    store.Renumber(s, [&](std::size_t, std::uint32_t k) { return ids[k]; });
  }
  CHECK(store.size() == 3);
  CHECK(store.Find(&keys[3], hashes[3]) == std::optional<std::uint32_t>(2));
  std::uint8_t read = 0;
  CHECK(*store.Key(2, &read) == 5);
  const std::uint8_t five = 5;
  const auto [id, is_new] = store.InsertOne(&five);
  CHECK_FALSE(is_new);
  CHECK(id == 2);
}

TEST_CASE("deduplication across many chunks keeps the first of each key") {
  // Forty chunks of 3-byte keys from a small set, so that keys repeat
  // within a chunk, across chunks, and match stored ones; every fifth
  // chunk is empty, and most chunks have few candidates of a shard, so
  // the lookups (and the prefetches ahead of them) run across chunks.
  constexpr std::size_t kWidth = 3;
  VisitedStore store(kWidth);
  auto key_of = [](std::uint32_t v) {
    return std::vector<std::uint8_t>{static_cast<std::uint8_t>(v),
                                     static_cast<std::uint8_t>(v >> 8), 1};
  };
  std::vector<std::vector<std::uint8_t>> stored;
  for (std::uint32_t v = 0; v < 300; v += 3) {
    stored.push_back(key_of(v));
    REQUIRE(store.InsertOne(stored.back().data()).second);
  }
  struct Chunk {
    std::vector<std::uint8_t> keys;
    std::vector<std::uint64_t> hashes;
    std::vector<std::uint8_t> fresh;
    std::vector<std::uint32_t> found;
    std::vector<std::uint32_t> by_shard[VisitedStore::kShards];
  };
  std::vector<Chunk> chunks(40);
  std::uint32_t seed = 12345;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    if (c % 5 == 4) continue;
    for (std::uint32_t k = 0; k < 30; ++k) {
      seed = seed * 1103515245 + 12345;
      const auto key = key_of((seed >> 16) % 600);
      chunks[c].keys.insert(chunks[c].keys.end(), key.begin(), key.end());
      const std::uint64_t hash = oc::explorer::HashBytes(key.data(), kWidth);
      chunks[c].hashes.push_back(hash);
      chunks[c].by_shard[VisitedStore::ShardOf(hash)].push_back(k);
    }
    chunks[c].fresh.assign(30, 0);
    chunks[c].found.assign(30, VisitedStore::kNoId);
  }
  for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
    std::size_t incoming = 0;
    for (const Chunk& chunk : chunks) incoming += chunk.by_shard[s].size();
    store.Deduplicate(s, incoming, chunks.size(), [&](std::size_t c) {
      Chunk& chunk = chunks[c];
      return VisitedStore::Candidates{chunk.by_shard[s], chunk.keys.data(),
                                      chunk.hashes.data(), chunk.fresh.data(),
                                      chunk.found.data()};
    });
    // Each candidate of the shard, against a lookup in serial order.
    std::vector<std::vector<std::uint8_t>> seen;  // this shard's fresh keys
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      for (std::uint32_t k : chunks[c].by_shard[s]) {
        const std::vector<std::uint8_t> key(
            chunks[c].keys.begin() + k * kWidth,
            chunks[c].keys.begin() + (k + 1) * kWidth);
        const std::uint32_t found = chunks[c].found[k];
        std::size_t stored_id = stored.size();
        for (std::size_t id = 0; id < stored.size(); ++id) {
          if (stored[id] == key) stored_id = id;
        }
        const bool earlier =
            std::find(seen.begin(), seen.end(), key) != seen.end();
        CHECK(chunks[c].fresh[k] == (stored_id == stored.size() && !earlier));
        if (stored_id < stored.size()) {
          CHECK(found == stored_id);
        } else if (earlier) {
          REQUIRE(VisitedStore::IsProvisional(found));
          const auto [fc, fk] =
              store.FreshCandidate(chunks[c].hashes[k], found);
          CHECK(chunks[fc].fresh[fk] == 1);
          CHECK(std::equal(key.begin(), key.end(),
                           chunks[fc].keys.begin() + fk * kWidth));
        } else {
          seen.push_back(key);
        }
      }
    }
  }
}

TEST_CASE("a worker pool calls every index once, loop after loop") {
  WorkerPool pool(3);
  CHECK(pool.size() == 3);
  for (int loop = 0; loop < 50; ++loop) {
    std::vector<std::atomic<int>> calls(97);
    std::vector<std::atomic<int>> worker_of(97);
    pool.ForEach(calls.size(), [&](int worker, std::size_t i) {
      ++calls[i];
      worker_of[i] = worker;
    });
    for (const auto& c : calls) CHECK(c.load() == 1);
    for (const auto& w : worker_of) {
      CHECK(w.load() >= 0);
      CHECK(w.load() < pool.size());
    }
  }
}

TEST_CASE("a worker number is never in two calls at once") {
  // What lets a caller keep one buffer per worker number.
  WorkerPool pool(3);
  std::vector<std::atomic<int>> inside(static_cast<std::size_t>(pool.size()));
  std::atomic<int> overlaps{0};
  pool.ForEach(2000, [&](int worker, std::size_t) {
    if (inside[static_cast<std::size_t>(worker)].fetch_add(1) != 0) {
      ++overlaps;
    }
    std::this_thread::yield();
    inside[static_cast<std::size_t>(worker)].fetch_sub(1);
  });
  CHECK(overlaps.load() == 0);
}

}  // namespace

TEST_CASE("keys of any width compare equal exactly when every byte does") {
  for (std::size_t n = 1; n <= 40; ++n) {
    std::vector<std::uint8_t> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i)
      a[i] = b[i] = static_cast<std::uint8_t>(i * 37 + n);
    CHECK(oc::explorer::SameBytes(a.data(), b.data(), n));
    for (std::size_t i = 0; i < n; ++i) {
      b[i] ^= 0x10;
      CHECK_FALSE(oc::explorer::SameBytes(a.data(), b.data(), n));
      b[i] ^= 0x10;
    }
  }
}

TEST_CASE("the table names the entry a lookup meets first, by its tag") {
  StateTable table;
  CHECK_FALSE(table.FirstMatch(0x1234'0000'0000'0000).has_value());
  table.Reserve(2);
  StateTable::Slot slot;
  const std::uint64_t hash = 0x1234'5678'0000'0001;
  table.FindOrInsert(
      hash, 9, [](std::uint32_t) { return false; }, &slot);
  table.Prefetch(hash);  // a hint only: the table is unchanged
  REQUIRE(table.FirstMatch(hash).has_value());
  CHECK(*table.FirstMatch(hash) == 9);
  // Another tag on the same slot (the slot is tag & mask): no match.
  const std::uint64_t other = hash ^ (std::uint64_t{1} << 62);
  CHECK_FALSE(table.FirstMatch(other).has_value());
  CHECK(table.size() == 1);
}

TEST_CASE("a key inserted with its hash given is found like one hashed here") {
  VisitedStore store(12);
  std::vector<std::uint8_t> key(12, 3);
  const std::uint64_t hash = oc::explorer::HashBytes(key.data(), key.size());
  store.PrefetchSlot(hash);
  store.PrefetchKey(hash);
  const auto [id, fresh] = store.InsertOne(key.data(), hash);
  CHECK(fresh);
  CHECK(store.InsertOne(key.data()) ==
        std::pair<std::uint32_t, bool>{id, false});
  key[11] = 4;
  CHECK(store.InsertOne(key.data()).second);
  CHECK(store.size() == 2);
}

TEST_CASE("a block array grows without moving what it holds") {
  oc::explorer::BlockArray<std::uint32_t> array;
  CHECK(array.Bytes() == 0);
  array.push_back(7);
  const std::uint32_t* first = &array[0];
  const std::size_t n = 3 * oc::explorer::BlockArray<std::uint32_t>::kPerBlock;
  for (std::uint32_t i = 1; i < n; ++i) array.push_back(i * 3);
  CHECK(&array[0] == first);
  CHECK(array.size() == n);
  CHECK(array[0] == 7);
  for (std::uint32_t i = 1; i < n; ++i) REQUIRE(array[i] == i * 3);
  array.resize(n + 5, 9);
  CHECK(array.size() == n + 5);
  CHECK(array[n] == 9);
  CHECK(array[n + 4] == 9);
  array[n + 4] = 1;
  CHECK(array[n + 4] == 1);
  // Four blocks of 2^16 four-byte values, and the list of them.
  CHECK(array.Bytes() >= 4 * (std::size_t{1} << 16) * 4);
  CHECK(array.Bytes() < 5 * (std::size_t{1} << 16) * 4);
}

namespace {

using oc::explorer::KeyLayout;

// Key `i` of a family of `width`-byte keys: its first half from a few
// hundred values and its second from `second` values (so that halves
// repeat as a search's do), or every byte its own when `second` is 0.
std::vector<std::uint8_t> FamilyKey(std::size_t width, std::uint64_t i,
                                    std::uint64_t second) {
  std::vector<std::uint8_t> key(width);
  std::uint64_t x = i * 0x9e3779b97f4a7c15ULL;
  for (std::size_t b = 0; b < width; ++b) {
    key[b] = static_cast<std::uint8_t>(x >> (8 * (b % 8)));
    if (b % 8 == 7) x = x * 0xbf58476d1ce4e5b9ULL + 1;
  }
  if (second != 0) {
    const std::uint64_t low = i % 300, high = (i / 300) % second;
    for (std::size_t b = 0; b < width / 2; ++b) {
      key[b] = static_cast<std::uint8_t>(low >> (8 * (b % 2)));
    }
    for (std::size_t b = width / 2; b < width; ++b) {
      key[b] = static_cast<std::uint8_t>(high >> (8 * ((b - width / 2) % 3)));
    }
  }
  return key;
}

}  // namespace

TEST_CASE("a store of split keys numbers and reads keys as one of whole keys") {
  for (const std::size_t width : {8, 11, 20}) {
    CAPTURE(width);
    VisitedStore whole(width, KeyLayout::kWhole);
    VisitedStore split(width, KeyLayout::kSplit);
    REQUIRE(split.split());
    REQUIRE_FALSE(whole.split());
    // 200,000 keys from 300 x 700 halves, each inserted twice.
    for (int round = 0; round < 2; ++round) {
      for (std::uint64_t i = 0; i < 200000; ++i) {
        const auto key = FamilyKey(width, i * 7 % 200000, 700);
        const auto a = whole.InsertOne(key.data());
        const auto b = split.InsertOne(key.data());
        REQUIRE(a == b);
        CHECK(a.second == (round == 0));
      }
    }
    CHECK(split.size() == whole.size());
    CHECK(split.halves(0) <= 300);
    CHECK(split.halves(1) <= 700);
    std::vector<std::uint8_t> buffer(width), copy(width);
    for (std::uint32_t id = 0; id < split.size(); ++id) {
      const std::uint8_t* mine = split.Key(id, buffer.data());
      REQUIRE(std::memcmp(mine, whole.Key(id, copy.data()), width) == 0);
      CHECK(split.Holds(id, mine));
      CHECK(split.Find(mine, oc::explorer::HashBytes(mine, width)) == id);
    }
    // A key differing in one byte of either half is another key.
    const auto five = FamilyKey(width, 5, 700);
    const auto id =
        split.Find(five.data(), oc::explorer::HashBytes(five.data(), width));
    REQUIRE(id.has_value());
    for (const std::size_t at : {std::size_t{0}, width - 1}) {
      auto other = five;
      other[at] ^= 0x80;
      CHECK_FALSE(split.Holds(*id, other.data()));
    }
    CHECK(split.Bytes() < whole.Bytes());
  }
}

TEST_CASE("a split store widens its indices past 65,536 halves") {
  const std::size_t width = 10;
  VisitedStore store(width);  // 10 bytes: split by default
  REQUIRE(store.split());
  std::vector<std::vector<std::uint8_t>> keys;
  // 300 first halves, 400 second ones: 120,000 keys; then keys whose second
  // halves are all new, past 2^16 of them.
  for (std::uint64_t i = 0; i < 120000; ++i)
    keys.push_back(FamilyKey(width, i, 400));
  for (std::uint64_t i = 0; i < 70000; ++i)
    keys.push_back(FamilyKey(width, i, 0));
  // Stored as a search stores them: Resize, then SetMany on two threads.
  WorkerPool pool(2);
  std::vector<const std::uint8_t*> pointers;
  for (const auto& k : keys) pointers.push_back(k.data());
  for (std::size_t from = 0; from < keys.size(); from += 50000) {
    const std::size_t to = std::min(keys.size(), from + 50000);
    store.Resize(to);
    const std::vector<const std::uint8_t*> batch(pointers.begin() + from,
                                                 pointers.begin() + to);
    store.SetMany(static_cast<std::uint32_t>(from), batch,
                  [&](std::size_t n, auto task) {
                    pool.ForEach(n, [&](int, std::size_t j) { task(j); });
                  });
  }
  CHECK(store.split());
  CHECK(store.halves(1) > 65536);
  std::vector<std::uint8_t> buffer(width);
  for (std::uint32_t id = 0; id < keys.size(); ++id) {
    REQUIRE(std::memcmp(store.Key(id, buffer.data()), keys[id].data(), width) ==
            0);
  }
}

TEST_CASE(
    "new halves added beside other work read back as keys set one by one") {
  const std::size_t width = 12;
  VisitedStore one_by_one(width, KeyLayout::kSplit);
  VisitedStore two_parts(width, KeyLayout::kSplit);
  // 300 x 500 halves: the first batches meet most halves for the first
  // time, some of them twice in one batch; later ones few.
  std::vector<std::vector<std::uint8_t>> keys;
  for (std::uint64_t i = 0; i < 60000; ++i) {
    keys.push_back(FamilyKey(width, i * 11 % 150000, 500));
  }
  WorkerPool pool(2);
  std::atomic<std::uint64_t> beside{0};
  for (std::size_t from = 0; from < keys.size(); from += 7000) {
    const std::size_t to = std::min(keys.size(), from + 7000);
    one_by_one.Resize(to);
    two_parts.Resize(to);
    std::vector<const std::uint8_t*> batch;
    for (std::size_t i = from; i < to; ++i) {
      one_by_one.Set(static_cast<std::uint32_t>(i), keys[i].data());
      batch.push_back(keys[i].data());
    }
    two_parts.SetKnownHalves(
        static_cast<std::uint32_t>(from), batch, [&](std::size_t n, auto task) {
          pool.ForEach(n, [&](int, std::size_t j) { task(j); });
        });
    // The serial pass as one call of a loop whose others do other work.
    pool.ForEach(8, [&](int, std::size_t j) {
      if (j == 0) {
        two_parts.AddNewHalves();
      } else {
        beside += j;
      }
    });
  }
  CHECK(beside == 28 * ((keys.size() + 6999) / 7000));
  for (const std::size_t side : {0, 1}) {
    CHECK(two_parts.halves(side) == one_by_one.halves(side));
  }
  std::vector<std::uint8_t> a(width), b(width);
  for (std::uint32_t id = 0; id < keys.size(); ++id) {
    REQUIRE(std::memcmp(two_parts.Key(id, a.data()), keys[id].data(), width) ==
            0);
    REQUIRE(std::memcmp(one_by_one.Key(id, b.data()), keys[id].data(), width) ==
            0);
  }
}

TEST_CASE("a split store whose halves do not repeat keeps its keys whole") {
  const std::size_t width = 8;
  VisitedStore store(width);
  VisitedStore whole(width, KeyLayout::kWhole);
  REQUIRE(store.split());
  const std::size_t n = VisitedStore::kSplitReview + 10;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto key = FamilyKey(width, i, 0);
    REQUIRE(store.InsertOne(key.data()).second);
    whole.InsertOne(key.data());
    if (i + 1 == VisitedStore::kSplitReview - 1) {
      CHECK(store.split());
      // What the next Resize will hold is known beforehand: whole keys.
      const std::size_t next = VisitedStore::kSplitReview;
      CHECK(store.BytesAfterResize(next) <=
            whole.BytesAfterResize(next) + 4096);
      CHECK(store.BytesAfterResize(next) + 4096 >=
            whole.BytesAfterResize(next));
    }
  }
  CHECK_FALSE(store.split());
  CHECK(store.halves(0) == 0);
  std::vector<std::uint8_t> buffer(width);
  for (std::uint64_t i = 0; i < n; i += 997) {
    const auto key = FamilyKey(width, i, 0);
    CHECK(std::memcmp(store.Key(static_cast<std::uint32_t>(i), buffer.data()),
                      key.data(), width) == 0);
    CHECK_FALSE(store.InsertOne(key.data()).second);
  }
  // From then on it takes what a store of whole keys takes.
  CHECK(store.Bytes() <= whole.Bytes() + 4096);
}
