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

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_STATE_GRAPH_H_
