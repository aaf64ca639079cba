// Breadth-first search spread over several processes ("ranks") that talk
// through a Transport, with results identical to Explore's
// (breadth_first_search.h) for any number of ranks: the same counts,
// verdicts and shortest traces, chosen by the same tie-break.
//
// The design in short. Every rank runs this function; each state is owned
// by the rank its key's hash picks, which stores it. States have global ids
// in Explore's order: a level's new states are numbered in the order of the
// first candidate that reached each, by (parent's id, successor index), so
// the first path found to a state is the one Explore finds. A level runs as
//  1. expand: each rank expands the states it owns, in rounds of kRound,
//     and sends every successor's key, with its parent's id (relative to
//     the level) and successor index, to the key's owner; a round's bytes
//     travel (Transport::StartExchange) while the next round is expanded;
//  2. deduplicate: the owner drops keys it stores already and keeps, for
//     each new key, the least (parent, successor) that reached it, so the
//     arrival order does not matter;
//  3. number: the level before is cut into equal ranges of ids, one per
//     rank; each owner sends (parent, successor) of its new states to the
//     rank of the parent's range, which sorts them, takes its first id
//     from a prefix sum over the ranks, and sends the ids back; owners
//     store their new states in id order;
//  4. check: owners check the safety properties on their new states; the
//     violations of the level are gathered on every rank and sorted as a
//     serial search meets them, and each new one is turned into a trace.
// Traces are rebuilt like Explore's: a state's parent is the first state
// (by id) of the level before with a successor whose key is the state's;
// each rank looks among its own, and the least id wins.
//
// Partial-order reduction's cycle condition asks the owner of each
// successor of a reduced set whether it stores the key at this depth or
// before, in one more exchange per round.
//
// What differs from Explore: each rank searches on one thread (run one
// rank per core); Options::max_bytes caps each rank; and a search stopped
// by a limit stops at a round or a level's end, so its partial counts can
// differ from a one-process run's (a complete search, a depth limit and
// stop_at_first_violation give identical results).

#ifndef OUTBOX_CHECK_EXPLORER_DISTRIBUTED_SEARCH_H_
#define OUTBOX_CHECK_EXPLORER_DISTRIBUTED_SEARCH_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "explorer/block_array.h"
#include "explorer/breadth_first_search.h"
#include "explorer/exploration.h"
#include "explorer/found_violations.h"
#include "explorer/model_concept.h"
#include "explorer/transport.h"
#include "explorer/visited_store.h"

namespace oc::explorer {

namespace distributed {

inline constexpr std::size_t kRound = 1 << 13;  // states a rank expands
                                                // per exchange
inline constexpr std::uint64_t kNone =
    std::numeric_limits<std::uint64_t>::max();
// A state's offset in its level, before it is numbered. (A level has fewer
// states than this; one that would not is cut by a state limit.)
inline constexpr std::uint32_t kNoOffset =
    std::numeric_limits<std::uint32_t>::max();

// The rank that owns a key of hash `hash` (the multiply mixes the bits the
// store's shards use).
inline int OwnerOf(std::uint64_t hash, int ranks) {
  return static_cast<int>(((hash * 0x9e3779b97f4a7c15ULL) >> 32) %
                          static_cast<std::uint64_t>(ranks));
}

// Little-endian fixed-width fields in a byte buffer.
template <class T>
void Put(std::vector<std::uint8_t>& out, T value) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}
template <class T>
T Get(const std::uint8_t*& in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  in += sizeof(T);
  return value;
}

// A violation met in a level, ordered as Explore meets it (Hit's order,
// with global ids).
struct LevelHit {
  std::uint64_t parent = kNone;  // the state expanded (at rest: itself)
  std::uint32_t successor = 0;
  std::uint8_t phase = 0;  // 0: transition or at rest, 1: safety
  std::uint32_t property = 0;
  std::uint64_t state = kNone;    // safety: the new state's id
  std::vector<std::uint8_t> key;  // transition: the successor's key
  auto Order() const { return std::tuple(parent, successor, phase, property); }
};

}  // namespace distributed

