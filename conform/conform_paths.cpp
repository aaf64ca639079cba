#include "conform/conform_paths.h"

#include <fmt/format.h>

#include <deque>
#include <set>

namespace oc::conform {
namespace {

using Graph = explorer::StateGraph<OutboxModel>;
using Vertex = Graph::Vertex;
using Edge = Graph::Edge;

// Breadth-first tree of the graph from vertex 0: the edge that first
// reached each vertex.
std::vector<std::optional<Edge>> ParentEdges(const Graph& g) {
  std::vector<std::optional<Edge>> parent(g.num_vertices());
  std::vector<bool> seen(g.num_vertices(), false);
  std::deque<Vertex> queue = {0};
  seen[0] = true;
  while (!queue.empty()) {
    const Vertex v = queue.front();
    queue.pop_front();
    for (Edge e = g.out_begin(v); e != g.out_end(v); ++e) {
      const Vertex t = g.target(e);
      if (seen[t]) continue;
      seen[t] = true;
      parent[t] = e;
      queue.push_back(t);
    }
  }
  return parent;
}

// Further paths without a graph: walks from the initial state through the
// model's successors, preferring an action of an uncovered class, then one
// not taken from that state before, then the first; until a state with no
// successor. Used when the search was too big to keep its graph.
void WalkPaths(const OutboxModel& model, int further_paths,
               std::vector<bool>& covered,
               const std::function<void(std::string, Trace)>& add) {
  std::set<std::pair<std::uint64_t, std::size_t>> taken;
  std::vector<std::pair<Action, State>> successors;
  for (int n = 1; n <= further_paths; ++n) {
    Trace trace;
    trace.states.push_back(model.InitialStates().front());
    bool new_ground = false;
    while (trace.length() < kMaxPathLength) {
      const State& at = trace.states.back();
      successors.clear();
      model.Successors(at, successors);
      if (successors.empty()) break;
      const std::uint64_t fp = model.Fingerprint(at);
      std::size_t pick = 0;
      bool found = false;
      for (std::size_t k = 0; k < successors.size() && !found; ++k) {
        const auto& [a, to] = successors[k];
        if (!covered[model.ActionClass(at, a, to)]) pick = k, found = true;
      }
      for (std::size_t k = 0; k < successors.size() && !found; ++k) {
        if (!taken.count({fp, k})) pick = k, found = true;
      }
      new_ground = new_ground || found;
      taken.insert({fp, pick});
      covered[model.ActionClass(at, successors[pick].first,
                                successors[pick].second)] = true;
      trace.actions.push_back(successors[pick].first);
      trace.states.push_back(std::move(successors[pick].second));
    }
    if (!new_ground) break;  // the same walk again
    add(fmt::format("walked path {}", n), std::move(trace));
  }
}

}  // namespace

PathSelection SelectPaths(const ScenarioResult& result, int further_paths) {
  const OutboxModel& model = *result.model;
  const std::vector<std::string> class_names = OutboxModel::ActionClassNames();
  std::vector<bool> covered(class_names.size(), false);
  PathSelection out;
  auto add = [&](std::string label, Trace trace) {
    for (std::size_t i = 0; i < trace.actions.size(); ++i) {
      covered[model.ActionClass(trace.states[i], trace.actions[i],
                                trace.states[i + 1])] = true;
    }
    out.paths.push_back(ConformPath{std::move(label), std::move(trace)});
  };

  // A pinned loop was replayed for two turns after the order: the database
  // takes both.
  if (result.replay) {
    add(result.replay_loop_steps > 0 ? "pinned order and two turns of its loop"
                                     : "pinned order",
        *result.replay);
  }
  for (const Violation& v : result.exploration.violations) {
    if (result.replay) break;  // a pinned order's violations are its prefixes
    if (v.lasso()) {
      // The stem and one turn of the loop, as found (concrete states).
      Trace t = v.trace;
      t.actions.insert(t.actions.end(), v.loop.actions.begin(),
                       v.loop.actions.end());
      t.states.insert(t.states.end(), v.loop.states.begin() + 1,
                      v.loop.states.end());
      add("counterexample of " + v.property +
              " (stem and one turn of its loop)",
          std::move(t));
      continue;
    }
    add("counterexample of " + v.property, v.trace);
  }

  // The classes the search saw fire (its coverage counts), which the graph
  // confirms below when there is one.
  std::vector<bool> fires(class_names.size(), false);
  const std::vector<std::uint64_t>& counts = result.exploration.action_counts;
  for (std::size_t c = 0; c < counts.size() && c < fires.size(); ++c) {
    fires[c] = counts[c] > 0;
  }
  if (!result.replay && !result.exploration.graph) {
    out.no_graph = true;
    WalkPaths(model, further_paths, covered, add);
  }
  if (result.exploration.graph) {
    const Graph& g = *result.exploration.graph;
    // Each edge's action class, worked out once (states are decoded on
    // demand).
    std::vector<std::size_t> edge_class(g.num_edges());
    for (Vertex v = 0; v < g.num_vertices(); ++v) {
      const State from = g.state(model, v);
      for (Edge e = g.out_begin(v); e != g.out_end(v); ++e) {
        edge_class[e] =
            model.ActionClass(from, g.action(e), g.state(model, g.target(e)));
        fires[edge_class[e]] = true;
      }
    }
    auto class_of = [&](Edge e) { return edge_class[e]; };
    const std::vector<std::optional<Edge>> parent = ParentEdges(g);
    // taken[e]: edge e is on a further path.
    std::vector<bool> taken(g.num_edges(), false);
    auto take = [&](Vertex, std::size_t, const Edge& e) {
      taken[e] = true;
      covered[class_of(e)] = true;
    };
    auto edge_index = [&](const Edge& e) {
      return e - g.out_begin(g.source(e));
    };
    // The first edge, in vertex and edge order, that `wanted` accepts.
    auto first_edge = [&](auto wanted) -> std::optional<Edge> {
      for (Vertex v = 0; v < g.num_vertices(); ++v) {
        std::size_t k = 0;
        for (Edge e = g.out_begin(v); e != g.out_end(v); ++e, ++k) {
          if (wanted(v, k, e)) return e;
        }
      }
      return std::nullopt;
    };
    auto new_class = [&](Vertex, std::size_t, const Edge& e) {
      return !covered[class_of(e)];
    };
    auto new_edge = [&](Vertex, std::size_t, const Edge& e) {
      return !taken[e];
    };
    for (int n = 1; n <= further_paths; ++n) {
      std::optional<Edge> target = first_edge(new_class);
      if (!target) target = first_edge(new_edge);
      if (!target) break;
      std::vector<Edge> edges;
      for (Vertex v = g.source(*target); parent[v]; v = g.source(*parent[v])) {
        edges.insert(edges.begin(), *parent[v]);
      }
      edges.push_back(*target);
      std::set<Vertex> on_path = {0};
      for (const Edge& e : edges) {
        on_path.insert(g.target(e));
        take(g.source(e), edge_index(e), e);
      }
      Vertex at = g.target(*target);
      while (edges.size() < kMaxPathLength) {
        std::optional<Edge> next;
        std::size_t next_k = 0;
        for (auto accept : {0, 1, 2}) {
          std::size_t k = 0;
          for (Edge it = g.out_begin(at); it != g.out_end(at) && !next;
               ++it, ++k) {
            const bool ok = accept == 0   ? new_class(at, k, it)
                            : accept == 1 ? new_edge(at, k, it)
                                          : !on_path.count(g.target(it));
            if (ok) {
              next = it;
              next_k = k;
            }
          }
          if (next) break;
        }
        if (!next) break;
        edges.push_back(*next);
        take(at, next_k, *next);
        at = g.target(*next);
        on_path.insert(at);
      }
      Trace trace;
      trace.states.push_back(g.state(model, 0));
      for (const Edge& e : edges) {
        trace.actions.push_back(g.action(e));
        trace.states.push_back(g.state(model, g.target(e)));
      }
      add(fmt::format("explored path {}", n), std::move(trace));
    }
  }
  for (std::size_t c = 0; c < class_names.size(); ++c) {
    if (covered[c]) {
      out.covered.push_back(class_names[c]);
    } else if (fires[c]) {
      out.uncovered.push_back(class_names[c]);
    }
  }
  return out;
}

}  // namespace oc::conform
