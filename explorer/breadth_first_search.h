// Breadth-first explicit-state search over any Model, on N threads, with
// results that do not depend on N.
//
// The search expands the state space level by level, so the first path found
// to any state is a shortest one. It checks
//  - kSafety properties on every distinct state when it is first reached,
//  - kTransition properties on every transition, also into known states,
//  - kAtRest properties on every terminal state (no successor, and not a
//    dead end of the model's own bound).
// It records the shortest violation of each property. Unless asked to stop
// at the first violation, it goes on to the end so that the statistics
// describe the whole reachable state space.
//
// How it runs in parallel and stays deterministic (the design in short):
// a level is cut into batches of kBatch states, a batch into chunks of
// kChunk states. For each batch,
//  1. generate: threads take chunks and expand their states, writing every
//     successor's key (its encoding, or its canonical encoding under
//     symmetry) and hash into the chunk's own buffers;
//  2. deduplicate: the visited store's index is split into kShards tables
//     by hash; threads take shards, and each shard looks its candidates up
//     in chunk order, so the first candidate of a new state in the serial
//     order (parent id, then successor order) is the one that wins;
//  3. commit: new states get ids in that same order (a prefix sum over
//     chunks), and threads copy them into the store, check the safety
//     properties on them and renumber the shard entries.
// Only counts, sums and "first in order" choices cross threads, so counts,
// verdicts and traces are those of a one-thread search in the same order.
// Where batches begin does not change them either, which lets a batch that
// would not fit the memory limit be tried again smaller.
//
// ExploreRecording also records the graph of the stored states
// (graph_recording.h): the keying names each successor and labels its
// edge in step 1, step 2 hands back the id each candidate was found under,
// and after step 3 the batch's edges are added in serial order.
//
// Memory (Options::max_bytes): the search counts what its buffers hold
// (the store, and each chunk's buffers and successor list, by capacity).
// A thread checks before a chunk's buffers grow and after each state's
// successors are generated; the deduplication and the commit check before
// the store grows. A batch that would pass the limit is dropped and tried
// again with a quarter of its states; a batch of one state that does not
// fit stops the search (Stop::kMaxMemory); a recording is given up before
// a batch is cut short. So the search holds at most the limit plus one
// state's successors per thread; where near the limit it stops can depend
// on thread timing.
//
// Thread safety: Explore is reentrant; the model and properties are only
// read, from several threads at once (they must be thread-safe).
//
// This header is longer than the house's usual 300 lines on purpose: the
// search loop exists once, for every thread count and reduction, and its
// phases share the batch's buffers; split across files it would be harder
// to check that they keep the serial order.

#ifndef OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_
#define OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "explorer/exploration.h"
#include "explorer/found_violations.h"
#include "explorer/graph_recording.h"
#include "explorer/model_concept.h"
#include "explorer/page_allocator.h"
#include "explorer/prefetch.h"
#include "explorer/state_graph.h"
#include "explorer/state_table.h"
#include "explorer/visited_store.h"
#include "explorer/worker_pool.h"

