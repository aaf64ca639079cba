// Which states of a state graph cannot avoid a violation any more.
//
// A state is doomed when it is bad itself, or when it has at least one
// successor and every transition out of it is bad or leads to a doomed
// state: whatever is scheduled next, the violation happens. This is the
// least fixed point (states on a cycle that can stay clear for ever are not
// doomed), computed backwards from the bad states in O(V + E).
//
// The graph must be the complete reachable graph: a search stopped by a
// limit has states whose successors are unknown.

#ifndef OUTBOX_CHECK_EXPLORER_INEVITABILITY_H_
#define OUTBOX_CHECK_EXPLORER_INEVITABILITY_H_

#include <cstddef>
#include <vector>

namespace oc::explorer {

// `g` offers num_vertices(), num_edges(), out_begin(v) and out_end(v) (its
// out-edges are the edge ids in between, edges numbered 0 .. num_edges() -
// 1) and target(e), as StateGraph does.
// `bad_state(v)`: vertex v itself violates (a safety violation, or an
// at-rest violation in a terminal state). `bad_edge(e)`: the transition e
// violates (transition invariants). Returns doomed[v] for every vertex.
template <class Graph, class BadState, class BadEdge>
std::vector<bool> DoomedStates(const Graph& g, BadState bad_state,
                               BadEdge bad_edge) {
  const std::size_t n = g.num_vertices();
  std::vector<bool> doomed(n, false);
  // Transitions out of v that do not yet lead into doom.
  std::vector<std::size_t> open(n, 0);
  std::vector<std::size_t> work;
  std::vector<bool> bad(g.num_edges());
  for (std::size_t e = 0; e < bad.size(); ++e) bad[e] = bad_edge(e);
  // The graph keeps out-edges only: the transitions into each vertex that
  // can spread doom (not bad themselves), as sources grouped by target.
  std::vector<std::size_t> in_begin(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
      if (!bad[e]) ++in_begin[g.target(e) + 1];
    }
  }
  for (std::size_t v = 0; v < n; ++v) in_begin[v + 1] += in_begin[v];
  std::vector<std::size_t> sources(in_begin[n]);
  {
    std::vector<std::size_t> at(in_begin.begin(), in_begin.end() - 1);
    for (std::size_t v = 0; v < n; ++v) {
      for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
        if (!bad[e]) sources[at[g.target(e)]++] = v;
      }
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (bad_state(v)) {
      doomed[v] = true;
      work.push_back(v);
      continue;
    }
    std::size_t count = 0;
    for (auto e = g.out_begin(v); e != g.out_end(v); ++e) {
      if (!bad[e]) ++count;
    }
    open[v] = count;
    if (count == 0 && g.out_end(v) != g.out_begin(v)) {
      doomed[v] = true;  // every way out violates on the way
      work.push_back(v);
    }
  }
  while (!work.empty()) {
    const std::size_t v = work.back();
    work.pop_back();
    for (std::size_t i = in_begin[v]; i < in_begin[v + 1]; ++i) {
      const std::size_t u = sources[i];
      if (doomed[u]) continue;
      if (--open[u] == 0) {
        doomed[u] = true;
        work.push_back(u);
      }
    }
  }
  return doomed;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_INEVITABILITY_H_
