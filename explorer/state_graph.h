// The explored state graph, kept for small searches so that analyses (the
// point of no return) and drawings (Graphviz) can see every state and edge.
//
// A Boost.Graph adjacency list: vertex i is the i-th distinct state in
// breadth-first order (vertex 0 is the initial state), and each edge is one
// transition labelled with its action. Duplicate transitions into known
// states are edges too, so out_degree(v) is the number of enabled actions.

#ifndef OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_
#define OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_

#include <boost/graph/adjacency_list.hpp>
#include <boost/unordered/unordered_flat_map.hpp>
#include <string>
#include <utility>
#include <vector>

namespace oc::explorer {

template <class State>
struct StateVertex {
  State state{};
  bool terminal = false;          // no successor, not a bounded dead end
  bool bounded_dead_end = false;  // no successor because of the model's bound
};

template <class Action>
struct ActionEdge {
  Action action{};
};

template <class State, class Action>
using StateGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                          StateVertex<State>, ActionEdge<Action>>;

// The whole reachable graph of `model` (unreduced), by a plain breadth-first
// search on this thread. For small state spaces only: it keeps every state.
// `states`, when known (a search counted them), sizes the vertex list at
// once: growing it one vertex at a time copies every state over and over.
template <class M>
StateGraph<typename M::State, typename M::Action> BuildStateGraph(
    const M& model, std::size_t states = 0) {
  using State = typename M::State;
  using Action = typename M::Action;
  StateGraph<State, Action> g(states);
  std::size_t count = 0;  // vertices that hold a state
  boost::unordered_flat_map<std::string, std::size_t> ids;
  ids.reserve(states);
  std::string key(model.EncodedSize(), '\0');
  auto vertex = [&](const State& s) {
    model.Encode(s, reinterpret_cast<std::uint8_t*>(key.data()));
    const auto [it, fresh] = ids.try_emplace(key, count);
    if (fresh) {
      if (count < boost::num_vertices(g)) {
        g[count].state = s;
      } else {
        boost::add_vertex(StateVertex<State>{s}, g);
      }
      ++count;
    }
    return it->second;
  };
  for (const State& s : model.InitialStates()) vertex(s);
  std::vector<std::pair<Action, State>> next;
  for (std::size_t v = 0; v < count; ++v) {
    const State s = g[v].state;
    next.clear();
    model.Successors(s, next);
    if (next.empty()) {
      const bool bounded = model.BlockedByBound(s);
      g[v].bounded_dead_end = bounded;
      g[v].terminal = !bounded;
    }
    for (const auto& [action, t] : next) {
      boost::add_edge(v, vertex(t), ActionEdge<Action>{action}, g);
    }
  }
  // A wrong `states` left vertices without a state: start over.
  if (count != boost::num_vertices(g)) return BuildStateGraph(model);
  return g;
}

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_