namespace oc::explorer {

struct Options {
  // States at this depth are not expanded (default: no limit). If one of
  // them has a successor, the search is incomplete (Stop::kMaxDepth).
  std::optional<int> max_depth;
  // Stop once this many states are stored (default: no limit): one per
  // orbit under symmetry, so fewer than the distinct states they stand for.
  std::optional<std::uint64_t> max_states;
  // Stop before the search holds more than this many bytes (default: no
  // limit), so that it ends cleanly, incomplete, instead of being killed
  // for want of memory. Counted: the visited store, the buffers of the
  // batch being expanded, and the graph (see graph_limit). Held to within
  // one state's successors per thread (see the design above).
  std::optional<std::uint64_t> max_bytes;
  // Stop at the shortest violation of any property (default: find the
  // shortest violation of each, and explore everything).
  bool stop_at_first_violation = false;
  // Called with the running statistics about every `progress_every`
  // expanded states, from the calling thread (default: never).
  std::function<void(const Stats&)> on_progress;
  std::uint64_t progress_every = 1 << 16;
  // Keep the explored graph (Exploration::graph) if the state space has at
  // most this many states; 0 (default): do not keep it. Nor is it kept
  // when it would need more than graph_bytes_limit bytes (default: no
  // limit), or when with the store it would pass max_bytes
  // (Exploration::graph_over_memory).
  std::uint64_t graph_limit = 0;
  std::optional<std::uint64_t> graph_bytes_limit;
  // Threads to search on; 0 (default): every hardware thread.
  int threads = 0;
  // Store one state per symmetry orbit, when the model declares a
  // symmetry (default: yes). Verdicts, counts and trace lengths are the
  // same either way; traces stay concrete.
  bool symmetry = true;
  // Expand only the successors of the model's partial-order reduction
  // (PartiallyOrdered), when it offers one that applies (default: no). The
  // verdicts stay those of the whole state space, but the counts are of
  // the reduced search and traces need not be shortest (see
  // Exploration::partial_order); no graph is kept.
  bool partial_order = false;
  // When set, polled before each batch of states: once it reads true the
  // search stops, incomplete (Stop::kInterrupted). The flag must outlive
  // the search; it may be set from any thread or a signal handler
  // (default: none, never interrupted).
  const std::atomic<bool>* cancel = nullptr;
};

namespace detail {

inline constexpr std::size_t kBatch = 1 << 14;  // states per batch
inline constexpr std::size_t kChunk = 1 << 8;   // states per chunk

// A property violation found in a batch, ordered as a serial search would
// meet it: by the state expanded, then its successor, then kind (a
// transition is checked before its target is stored).
struct Hit {
  std::uint32_t parent;     // the state expanded (the terminal state itself)
  std::uint32_t successor;  // index in its successor list
  int phase;                // 0: transition or at rest, 1: safety
  std::size_t property;
  // The new state (safety); for a transition, the candidate in chunk
  // `chunk` that broke it.
  std::uint32_t state;
  std::uint32_t chunk = 0;
  auto Order() const { return std::tuple(parent, successor, phase, property); }
};

// An allocator whose vectors leave the elements a resize adds as they
// find them, for buffers of plain numbers that are written right after:
// a chunk grows its buffers by a few elements per state, and zeroing
// them first was a call to memset each time. Its blocks are whole cache
// lines: chunks next to each other are filled by different threads at
// once, and two buffers sharing a line would pass it back and forth
// between the cores at every write (a chunk's action counts, written at
// every successor, could share a line with another chunk's).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  static constexpr std::size_t kLine = 64;
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + kLine - 1) / kLine * kLine;
    return static_cast<T*>(::operator new (bytes, std::align_val_t{kLine}));
  }
  void deallocate(T* p, std::size_t) noexcept {
    ::operator delete (p, std::align_val_t{kLine});
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using Buffer = std::vector<T, UninitializedAllocator<T>>;

// Memory a thread is about to write, asked for a few lines at a time
// (PrefetchForWrite): the regions of a chunk's buffers, and how far the
// asking has got.
class WriteLines {
 public:
  void Add(const void* at, std::size_t bytes) {
    if (bytes > 0 && n_ < regions_.size()) {
      regions_[n_++] = {static_cast<const char*>(at), bytes};
    }
  }
  std::size_t Lines() const {
    std::size_t lines = 0;
    for (std::size_t r = 0; r < n_; ++r) lines += (regions_[r].bytes + 63) / 64;
    return lines;
  }
  // Asks for the next `lines` lines not asked for yet.
  void Ask(std::size_t lines) {
    for (; lines > 0 && region_ < n_; --lines) {
      const Region& r = regions_[region_];
      PrefetchForWrite(r.at + offset_, 1);
      offset_ += 64;
      if (offset_ >= r.bytes) {
        ++region_;
        offset_ = 0;
      }
    }
  }
  void AskAll() { Ask(Lines()); }

 private:
  struct Region {
    const char* at = nullptr;
    std::size_t bytes = 0;
  };
  std::array<Region, 8> regions_{};
  std::size_t n_ = 0, region_ = 0, offset_ = 0;
};

// What one chunk of a batch produced. Chunks sit in one array and are
// written by different threads: each on its own cache lines.
struct alignas(64) Chunk {
  Buffer<std::uint8_t> keys;  // `width` bytes per candidate
  Buffer<std::uint64_t> hashes;
  Buffer<std::uint32_t> parents;
  Buffer<std::uint32_t> successor_index;
  // 1: first of a new state (set by the chunk's own thread, from the
  // store's list of each shard's fresh candidates).
  Buffer<std::uint8_t> fresh;
  Buffer<std::uint32_t> ids;  // committed id of a fresh candidate
  // Each candidate's shard, and the candidates by shard (in order within
  // one): shard s's are by_shard[shard_begin[s] .. shard_begin[s + 1]).
  Buffer<std::uint8_t> shard_of;
  Buffer<std::uint32_t> by_shard;
  std::array<std::uint32_t, VisitedStore::kShards + 1> shard_begin{};
  std::vector<Hit> hits;
  Buffer<std::uint64_t> action_counts;
  std::uint64_t transitions = 0, terminal = 0, dead_ends = 0, states = 0;
  bool depth_limited = false;
  std::size_t accounted = 0;  // Bytes() as last added to the search's count
  // The candidates the chunk will likely make (from the batches before),
  // room for which its first growth takes at once: growing from nothing
  // by an eighth at a time reallocated each buffer dozens of times.
  std::size_t expected = 0;

  // Bytes per candidate besides its key: hashes, parents, successor_index,
  // fresh, ids, shard_of and by_shard.
  static constexpr std::size_t kPerCandidate = 8 + 4 + 4 + 1 + 4 + 1 + 4;

  // What the buffers hold, by capacity.
  std::size_t Bytes() const {
    return keys.capacity() +
           (hashes.capacity() + action_counts.capacity()) * 8 +
           (parents.capacity() + successor_index.capacity() + ids.capacity() +
            by_shard.capacity()) *
               4 +
           fresh.capacity() + shard_of.capacity() +
           hits.capacity() * sizeof(Hit);
  }
  // Bytes() once the per-candidate buffers have room for `candidates`,
  // growing by an eighth at least (a small step keeps the slack small).
  std::size_t BytesAfterReserve(std::size_t candidates,
                                std::size_t width) const {
    if (candidates <= hashes.capacity()) return Bytes();
    return Bytes() + (GrownCapacity(candidates) - hashes.capacity()) *
                         (width + kPerCandidate);
  }
  // What making room for `candidates` adds, with the old buffers that a
  // reallocation holds while it copies them.
  std::size_t GrowthBytes(std::size_t candidates, std::size_t width) const {
    if (candidates <= hashes.capacity()) return 0;
    return BytesAfterReserve(candidates, width) - Bytes() +
           hashes.capacity() * (width + kPerCandidate);
  }
  std::size_t GrownCapacity(std::size_t candidates) const {
    return std::max(
        {candidates, hashes.capacity() + hashes.capacity() / 8, expected});
  }
  void Reserve(std::size_t candidates, std::size_t width) {
    if (candidates <= hashes.capacity()) return;
    const std::size_t n = GrownCapacity(candidates);
    keys.reserve(n * width);
    hashes.reserve(n);
    parents.reserve(n);
    successor_index.reserve(n);
    fresh.reserve(n);
    ids.reserve(n);
    shard_of.reserve(n);
    by_shard.reserve(n);
  }
  // The lines the first `candidates` candidates will be written to, as
  // far as the buffers have room.
  WriteLines LinesToWrite(std::size_t candidates, std::size_t width) const {
    WriteLines lines;
    auto add = [&](const auto& buffer, std::size_t elements) {
      lines.Add(buffer.data(),
                std::min(elements, buffer.capacity()) * sizeof(buffer[0]));
    };
    add(keys, candidates * width);
    add(hashes, candidates);
    add(parents, candidates);
    add(successor_index, candidates);
    add(shard_of, candidates);
    add(by_shard, candidates);
    add(ids, candidates);
    add(fresh, candidates);
    return lines;
  }
  // Sorts the candidates by shard (by_shard, shard_begin) from shard_of.
  void SortByShard() {
    shard_begin.fill(0);
    for (std::uint8_t s : shard_of) ++shard_begin[s + 1];
    for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
      shard_begin[s + 1] += shard_begin[s];
    }
    std::array<std::uint32_t, VisitedStore::kShards> at;
    std::copy_n(shard_begin.begin(), at.size(), at.begin());
    by_shard.resize(shard_of.size());
    for (std::size_t k = 0; k < shard_of.size(); ++k) {
      by_shard[at[shard_of[k]]++] = static_cast<std::uint32_t>(k);
    }
  }
  // Shard s's candidates.
  std::span<const std::uint32_t> OfShard(std::size_t s) const {
    return {by_shard.data() + shard_begin[s],
            by_shard.data() + shard_begin[s + 1]};
  }
  // Frees every buffer (after a batch that did not fit).
  void Release() { *this = Chunk(); }

  void Clear(std::size_t classes) {
    keys.clear();
    hashes.clear();
    parents.clear();
    successor_index.clear();
    shard_of.clear();
    by_shard.clear();
    shard_begin.fill(0);
    hits.clear();
    action_counts.assign(classes, 0);
    transitions = terminal = dead_ends = states = 0;
    depth_limited = false;
  }
};

