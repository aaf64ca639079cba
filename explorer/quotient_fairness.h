// The fair-cycle question of fair_cycles.h and compassion.h, asked of a
// symmetry quotient instead of the whole graph: can a run stay among bad
// states for ever, taking no fault, weakly fair and, with compassion
// pairs, compassionate? The answer is the one the whole graph gives; no
// lasso is built (the caller builds one from the whole graph when the
// answer is yes).
//
// The quotient. A group G acts on the concrete states, on actions (so on
// fairness classes) and on compassion pairs, and maps edges to edges: if s
// goes to t by a, then g(s) goes to g(t) by g(a). Each vertex of the
// quotient is an orbit, held as one representative state rep(q), and its
// out-edges are exactly the out-edges of rep(q), every action of it (two
// actions leading into one orbit are two edges). An edge e from q to q' by
// action a carries sigma(e), a group element with rep(q) --a--> sigma(e)
// (rep(q')) in the concrete graph. Badness, faults, and each edge's
// classes and pairs are taken at the representative; badness and faults
// must be invariant under G.
//
// The argument. Let D be a strongly connected component of the quotient's
// subgraph H (bad vertices, allowed non-fault edges). Take a spanning tree
// of D from a root r and, along it, tau(r) = 1 and tau(q') = tau(q)
// sigma(e) for a tree edge e from q to q', so that tau(q)(rep(q)) is a
// concrete state reached from rep(r) inside the preimage of D. Every edge
// e of D, from q to q', then gives the loop element lambda(e) = tau(q)
// sigma(e) tau(q')^-1, which maps tau(q')(rep(q')) to the concrete target
// of the lifted edge. Let K be the group the lambda(e) generate. Then
//   C = { k tau(q)(rep(q)) : k in K, q in D }
// is a strongly connected component of the concrete H (each lambda(e) maps
// the component of rep(r) to a component holding one of its states, so to
// itself; and every concrete edge from k tau(q)(rep(q)) is k tau(q)(e')
// for the edge e' of rep(q) by the action it renames), its edges are the
// k tau(q)(e), and every other component above D is an image g(C), fair
// exactly when C is. So, with K-orbits:
//   taken(C)     = K . { tau(q)(class(e)) : e in D },
//   requested(C) = K . { tau(q)(requests(e)) },  likewise responded(C),
//   a class F is enabled in every state of C iff every member of K . F
//     is in A = the intersection over q in D of tau(q)(enabled(rep(q))).
// C is weakly fair iff every F in A whose K-orbit lies in A is taken; a
// pair in requested(C) but not responded(C) removes exactly the lifts of
// the edges e with tau(q)(requests(e)) meeting it, whatever k, so the
// refinement of compassion.h runs on D's edges and is the concrete one.
// The orbit of a finite group is the closure under its generators, so K is
// never enumerated.
//
// Group, the caller's, names elements by 32-bit numbers:
//   uint32_t Identity(); uint32_t Compose(a, b) (a after b);
//   uint32_t Inverse(a); uint64_t ActOnClass(a, class);
//   uint64_t ActOnPairs(a, mask) (a renaming of the mask's bits).
// Cost: each round, O(V + E) over the bad vertices for the components,
// and per edge of H two compositions and a renaming of its class and
// pairs; the orbit closures are over the few distinct loop elements.

#ifndef OUTBOX_CHECK_EXPLORER_QUOTIENT_FAIRNESS_H_
#define OUTBOX_CHECK_EXPLORER_QUOTIENT_FAIRNESS_H_

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "explorer/fair_cycles.h"

