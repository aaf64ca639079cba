// The explored state graph, kept for small searches so that analyses (the
// point of no return) and drawings (Graphviz) can see every state and edge.
//
// Vertex v is the v-th distinct state in breadth-first order (vertex 0 is
// the initial state), and each edge is one transition labelled with its
// action. Duplicate transitions into known states are edges too, so
// out_degree(v) is the number of enabled actions, and v's out-edges come in
// the model's successor order.
//
// Compact on purpose (a Boost adjacency list with a State per vertex took
// about 14 KB per state with its edges, 655 MB for 45,229 states): per vertex
// only the state's encoding (Model::Encode, EncodedSize() bytes, end to end
// in one array), a flag byte and where its edges begin; per edge a 32-bit
// target and the action, in compressed sparse row form (the out-edges of v
// are the edge ids out_begin(v) .. out_end(v) - 1); and a hash index from
// encodings to vertices (Find). States are decoded on demand, by the model
// the graph was built from. Bytes() is what all of it holds.
//
// BuildKeyedGraph builds the same kind of graph with vertices named by
// other bytes (one vertex per symmetry orbit, for the leads-to check on
// the quotient) and a 32-bit label per edge.
//
// A value type; reading it from several threads at once is safe.

#ifndef OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_
#define OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "explorer/model_concept.h"
#include "explorer/page_allocator.h"
#include "explorer/state_table.h"
#include "explorer/visited_store.h"
#include "explorer/worker_pool.h"

namespace oc::explorer {

template <class M>
class StateGraph;

// The whole reachable graph of `model` (unreduced), by a plain breadth-first
// search; nullopt when it would hold more than `max_bytes` bytes
// (StateGraph::Bytes()), which are then never allocated at once. `states`
// and `transitions`, when known (a complete search counted them), size the
// arrays at once, so that no array is reallocated (a reallocation holds
// both copies for a moment) and the bytes are known before building.
// With `threads` > 1 the vertices are expanded a block at a time: the
// block's states are decoded, expanded and their successors encoded,
// hashed and looked up among the vertices known before the block on every
// thread, then added to the graph on this one in vertex order, so the
// graph is the same, vertex for vertex and edge for edge, whatever the
// thread count.
template <class M>
std::optional<StateGraph<M>> BuildStateGraph(
    const M& model,
    std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max(),
    std::uint64_t states = 0, std::uint64_t transitions = 0, int threads = 1);

// As BuildStateGraph, but a vertex is whatever `keying` names by the same
// bytes (a quotient graph, when those bytes are an orbit's), and each edge
// carries a 32-bit label. `keying` offers:
//   Scratch: per-thread buffers, default-constructible;
//   Label: a value type, what Key says of one edge;
//   void KeyInitial(const State& s, uint8_t* out, Scratch&): the bytes of
//     an initial state;
//   Label Key(const State& from, const Action& a, const State& to,
//             uint8_t* out, Scratch&): the bytes of `to`, successor of
//     `from` by `a`, and the edge's label;
//   uint32_t Intern(const Label&): the label's number, called on the
//     building thread only, in edge order.
// A vertex's state is model.Decode of its bytes, and its out-edges are the
// successors of that state, whatever state first gave those bytes.
template <class M, class Keying>
std::optional<StateGraph<M>> BuildKeyedGraph(const M& model, Keying& keying,
                                             std::uint64_t max_bytes,
                                             std::uint64_t states,
                                             std::uint64_t transitions,
                                             int threads);

template <class M>
class StateGraph {
 public:
  using State = typename M::State;
  using Action = typename M::Action;
  using Vertex = std::uint32_t;
  using Edge = std::size_t;  // an index into the edge arrays

  std::size_t num_vertices() const { return flags_.size(); }
  std::size_t num_edges() const { return targets_.size(); }

  // The state of vertex v, decoded by `model` (the one the graph was built
  // from). REQUIRES: v < num_vertices().
  State state(const M& model, Vertex v) const {
    return model.Decode(encoding(v));
  }
  const std::uint8_t* encoding(Vertex v) const {
    return encodings_.data() + static_cast<std::size_t>(v) * width_;
  }
  // No successor, and not a dead end of the model's bound.
  bool terminal(Vertex v) const { return flags_[v] & kTerminal; }
  // No successor because of the model's bound.
  bool bounded_dead_end(Vertex v) const { return flags_[v] & kBounded; }

