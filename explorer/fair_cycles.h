// Liveness under weak fairness over a complete state graph: can a run stay
// among bad states for ever, taking no fault, while being fair?
//
// The property is "always eventually good". Faults happen only finitely
// often (a run may take them, but not for ever), and fairness is weak: each
// non-fault edge has a fairness class, a class is enabled at a vertex when
// some non-fault out-edge of that vertex in the whole graph has it (wherever
// it leads), and a fair run takes infinitely often every class that is
// enabled in all its states from some point on. A violation is a fair
// infinite run from vertex 0 that, from some point on, visits only bad
// states and takes no fault.
//
// On a finite graph that is exactly a lasso: let H be the subgraph of bad
// vertices and of the non-fault edges between them. The property is broken
// iff some strongly connected component C of H is reachable from vertex 0
// (by any edges, faults included), non-trivial (two vertices or more, or a
// self-loop in H), and fair: every class enabled in all vertices of C is
// the class of some edge of H inside C. If C is fair, a run that goes round
// C for ever through all its vertices and edges is fair: a class enabled
// everywhere in C is taken on each round, any other is disabled on each
// round. Conversely, the vertices and edges a violating run uses infinitely
// often are strongly connected in H and fair in the same sense, and lie in
// one maximal component.
//
// Why only maximal components need testing (unlike strong fairness, there
// is no loop refining unfair components into smaller ones): if C is unfair,
// some class c is enabled in every vertex of C and is the class of no edge
// inside C. Any sub-component D of C has c enabled in all its vertices too,
// and D's edges are among C's, so c is not taken in D either: D is unfair.
// So a fair sub-component exists only inside a fair maximal component.
//
// The graph must be the complete reachable graph: a search stopped by a
// limit has states whose successors are unknown. Terminal bad states are
// not this check's business (no infinite run ends there).
//
// Longer than the house's usual 300 lines: much of it is the argument above
// and the contracts, and the search is kept with its checker, IsFairLasso,
// so that both read against the one definition of a fair loop.

