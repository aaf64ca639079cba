// Fair lassos under weak fairness and compassion pairs: FindFairLasso
// (fair_cycles.h) with one more kind of fairness on top, for abstractions
// that count up to a cap.
//
// A model that saturates a count (it stands for "cap or more") must let a
// decrement from the cap either fall or stay, since the real count may have
// been the cap or above. A run that takes such a "stay" for ever without
// ever adding to the count is not a real run: it takes more copies out of a
// finite pile than were put in. So each count is a compassion pair (strong
// fairness): a run that takes edges requesting pair i infinitely often
// (stays of count i) must take edges responding to it (additions to count
// i) infinitely often too. `requests(e)` and `responses(e)` give the pairs
// of edge e as 64-bit masks; two counts may share a bit, which only keeps
// more cycles (the caller must then confirm a lasso some other way).
//
// Unlike weak fairness, compassion needs refining (the Emerson-Lei
// scheme): in a component whose edges request pair i but none responds to
// it, a fair run cannot use the requesting edges infinitely often, so they
// are removed and the component's remains are split into components again,
// until every component left either meets every pair it requests or is
// weakly unfair (then so are its parts, as fair_cycles.h argues, and it is
// dropped). The components left are exactly the places where a run that is
// weakly fair and compassionate can stay for ever.
//
// Cost: each round is O(V + E) over the bad states, and each round but the
// last removes every requesting edge of some pair from some component, so
// there are at most 64 rounds per nesting of components; in practice two
// or three.

#ifndef OUTBOX_CHECK_EXPLORER_COMPASSION_H_
#define OUTBOX_CHECK_EXPLORER_COMPASSION_H_

#include <algorithm>
#include <bit>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "explorer/fair_cycles.h"

namespace oc::explorer {

// As FindFairLasso, with compassion pairs: returns a lasso whose loop is
// weakly fair and, for every pair some loop edge requests, also takes an
// edge that responds to it; nullopt when no weakly fair and compassionate
// run stays among bad states for ever. The stem is a shortest path from
// vertex 0 to the nearest vertex (breadth-first, ties by discovery order)
// of a component where such a run can stay.
template <class Graph, class Bad, class Fault, class FairClass, class Requests,
          class Responses>
std::optional<Lasso> FindCompassionateLasso(const Graph& g, Bad bad,
                                            Fault fault, FairClass fair_class,
                                            Requests requests,
                                            Responses responses) {
  using Vertex = std::uint32_t;
  const std::size_t n = g.num_vertices();
  const std::size_t m = g.num_edges();
  // Edges a run that stays among bad states may take for ever: non-fault,
  // bad to bad, and not yet removed by a refinement.
  std::vector<bool> allowed(m, false);
  std::vector<bool> is_bad(n);
  for (std::size_t v = 0; v < n; ++v) is_bad[v] = bad(v);
  for (std::size_t v = 0; v < n; ++v) {
    if (!is_bad[v]) continue;
    for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
      allowed[e] = is_bad[g.target(e)] && !fault(e);
    }
  }
  std::vector<bool> alive = is_bad;  // vertices not yet dropped
  // The final components, each as the id its vertices carry in `home`.
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> home(n, kNone);
  std::size_t homes = 0;

