// Seeded random walks over any Model: for state spaces too large to
// search exhaustively, a simulation that may find a violation but never
// proves that a property holds.
//
// A walk starts in an initial state and, until it reaches a terminal state,
// a bounded dead end, a violation or the depth limit, takes one enabled
// action, chosen at random: uniformly, or in proportion to a weight per
// action class (ClassifiesActions). It checks the properties as the
// breadth-first search does: kSafety on every state it reaches (the initial
// one too), kTransition on every step, kAtRest on the state it ends in when
// that is terminal. The first violation ends the walk.
//
// Determinism: walk i draws from its own generator, seeded by WalkSeed(seed,
// i); std::mt19937_64's output is fixed by the C++ standard, and the range
// reduction (WalkRandom::Below) is our own, so a walk is the same on every
// platform, compiler and standard library. Threads take walks by number;
// their results are merged in walk order, and the run ends at the
// lowest-numbered walk that found a violation (walks after it are thrown
// away, whether they ran or not). So the result is that of running walks
// 0, 1, 2, ... on one thread, whatever the thread count. With a time limit
// only how many walks were run depends on the clock.
//
// Thread safety: RandomWalks is reentrant; the model, the properties and
// the start function are called from several threads at once (they must be
// thread-safe).

#ifndef OUTBOX_CHECK_EXPLORER_RANDOM_WALK_H_
#define OUTBOX_CHECK_EXPLORER_RANDOM_WALK_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "explorer/exploration.h"
#include "explorer/model_concept.h"
#include "explorer/state_table.h"
#include "explorer/visited_store.h"