namespace oc::explorer {

// Whether the concrete graph the quotient `g` stands for has a run from the
// initial state that stays among bad states for ever, takes no fault, is
// weakly fair and meets every compassion pair it requests: what
// FindCompassionateLasso (FindFairLasso, with no pairs) finds a lasso for.
// `sigma(e)`, `requests(e)` and `responses(e)` as above; pass functions
// returning 0 for no pairs.
template <class Graph, class Bad, class Fault, class FairClass, class Sigma,
          class Requests, class Responses, class Group>
bool QuotientHasFairRun(const Graph& g, Bad bad, Fault fault,
                        FairClass fair_class, Sigma sigma, Requests requests,
                        Responses responses, Group& group);

namespace detail {

// The closure of `mask` under the generators' renamings of its bits.
template <class Group>
std::uint64_t CloseMask(std::uint64_t mask,
                        const std::vector<std::uint32_t>& generators,
                        Group& group) {
  for (std::uint64_t before = ~mask; before != mask;) {
    before = mask;
    for (const std::uint32_t k : generators) {
      mask |= group.ActOnPairs(k, mask);
    }
  }
  return mask;
}

// The orbit of `seeds` under the generators, sorted.
template <class Group>
std::vector<std::uint64_t> CloseClasses(std::vector<std::uint64_t> seeds,
                                        const std::vector<std::uint32_t>& gens,
                                        Group& group) {
  boost::unordered_flat_set<std::uint64_t> seen(seeds.begin(), seeds.end());
  std::vector<std::uint64_t> queue(seen.begin(), seen.end());
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (const std::uint32_t k : gens) {
      const std::uint64_t image = group.ActOnClass(k, queue[i]);
      if (seen.insert(image).second) queue.push_back(image);
    }
  }
  std::sort(queue.begin(), queue.end());
  return queue;
}

}  // namespace detail

template <class Graph, class Bad, class Fault, class FairClass, class Sigma,
          class Requests, class Responses, class Group>