  using Csr =
      boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                         boost::no_property, boost::no_property,
                                         Vertex, std::size_t>;
  std::vector<std::size_t> component(n);
  std::vector<std::size_t> edge_source;
  for (bool changed = true; changed;) {
    changed = false;
    // The subgraph of alive vertices and allowed edges, in CSR form.
    std::vector<std::pair<Vertex, Vertex>> edges;
    edge_source.clear();
    for (std::size_t v = 0; v < n; ++v) {
      if (!alive[v] || home[v] != kNone) continue;
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        if (allowed[e] && alive[g.target(e)] && home[g.target(e)] == kNone) {
          edges.emplace_back(static_cast<Vertex>(v),
                             static_cast<Vertex>(g.target(e)));
        }
      }
    }
    const Csr h(boost::edges_are_sorted, edges.begin(), edges.end(),
                static_cast<Vertex>(n));
    edges.clear();
    edges.shrink_to_fit();
    boost::strong_components(
        h, boost::make_iterator_property_map(
               component.begin(), boost::get(boost::vertex_index, h)));
    // Per component: the pairs its inner edges request and respond to,
    // whether it has an inner edge at all, and the classes enabled in all
    // of its vertices against those taken inside.
    std::vector<std::uint64_t> requested, responded;
    std::vector<bool> inner;
    auto grow = [&](std::size_t c) {
      if (c >= requested.size()) {
        requested.resize(c + 1, 0);
        responded.resize(c + 1, 0);
        inner.resize(c + 1, false);
      }
    };
    auto in_play = [&](std::size_t v) { return alive[v] && home[v] == kNone; };
    for (std::size_t v = 0; v < n; ++v) {
      if (!in_play(v)) continue;
      grow(component[v]);
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        const std::size_t t = g.target(e);
        if (!allowed[e] || !in_play(t) || component[t] != component[v]) {
          continue;
        }
        inner[component[v]] = true;
        requested[component[v]] |= requests(e);
        responded[component[v]] |= responses(e);
      }
    }
    // Refine: drop the requesting edges of unanswered pairs.
    std::vector<bool> refined(requested.size(), false);
    for (std::size_t v = 0; v < n; ++v) {
      if (!in_play(v)) continue;
      const std::size_t c = component[v];
      const std::uint64_t unanswered = requested[c] & ~responded[c];
      if (unanswered == 0) continue;
      refined[c] = true;
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        if (allowed[e] && (requests(e) & unanswered) != 0) {
          allowed[e] = false;
          changed = true;
        }
      }
    }
    // The components that need no refining are final: trivial ones are
    // dropped, the others kept (FindFairLasso judges weak fairness below).
    std::vector<std::size_t> final_id(requested.size(), kNone);
    for (std::size_t v = 0; v < n; ++v) {
      if (!in_play(v)) continue;
      const std::size_t c = component[v];
      if (refined[c]) continue;
      if (!inner[c]) {
        alive[v] = false;
        continue;
      }
      if (final_id[c] == kNone) final_id[c] = homes++;
      home[v] = final_id[c];
    }
  }
  if (homes == 0) return std::nullopt;
  // Weak fairness and the stem: FindFairLasso over the final components,
  // each made of its allowed inner edges only.
  const auto inside = [&](std::size_t e) {
    return allowed[e];  // with bad(v) below, both ends in one component
  };
  // An allowed edge between two final components joins none of them: each
  // was a whole component when it was set aside, and later rounds only
  // removed edges. Removed edges still enable their classes.
  std::optional<Lasso> lasso = FindFairLassoUsing(
      g, [&](std::size_t v) { return home[v] != kNone; }, fault, inside,
      fair_class);
  if (!lasso) return std::nullopt;
  // Compassion on the loop itself: for each pair the loop requests and
  // does not answer, a detour through an answering edge of the component.
  const std::size_t c = home[lasso->loop_start];
  std::uint64_t asked = 0, answered = 0;
  for (std::size_t e : lasso->loop) {
    asked |= requests(e);
    answered |= responses(e);
  }
  // Shortest path of allowed inner edges from `from` to the source of an
  // edge satisfying `want`, then that edge; empty if none.
  auto detour = [&](std::size_t from, auto want) {
    std::vector<std::size_t> by(n, kNone);  // edge that reached a vertex
    std::vector<std::size_t> parent(n, kNone);
    std::vector<bool> seen(n, false);
    std::deque<std::size_t> queue{from};
    seen[from] = true;
    while (!queue.empty()) {
      const std::size_t v = queue.front();
      queue.pop_front();
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        if (!allowed[e] || home[g.target(e)] != c) continue;
        if (want(e)) {
          std::vector<std::size_t> path{static_cast<std::size_t>(e)};
          for (std::size_t at = v; at != from; at = parent[at]) {
            path.push_back(by[at]);
          }
          std::reverse(path.begin(), path.end());
          return path;
        }
        const std::size_t t = g.target(e);
        if (!seen[t]) {
          seen[t] = true;
          by[t] = e;
          parent[t] = v;
          queue.push_back(t);
        }
      }
    }
    return std::vector<std::size_t>{};
  };
  // A detour may ask for a pair of its own: go on until none is left.
  while ((asked & ~answered) != 0) {
    const int bit = std::countr_zero(asked & ~answered);
    const std::uint64_t pair = std::uint64_t{1} << bit;
    std::vector<std::size_t> out =
        detour(lasso->loop_start,
               [&](std::size_t e) { return (responses(e) & pair) != 0; });
    // The component answers every pair its edges ask for, so an answering
    // edge is in it and reachable.
    if (out.empty()) break;
    const std::size_t end = g.target(out.back());
    std::vector<std::size_t> back =
        end == lasso->loop_start ? std::vector<std::size_t>{}
                                 : detour(end, [&](std::size_t e) {
                                     return g.target(e) == lasso->loop_start;
                                   });
    for (std::size_t e : out) answered |= responses(e), asked |= requests(e);
    for (std::size_t e : back) answered |= responses(e), asked |= requests(e);
    lasso->loop.insert(lasso->loop.end(), out.begin(), out.end());
    lasso->loop.insert(lasso->loop.end(), back.begin(), back.end());
  }
  return lasso;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_COMPASSION_H_