template <Model M>
Exploration<M> ExploreDistributed(
    const M& model, std::span<const Property<typename M::State>> properties,
    const Options& options, Transport& net) {
  using State = typename M::State;
  using Action = typename M::Action;
  using distributed::Get;
  using distributed::kNone;
  using distributed::kNoOffset;
  using distributed::LevelHit;
  using distributed::Put;
  const auto start = std::chrono::steady_clock::now();
  const int me = net.rank();
  const int ranks = net.size();

  Exploration<M> result;
  bool reduce = false;
  if constexpr (Symmetric<M>) {
    reduce = options.symmetry && model.HasSymmetry();
    if (reduce) result.reduction = model.SymmetryDescription();
  }
  bool por = false;
  if constexpr (PartiallyOrdered<M>) {
    por = options.partial_order && model.HasPartialOrder();
    if (por) result.partial_order = model.PartialOrderDescription();
  }
  result.threads = 1;
  const std::size_t width = model.EncodedSize();
  typename detail::SymmetryScratchOf<M>::type symmetry_scratch;
  typename detail::PartialOrderScratchOf<M>::type por_scratch;
  auto key_of = [&](const State& s, std::uint8_t* out) {
    if constexpr (Symmetric<M>) {
      if (reduce) {
        model.Canonicalize(s, out, symmetry_scratch);
        return;
      }
    }
    model.Encode(s, out);
  };
  auto orbit_of = [&](const State& s) -> std::uint64_t {
    if constexpr (Symmetric<M>) {
      if (reduce) return model.OrbitSize(s, symmetry_scratch);
    }
    return 1;
  };
  std::size_t classes = 0;
  if constexpr (ClassifiesActions<M>) {
    for (const auto& name : model.ActionClassNames()) {
      result.action_classes.push_back(std::string(name));
    }
    classes = result.action_classes.size();
    result.action_counts.assign(classes, 0);
  }

  // The states this rank owns, level after level, each level's in the
  // order they arrived; level k holds local ids [local_starts[k],
  // local_starts[k + 1]) and global ids [global_starts[k], global_starts[k +
  // 1]). A state's global id is its level's first plus its offset
  // (`offsets`, by local id); by_id lists each level's local ids in id
  // order. The next level's states are stored as they arrive, and given
  // ids at the level's end. Both arrays are kept in blocks that never
  // move, 8 bytes a state.
  VisitedStore store(width);
  // A stored key read back (VisitedStore::Key).
  std::vector<std::uint8_t> stored(width);
  auto stored_key = [&](std::uint32_t local) {
    return store.Key(local, stored.data());
  };
  BlockArray<std::uint32_t> offsets;
  BlockArray<std::uint32_t> by_id;
  std::vector<std::size_t> local_starts{0};
  std::vector<std::uint64_t> global_starts{0};
  auto depth_of = [&](std::uint64_t id) {
    return static_cast<std::size_t>(
        std::upper_bound(global_starts.begin(), global_starts.end(), id) -
        global_starts.begin() - 1);
  };

  // Traces (collective: every rank calls these in the same order).
  std::vector<std::pair<Action, State>> successors;
  std::vector<std::uint8_t> probe(width);
  // Rank `root`'s key of local id `local` (root: the least rank that has
  // one, `found` says whether this one does).
  auto share_key = [&](bool found, std::uint32_t local) {
    const auto root = static_cast<int>(
        net.MinAll(found ? static_cast<std::uint64_t>(me) : kNone));
    std::vector<std::uint8_t> key;
    if (found && root == me) {
      key.resize(width);
      store.CopyKey(local, key.data());
    }
    net.Broadcast(key, root);
    return key;
  };
  auto key_of_id = [&](std::uint64_t id) {
    const std::size_t depth = depth_of(id);
    const std::uint64_t offset = id - global_starts[depth];
    // The first of the level's by_id whose offset is not below `offset`.
    std::size_t first = local_starts[depth], last = local_starts[depth + 1];
    const std::size_t end = last;
    while (first < last) {
      const std::size_t mid = first + (last - first) / 2;
      if (offsets[by_id[mid]] < offset) {
        first = mid + 1;
      } else {
        last = mid;
      }
    }
    const bool found = first != end && offsets[by_id[first]] == offset;
    return share_key(found, found ? by_id[first] : 0);
  };
  // The first state of level depth - 1 (by id) with a successor keyed
  // `target`: its key. The level is searched in waves of ids, each rank
  // expanding its states of the wave, until a wave has a match.
  auto parent_of = [&](const std::vector<std::uint8_t>& target,
                       std::size_t depth) {
    const std::uint64_t wave =
        distributed::kRound * static_cast<std::uint64_t>(ranks);
    std::uint64_t best = kNone;
    std::uint32_t best_local = 0;
    std::size_t i = local_starts[depth - 1];
    const std::uint64_t level_first = global_starts[depth - 1];
    for (std::uint64_t from = level_first; from < global_starts[depth];
         from += wave) {
      for (; i < local_starts[depth] &&
             level_first + offsets[by_id[i]] < from + wave && best == kNone;
           ++i) {
        const std::uint32_t local = by_id[i];
        successors.clear();
        model.Successors(model.Decode(stored_key(local)), successors);
        for (const auto& step : successors) {
          key_of(step.second, probe.data());
          if (std::memcmp(probe.data(), target.data(), width) == 0) {
            best = level_first + offsets[local];
            best_local = local;
            break;
          }
        }
      }
      const std::uint64_t least = net.MinAll(best);
      if (least != kNone) return share_key(best == least, best_local);
    }
    return share_key(false, 0);  // not reached: every state has a parent
  };
  auto trace_to = [&](std::uint64_t id) {
    std::vector<std::vector<std::uint8_t>> path{key_of_id(id)};
    for (std::size_t depth = depth_of(id); depth > 0; --depth) {
      path.push_back(parent_of(path.back(), depth));
    }
    std::reverse(path.begin(), path.end());
    std::vector<const std::uint8_t*> keys;
    for (const auto& key : path) keys.push_back(key.data());
    return detail::TraceThroughKeys(model, key_of, width, keys);
  };

  detail::FoundViolations<M> found(properties);
  // Every rank passes the same hits (gathered), sorted here.
  auto record_hits = [&](std::vector<LevelHit>& hits) {
    std::stable_sort(hits.begin(), hits.end(),
                     [](const LevelHit& a, const LevelHit& b) {
                       return a.Order() < b.Order();
                     });
    for (const LevelHit& hit : hits) {
      const Property<State>& p = properties[hit.property];
      if (found.has(hit.property)) continue;
      if (p.kind != PropertyKind::kTransition) {
        found.Record(
            hit.property,
            trace_to(p.kind == PropertyKind::kSafety ? hit.state : hit.parent));
        continue;
      }
      Trace<M> trace = trace_to(hit.parent);
      detail::AppendBreakingStep(model, key_of, width, hit.key.data(), p,
                                 trace);
      found.Record(hit.property, std::move(trace));
    }
  };
  // This rank's hits, to every rank.
  auto gather_hits = [&](const std::vector<LevelHit>& mine) {
    std::vector<std::uint8_t> bytes;
    for (const LevelHit& h : mine) {
      Put(bytes, h.parent);
      Put(bytes, h.successor);
      Put(bytes, h.phase);
      Put(bytes, h.property);
      Put(bytes, h.state);
      Put(bytes, static_cast<std::uint32_t>(h.key.size()));
      bytes.insert(bytes.end(), h.key.begin(), h.key.end());
    }
    std::vector<LevelHit> all;
    for (const auto& from : net.GatherAll(bytes)) {
      const std::uint8_t* in = from.data();
      while (in < from.data() + from.size()) {
        LevelHit h;
        h.parent = Get<std::uint64_t>(in);
        h.successor = Get<std::uint32_t>(in);
        h.phase = Get<std::uint8_t>(in);
        h.property = Get<std::uint32_t>(in);
        h.state = Get<std::uint64_t>(in);
        const auto n = Get<std::uint32_t>(in);
        h.key.assign(in, in + n);
        in += n;
        all.push_back(std::move(h));
      }
    }
    return all;
  };

  // Initial states: every rank numbers them alike, and keeps its own.
  {
    VisitedStore initial(width);
    std::vector<LevelHit> hits;
    for (const State& s : model.InitialStates()) {
      if (options.max_states && initial.size() >= *options.max_states) {
        result.stop = Stop::kMaxStates;
        break;
      }
      key_of(s, probe.data());
      const auto [id, fresh] = initial.InsertOne(probe.data());
      if (!fresh) continue;
      if (distributed::OwnerOf(HashBytes(probe.data(), width), ranks) == me) {
        by_id.push_back(static_cast<std::uint32_t>(store.size()));
        store.InsertOne(probe.data());
        offsets.push_back(static_cast<std::uint32_t>(id));
      }
      for (std::size_t p = 0; p < properties.size(); ++p) {
        if (properties[p].kind == PropertyKind::kSafety &&
            !properties[p].holds(s)) {
          LevelHit hit;
          hit.phase = 1;
          hit.property = static_cast<std::uint32_t>(p);
          hit.state = id;
          hits.push_back(hit);
        }
      }
    }
    local_starts.push_back(store.size());
    global_starts.push_back(initial.size());
    record_hits(hits);
  }

  const std::uint64_t max_bytes =
      options.max_bytes.value_or(std::numeric_limits<std::uint64_t>::max());
  const std::uint64_t max_states =
      options.max_states.value_or(std::numeric_limits<std::uint64_t>::max());
  std::vector<bool> known(properties.size());
  std::uint64_t peak = store.HeldBytes();
  std::uint64_t candidates_total = 0, candidates_crossing = 0;
  std::vector<std::vector<std::uint8_t>> out(static_cast<std::size_t>(ranks));
  std::vector<std::vector<std::uint8_t>> in(static_cast<std::size_t>(ranks));
  std::vector<std::uint8_t> own;  // this round's successors this rank owns
  std::vector<std::uint64_t> own_hashes;  // their keys' hashes
  struct Arrival {
    std::uint64_t hash;
    const std::uint8_t* record;  // the key, its parent and successor index
  };
  std::vector<Arrival> arrivals;
  std::size_t counted = 0;  // local ids below this are in stats.states
  std::uint64_t expanded_before = 0, next_progress = options.progress_every;
  std::uint64_t previous_level = 0;
  int depth = 0;
  bool depth_limited = false;
  const std::size_t record_bytes = width + 4 + 4;

  while (result.stop == Stop::kComplete &&
         global_starts[static_cast<std::size_t>(depth) + 1] >
             global_starts[static_cast<std::size_t>(depth)]) {
    const auto d = static_cast<std::size_t>(depth);
    const std::uint64_t level_first = global_starts[d];
    const std::uint64_t level_size = global_starts[d + 1] - level_first;
    const std::size_t local_begin = local_starts[d];
    const std::size_t local_end = local_starts[d + 1];
    result.stats.depth = depth;
    const bool at_depth_limit =
        options.max_depth && depth >= *options.max_depth;
    for (std::size_t p = 0; p < properties.size(); ++p) {
      known[p] = found.has(p);
    }
    // The next level's states as this rank finds them: keys, and the least
    // (parent relative to level_first, successor index) that reached each.
    // Local ids from local_end on are the next level's, pending_*[k] that
    // of local id local_end + k.
    std::vector<std::uint32_t> pending_parent;
    std::vector<std::uint32_t> pending_successor;
    // This rank's first hit of each property in this level (the others
    // cannot be reported).
    std::vector<LevelHit> hits;
    auto note = [&](LevelHit hit) {
      for (LevelHit& h : hits) {
        if (h.property != hit.property) continue;
        if (hit.Order() < h.Order()) h = std::move(hit);
        return;
      }
      hits.push_back(std::move(hit));
    };
    bool store_full = false;  // the store's 31-bit ids ran out
    // A successor keyed `key` that this rank owns, reached by successor
    // `successor` of the state `parent` (relative to level_first).
    auto take_one = [&](const std::uint8_t* key, std::uint64_t hash,
                        std::uint32_t parent, std::uint32_t successor) {
      if (store.size() + 1 >= VisitedStore::kMaxStates) {
        store_full = true;
        return;
      }
      const auto [id, fresh] = store.InsertOne(key, hash);
      if (id < local_end) return;  // stored at this depth or before
      const std::size_t k = id - local_end;
      if (fresh) {
        pending_parent.push_back(parent);
        pending_successor.push_back(successor);
      } else if (std::pair(parent, successor) <
                 std::pair(pending_parent[k], pending_successor[k])) {
        pending_parent[k] = parent;
        pending_successor[k] = successor;
      }
    };
    // Takes the successors of `own` (this rank's, this round) and `from`
    // (the other ranks', the round before) into the store, asking for the
    // memory each lookup reads a few lookups ahead (VisitedStore's
    // kSlotAhead, kKeyAhead). The order does not matter: take_one keeps
    // the least (parent, successor) of each key.
    auto take = [&](const std::vector<std::vector<std::uint8_t>>& from) {
      arrivals.clear();
      for (std::size_t k = 0; k < own_hashes.size(); ++k) {
        arrivals.push_back({own_hashes[k], own.data() + k * record_bytes});
      }
      for (const auto& bytes : from) {
        for (const std::uint8_t* at = bytes.data();
             at < bytes.data() + bytes.size(); at += record_bytes) {
          arrivals.push_back({HashBytes(at, width), at});
        }
      }
      const std::size_t n = arrivals.size();
      for (std::size_t j = 0; j < n; ++j) {
        if (j + VisitedStore::kSlotAhead < n) {
          store.PrefetchSlot(arrivals[j + VisitedStore::kSlotAhead].hash);
        }
        if (j + VisitedStore::kKeyAhead < n) {
          store.PrefetchKey(arrivals[j + VisitedStore::kKeyAhead].hash);
        }
        const std::uint8_t* field = arrivals[j].record + width;
        const auto parent = Get<std::uint32_t>(field);
        take_one(arrivals[j].record, arrivals[j].hash, parent,
                 Get<std::uint32_t>(field));
      }
      own.clear();
      own_hashes.clear();
    };
    auto held_bytes = [&] {
      std::uint64_t bytes = store.HeldBytes() + pending_parent.capacity() * 8 +
                            own.capacity() + own_hashes.capacity() * 8 +
                            arrivals.capacity() * sizeof(Arrival) +
                            offsets.Bytes() + by_id.Bytes() +
                            successors.capacity() * sizeof(successors[0]);
      for (const auto& v : out) bytes += v.capacity();
      for (const auto& v : in) bytes += v.capacity();
      return bytes;
    };

    // 1 and 2. Expand in rounds, deduplicating what arrives.
    const std::uint64_t rounds =
        net.MaxAll((local_end - local_begin + distributed::kRound - 1) /
                   distributed::kRound);
    bool in_flight = false;
    for (std::uint64_t round = 0; round < rounds; ++round) {
      // Limits, agreed by every rank.
      std::uint64_t flags[3] = {
          held_bytes() >= max_bytes ? 1u : 0u,
          options.cancel && options.cancel->load(std::memory_order_relaxed)
              ? 1u
              : 0u,
          store_full ? 1u : 0u};
      net.MaxAll(flags);
      if (flags[0] || flags[1] || flags[2]) {
        result.stop = flags[0]   ? Stop::kMaxMemory
                      : flags[1] ? Stop::kInterrupted
                                 : Stop::kMaxStates;
        break;
      }
      const std::size_t first =
          std::min(local_end, local_begin + static_cast<std::size_t>(round) *
                                                distributed::kRound);
      const std::size_t last = std::min(local_end, first + distributed::kRound);
      for (auto& v : out) v.clear();
      // Partial-order reduction: which reduced sets lead to a state stored
      // at this depth or before (then the state is expanded fully).
      std::vector<std::uint8_t> full(last - first, 0);
      if constexpr (PartiallyOrdered<M>) {
        if (por && !at_depth_limit) {
          if (in_flight) {
            net.FinishExchange(in);
            take(in);
            in_flight = false;
          }
          std::vector<std::uint8_t> reduced(last - first, 0);
          for (std::size_t i = first; i < last; ++i) {
            successors.clear();
            if (!model.ReducedSuccessors(
                    model.Decode(stored_key(static_cast<std::uint32_t>(i))),
                    successors, por_scratch)) {
              continue;
            }
            reduced[i - first] = 1;
            for (const auto& step : successors) {
              key_of(step.second, probe.data());
              const int owner =
                  distributed::OwnerOf(HashBytes(probe.data(), width), ranks);
              auto& to = out[static_cast<std::size_t>(owner)];
              to.insert(to.end(), probe.begin(), probe.end());
            }
          }
          net.Exchange(out, in);
          for (std::size_t r = 0; r < in.size(); ++r) {
            std::vector<std::uint8_t>& answers = out[r];
            answers.clear();
            for (std::size_t at = 0; at < in[r].size(); at += width) {
              const auto known_id = store.Find(
                  in[r].data() + at, HashBytes(in[r].data() + at, width));
              answers.push_back(known_id && *known_id < local_end ? 1 : 0);
            }
          }
          net.Exchange(out, in);
          std::vector<std::size_t> cursor(in.size(), 0);
          for (std::size_t i = first; i < last; ++i) {
            if (!reduced[i - first]) {
              full[i - first] = 1;
              continue;
            }
            successors.clear();
            model.ReducedSuccessors(
                model.Decode(stored_key(static_cast<std::uint32_t>(i))),
                successors, por_scratch);
            for (const auto& step : successors) {
              key_of(step.second, probe.data());
              const auto owner = static_cast<std::size_t>(
                  distributed::OwnerOf(HashBytes(probe.data(), width), ranks));
              if (in[owner][cursor[owner]++]) full[i - first] = 1;
            }
          }
          for (auto& v : out) v.clear();
        }
      }
      for (std::size_t i = first; i < last; ++i) {
        const auto local = static_cast<std::uint32_t>(i);
        const std::uint64_t id = level_first + offsets[i];
        const State current = model.Decode(stored_key(local));
        successors.clear();
        bool expanded = false;
        if constexpr (PartiallyOrdered<M>) {
          if (por && !at_depth_limit && !full[i - first]) {
            expanded =
                model.ReducedSuccessors(current, successors, por_scratch);
          }
        }
        if (!expanded) model.Successors(current, successors);
        const std::uint64_t weight = orbit_of(current);
        result.stats.states += weight;
        if (successors.empty()) {
          if (model.BlockedByBound(current)) {
            result.stats.bounded_dead_ends += weight;
            continue;
          }
          result.stats.terminal_states += weight;
          for (std::size_t p = 0; p < properties.size(); ++p) {
            if (properties[p].kind == PropertyKind::kAtRest && !known[p] &&
                !properties[p].holds(current)) {
              LevelHit hit;
              hit.parent = id;
              hit.property = static_cast<std::uint32_t>(p);
              note(std::move(hit));
            }
          }
          continue;
        }
        if (at_depth_limit) {
          depth_limited = true;
          continue;
        }
        for (std::uint32_t j = 0; j < successors.size(); ++j) {
          const auto& [action, next] = successors[j];
          result.stats.transitions += weight;
          if constexpr (ClassifiesActions<M>) {
            result.action_counts[model.ActionClass(current, action, next)] +=
                weight;
          }
          key_of(next, probe.data());
          for (std::size_t p = 0; p < properties.size(); ++p) {
            if (properties[p].kind == PropertyKind::kTransition && !known[p] &&
                !properties[p].holds_on(current, next)) {
              LevelHit hit;
              hit.parent = id;
              hit.successor = j;
              hit.property = static_cast<std::uint32_t>(p);
              hit.key = probe;
              note(std::move(hit));
            }
          }
          const std::uint64_t hash = HashBytes(probe.data(), width);
          const int owner = distributed::OwnerOf(hash, ranks);
          ++candidates_total;
          if (owner != me) {
            ++candidates_crossing;
          } else {
            own_hashes.push_back(hash);  // not to hash it again in take
          }
          // This rank's own successors wait in `own`, not to travel.
          auto& to = owner == me ? own : out[static_cast<std::size_t>(owner)];
          to.insert(to.end(), probe.begin(), probe.end());
          Put(to, static_cast<std::uint32_t>(id - level_first));
          Put(to, j);
        }
      }
      counted = last;
      peak = std::max(peak, held_bytes());
      if (in_flight) {
        net.FinishExchange(in);
        take(in);
      } else {
        take({});
      }
      net.StartExchange(out);
      in_flight = true;
      if (options.on_progress) {
        std::uint64_t figures[4] = {last - local_begin, store.size(),
                                    pending_parent.size(), 0};
        net.SumAll(std::span<std::uint64_t>(figures, 3));
        std::uint64_t most[2] = {peak, store.size()};
        net.MaxAll(most);
        figures[3] = most[0];
        const std::uint64_t fewest = net.MinAll(store.size());
        const std::uint64_t expanded = expanded_before + figures[0];
        if (me == 0 && expanded >= next_progress) {
          next_progress = expanded + options.progress_every;
          Stats s = result.stats;
          s.stored_states = figures[1];
          s.peak_bytes = figures[3];
          s.expanded_states = level_first + figures[0];
          s.level_states = level_size;
          s.previous_level_states = previous_level;
          s.next_level_states = figures[2];
          s.ranks = ranks;
          s.rank_stored_min = fewest;
          s.rank_stored_max = most[1];
          s.seconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
          options.on_progress(s);
        }
      }
    }
    if (in_flight) {
      net.FinishExchange(in);
      take(in);
    }
    take({});
    peak = std::max(peak, held_bytes());
    depth_limited = net.MaxAll(depth_limited ? 1 : 0) != 0;
    if (result.stop == Stop::kComplete && net.MaxAll(store_full ? 1 : 0)) {
      result.stop = Stop::kMaxStates;
    }
    if (result.stop != Stop::kComplete) break;
    expanded_before += level_size;

    // 3. Number the new states: ranges of the level's parents by rank.
    std::vector<std::vector<std::uint32_t>> sent(
        static_cast<std::size_t>(ranks));
    for (auto& v : out) v.clear();
    for (std::uint32_t k = 0; k < pending_parent.size(); ++k) {
      const auto r = static_cast<std::size_t>(
          (static_cast<unsigned __int128>(pending_parent[k]) *
           static_cast<unsigned>(ranks)) /
          level_size);
      Put(out[r], pending_parent[k]);
      Put(out[r], pending_successor[k]);
      sent[r].push_back(k);
    }
    net.Exchange(out, in);
    struct Discovery {
      std::uint32_t parent;
      std::uint32_t successor;
      std::uint32_t from, index;
    };
    std::vector<Discovery> discoveries_here;
    for (std::size_t r = 0; r < in.size(); ++r) {
      const std::uint8_t* at = in[r].data();
      for (std::uint32_t index = 0; at < in[r].data() + in[r].size(); ++index) {
        const auto parent = Get<std::uint32_t>(at);
        const auto successor = Get<std::uint32_t>(at);
        discoveries_here.push_back(
            {parent, successor, static_cast<std::uint32_t>(r), index});
      }
    }
    std::sort(discoveries_here.begin(), discoveries_here.end(),
              [](const Discovery& a, const Discovery& b) {
                return std::pair(a.parent, a.successor) <
                       std::pair(b.parent, b.successor);
              });
    const std::uint64_t base = net.SumBelow(discoveries_here.size());
    const std::uint64_t level_new = net.SumAll(discoveries_here.size());
    for (std::size_t r = 0; r < out.size(); ++r) {
      out[r].assign(in[r].size(), 0);  // an 8-byte id per 8-byte record
    }
    for (std::size_t k = 0; k < discoveries_here.size(); ++k) {
      const Discovery& x = discoveries_here[k];
      const std::uint64_t offset = base + k;
      std::memcpy(out[x.from].data() + std::size_t{x.index} * 8, &offset, 8);
    }
    std::vector<Discovery>().swap(discoveries_here);
    net.Exchange(out, in);
    const std::uint64_t next_first = global_starts[d + 1];
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // id, k
    order.reserve(pending_parent.size());
    for (std::size_t r = 0; r < in.size(); ++r) {
      const std::uint8_t* at = in[r].data();
      for (std::uint32_t k : sent[r]) {
        order.emplace_back(next_first + Get<std::uint64_t>(at), k);
      }
    }
    std::sort(order.begin(), order.end());
    // The state limit cuts the level in id order (the states past it stay
    // in the store, unnumbered: the search ends here).
    const std::uint64_t limit = std::min<std::uint64_t>(
        {max_states, next_first + level_new, next_first + kNoOffset});
    if (limit < next_first + level_new) result.stop = Stop::kMaxStates;
    offsets.resize(store.size(), kNoOffset);
    const std::size_t first_new = by_id.size();
    for (const auto& [id, k] : order) {
      offsets[local_end + k] = static_cast<std::uint32_t>(id - next_first);
      if (id < limit)
        by_id.push_back(static_cast<std::uint32_t>(local_end + k));
    }
    // 4. Check the new states.
    for (std::size_t i = first_new; i < by_id.size(); ++i) {
      const std::uint32_t local = by_id[i];
      const State state = model.Decode(stored_key(local));
      const std::size_t k = local - local_end;
      for (std::size_t p = 0; p < properties.size(); ++p) {
        if (properties[p].kind == PropertyKind::kSafety && !known[p] &&
            !properties[p].holds(state)) {
          LevelHit hit;
          hit.parent = level_first + pending_parent[k];
          hit.successor = pending_successor[k];
          hit.phase = 1;
          hit.property = static_cast<std::uint32_t>(p);
          hit.state = next_first + offsets[local];
          note(std::move(hit));
        }
      }
    }
    peak = std::max(peak, held_bytes());
    local_starts.push_back(by_id.size());
    global_starts.push_back(std::min(limit, next_first + level_new));
    std::vector<LevelHit> all = gather_hits(hits);
    record_hits(all);

    if (depth_limited && result.stop == Stop::kComplete) {
      result.stop = Stop::kMaxDepth;
    }
    if (options.stop_at_first_violation && found.shortest() >= 0 &&
        result.stop == Stop::kComplete) {
      result.stop = Stop::kFirstViolation;
    }
    previous_level = level_size;
    ++depth;
  }
  if (result.stop == Stop::kFirstViolation &&
      global_starts.back() == global_starts[global_starts.size() - 2]) {
    result.stop = Stop::kComplete;
  }

  result.violations = found.Take(options.stop_at_first_violation);

  // States stored but never expanded (a stopped search), then the sums.
  if (result.stop != Stop::kComplete) {
    for (std::size_t i =
             std::max(counted, local_starts[static_cast<std::size_t>(depth)]);
         i < by_id.size(); ++i) {
      result.stats.states += orbit_of(model.Decode(stored_key(by_id[i])));
    }
  }
  std::vector<std::uint64_t> sums{result.stats.states,
                                  result.stats.transitions,
                                  result.stats.terminal_states,
                                  result.stats.bounded_dead_ends,
                                  by_id.size(),
                                  store.Bytes(),
                                  candidates_total,
                                  candidates_crossing,
                                  net.BytesSent()};
  sums.insert(sums.end(), result.action_counts.begin(),
              result.action_counts.end());
  net.SumAll(sums);
  result.stats.states = sums[0];
  result.stats.transitions = sums[1];
  result.stats.terminal_states = sums[2];
  result.stats.bounded_dead_ends = sums[3];
  result.stats.stored_states = sums[4];
  result.stats.store_bytes = sums[5];
  std::copy(sums.begin() + 9, sums.end(), result.action_counts.begin());
  Distribution distribution;
  distribution.ranks = ranks;
  distribution.candidates = sums[6];
  distribution.crossing = sums[7];
  distribution.bytes_sent = sums[8];
  {
    std::vector<std::uint8_t> mine;
    Put(mine, static_cast<std::uint64_t>(by_id.size()));
    Put(mine, peak);
    for (const auto& bytes : net.GatherAll(mine)) {
      const std::uint8_t* at = bytes.data();
      distribution.rank_stored.push_back(Get<std::uint64_t>(at));
      distribution.rank_peak_bytes.push_back(Get<std::uint64_t>(at));
    }
  }
  result.distribution = std::move(distribution);

  // The graph, small by definition: every rank builds its own copy.
  detail::KeepGraph(model, options.graph_limit, options.graph_bytes_limit, por,
                    store.HeldBytes(), max_bytes, result, peak);
  result.stats.peak_bytes = net.MaxAll(peak);
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_DISTRIBUTED_SEARCH_H_