bool QuotientHasFairRun(const Graph& g, Bad bad, Fault fault,
                        FairClass fair_class, Sigma sigma, Requests requests,
                        Responses responses, Group& group) {
  using Vertex = std::uint32_t;
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = g.num_vertices();
  const std::size_t m = g.num_edges();
  // off[e]: e is not (or no longer) an edge of H.
  std::vector<bool> alive(n), is_fault(m), off(m, true);
  for (std::size_t v = 0; v < n; ++v) alive[v] = bad(v);
  for (std::size_t v = 0; v < n; ++v) {
    for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
      is_fault[e] = fault(e);
      off[e] = !alive[v] || !alive[g.target(e)] || is_fault[e];
    }
  }
  // v's place among the vertices alive at the round's start, kNone when
  // it was not: H has only those, so that a round that refines one part
  // does not go over every vertex of the graph again.
  std::vector<Vertex> local(n);
  using Csr =
      boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                         boost::no_property, boost::no_property,
                                         Vertex, std::size_t>;
  std::vector<std::size_t> component;  // by place in H
  std::vector<std::uint32_t> tau(n, kNone);
  const std::uint32_t one = group.Identity();
  std::vector<std::uint64_t> enabled, everywhere, kept;
  boost::unordered_flat_set<std::uint64_t> taken;
  std::vector<std::uint32_t> generators;
  boost::unordered_flat_set<std::uint32_t> distinct;
  for (bool changed = true; changed;) {
    changed = false;
    // H in compressed sparse row form, read once from the graph: an edge
    // stays in H while it is allowed and both its ends are alive.
    std::size_t num_edges = 0;
    Vertex num_local = 0;
    for (std::size_t v = 0; v < n; ++v) {
      local[v] = alive[v] ? num_local++ : kNone;
    }
    if (num_local == 0) break;
    for (std::size_t v = 0; v < n; ++v) {
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        if (!off[e] && !(alive[v] && alive[g.target(e)])) off[e] = true;
        if (!off[e]) ++num_edges;
      }
    }
    const Csr h(boost::edges_are_sorted,
                detail::BadEdgeIterator<Vertex, Graph>(g, off, local),
                detail::BadEdgeIterator<Vertex, Graph>(), num_local, num_edges);
    component.resize(num_local);
    const std::size_t components = boost::strong_components(
        h, boost::make_iterator_property_map(
               component.begin(), boost::get(boost::vertex_index, h)));
    // An alive vertex's component.
    auto component_of = [&](std::size_t v) { return component[local[v]]; };
    // The alive vertices by component, each in vertex order.
    std::vector<std::size_t> first(components + 1, 0);
    for (std::size_t v = 0; v < n; ++v) {
      if (alive[v]) ++first[component_of(v) + 1];
    }
    for (std::size_t c = 0; c < components; ++c) first[c + 1] += first[c];
    std::vector<Vertex> members(first[components]);
    {
      std::vector<std::size_t> at(first.begin(), first.end() - 1);
      for (std::size_t v = 0; v < n; ++v) {
        if (alive[v]) members[at[component_of(v)]++] = static_cast<Vertex>(v);
      }
    }
    auto inside = [&](std::size_t e, std::size_t c) {
      return !off[e] && alive[g.target(e)] && component_of(g.target(e)) == c;
    };
    for (std::size_t c = 0; c < components; ++c) {
      const std::size_t begin = first[c], end = first[c + 1];
      if (begin == end) continue;
      // The spanning tree: members in breadth-first order from the first.
      std::vector<Vertex> order = {members[begin]};
      tau[members[begin]] = one;
      bool inner = false;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const Vertex v = order[i];
        for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
          if (!inside(e, c)) continue;
          inner = true;
          const std::size_t t = g.target(e);
          if (tau[t] == kNone) {
            tau[t] = group.Compose(tau[v], sigma(e));
            order.push_back(static_cast<Vertex>(t));
          }
        }
      }
      auto retire = [&] {
        for (std::size_t i = begin; i < end; ++i) {
          alive[members[i]] = false;
          tau[members[i]] = kNone;
        }
      };
      if (!inner) {  // a single vertex without a loop: no run stays
        retire();
        continue;
      }
      // Loop elements, pairs and classes taken, over the inner edges.
      distinct.clear();
      std::uint64_t requested = 0, responded = 0;
      taken.clear();
      for (std::size_t i = begin; i < end; ++i) {
        const Vertex v = members[i];
        for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
          if (!inside(e, c)) continue;
          const std::uint32_t k = group.Compose(
              group.Compose(tau[v], sigma(e)), group.Inverse(tau[g.target(e)]));
          if (k != one) distinct.insert(k);
          requested |= group.ActOnPairs(tau[v], requests(e));
          responded |= group.ActOnPairs(tau[v], responses(e));
          taken.insert(group.ActOnClass(tau[v], fair_class(e)));
        }
      }
      generators.assign(distinct.begin(), distinct.end());
      std::sort(generators.begin(), generators.end());
      requested = detail::CloseMask(requested, generators, group);
      responded = detail::CloseMask(responded, generators, group);
      const std::uint64_t unanswered = requested & ~responded;
      if (unanswered != 0) {
        // Compassion: no run stays here using edges that request an
        // unanswered pair; remove them and split again next round.
        for (std::size_t i = begin; i < end; ++i) {
          const Vertex v = members[i];
          for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
            if (inside(e, c) &&
                (group.ActOnPairs(tau[v], requests(e)) & unanswered) != 0) {
              off[e] = true;
              changed = true;
            }
          }
        }
        for (std::size_t i = begin; i < end; ++i) tau[members[i]] = kNone;
        continue;
      }
      // Weak fairness. A: the classes enabled at every lifted state.
      everywhere.clear();
      for (std::size_t i = begin; i < end; ++i) {
        const Vertex v = members[i];
        enabled.clear();
        for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
          if (!is_fault[e]) enabled.push_back(fair_class(e));
        }
        std::sort(enabled.begin(), enabled.end());
        if (i == begin) {
          everywhere = enabled;
          everywhere.erase(std::unique(everywhere.begin(), everywhere.end()),
                           everywhere.end());
          for (std::uint64_t& f : everywhere) {
            f = group.ActOnClass(tau[v], f);
          }
          std::sort(everywhere.begin(), everywhere.end());
          continue;
        }
        const std::uint32_t back = group.Inverse(tau[v]);
        kept.clear();
        for (const std::uint64_t f : everywhere) {
          if (std::binary_search(enabled.begin(), enabled.end(),
                                 group.ActOnClass(back, f))) {
            kept.push_back(f);
          }
        }
        everywhere.swap(kept);
        if (everywhere.empty()) break;
      }
      const std::vector<std::uint64_t> taken_orbit = detail::CloseClasses(
          std::vector<std::uint64_t>(taken.begin(), taken.end()), generators,
          group);
      bool fair = true;
      for (const std::uint64_t f : everywhere) {
        if (std::binary_search(taken_orbit.begin(), taken_orbit.end(), f)) {
          continue;
        }
        const std::vector<std::uint64_t> orbit =
            detail::CloseClasses({f}, generators, group);
        if (std::includes(everywhere.begin(), everywhere.end(), orbit.begin(),
                          orbit.end())) {
          fair = false;  // enabled throughout C, never taken in it
          break;
        }
      }
      if (fair) return true;
      // Unfair, and so is every part of it (fair_cycles.h).
      retire();
    }
  }
  return false;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_QUOTIENT_FAIRNESS_H_