// The buffers a symmetric model's Canonicalize and OrbitSize reuse, or
// nothing for a model without symmetry.
template <class M>
struct SymmetryScratchOf {
  struct type {};
};
template <class M>
requires Symmetric<M>
struct SymmetryScratchOf<M> {
  using type = typename M::SymmetryScratch;
};

// The same for partial-order reduction.
template <class M>
struct PartialOrderScratchOf {
  struct type {};
};
template <class M>
requires PartiallyOrdered<M>
struct PartialOrderScratchOf<M> {
  using type = typename M::PartialOrderScratch;
};

// The keying of a search that records no graph.
struct NoKeying {
  struct Scratch {};
  struct Label {};
};

template <Model M, class Keying>
Exploration<M> Search(const M& model,
                      std::span<const Property<typename M::State>> properties,
                      const Options& options, Keying* keying,
                      std::uint64_t max_recorded_bytes);

}  // namespace detail

template <Model M>
Exploration<M> Explore(const M& model,
                       std::span<const Property<typename M::State>> properties,
                       const Options& options = {}) {
  return detail::Search<M, detail::NoKeying>(model, properties, options,
                                             nullptr, 0);
}

// Explore, recording as it goes the graph of the states it stores
// (Exploration::recorded): the graph BuildKeyedGraph(model, keying, ...)
// would build afterwards, vertex for vertex, edge for edge and label for
// label, without expanding every state again. `keying` is as for
// BuildKeyedGraph, and must name states by the bytes the search stores
// them under (their canonical form under symmetry). Its Key replaces the
// search's own keying of successors, on every thread, and Intern is
// called on this thread in edge order. The recording is given up, and the
// search goes on, when it would hold more than `max_recorded_bytes`, or
// pass Options::max_bytes with the search; and it is kept only when the
// search completes. Not with partial-order reduction (then nothing is
// recorded).
template <Model M, class Keying>
Exploration<M> ExploreRecording(
    const M& model, std::span<const Property<typename M::State>> properties,
    const Options& options, Keying& keying, std::uint64_t max_recorded_bytes) {
  return detail::Search<M, Keying>(model, properties, options, &keying,
                                   max_recorded_bytes);
}