  Edge out_begin(Vertex v) const { return edge_begin_[v]; }
  Edge out_end(Vertex v) const { return edge_begin_[v + 1]; }
  std::size_t out_degree(Vertex v) const { return out_end(v) - out_begin(v); }
  Vertex target(Edge e) const { return targets_[e]; }
  const Action& action(Edge e) const { return actions_[e]; }
  // The label BuildKeyedGraph gave edge e. REQUIRES: the graph has labels.
  std::uint32_t label(Edge e) const { return labels_[e]; }
  // The vertex whose out-edge e is (a binary search).
  Vertex source(Edge e) const {
    const auto it = std::upper_bound(edge_begin_.begin(), edge_begin_.end(), e);
    return static_cast<Vertex>(it - edge_begin_.begin() - 1);
  }

  // The vertex of state `s`, if it is in the graph. REQUIRES: the graph
  // was built by BuildStateGraph or BuildKeyedGraph (one assembled by
  // FromParts has no index).
  std::optional<Vertex> Find(const M& model, const State& s) const {
    std::vector<std::uint8_t> key(width_);
    model.Encode(s, key.data());
    const auto id = index_.Find(HashBytes(key.data(), width_), [&](auto v) {
      return std::memcmp(encoding(v), key.data(), width_) == 0;
    });
    if (!id) return std::nullopt;
    return static_cast<Vertex>(*id);
  }

  // Bytes the graph holds: its arrays' elements (address space they
  // reserved past those is not committed until written) and its index.
  std::size_t Bytes() const {
    return encodings_.size() + flags_.size() +
           edge_begin_.size() * sizeof(std::uint64_t) +
           targets_.size() * sizeof(Vertex) + actions_.size() * sizeof(Action) +
           labels_.size() * sizeof(std::uint32_t) + index_.Bytes();
  }

  // What a graph of `vertices` states with encodings of `width` bytes and
  // `edges` transitions holds once built (Bytes()), to decide before
  // building whether it fits.
  static std::uint64_t BytesFor(std::uint64_t vertices, std::uint64_t edges,
                                std::size_t width, bool labels = false) {
    return vertices * (width + 1 + sizeof(std::uint64_t)) +
           sizeof(std::uint64_t) +
           edges * (sizeof(Vertex) + sizeof(Action) +
                    (labels ? sizeof(std::uint32_t) : 0)) +
           StateTable::BytesFor(vertices);
  }

  // A graph whose vertices and edges were found elsewhere (a search that
  // recorded its transitions): `encodings` of `width` bytes per vertex,
  // and per vertex its flag (kTerminal, kBounded or 0) and first edge,
  // with one more entry, the number of edges, at the end; per edge its
  // target, action and label (`labels` empty: none). It has no index.
  static constexpr std::uint8_t kTerminal = 1, kBounded = 2;
  static StateGraph FromParts(std::size_t width,
                              PageVector<std::uint8_t> encodings,
                              PageVector<std::uint8_t> flags,
                              PageVector<std::uint64_t> edge_begin,
                              PageVector<Vertex> targets,
                              PageVector<Action> actions,
                              PageVector<std::uint32_t> labels) {
    StateGraph g;
    g.width_ = width;
    g.encodings_ = std::move(encodings);
    g.flags_ = std::move(flags);
    g.edge_begin_ = std::move(edge_begin);
    g.targets_ = std::move(targets);
    g.actions_ = std::move(actions);
    g.labels_ = std::move(labels);
    return g;
  }

  template <class Model, class Keying>
  friend std::optional<StateGraph<Model>> BuildKeyedGraph(const Model&, Keying&,
                                                          std::uint64_t,
                                                          std::uint64_t,
                                                          std::uint64_t, int);