#ifndef OUTBOX_CHECK_EXPLORER_FAIR_CYCLES_H_
#define OUTBOX_CHECK_EXPLORER_FAIR_CYCLES_H_

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace oc::explorer {

// A violation of "always eventually good" under weak fairness: a path from
// vertex 0 to loop_start, then a closed walk from loop_start back to it,
// repeated for ever. Edges are edge ids of the graph.
struct Lasso {
  std::size_t loop_start = 0;
  std::vector<std::size_t> stem;  // from vertex 0 to loop_start
  std::vector<std::size_t> loop;  // non-empty, loop_start back to loop_start
  friend bool operator==(const Lasso&, const Lasso&) = default;
};

// `g` offers num_vertices(), num_edges(), out_begin(v) and out_end(v) (its
// out-edges are the edge ids in between, edges numbered 0 .. num_edges() -
// 1) and target(e), as StateGraph does; vertex 0 is the initial state.
// `bad(v)`: v is not good. `fault(e)`: e is a fault transition.
// `fair_class(e)`: e's fairness class, only asked of non-fault edges.
//
// Returns a lasso that breaks "always eventually good" under weak fairness
// (IsFairLasso accepts it), or nullopt when the property holds.
//
// Which lasso: a breadth-first search over the whole graph from vertex 0
// (all edges, faults included, in edge order) picks loop_start, the first
// vertex it meets that lies in a fair component (least distance, ties by
// discovery order), and the stem is that search's path to it (each vertex
// reached by the first edge that discovered it), so the stem is a shortest
// one. The loop, inside loop_start's component C: for each class enabled
// somewhere in C, in increasing order, unless the walk so far already
// passed a vertex where it is disabled or took an edge of it, the walk goes
// by a shortest path inside C to the nearest vertex where the class is
// disabled, or, when it is enabled everywhere in C, through the nearest
// edge of that class; then by a shortest path back to loop_start. So every
// class enabled in all the vertices the loop visits is taken on it.
// Deterministic: the same graph and functions give the same lasso.
//
// Cost: O(V + E) for the components, plus sorting each vertex's classes,
// plus for the loop a breadth-first search of C per class enabled in C.
// Memory beyond the graph, with 32-bit vertex ids (fewer than 2^32
// vertices; 64-bit ones otherwise): a bit per edge (the faults) and about
// 12 bytes per vertex throughout. While the components are computed, H in
// compressed sparse row form (4 bytes per bad vertex and per edge of H; 8
// per bad vertex from 2^32 edges of H on) and strong_components' maps and
// depth-first stack, up to about 50 bytes per bad vertex; H is freed before
// the lasso is built, which takes 16 bytes per vertex of C. For 2 million
// vertices and 16 million edges, 14 million of them in H, that was about
// 170 MB. Boost's depth-first search is iterative (an explicit stack, not
// recursion), so a long path in H cannot overflow the call stack.
//
// Calls the functions on this thread only; they must be pure.
template <class Graph, class Bad, class Fault, class FairClass>
std::optional<Lasso> FindFairLasso(const Graph& g, Bad bad, Fault fault,
                                   FairClass fair_class);

// As FindFairLasso, but a run that stays among bad states may take only
// edges for which usable(e) holds (the others still enable their class):
// for callers that have ruled some edges out of infinite runs on other
// grounds (compassion.h).
template <class Graph, class Bad, class Fault, class Usable, class FairClass>
std::optional<Lasso> FindFairLassoUsing(const Graph& g, Bad bad, Fault fault,
                                        Usable usable, FairClass fair_class);

// Whether `lasso` is a violation as FindFairLasso defines it: loop_start is
// a vertex; the stem is a path of out-edges from vertex 0 to loop_start;
// the loop is non-empty, a path of out-edges from loop_start back to
// loop_start, visiting only bad vertices and taking no fault; and every
// class enabled in all the vertices the loop visits is taken on it. A
// shortest stem is not required. For tests, and for callers that got a
// lasso from elsewhere.
template <class Graph, class Bad, class Fault, class FairClass>
bool IsFairLasso(const Graph& g, const Lasso& lasso, Bad bad, Fault fault,
                 FairClass fair_class);

// Whether some cycle (a self-loop counts) takes only non-fault edges,
// reachable from vertex 0 or not, whatever the vertices. Without one, a run
// that takes finitely many faults ends in a terminal state, so
// FindFairLasso finds nothing whatever `bad` and the classes. O(V + E), a
// word per vertex.
template <class Graph, class Fault>
bool HasNonFaultCycle(const Graph& g, Fault fault);

namespace detail {

// The classes enabled at v (of its non-fault out-edges), sorted, without
// repeats, into `out`.
template <class Graph, class Fault, class FairClass>
void EnabledClasses(const Graph& g, std::size_t v, Fault& fault,
                    FairClass& fair_class, std::vector<std::uint64_t>& out) {
  out.clear();
  for (std::size_t e = g.out_begin(v); e != g.out_end(v); ++e) {
    if (!fault(e)) out.push_back(fair_class(e));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// The edges of H as (source, target) pairs of H's vertex ids, sources in
// increasing order: what Boost's CSR constructor reads, once, so that H is
// never held as an edge list besides the CSR graph.
template <class Id, class Graph>
class BadEdgeIterator {
 public:
  static constexpr Id kNone = std::numeric_limits<Id>::max();
  using iterator_category = std::input_iterator_tag;
  using value_type = std::pair<Id, Id>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  BadEdgeIterator() = default;  // the end
  // `local[v]`: v's id in H, kNone when v is good. REQUIRES: g has a
  // vertex.
  BadEdgeIterator(const Graph& g, const std::vector<bool>& fault,
                  const std::vector<Id>& local)
      : g_(&g), fault_(&fault), local_(&local) {
    edge_ = g.out_begin(0);
    Settle();
  }

  reference operator*() const { return edge_ends_; }
  pointer operator->() const { return &edge_ends_; }
  BadEdgeIterator& operator++() {
    ++edge_;
    Settle();
    return *this;
  }
  friend bool operator==(const BadEdgeIterator& a, const BadEdgeIterator& b) {
    return a.g_ == b.g_ &&
           (a.g_ == nullptr || (a.vertex_ == b.vertex_ && a.edge_ == b.edge_));
  }

 private:
  // Moves to the first edge of H at or after (vertex_, edge_); the end
  // (g_ null) when there is none.
  void Settle() {
    const std::vector<Id>& local = *local_;
    const std::size_t n = g_->num_vertices();
    while (vertex_ < n) {
      if (local[vertex_] != kNone) {
        for (; edge_ != g_->out_end(vertex_); ++edge_) {
          const Id to = local[g_->target(edge_)];
          if (to != kNone && !(*fault_)[edge_]) {
            edge_ends_ = {local[vertex_], to};
            return;
          }
        }
      }
      if (++vertex_ < n) edge_ = g_->out_begin(vertex_);
    }
    g_ = nullptr;
  }

  const Graph* g_ = nullptr;
  const std::vector<bool>* fault_ = nullptr;
  const std::vector<Id>* local_ = nullptr;
  std::size_t vertex_ = 0;
  std::size_t edge_ = 0;
  value_type edge_ends_{};
};

// The strongly connected components of H: component[local[v]] for each bad
// vertex v. H lives only in here.
template <class Id, class EdgeIndex, class Graph>
std::vector<Id> BadComponents(const Graph& g, const std::vector<bool>& fault,
                              const std::vector<Id>& local, Id num_local,
                              std::size_t num_local_edges) {
  using Csr =
      boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                         boost::no_property, boost::no_property,
                                         Id, EdgeIndex>;
  const Csr h(boost::edges_are_sorted,
              BadEdgeIterator<Id, Graph>(g, fault, local),
              BadEdgeIterator<Id, Graph>(), num_local,
              static_cast<EdgeIndex>(num_local_edges));
  std::vector<Id> component(num_local);
  boost::strong_components(
      h, boost::make_iterator_property_map(component.begin(),
                                           boost::get(boost::vertex_index, h)));
  return component;
}

// The search once H's components are known: FindFairLasso's steps after
// the first, with vertex ids of type Id.
//
// Invariant: mark_ is all false between calls of SearchInside.
template <class Id, class Graph, class FairClass>
class FairLassoSearch {
 public:
  static constexpr Id kNone = std::numeric_limits<Id>::max();

  // `off_h`: the edges H leaves out (the faults, and any the caller bars);
  // `fault`: the faults alone, which enable no class.
  FairLassoSearch(const Graph& g, const std::vector<bool>& fault,
                  const std::vector<bool>& off_h, FairClass& fair_class,
                  std::vector<Id> local, std::vector<Id> component)
      : g_(g),
        fault_(fault),
        off_h_(off_h),
        fair_class_(fair_class),
        local_(std::move(local)),
        component_(std::move(component)),
        mark_(component_.size(), false) {}

  std::optional<Lasso> Run() {
    const std::size_t n = g_.num_vertices();
    // The breadth-first tree over the whole graph: parent[v] is the vertex
    // that discovered v (vertex 0 its own), kNone while undiscovered.
    std::vector<Id> parent(n, kNone);
    std::vector<Id> queue = {0};
    parent[0] = 0;
    std::vector<bool> judged(component_.size(), false);
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const std::size_t v = queue[i];
      const Id c = ComponentOf(v);
      if (c != kNone && !judged[c]) {
        judged[c] = true;
        if (const auto classes = Judge(v, c)) {
          return Lasso{v, Stem(v, parent), Loop(v, c, *classes)};
        }
      }
      for (std::size_t e = g_.out_begin(v); e != g_.out_end(v); ++e) {
        const std::size_t t = g_.target(e);
        if (parent[t] == kNone) {
          parent[t] = static_cast<Id>(v);
          queue.push_back(static_cast<Id>(t));
        }
      }
    }
    return std::nullopt;
  }

 private:
  // The classes of a component: enabled in all its vertices, and in some.
  struct Classes {
    std::vector<std::uint64_t> everywhere;
    std::vector<std::uint64_t> somewhere;
  };

  Id ComponentOf(std::size_t v) const {
    return local_[v] == kNone ? kNone : component_[local_[v]];
  }
  // e is an edge of H inside component c (given that its source is in c).
  bool Inside(std::size_t e, Id c) const {
    return !off_h_[e] && ComponentOf(g_.target(e)) == c;
  }
  void Enabled(std::size_t v, std::vector<std::uint64_t>& out) {
    auto fault = [&](std::size_t e) { return static_cast<bool>(fault_[e]); };
    EnabledClasses(g_, v, fault, fair_class_, out);
  }

  // A breadth-first search from `from` along the edges inside component c.
  // at_vertex(v) is asked as each vertex is taken from the queue, then
  // at_edge(e) of its edges inside c, in edge order; the first true stops
  // the search. Returns the path from `from` to where it stopped (ending
  // with the edge when an edge stopped it), nullopt if nothing did.
  template <class AtVertex, class AtEdge>
  std::optional<std::vector<std::size_t>> SearchInside(std::size_t from, Id c,
                                                       AtVertex at_vertex,
                                                       AtEdge at_edge) {
    // Parallel arrays by discovery: the vertex, the index of the vertex
    // that discovered it, the edge it was discovered by.
    std::vector<Id> order = {static_cast<Id>(from)};
    std::vector<Id> by = {0};
    std::vector<std::size_t> via = {0};
    mark_[local_[from]] = true;
    std::optional<std::size_t> stop;  // index into order
    std::optional<std::size_t> last;  // the edge that stopped it, if any
    for (std::size_t i = 0; i < order.size() && !stop; ++i) {
      const std::size_t v = order[i];
      if (at_vertex(v)) {
        stop = i;
        break;
      }
      for (std::size_t e = g_.out_begin(v); e != g_.out_end(v); ++e) {
        if (!Inside(e, c)) continue;
        if (at_edge(e)) {
          stop = i;
          last = e;
          break;
        }
        const std::size_t t = g_.target(e);
        if (!mark_[local_[t]]) {
          mark_[local_[t]] = true;
          order.push_back(static_cast<Id>(t));
          by.push_back(static_cast<Id>(i));
          via.push_back(e);
        }
      }
    }
    for (const Id v : order) mark_[local_[v]] = false;
    if (!stop) return std::nullopt;
    std::vector<std::size_t> path;
    if (last) path.push_back(*last);
    for (std::size_t i = *stop; i != 0; i = by[i]) path.push_back(via[i]);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // The classes of the component c of `entry` when it is non-trivial and
  // fair, nullopt otherwise.
  std::optional<Classes> Judge(std::size_t entry, Id c) {
    Classes classes;
    std::vector<std::uint64_t> enabled, merged;
    std::vector<std::uint64_t> taken;  // sorted, without repeats
    bool first = true;
    bool nontrivial = false;
    auto at_vertex = [&](std::size_t v) {
      Enabled(v, enabled);
      if (first) {
        classes.everywhere = enabled;
        classes.somewhere = enabled;
        first = false;
        return false;
      }
      merged.clear();
      std::set_intersection(classes.everywhere.begin(),
                            classes.everywhere.end(), enabled.begin(),
                            enabled.end(), std::back_inserter(merged));
      classes.everywhere.swap(merged);
      merged.clear();
      std::set_union(classes.somewhere.begin(), classes.somewhere.end(),
                     enabled.begin(), enabled.end(),
                     std::back_inserter(merged));
      classes.somewhere.swap(merged);
      return false;
    };
    auto at_edge = [&](std::size_t e) {
      nontrivial = true;
      const std::uint64_t k = fair_class_(e);
      const auto it = std::lower_bound(taken.begin(), taken.end(), k);
      if (it == taken.end() || *it != k) taken.insert(it, k);
      return false;
    };
    SearchInside(entry, c, at_vertex, at_edge);
    if (!nontrivial) return std::nullopt;
    if (!std::includes(taken.begin(), taken.end(), classes.everywhere.begin(),
                       classes.everywhere.end())) {
      return std::nullopt;
    }
    return classes;
  }

  std::vector<std::size_t> Stem(std::size_t to,
                                const std::vector<Id>& parent) const {
    std::vector<std::size_t> stem;
    for (std::size_t v = to; v != 0; v = parent[v]) {
      const std::size_t p = parent[v];
      std::size_t e = g_.out_begin(p);
      while (static_cast<std::size_t>(g_.target(e)) != v) ++e;
      stem.push_back(e);
    }
    std::reverse(stem.begin(), stem.end());
    return stem;
  }

  // REQUIRES: the component c of `start` is non-trivial and fair, with
  // these classes.
  std::vector<std::size_t> Loop(std::size_t start, Id c,
                                const Classes& classes) {
    const std::vector<std::uint64_t>& somewhere = classes.somewhere;
    // satisfied[i]: the walk so far passed a vertex where somewhere[i] is
    // disabled, or took an edge of it.
    std::vector<bool> satisfied(somewhere.size(), false);
    std::vector<std::uint64_t> enabled;
    auto visit = [&](std::size_t v) {
      Enabled(v, enabled);
      for (std::size_t i = 0; i < somewhere.size(); ++i) {
        if (!std::binary_search(enabled.begin(), enabled.end(), somewhere[i])) {
          satisfied[i] = true;
        }
      }
    };
    std::vector<std::size_t> loop;
    std::size_t at = start;
    auto walk = [&](const std::vector<std::size_t>& path) {
      for (const std::size_t e : path) {
        loop.push_back(e);
        const auto it = std::lower_bound(somewhere.begin(), somewhere.end(),
                                         fair_class_(e));
        satisfied[it - somewhere.begin()] = true;  // e's class is enabled
        at = g_.target(e);
        visit(at);
      }
    };
    visit(start);
    for (std::size_t i = 0; i < somewhere.size(); ++i) {
      if (satisfied[i]) continue;
      const std::uint64_t k = somewhere[i];
      // C is fair, so the waypoint exists and the searches stop.
      if (std::binary_search(classes.everywhere.begin(),
                             classes.everywhere.end(), k)) {
        walk(*SearchInside(
            at, c, [](std::size_t) { return false; },
            [&](std::size_t e) { return fair_class_(e) == k; }));
      } else {
        walk(*SearchInside(
            at, c,
            [&](std::size_t v) {
              Enabled(v, enabled);
              return !std::binary_search(enabled.begin(), enabled.end(), k);
            },
            [](std::size_t) { return false; }));
      }
    }
    // start has an edge inside C, whose class is enabled at start: that
    // class needs an edge of it or another vertex, so the walk moved.
    assert(!loop.empty());
    if (at != start) {
      walk(*SearchInside(
          at, c, [&](std::size_t v) { return v == start; },
          [](std::size_t) { return false; }));
    }
    return loop;
  }

  const Graph& g_;
  const std::vector<bool>& fault_;
  const std::vector<bool>& off_h_;
  FairClass& fair_class_;
  std::vector<Id> local_;      // per vertex: its id in H, kNone if good
  std::vector<Id> component_;  // per vertex of H: its component
  std::vector<bool> mark_;     // per vertex of H: SearchInside's scratch
};

// `off_h` as for FairLassoSearch.
template <class Id, class Graph, class Bad, class FairClass>
std::optional<Lasso> FindFairLassoWith(const Graph& g, Bad& bad,
                                       const std::vector<bool>& fault,
                                       const std::vector<bool>& off_h,
                                       FairClass& fair_class) {
  constexpr Id kNone = std::numeric_limits<Id>::max();
  const std::size_t n = g.num_vertices();
  // H's vertices are the bad ones, numbered in vertex order so that its
  // edges come sorted by source. Unreachable ones are kept: the search
  // from vertex 0 never meets them.
  std::vector<Id> local(n, kNone);
  Id num_local = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (bad(v)) local[v] = num_local++;
  }
  if (num_local == 0) return std::nullopt;
  std::size_t num_local_edges = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (local[v] == kNone) continue;
    for (std::size_t e = g.out_begin(v); e != g.out_end(v); ++e) {
      if (!off_h[e] && local[g.target(e)] != kNone) ++num_local_edges;
    }
  }
  std::vector<Id> component =
      num_local_edges < std::numeric_limits<std::uint32_t>::max()
          ? BadComponents<Id, std::uint32_t>(g, off_h, local, num_local,
                                             num_local_edges)
          : BadComponents<Id, std::uint64_t>(g, off_h, local, num_local,
                                             num_local_edges);
  return FairLassoSearch<Id, Graph, FairClass>(g, fault, off_h, fair_class,
                                               std::move(local),
                                               std::move(component))
      .Run();
}

}  // namespace detail

template <class Graph, class Bad, class Fault, class FairClass>
std::optional<Lasso> FindFairLasso(const Graph& g, Bad bad, Fault fault,
                                   FairClass fair_class) {
  const std::size_t n = g.num_vertices();
  if (n == 0) return std::nullopt;
  std::vector<bool> is_fault(g.num_edges());
  for (std::size_t e = 0; e < is_fault.size(); ++e) is_fault[e] = fault(e);
  // 32-bit vertex ids while they fit, with one value spare for "none".
  if (n < std::numeric_limits<std::uint32_t>::max()) {
    return detail::FindFairLassoWith<std::uint32_t>(g, bad, is_fault, is_fault,
                                                    fair_class);
  }
  return detail::FindFairLassoWith<std::uint64_t>(g, bad, is_fault, is_fault,
                                                  fair_class);
}

template <class Graph, class Bad, class Fault, class Usable, class FairClass>
std::optional<Lasso> FindFairLassoUsing(const Graph& g, Bad bad, Fault fault,
                                        Usable usable, FairClass fair_class) {
  const std::size_t n = g.num_vertices();
  if (n == 0) return std::nullopt;
  std::vector<bool> is_fault(g.num_edges()), off_h(g.num_edges());
  for (std::size_t e = 0; e < is_fault.size(); ++e) {
    is_fault[e] = fault(e);
    off_h[e] = is_fault[e] || !usable(e);
  }
  if (n < std::numeric_limits<std::uint32_t>::max()) {
    return detail::FindFairLassoWith<std::uint32_t>(g, bad, is_fault, off_h,
                                                    fair_class);
  }
  return detail::FindFairLassoWith<std::uint64_t>(g, bad, is_fault, off_h,
                                                  fair_class);
}

template <class Graph, class Bad, class Fault, class FairClass>
bool IsFairLasso(const Graph& g, const Lasso& lasso, Bad bad, Fault fault,
                 FairClass fair_class) {
  const std::size_t n = g.num_vertices();
  if (n == 0 || lasso.loop_start >= n || lasso.loop.empty()) return false;
  // Where following `path` from `from` ends, nullopt if an edge is not an
  // out-edge of the vertex it is taken from.
  auto follow =
      [&](std::size_t from,
          const std::vector<std::size_t>& path) -> std::optional<std::size_t> {
    std::size_t v = from;
    for (const std::size_t e : path) {
      if (e < g.out_begin(v) || e >= g.out_end(v)) return std::nullopt;
      v = g.target(e);
    }
    return v;
  };
  if (follow(0, lasso.stem) != lasso.loop_start ||
      follow(lasso.loop_start, lasso.loop) != lasso.loop_start) {
    return false;
  }
  std::vector<std::uint64_t> taken, everywhere, enabled, merged;
  std::size_t v = lasso.loop_start;
  for (std::size_t i = 0; i < lasso.loop.size(); ++i) {
    const std::size_t e = lasso.loop[i];
    if (!bad(v) || fault(e)) return false;
    taken.push_back(fair_class(e));
    detail::EnabledClasses(g, v, fault, fair_class, enabled);
    if (i == 0) {
      everywhere = enabled;
    } else {
      merged.clear();
      std::set_intersection(everywhere.begin(), everywhere.end(),
                            enabled.begin(), enabled.end(),
                            std::back_inserter(merged));
      everywhere.swap(merged);
    }
    v = g.target(e);
  }
  std::sort(taken.begin(), taken.end());
  return std::includes(taken.begin(), taken.end(), everywhere.begin(),
                       everywhere.end());
}

template <class Graph, class Fault>
bool HasNonFaultCycle(const Graph& g, Fault fault) {
  // Peel vertices with no incoming non-fault edge left (Kahn's algorithm):
  // what remains, if anything, contains a cycle.
  const std::size_t n = g.num_vertices();
  std::vector<std::size_t> in(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t e = g.out_begin(v); e != g.out_end(v); ++e) {
      if (!fault(e)) ++in[g.target(e)];
    }
  }
  std::vector<std::size_t> free;
  for (std::size_t v = 0; v < n; ++v) {
    if (in[v] == 0) free.push_back(v);
  }
  std::size_t peeled = 0;
  while (!free.empty()) {
    const std::size_t v = free.back();
    free.pop_back();
    ++peeled;
    for (std::size_t e = g.out_begin(v); e != g.out_end(v); ++e) {
      if (!fault(e) && --in[g.target(e)] == 0) free.push_back(g.target(e));
    }
  }
  return peeled < n;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_FAIR_CYCLES_H_
