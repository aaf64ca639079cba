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

#include <boost/graph/adjacency_list.hpp>
#include <vector>

namespace oc::explorer {

// `bad_state(v)`: vertex v itself violates (a safety violation, or an
// at-rest violation in a terminal state). `bad_edge(e)`: the transition e
// violates (transition invariants). Returns doomed[v] for every vertex.
template <class Graph, class BadState, class BadEdge>
std::vector<bool> DoomedStates(const Graph& g, BadState bad_state,
                               BadEdge bad_edge) {
  const std::size_t n = boost::num_vertices(g);
  std::vector<bool> doomed(n, false);
  // Transitions out of v that do not yet lead into doom.
  std::vector<std::size_t> open(n, 0);
  std::vector<std::size_t> work;
  for (std::size_t v = 0; v < n; ++v) {
    if (bad_state(v)) {
      doomed[v] = true;
      work.push_back(v);
      continue;
    }
    std::size_t count = 0;
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      if (!bad_edge(*e)) ++count;
    }
    open[v] = count;
    if (count == 0 && boost::out_degree(v, g) > 0) {
      doomed[v] = true;  // every way out violates on the way
      work.push_back(v);
    }
  }
  while (!work.empty()) {
    const std::size_t v = work.back();
    work.pop_back();
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) {
      const std::size_t u = boost::source(*e, g);
      if (doomed[u] || bad_edge(*e)) continue;
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