template <Model M, class Keying>
Exploration<M> detail::Search(
    const M& model, std::span<const Property<typename M::State>> properties,
    const Options& options, Keying* keying, std::uint64_t max_recorded_bytes) {
  using State = typename M::State;
  using Action = typename M::Action;
  using detail::Chunk;
  using detail::Hit;
  const auto start = std::chrono::steady_clock::now();

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
  constexpr bool kCanRecord = !std::is_same_v<Keying, detail::NoKeying>;
  const int threads =
      options.threads > 0
          ? options.threads
          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  result.threads = threads;
  WorkerPool pool(threads);

  const std::size_t width = model.EncodedSize();
  VisitedStore store(width);
  // Each thread's own buffers, by the pool's worker number (0: this
  // thread), so that neither the search nor the model keeps per-thread
  // state of its own.
  // (Each in cache lines of its own: a thread writes its vectors' ends at
  // every successor.)
  struct alignas(64) WorkerBuffers {
    std::vector<std::pair<Action, State>> successors;
    typename detail::SymmetryScratchOf<M>::type symmetry;
    typename detail::PartialOrderScratchOf<M>::type partial_order;
    // Under partial-order reduction, the successors' keys and hashes, made
    // once for the cycle condition and copied into the chunk.
    std::vector<std::uint8_t> keys;
    std::vector<std::uint64_t> hashes;
    // A stored key read back (VisitedStore::Key), at `stored_at`: the
    // first 64-byte boundary in `stored`, so that no other thread's data
    // shares its cache lines (the threads' buffers are small, and the
    // allocator may place them side by side).
    std::vector<std::uint8_t> stored;
    std::uint8_t* stored_at = nullptr;
    // While generating a chunk, on more than one thread: the lines of the
    // chunk this thread will likely generate next, asked for a few at a
    // time, and that chunk's index (none: n_chunks).
    WriteLines next_lines;
    std::size_t next_chunk = 0;
  };
  std::vector<WorkerBuffers> buffers(static_cast<std::size_t>(pool.size()));
  for (WorkerBuffers& b : buffers) {
    b.stored.resize((width + 63) / 64 * 64 + 64);
    const auto at = reinterpret_cast<std::uintptr_t>(b.stored.data());
    b.stored_at = b.stored.data() + ((64 - at % 64) % 64);
  }
  // The stored key of `id`, read with worker `worker`'s buffer.
  auto stored_key = [&](std::size_t id, int worker = 0) {
    return store.Key(static_cast<std::uint32_t>(id),
                     buffers[static_cast<std::size_t>(worker)].stored_at);
  };
  auto key_of = [&](const State& s, std::uint8_t* out, int worker = 0) {
    if constexpr (Symmetric<M>) {
      if (reduce) {
        return model.Canonicalize(
            s, out, buffers[static_cast<std::size_t>(worker)].symmetry);
      }
    }
    model.Encode(s, out);
  };
  // key_of, and the key's HashBytes: made by the encoder where the model
  // can (HashesKeys), rather than read back.
  auto hashed_key_of = [&](const State& s, std::uint8_t* out,
                           int worker) -> std::uint64_t {
    if constexpr (HashesKeys<M>) {
      if (!reduce) return model.EncodeHashed(s, out);
    }
    key_of(s, out, worker);
    return HashBytes(out, width);
  };
  auto orbit_of = [&](const State& s, int worker = 0) -> std::uint64_t {
    if constexpr (Symmetric<M>) {
      if (reduce) {
        return model.OrbitSize(
            s, buffers[static_cast<std::size_t>(worker)].symmetry);
      }
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

  // Traces. The store keeps neither parents nor actions, only states in
  // breadth-first order: level_starts[k] is the first id of depth k (the
  // last entry: the first of the level being stored). A state's parent is
  // found again as the first state of the level before, in id order, with
  // a successor whose key is the state's: the one whose successor the
  // search stored it as (the first candidate in serial order wins), so the
  // traces are those stored parent links would give. The level is scanned
  // in waves of chunks on every thread, stopping at the first wave with a
  // match. Under partial-order reduction the parent's full successors are
  // searched, which include the reduced ones.
  std::vector<std::uint32_t> level_starts{0};
  auto parent_of = [&](std::uint32_t id, std::size_t depth) {
    std::vector<std::uint8_t> target(width);
    store.CopyKey(id, target.data());
    const std::size_t begin = level_starts[depth - 1];
    const std::size_t end = level_starts[depth];
    const std::size_t per = detail::kChunk;
    const std::size_t wave = per * static_cast<std::size_t>(pool.size()) * 4;
    for (std::size_t from = begin; from < end; from += wave) {
      const std::size_t to = std::min(end, from + wave);
      std::vector<std::uint32_t> first((to - from + per - 1) / per,
                                       VisitedStore::kNoId);
      pool.ForEach(first.size(), [&](int worker, std::size_t c) {
        std::vector<std::pair<Action, State>> next;
        std::vector<std::uint8_t> key(width);
        const std::size_t last = std::min(to, from + (c + 1) * per);
        for (std::size_t p = from + c * per; p < last; ++p) {
          next.clear();
          model.Successors(model.Decode(stored_key(p, worker)), next);
          for (const auto& step : next) {
            key_of(step.second, key.data(), worker);
            if (std::memcmp(key.data(), target.data(), width) == 0) {
              first[c] = static_cast<std::uint32_t>(p);
              return;
            }
          }
        }
      });
      for (std::uint32_t f : first) {
        if (f != VisitedStore::kNoId) return f;
      }
    }
    return VisitedStore::kNoId;  // not reached: every state has a parent
  };
  auto path_to = [&](std::uint32_t id) {
    std::size_t depth = static_cast<std::size_t>(
        std::upper_bound(level_starts.begin(), level_starts.end(), id) -
        level_starts.begin() - 1);
    std::vector<std::uint32_t> path{id};
    for (; depth > 0; --depth) path.push_back(parent_of(path.back(), depth));
    std::reverse(path.begin(), path.end());
    return path;
  };
  std::vector<std::uint8_t> probe(width);
  auto write_key = [&](const State& s, std::uint8_t* out) { key_of(s, out); };
  auto trace_to = [&](std::uint32_t id) {
    const std::vector<std::uint32_t> path = path_to(id);
    std::vector<std::uint8_t> bytes(path.size() * width);
    std::vector<const std::uint8_t*> keys;
    for (std::size_t i = 0; i < path.size(); ++i) {
      store.CopyKey(path[i], bytes.data() + i * width);
      keys.push_back(bytes.data() + i * width);
    }
    return detail::TraceThroughKeys(model, write_key, width, keys);
  };

  // The batch's chunks (explained below).
  std::vector<Chunk> chunks;
  std::vector<WriteLines> lines_to_write;  // by chunk, on more than one thread
  // The keys of the states a batch stores, by id from the first it stores.
  std::vector<const std::uint8_t*> new_keys;
  // Where each chunk's fresh candidates begin in each shard's list.
  Buffer<std::uint32_t> fresh_begin;
  // The graph ExploreRecording records (graph_recording.h); none when it
  // was not asked for, or was given up.
  std::optional<detail::GraphRecording<M, Keying>> recording;
  if constexpr (kCanRecord) {
    if (keying != nullptr && !por) {
      recording.emplace(*keying, pool.size(), max_recorded_bytes);
    }
  }
  auto recording_bytes = [&] {
    return recording ? recording->Bytes() : std::size_t{0};
  };
  // What the store and the recording hold.
  auto held_bytes = [&] { return store.HeldBytes() + recording_bytes(); };
  detail::FoundViolations<M> found(properties);
  // Turns a batch's hits, sorted, into traces.
  auto record_hits = [&](std::vector<Hit>& hits) {
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
      return a.Order() < b.Order();
    });
    for (const Hit& hit : hits) {
      const Property<State>& p = properties[hit.property];
      if (found.has(hit.property)) continue;
      if (p.kind != PropertyKind::kTransition) {
        found.Record(
            hit.property,
            trace_to(p.kind == PropertyKind::kSafety ? hit.state : hit.parent));
        continue;
      }
      // The stored parent's successor broke it; find the concrete step.
      Trace<M> trace = trace_to(hit.parent);
      const std::uint8_t* target =
          chunks[hit.chunk].keys.data() + std::size_t{hit.state} * width;
      detail::AppendBreakingStep(model, write_key, width, target, p, trace);
      found.Record(hit.property, std::move(trace));
    }
  };

  // Initial states, on this thread.
  {
    std::vector<Hit> hits;
    for (const State& s : model.InitialStates()) {
      if (options.max_states && store.size() >= *options.max_states) {
        result.stop = Stop::kMaxStates;
        break;
      }
      key_of(s, probe.data());
      const auto [id, fresh] = store.InsertOne(probe.data());
      if (!fresh) continue;
      for (std::size_t p = 0; p < properties.size(); ++p) {
        if (properties[p].kind == PropertyKind::kSafety &&
            !properties[p].holds(s)) {
          hits.push_back(Hit{VisitedStore::kNoId, 0, 1, p, id});
        }
      }
    }
    record_hits(hits);
  }

  std::vector<bool> known(properties.size());  // found before this batch
  const std::uint64_t max_bytes =
      options.max_bytes.value_or(std::numeric_limits<std::uint64_t>::max());
  // What the chunks' buffers and successor lists hold (the sum of their
  // `accounted`), kept up to date by the threads as the buffers grow.
  std::atomic<std::uint64_t> held{0};
  std::atomic<bool> over{false};  // this batch would pass max_bytes
  std::uint64_t peak = store.HeldBytes();
  // States per batch: kBatch, less after a batch that did not fit.
  std::size_t batch_states = detail::kBatch;
  // Successors per state in the last batch, to size the next one to the
  // memory left (so that batches are rarely dropped: freed buffers are
  // not always given back to the system).
  double successors_per_state = 0;
  // Frees a batch that did not fit; true if a smaller one is worth a try.
  // The recording never takes memory the search needs: where the search
  // would not fit, the recording is given up first.
  auto drop_batch = [&](std::size_t states) {
    for (Chunk& chunk : chunks) chunk.Release();
    held = 0;
    if (recording) {
      recording.reset();
      return true;  // the same batch again, unrecorded
    }
    if (states <= 1) return false;
    batch_states = std::max<std::size_t>(1, states / 4);
    return true;
  };
  // Adds a numbered batch to the recording, or gives the recording up
  // when it would not fit.
  auto record_batch = [&](std::size_t batch, std::size_t batch_end,
                          std::size_t chunk_states, std::size_t n_chunks) {
    std::size_t edges = 0;
    for (std::size_t c = 0; c < n_chunks; ++c) edges += chunks[c].ids.size();
    const std::size_t after =
        recording->BytesAfterAdding(batch_end - batch, edges);
    if (after > max_recorded_bytes ||
        store.HeldBytes() + held + after > max_bytes) {
      recording.reset();
      return;
    }
    peak = std::max<std::uint64_t>(peak, store.HeldBytes() + held + after);
    // The ids the deduplication left provisional: of a state first met in
    // this batch, given to the candidate that was fresh with it.
    pool.ForEach(n_chunks, [&](int, std::size_t c) {
      Chunk& chunk = chunks[c];
      for (std::size_t k = 0; k < chunk.fresh.size(); ++k) {
        std::uint32_t& id = chunk.ids[k];
        if (chunk.fresh[k] || !VisitedStore::IsProvisional(id)) continue;
        const auto [other, candidate] =
            store.FreshCandidate(chunk.hashes[k], id);
        id = chunks[other].ids[candidate];
      }
    });
    std::vector<typename detail::GraphRecording<M, Keying>::ChunkEdges> in(
        n_chunks);
    for (std::size_t c = 0; c < n_chunks; ++c) {
      in[c].first = batch + c * chunk_states;
      in[c].last = std::min(batch_end, in[c].first + chunk_states);
      in[c].parents = chunks[c].parents;
      in[c].targets = chunks[c].ids;
    }
    if constexpr (kCanRecord) recording->Add(in, pool);
  };
  std::uint64_t expanded = 0, next_progress = options.progress_every;
  std::size_t counted = 0;  // states below this id are in stats.states
  std::size_t level_begin = 0;
  std::size_t previous_level = 0;  // states stored at the depth before
  int depth = 0;
  bool depth_limited = false;

  while (result.stop == Stop::kComplete && level_begin < store.size()) {
    const std::size_t level_end = store.size();
    level_starts.push_back(static_cast<std::uint32_t>(level_end));
    result.stats.depth = depth;
    const bool at_depth_limit =
        options.max_depth && depth >= *options.max_depth;
    for (std::size_t batch = level_begin;
         batch < level_end && result.stop == Stop::kComplete;) {
      if (recording && held_bytes() + held >= max_bytes) recording.reset();
      if (held_bytes() + held >= max_bytes) {
        result.stop = Stop::kMaxMemory;
        break;
      }
      if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
        result.stop = Stop::kInterrupted;
        break;
      }
      std::size_t states = batch_states;
      if (options.max_bytes && successors_per_state > 0) {
        // Half the memory left, at about width + 64 bytes per candidate
        // (its buffers, its share of the tables and deduplication).
        const double left =
            static_cast<double>(max_bytes - held_bytes() - held) / 2;
        const double fit =
            left / (successors_per_state * static_cast<double>(width + 64));
        states =
            std::clamp<std::size_t>(static_cast<std::size_t>(fit), 1, states);
      }
      const std::size_t batch_end = std::min(level_end, batch + states);
      const std::size_t chunk_states = std::min(detail::kChunk, states);
      const std::size_t n_chunks =
          (batch_end - batch + chunk_states - 1) / chunk_states;
      if (chunks.size() < n_chunks) chunks.resize(n_chunks);
      for (std::size_t c = 0; c < n_chunks; ++c) {
        chunks[c].expected = static_cast<std::size_t>(
            static_cast<double>(chunk_states) * successors_per_state);
      }
      if (recording) recording->PrepareChunks(n_chunks);
      for (std::size_t p = 0; p < properties.size(); ++p) {
        known[p] = found.has(p);
      }

      // Each phase's wall time, added to result.stats.phases.
      auto phase_start = std::chrono::steady_clock::now();
      auto lap = [&](double& phase) {
        const auto now = std::chrono::steady_clock::now();
        phase += std::chrono::duration<double>(now - phase_start).count();
        phase_start = now;
      };

      // 1. Generate.
      const std::uint64_t store_bytes = held_bytes();
      over = false;
      // The other threads read a chunk's buffers in the batch before
      // (deduplicating, renumbering), so their lines sit in those threads'
      // caches; taken back one at a time, at each write, they made
      // generating a sixth slower on two threads. So a thread asks for a
      // chunk's lines for writing before it generates into it: the next
      // chunk of its share a few lines per state while it generates one,
      // all at once for a chunk it did not expect.
      // (Each chunk's lines are listed here, before any thread may grow
      // its buffers.)
      const bool ask_lines = pool.size() > 1;
      if (ask_lines) {
        for (WorkerBuffers& b : buffers) b.next_chunk = n_chunks;
        lines_to_write.resize(n_chunks);
        for (std::size_t c = 0; c < n_chunks; ++c) {
          lines_to_write[c] = chunks[c].LinesToWrite(chunks[c].expected, width);
        }
      }
      pool.ForEach(n_chunks, [&](int worker, std::size_t c) {
        // Kept by the worker from chunk to chunk (growing it anew for each
        // chunk costs time); counted while this chunk uses it.
        std::vector<std::pair<Action, State>>& successors =
            buffers[static_cast<std::size_t>(worker)].successors;
        successors.clear();
        bool using_successors = true;
        Chunk& chunk = chunks[c];
        chunk.Clear(classes);
        WriteLines* next_lines = nullptr;
        std::size_t lines_per_state = 0;
        if (ask_lines) {
          WorkerBuffers& own = buffers[static_cast<std::size_t>(worker)];
          if (own.next_chunk != c) lines_to_write[c].AskAll();
          own.next_chunk = n_chunks;
          // (Not from a chunk taken from another thread's share: that
          // thread may well take the next one.)
          const auto [share_first, share_end] = pool.ShareOf(n_chunks, worker);
          if (c >= share_first && c + 1 < share_end) {
            own.next_chunk = c + 1;
            own.next_lines = lines_to_write[c + 1];
            next_lines = &own.next_lines;
            lines_per_state = next_lines->Lines() / chunk_states + 1;
          }
        }
        // Known null when nothing can be recorded, so that a search that
        // records nothing carries no test for it.
        typename detail::GraphRecording<M, Keying>::ChunkRecord* recorded =
            nullptr;
        if constexpr (kCanRecord) {
          if (recording) recorded = &recording->chunk(c);
        }
        if (recorded) recorded->Clear();
        // Brings `held` up to what the chunk holds now.
        auto account = [&] {
          const std::size_t now =
              chunk.Bytes() + (recorded ? recorded->Bytes() : 0) +
              (using_successors ? successors.capacity() * sizeof(successors[0])
                                : 0);
          if (now > chunk.accounted) {
            held += now - chunk.accounted;
          } else if (now < chunk.accounted) {
            held -= chunk.accounted - now;
          }
          chunk.accounted = now;
        };
        auto fits = [&](std::size_t more) {
          return store_bytes + held.load(std::memory_order_relaxed) + more <=
                 max_bytes;
        };
        const std::size_t first = batch + c * chunk_states;
        const std::size_t last = std::min(batch_end, first + chunk_states);
        for (std::size_t i = first; i < last; ++i) {
          if (over.load(std::memory_order_relaxed)) break;
          if (next_lines) next_lines->Ask(lines_per_state);
          const auto id = static_cast<std::uint32_t>(i);
          const State current = model.Decode(stored_key(id, worker));
          successors.clear();
          WorkerBuffers& own = buffers[static_cast<std::size_t>(worker)];
          bool keyed = false;  // own.keys and own.hashes are successors'
          bool expanded = false;
          if constexpr (PartiallyOrdered<M>) {
            // At the depth limit only whether there are successors counts.
            expanded = por && !at_depth_limit;
            if (expanded && model.ReducedSuccessors(current, successors,
                                                    own.partial_order)) {
              // The cycle condition: a successor stored at this depth or
              // before may close a cycle, on which some action could be
              // put off forever; then expand fully.
              own.keys.resize(successors.size() * width);
              own.hashes.resize(successors.size());
              keyed = true;
              for (std::size_t j = 0; j < successors.size(); ++j) {
                std::uint8_t* key = own.keys.data() + j * width;
                own.hashes[j] =
                    hashed_key_of(successors[j].second, key, worker);
                const auto known_id = store.Find(key, own.hashes[j]);
                if (known_id && *known_id < level_end) {
                  keyed = false;
                  break;
                }
              }
              if (!keyed) {
                successors.clear();
                model.Successors(current, successors);
              }
            }
          }
          if (!expanded) model.Successors(current, successors);
          const bool bounded =
              successors.empty() && model.BlockedByBound(current);
          if (recorded) recorded->AddState(!successors.empty(), bounded);
          account();
          // The state stands for its orbit: its states, and their
          // transitions (counted here, where every stored state passes
          // once; states never expanded are counted at the end).
          const std::uint64_t weight = orbit_of(current, worker);
          chunk.states += weight;
          if (successors.empty()) {
            if (bounded) {
              chunk.dead_ends += weight;
              continue;
            }
            chunk.terminal += weight;
            for (std::size_t p = 0; p < properties.size(); ++p) {
              if (properties[p].kind == PropertyKind::kAtRest && !known[p] &&
                  !properties[p].holds(current)) {
                chunk.hits.push_back(Hit{id, 0, 0, p, 0});
              }
            }
            continue;
          }
          if (at_depth_limit) {
            chunk.depth_limited = true;
            continue;
          }
          // Room for this state's candidates, checked before it is made.
          const std::size_t room = chunk.hashes.size() + successors.size();
          if (!fits(chunk.GrowthBytes(room, width))) {
            over = true;
            break;
          }
          chunk.Reserve(room, width);
          const std::size_t first_k = chunk.hashes.size();
          chunk.keys.resize(room * width);
          chunk.hashes.resize(room);
          chunk.parents.resize(room);
          chunk.successor_index.resize(room);
          chunk.shard_of.resize(room);
          for (std::uint32_t j = 0; j < successors.size(); ++j) {
            const auto& [action, next] = successors[j];
            chunk.transitions += weight;
            if constexpr (ClassifiesActions<M>) {
              chunk.action_counts[model.ActionClass(current, action, next)] +=
                  weight;
            }
            const std::size_t k = first_k + j;
            for (std::size_t p = 0; p < properties.size(); ++p) {
              if (properties[p].kind == PropertyKind::kTransition &&
                  !known[p] && !properties[p].holds_on(current, next)) {
                chunk.hits.push_back(Hit{id, j, 0, p,
                                         static_cast<std::uint32_t>(k),
                                         static_cast<std::uint32_t>(c)});
              }
            }
            std::uint8_t* key = chunk.keys.data() + k * width;
            std::uint64_t hash;
            if (keyed) {
              std::memcpy(key, own.keys.data() + j * width, width);
              hash = own.hashes[j];
            } else if (recorded) {
              if constexpr (kCanRecord) {
                recorded->labels.push_back(
                    recording->Key(current, action, next, key, worker));
                recorded->actions.push_back(action);
              }
              hash = HashBytes(key, width);
            } else {
              hash = hashed_key_of(next, key, worker);
            }
            chunk.hashes[k] = hash;
            chunk.parents[k] = id;
            chunk.successor_index[k] = j;
            chunk.shard_of[k] =
                static_cast<std::uint8_t>(VisitedStore::ShardOf(hash));
          }
          account();
        }
        chunk.SortByShard();
        chunk.ids.assign(chunk.hashes.size(), VisitedStore::kNoId);
        using_successors = false;
        account();
      });
      lap(result.stats.phases.generate);
      if (over) {
        if (drop_batch(batch_end - batch)) continue;
        result.stop = Stop::kMaxMemory;
        break;
      }
      peak = std::max<std::uint64_t>(peak, store_bytes + held);

      // 2. Deduplicate, shard by shard, candidates in serial order.
      std::array<std::size_t, VisitedStore::kShards> per_shard{};
      for (std::size_t c = 0; c < n_chunks; ++c) {
        for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
          per_shard[s] += chunks[c].OfShard(s).size();
        }
      }
      // The shards' tables grow first: for every candidate, at worst.
      const std::uint64_t deduplicating =
          store.BytesToDeduplicate(per_shard) + recording_bytes() + held;
      if (deduplicating > max_bytes) {
        if (drop_batch(batch_end - batch)) continue;
        result.stop = Stop::kMaxMemory;
        break;
      }
      peak = std::max(peak, deduplicating);
      // Where each chunk's fresh candidates begin in each shard's list
      // (store.Fresh): shard s's entries for chunk c are
      // [fresh_begin[s * stride + c], fresh_begin[s * stride + c + 1]).
      // Each shard's row in cache lines of its own.
      const std::size_t stride = (n_chunks + 1 + 15) / 16 * 16;
      fresh_begin.assign(VisitedStore::kShards * stride, 0);
      pool.ForEach(VisitedStore::kShards, [&](int, std::size_t s) {
        store.Deduplicate(
            s, per_shard[s], n_chunks,
            [&](std::size_t c) {
              Chunk& chunk = chunks[c];
              return VisitedStore::Candidates{
                  chunk.OfShard(s), chunk.keys.data(), chunk.hashes.data(),
                  nullptr, recording ? chunk.ids.data() : nullptr};
            },
            recording.has_value());
        std::uint32_t* begin = fresh_begin.data() + s * stride;
        for (const VisitedStore::Pending& p : store.Fresh(s)) {
          ++begin[p.chunk + 1];
        }
        for (std::size_t c = 0; c < n_chunks; ++c) begin[c + 1] += begin[c];
      });
      lap(result.stats.phases.deduplicate);

      // 3. Commit: ids in serial order, then copies and checks.
      std::vector<std::size_t> first_id(n_chunks + 1, store.size());
      for (std::size_t c = 0; c < n_chunks; ++c) {
        std::size_t fresh = 0;
        for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
          fresh +=
              fresh_begin[s * stride + c + 1] - fresh_begin[s * stride + c];
        }
        first_id[c + 1] = first_id[c] + fresh;
      }
      std::size_t end_id = first_id[n_chunks];
      // The store numbers states with 31 bits: more is a state limit too.
      const std::size_t limit = std::min<std::uint64_t>(
          options.max_states.value_or(VisitedStore::kMaxStates),
          VisitedStore::kMaxStates);
      if (end_id > limit) {
        end_id = std::max<std::size_t>(store.size(), limit);
        result.stop = Stop::kMaxStates;
      }
      // The deduplication left provisional entries: the batch cannot be
      // tried again, so what does not fit ends the search.
      if (recording &&
          store.BytesAfterResize(end_id) + recording_bytes() + held >
              max_bytes) {
        recording.reset();
      }
      if (store.BytesAfterResize(end_id) + held > max_bytes) {
        end_id = std::max(store.size(), std::min(end_id, store.Capacity()));
        result.stop = Stop::kMaxMemory;
      }
      const auto stored_before = static_cast<std::uint32_t>(store.size());
      store.Resize(end_id);
      new_keys.resize(end_id - stored_before);
      peak = std::max<std::uint64_t>(
          peak, held_bytes() + held + new_keys.capacity() * sizeof(void*));
      pool.ForEach(n_chunks, [&](int, std::size_t c) {
        Chunk& chunk = chunks[c];
        chunk.fresh.assign(chunk.hashes.size(), 0);
        for (std::size_t s = 0; s < VisitedStore::kShards; ++s) {
          const auto fresh = store.Fresh(s);
          for (std::size_t i = fresh_begin[s * stride + c];
               i < fresh_begin[s * stride + c + 1]; ++i) {
            chunk.fresh[fresh[i].candidate] = 1;
          }
        }
        std::size_t id = first_id[c];
        for (std::size_t k = 0; k < chunk.fresh.size(); ++k) {
          if (!chunk.fresh[k]) continue;
          if (id >= end_id) break;
          const auto new_id = static_cast<std::uint32_t>(id++);
          chunk.ids[k] = new_id;
          const std::uint8_t* key = chunk.keys.data() + k * width;
          new_keys[new_id - stored_before] = key;
          const State state = model.Decode(key);
          for (std::size_t p = 0; p < properties.size(); ++p) {
            if (properties[p].kind == PropertyKind::kSafety && !known[p] &&
                !properties[p].holds(state)) {
              chunk.hits.push_back(Hit{chunk.parents[k],
                                       chunk.successor_index[k], 1, p, new_id});
            }
          }
        }
      });
      lap(result.stats.phases.commit);
      store.SetKnownHalves(
          stored_before, new_keys, [&](std::size_t n, auto task) {
            pool.ForEach(n, [&](int, std::size_t j) { task(j); });
          });
      lap(result.stats.phases.store);
      // The new halves' serial pass (a few milliseconds in a search of a
      // tenth of a second) beside the renumbering, which reads no record.
      pool.ForEach(VisitedStore::kShards + 1, [&](int, std::size_t s) {
        if (s == 0) {
          store.AddNewHalves();
          return;
        }
        store.Renumber(s - 1, [&](std::size_t c, std::uint32_t k) {
          return chunks[c].ids[k];
        });
      });
      lap(result.stats.phases.renumber);
      if (recording && result.stop == Stop::kComplete) {
        record_batch(batch, batch_end, chunk_states, n_chunks);
      }

      // Sums, and the violations in serial order.
      std::vector<Hit> hits;
      std::size_t candidates = 0;
      for (std::size_t c = 0; c < n_chunks; ++c) {
        const Chunk& chunk = chunks[c];
        candidates += chunk.hashes.size();
        result.stats.states += chunk.states;
        result.stats.transitions += chunk.transitions;
        result.stats.terminal_states += chunk.terminal;
        result.stats.bounded_dead_ends += chunk.dead_ends;
        for (std::size_t k = 0; k < classes; ++k) {
          result.action_counts[k] += chunk.action_counts[k];
        }
        depth_limited = depth_limited || chunk.depth_limited;
        hits.insert(hits.end(), chunk.hits.begin(), chunk.hits.end());
      }
      record_hits(hits);
      expanded += batch_end - batch;
      counted = batch_end;
      successors_per_state = static_cast<double>(candidates) /
                             static_cast<double>(batch_end - batch);
      batch = batch_end;
      batch_states = std::min(detail::kBatch, batch_states * 2);
      if (options.on_progress && expanded >= next_progress) {
        next_progress = expanded + options.progress_every;
        result.stats.stored_states = store.size();
        result.stats.store_bytes = store.Bytes();
        result.stats.peak_bytes = peak;
        result.stats.expanded_states = batch_end;
        result.stats.level_states = level_end - level_begin;
        result.stats.previous_level_states = previous_level;
        result.stats.next_level_states = store.size() - level_end;
        result.stats.seconds = std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
        options.on_progress(result.stats);
      }
    }
    if (depth_limited && result.stop == Stop::kComplete) {
      result.stop = Stop::kMaxDepth;
    }
    // A violation found while expanding this level has length depth or
    // depth + 1; finishing the level first lets a shorter at-rest violation
    // of this level win.
    if (options.stop_at_first_violation && found.shortest() >= 0 &&
        result.stop == Stop::kComplete) {
      result.stop = Stop::kFirstViolation;
    }
    previous_level = level_end - level_begin;
    level_begin = level_end;
    ++depth;
  }
  if (result.stop == Stop::kFirstViolation && level_begin >= store.size()) {
    result.stop = Stop::kComplete;  // nothing was left to explore anyway
  }

  result.violations = found.Take(options.stop_at_first_violation);

  // States a stopped search stored but did not expand.
  for (std::size_t id = counted; id < store.size(); ++id) {
    result.stats.states += orbit_of(model.Decode(stored_key(id)));
  }
  result.stats.stored_states = store.size();
  result.stats.store_bytes = store.Bytes();
  std::vector<Chunk>().swap(chunks);
  if (recording && result.complete() && recording->states() == store.size()) {
    // Every stored state was expanded: the graph is whole.
    recording->ReleaseChunks();
    PageVector<std::uint8_t> encodings;
    encodings.resize(store.size() * width);
    peak = std::max<std::uint64_t>(peak, held_bytes() + encodings.size());
    constexpr std::size_t kRun = RecordBlocks::kPerBlock;
    pool.ForEach((store.size() + kRun - 1) / kRun, [&](int, std::size_t b) {
      const std::size_t first = b * kRun;
      const std::size_t n = std::min(kRun, store.size() - first);
      for (std::size_t i = first; i < first + n; ++i) {
        store.CopyKey(static_cast<std::uint32_t>(i),
                      encodings.data() + i * width);
      }
    });
    result.recorded = recording->Take(width, std::move(encodings));
  }
  recording.reset();
  detail::KeepGraph(model, options.graph_limit, options.graph_bytes_limit, por,
                    held_bytes(), max_bytes, result, peak);
  result.stats.peak_bytes = peak;
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_BREADTH_FIRST_SEARCH_H_