namespace oc::explorer {

// The seed of walk `walk` in a run seeded `seed`: the splitmix64 finalizer
// of both, so that neighbouring walks get unrelated generators.
inline std::uint64_t WalkSeed(std::uint64_t seed, std::uint64_t walk) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (walk + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A reproducible source of random numbers: std::mt19937_64 (its output is
// fixed by the standard) with an unbiased range reduction of our own (the
// standard's distributions may differ between libraries).
class WalkRandom {
 public:
  explicit WalkRandom(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, n). REQUIRES: n > 0.
  std::uint64_t Below(std::uint64_t n) {
    // Reject the top values that would make some results more likely.
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    return x % n;
  }

 private:
  std::mt19937_64 engine_;
};

// Where one walk starts, and how it weighs the action classes.
template <class M>
struct WalkStart {
  typename M::State initial;
  // The weight of each action class, by class index (ClassifiesActions);
  // empty: every enabled action is as likely. An action of weight 0 is
  // taken only when every enabled action weighs 0.
  std::vector<std::uint32_t> class_weights;
};

// Makes walk `walk`'s start, drawing from `random` (the walk's own
// generator, before the walk draws its steps from it).
template <class M>
using WalkStarter =
    std::function<WalkStart<M>(std::uint64_t walk, WalkRandom& random)>;

struct WalkOptions {
  std::uint64_t seed = 1;
  // Steps per walk at most (default 200).
  int max_depth = 200;
  // Run walks 0 .. walks - 1, unless a violation comes first (default: no
  // limit but `time`; with neither set, 1000 walks).
  std::optional<std::uint64_t> walks;
  // Start no walk after this much time (default: no limit).
  std::optional<std::chrono::milliseconds> time;
  // Threads (0, the default: every hardware thread).
  int threads = 0;
  // Count distinct states up to this many (default 2^20), then stop
  // counting: the count is then a lower bound. The set costs about
  // EncodedSize() + 12 bytes per state.
  std::uint64_t distinct_limit = std::uint64_t{1} << 20;
  // Called after walks are merged, with the distinct states seen, the
  // steps taken, the longest walk, the walks run and the seconds so far
  // (Stats::walks is set; the set of distinct states is peak_bytes), from
  // whichever thread merged them, one call at a time. Default: none.
  std::function<void(const Stats&)> on_progress;
  // Polled between walks: once true, no further walk starts
  // (Stop::kInterrupted). Must outlive the call (default: none).
  const std::atomic<bool>* cancel = nullptr;
};

// The violation of the lowest-numbered walk that found one, as that walk
// met it (not shortened).
template <class M>
struct WalkViolation {
  std::uint64_t walk = 0;
  Violation<M> violation;
};

template <class M>
struct WalkRun {
  Stop stop = Stop::kSampled;  // or kInterrupted
  std::uint64_t walks = 0;     // walks counted: 0 .. walks - 1
  std::uint64_t steps = 0;     // actions taken over those walks
  std::uint64_t distinct_states = 0;
  bool distinct_capped = false;      // distinct_states is a lower bound
  std::uint64_t ended_at_rest = 0;   // walks that reached a terminal state
  std::uint64_t ended_at_bound = 0;  // ... a bounded dead end
  std::uint64_t ended_at_depth = 0;  // ... the depth limit
  int depth = 0;                     // longest walk, in steps
  double seconds = 0;                // wall time; not deterministic
  // Steps taken per action class (ClassifiesActions), as Exploration.
  std::vector<std::string> action_classes;
  std::vector<std::uint64_t> action_counts;
  std::optional<WalkViolation<M>> found;
};

namespace detail {

// What one walk did, kept until its turn to be merged.
template <class M>
struct WalkRecord {
  std::vector<std::uint8_t> keys;  // every state's encoding, in order
  std::vector<std::uint64_t> action_counts;
  std::uint64_t steps = 0;
  int ending = 0;  // 0 violation, 1 at rest, 2 bounded, 3 depth limit
  std::optional<Violation<M>> violation;
};

// The index of the property among `properties` of `kind` that `before` ->
// `after` (kTransition) or `s` breaks, first in list order.
template <class M>
std::optional<std::size_t> Broken(
    const std::vector<Property<typename M::State>>& properties,
    PropertyKind kind, const typename M::State* before,
    const typename M::State& s) {
  for (std::size_t p = 0; p < properties.size(); ++p) {
    if (properties[p].kind != kind) continue;
    const bool holds = kind == PropertyKind::kTransition
                           ? properties[p].holds_on(*before, s)
                           : properties[p].holds(s);
    if (!holds) return p;
  }
  return std::nullopt;
}

template <Model M>
WalkRecord<M> Walk(const M& model,
                   const std::vector<Property<typename M::State>>& properties,
                   const WalkOptions& options, std::size_t classes,
                   const WalkStarter<M>& starter, std::uint64_t walk) {
  using State = typename M::State;
  using Action = typename M::Action;
  WalkRandom random(WalkSeed(options.seed, walk));
  WalkStart<M> start;
  if (starter) {
    start = starter(walk, random);
  } else {
    const std::vector<State> initial = model.InitialStates();
    start.initial = initial[random.Below(initial.size())];
  }
  WalkRecord<M> record;
  record.action_counts.assign(classes, 0);
  const std::size_t width = model.EncodedSize();
  Trace<M> trace;
  trace.states.push_back(start.initial);
  auto keep = [&](const State& s) {
    record.keys.resize(record.keys.size() + width);
    model.Encode(s, record.keys.data() + record.keys.size() - width);
  };
  auto violated = [&](std::size_t p) {
    record.violation =
        Violation<M>{properties[p].name, properties[p].kind, trace};
    record.ending = 0;
  };
  keep(start.initial);
  if (auto p = Broken<M>(properties, PropertyKind::kSafety, nullptr,
                         start.initial)) {
    violated(*p);
    return record;
  }
  std::vector<std::pair<Action, State>> next;
  std::vector<std::uint64_t> weights;
  for (;;) {
    const State& s = trace.states.back();
    next.clear();
    model.Successors(s, next);
    if (next.empty()) {
      if (model.BlockedByBound(s)) {
        record.ending = 2;
        return record;
      }
      record.ending = 1;
      if (auto p = Broken<M>(properties, PropertyKind::kAtRest, nullptr, s)) {
        violated(*p);
      }
      return record;
    }
    if (static_cast<int>(trace.actions.size()) >= options.max_depth) {
      record.ending = 3;
      return record;
    }
    // Weighted choice: the total weight drawn once, then walked.
    std::size_t chosen = 0;
    std::uint64_t total = 0;
    if constexpr (ClassifiesActions<M>) {
      if (!start.class_weights.empty()) {
        weights.clear();
        for (const auto& [a, t] : next) {
          const std::size_t c = model.ActionClass(s, a, t);
          weights.push_back(
              c < start.class_weights.size() ? start.class_weights[c] : 1);
          total += weights.back();
        }
      }
    }
    if (total == 0) {
      chosen = random.Below(next.size());
    } else {
      std::uint64_t r = random.Below(total);
      while (r >= weights[chosen]) r -= weights[chosen++];
    }
    auto& [action, successor] = next[chosen];
    if constexpr (ClassifiesActions<M>) {
      ++record.action_counts[model.ActionClass(s, action, successor)];
    }
    trace.actions.push_back(std::move(action));
    trace.states.push_back(std::move(successor));
    ++record.steps;
    keep(trace.states.back());
    const State& before = trace.states[trace.states.size() - 2];
    if (auto p = Broken<M>(properties, PropertyKind::kTransition, &before,
                           trace.states.back())) {
      violated(*p);
      return record;
    }
    if (auto p = Broken<M>(properties, PropertyKind::kSafety, nullptr,
                           trace.states.back())) {
      violated(*p);
      return record;
    }
  }
}

}  // namespace detail

// Runs random walks over `model` (see the top of this file). `starter`
// gives each walk its start and weights; without one a walk starts in an
// initial state drawn at random and takes every enabled action alike.
template <Model M>
WalkRun<M> RandomWalks(
    const M& model, const std::vector<Property<typename M::State>>& properties,
    const WalkOptions& options, const WalkStarter<M>& starter = nullptr) {
  const auto began = std::chrono::steady_clock::now();
  WalkRun<M> run;
  if constexpr (ClassifiesActions<M>) {
    run.action_classes = model.ActionClassNames();
  }
  const std::size_t classes = run.action_classes.size();
  run.action_counts.assign(classes, 0);
  const std::uint64_t walk_limit =
      options.walks ? *options.walks : (options.time ? UINT64_MAX : 1000);
  const std::size_t width = model.EncodedSize();

  // The distinct states of the walks merged so far: their encodings, and
  // an index of them.
  std::vector<std::uint8_t> seen;
  StateTable index;
  auto count_state = [&](const std::uint8_t* key) {
    if (run.distinct_capped) return;
    if (run.distinct_states >= options.distinct_limit) {
      run.distinct_capped = true;
      return;
    }
    index.Reserve(1);
    StateTable::Slot slot;
    const auto [id, fresh] = index.FindOrInsert(
        HashBytes(key, width), static_cast<std::uint32_t>(run.distinct_states),
        [&](std::uint32_t id) {
          return std::equal(key, key + width, seen.data() + id * width);
        },
        &slot);
    if (fresh) {
      seen.insert(seen.end(), key, key + width);
      ++run.distinct_states;
    }
  };

  std::atomic<std::uint64_t> next_walk{0};
  // The lowest walk known to have found a violation: no walk after it is
  // started.
  std::atomic<std::uint64_t> stop_after{UINT64_MAX};
  std::mutex merge_mutex;
  std::map<std::uint64_t, detail::WalkRecord<M>> waiting;
  std::uint64_t next_merge = 0;
  bool interrupted = false;

  // Merges the records that are next in walk order (merge_mutex held).
  auto merge_ready = [&] {
    for (auto it = waiting.find(next_merge); it != waiting.end();
         it = waiting.find(next_merge)) {
      detail::WalkRecord<M>& r = it->second;
      if (!run.found) {
        ++run.walks;
        run.steps += r.steps;
        run.depth = std::max(run.depth, static_cast<int>(r.steps));
        for (std::size_t c = 0; c < classes; ++c) {
          run.action_counts[c] += r.action_counts[c];
        }
        for (std::size_t k = 0; k + width <= r.keys.size(); k += width) {
          count_state(r.keys.data() + k);
        }
        switch (r.ending) {
          case 1:
            ++run.ended_at_rest;
            break;
          case 2:
            ++run.ended_at_bound;
            break;
          case 3:
            ++run.ended_at_depth;
            break;
          default:
            break;
        }
        if (r.violation) {
          run.found = WalkViolation<M>{next_merge, std::move(*r.violation)};
        }
      }
      waiting.erase(it);
      ++next_merge;
    }
    if (options.on_progress) {
      Stats progress;
      progress.walks = next_merge;
      progress.states = progress.stored_states = run.distinct_states;
      progress.transitions = run.steps;
      progress.depth = run.depth;
      progress.peak_bytes = seen.capacity() + index.Bytes();
      progress.seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - began)
                             .count();
      options.on_progress(progress);
    }
  };

  auto worker = [&] {
    for (;;) {
      if (options.cancel && options.cancel->load()) {
        std::lock_guard lock(merge_mutex);
        interrupted = true;
        return;
      }
      if (options.time &&
          std::chrono::steady_clock::now() - began >= *options.time) {
        return;
      }
      const std::uint64_t walk = next_walk.fetch_add(1);
      if (walk >= walk_limit || walk > stop_after.load()) return;
      detail::WalkRecord<M> record =
          detail::Walk<M>(model, properties, options, classes, starter, walk);
      if (record.violation) {
        std::uint64_t known = stop_after.load();
        while (walk < known && !stop_after.compare_exchange_weak(known, walk)) {
        }
      }
      std::lock_guard lock(merge_mutex);
      waiting.emplace(walk, std::move(record));
      merge_ready();
    }
  };
  int threads = options.threads > 0
                    ? options.threads
                    : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(threads, 1);
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
  }
  // Every walk taken ran to its end, so every one before the last taken
  // was merged; a walk after a violation was not needed.
  if (interrupted && !run.found) run.stop = Stop::kInterrupted;
  run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began)
          .count();
  return run;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_RANDOM_WALK_H_