 private:
  std::size_t width_ = 0;
  // Their memory is committed page by page as it is first written
  // (PageAllocator), by the threads that write it.
  PageVector<std::uint8_t> encodings_;    // width_ bytes per vertex
  PageVector<std::uint8_t> flags_;        // kTerminal | kBounded
  PageVector<std::uint64_t> edge_begin_;  // num_vertices() + 1 offsets
  PageVector<Vertex> targets_;            // per edge
  PageVector<Action> actions_;            // per edge
  PageVector<std::uint32_t> labels_;      // per edge, or none
  StateTable index_;                      // hash of encoding -> vertex
};

namespace detail {

// BuildStateGraph's keying: a state's own encoding, and no labels.
template <class M>
struct PlainKeying {
  struct Scratch {};
  struct Label {};
  static constexpr bool kLabels = false;
  const M& model;
  void KeyInitial(const typename M::State& s, std::uint8_t* out,
                  Scratch&) const {
    model.Encode(s, out);
  }
  Label Key(const typename M::State&, const typename M::Action&,
            const typename M::State& to, std::uint8_t* out, Scratch&) const {
    model.Encode(to, out);
    return {};
  }
  std::uint32_t Intern(const Label&) const { return 0; }
};

// Asks the kernel to back v's reserved (untouched) memory with huge pages
// where it can; a hint, with no effect on what the program computes.
template <class Vector>
void AdviseHugePages(Vector& v) {
#if defined(__linux__)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t end =
      begin + v.capacity() * sizeof(typename Vector::value_type);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  if (end > first + kHuge) {
    madvise(reinterpret_cast<void*>(first), (end - first) & ~(kHuge - 1),
            MADV_HUGEPAGE);
  }
#else
  (void)v;
#endif
}

template <class Keying>
constexpr bool KeyingLabels() {
  if constexpr (requires { Keying::kLabels; }) {
    return Keying::kLabels;
  } else {
    return true;
  }
}

}  // namespace detail

template <class M>
std::optional<StateGraph<M>> BuildStateGraph(const M& model,
                                             std::uint64_t max_bytes,
                                             std::uint64_t states,
                                             std::uint64_t transitions,
                                             int threads) {
  detail::PlainKeying<M> keying{model};
  return BuildKeyedGraph(model, keying, max_bytes, states, transitions,
                         threads);
}

template <class M, class Keying>
std::optional<StateGraph<M>> BuildKeyedGraph(const M& model, Keying& keying,
                                             std::uint64_t max_bytes,
                                             std::uint64_t states,
                                             std::uint64_t transitions,
                                             int threads) {
  using State = typename M::State;
  using Action = typename M::Action;
  using Vertex = typename StateGraph<M>::Vertex;
  using Label = typename Keying::Label;
  constexpr bool kLabels = detail::KeyingLabels<Keying>();
  const std::size_t width = model.EncodedSize();
  if (StateGraph<M>::BytesFor(states, transitions, width, kLabels) >
      max_bytes) {
    return std::nullopt;
  }
  StateGraph<M> g;
  g.width_ = width;
  g.encodings_.reserve(states * width);
  g.flags_.reserve(states);
  g.edge_begin_.reserve(states + 1);
  g.targets_.reserve(transitions);
  g.actions_.reserve(transitions);
  if constexpr (kLabels) g.labels_.reserve(transitions);
  g.index_.Reserve(states);
  // Fewer first-touch page faults with huge pages, where the kernel gives
  // them.
  detail::AdviseHugePages(g.targets_);
  detail::AdviseHugePages(g.actions_);
  detail::AdviseHugePages(g.labels_);
  detail::AdviseHugePages(g.encodings_);
  // Vertices get ids past the one being expanded; the graph's 32-bit
  // targets and the index's ids leave one value spare.
  constexpr std::uint64_t kMaxVertices = VisitedStore::kMaxStates;
  std::vector<std::uint8_t> key(width);
  bool over = false;
  // The vertex of the state encoded in `key` (hash `hash`), added if new.
  auto vertex_of = [&](const std::uint8_t* key, std::uint64_t hash) -> Vertex {
    g.index_.Reserve(1);
    StateTable::Slot slot;
    const auto id = static_cast<std::uint32_t>(g.flags_.size());
    const auto [found, fresh] = g.index_.FindOrInsert(
        hash, id,
        [&](std::uint32_t v) {
          return std::memcmp(g.encoding(v), key, width) == 0;
        },
        &slot);
    if (fresh) {
      g.encodings_.insert(g.encodings_.end(), key, key + width);
      g.flags_.push_back(0);
      if (g.flags_.size() >= kMaxVertices) over = true;
    }
    return found;
  };
  const int workers = std::max(1, threads);
  std::vector<typename Keying::Scratch> scratch(
      static_cast<std::size_t>(workers));
  for (const State& s : model.InitialStates()) {
    keying.KeyInitial(s, key.data(), scratch[0]);
    vertex_of(key.data(), HashBytes(key.data(), width));
  }
  // One expanded vertex: its flag (when it has no successor), then its
  // successors' actions, labels, hashes and encodings, end to end.
  struct Expansion {
    std::uint8_t flag = 0;
    std::vector<Action> actions;
    std::vector<Label> labels;
    std::vector<std::uint64_t> hashes;
    std::vector<std::uint8_t> keys;
    // The successor's vertex when the graph had it before this block
    // (looked up on the expanding thread), kNoVertex otherwise.
    std::vector<Vertex> known;
    std::vector<std::uint32_t> label_ids;  // the labels' numbers
    std::size_t first_edge = 0;            // the id of its first edge
  };
  constexpr Vertex kNoVertex = std::numeric_limits<Vertex>::max();
  WorkerPool pool(workers);
  // A block is a few thousand vertices per thread: enough to keep every
  // thread busy between two merges, small enough to stay in cache.
  const std::size_t block = workers == 1 ? 1 : 2048 * workers;
  std::vector<Expansion> expanded(block);
  std::vector<std::vector<std::pair<Action, State>>> next(
      static_cast<std::size_t>(workers));
  for (Vertex v = 0; v < g.flags_.size() && !over;) {
    const std::size_t count = std::min<std::size_t>(block, g.flags_.size() - v);
    // Runs of 64 consecutive vertices per call: fewer hand-outs, and no
    // two threads write next to each other in `expanded`.
    constexpr std::size_t kRun = 64;
    pool.ForEach((count + kRun - 1) / kRun, [&](int worker, std::size_t run) {
      auto& successors = next[static_cast<std::size_t>(worker)];
      const std::size_t end = std::min(count, (run + 1) * kRun);
      for (std::size_t i = run * kRun; i < end; ++i) {
        Expansion& x = expanded[i];
        x.actions.clear();
        x.labels.clear();
        x.hashes.clear();
        x.known.clear();
        x.label_ids.clear();
        const State s = g.state(model, static_cast<Vertex>(v + i));
        successors.clear();
        model.Successors(s, successors);
        x.flag = 0;
        if (successors.empty()) {
          x.flag = model.BlockedByBound(s) ? StateGraph<M>::kBounded
                                           : StateGraph<M>::kTerminal;
        }
        x.keys.resize(successors.size() * width);
        for (std::size_t j = 0; j < successors.size(); ++j) {
          std::uint8_t* at = x.keys.data() + j * width;
          [[maybe_unused]] Label label =
              keying.Key(s, successors[j].first, successors[j].second, at,
                         scratch[static_cast<std::size_t>(worker)]);
          if constexpr (kLabels) x.labels.push_back(label);
          x.actions.push_back(successors[j].first);
          x.hashes.push_back(HashBytes(at, width));
          // The index is only read while the block expands.
          const auto id = g.index_.Find(x.hashes.back(), [&](auto v) {
            return std::memcmp(g.encoding(static_cast<Vertex>(v)), at, width) ==
                   0;
          });
          x.known.push_back(id ? static_cast<Vertex>(*id) : kNoVertex);
        }
      }
    });
    // On this thread, in vertex and edge order: the new vertices, each
    // edge's place and label number. Then the edges are copied on every
    // thread.
    const std::size_t edges_before = g.targets_.size();
    std::size_t edges = edges_before;
    for (std::size_t i = 0; i < count && !over; ++i) {
      Expansion& x = expanded[i];
      x.first_edge = edges;
      g.edge_begin_.push_back(edges);
      g.flags_[v + i] = x.flag;
      for (std::size_t j = 0; j < x.actions.size(); ++j) {
        if (x.known[j] == kNoVertex) {
          x.known[j] = vertex_of(x.keys.data() + j * width, x.hashes[j]);
        }
        if constexpr (kLabels)
          x.label_ids.push_back(keying.Intern(x.labels[j]));
      }
      edges += x.actions.size();
    }
    if (over) break;
    g.targets_.resize(edges);
    g.actions_.resize(edges);
    if constexpr (kLabels) g.labels_.resize(edges);
    pool.ForEach((count + kRun - 1) / kRun, [&](int, std::size_t run) {
      const std::size_t end = std::min(count, (run + 1) * kRun);
      for (std::size_t i = run * kRun; i < end; ++i) {
        const Expansion& x = expanded[i];
        std::copy(
            x.known.begin(), x.known.end(),
            g.targets_.begin() + static_cast<std::ptrdiff_t>(x.first_edge));
        std::copy(
            x.actions.begin(), x.actions.end(),
            g.actions_.begin() + static_cast<std::ptrdiff_t>(x.first_edge));
        if constexpr (kLabels) {
          std::copy(
              x.label_ids.begin(), x.label_ids.end(),
              g.labels_.begin() + static_cast<std::ptrdiff_t>(x.first_edge));
        }
      }
    });
    v += static_cast<Vertex>(count);
    // Counts that were wrong or missing let the arrays grow: check after
    // each block, so that building stops near the limit.
    if (g.Bytes() > max_bytes) over = true;
  }
  if (over) return std::nullopt;
  g.edge_begin_.push_back(g.targets_.size());
  return g;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_
