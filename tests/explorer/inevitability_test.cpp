// Doomed states on hand-built graphs, and the explorer's graph and coverage.

#include "explorer/inevitability.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "explorer/breadth_first_search.h"

namespace {

// A hand-built graph, with the interface DoomedStates reads: edges added
// in source order, each with a name.
struct Graph {
  std::vector<std::size_t> begin = {0};  // out-edges of v: begin[v] ..
  std::vector<std::size_t> targets;
  std::vector<int> names;
  explicit Graph(std::size_t n) : begin(n + 1, 0) {}
  // REQUIRES: `from` no smaller than the previous edge's.
  void AddEdge(std::size_t from, std::size_t to, int name) {
    for (std::size_t v = from + 1; v < begin.size(); ++v) ++begin[v];
    targets.push_back(to);
    names.push_back(name);
  }
  std::size_t num_vertices() const { return begin.size() - 1; }
  std::size_t num_edges() const { return targets.size(); }
  std::size_t out_begin(std::size_t v) const { return begin[v]; }
  std::size_t out_end(std::size_t v) const { return begin[v + 1]; }
  std::size_t target(std::size_t e) const { return targets[e]; }
};

std::vector<bool> Doomed(const Graph& g, std::vector<int> bad,
                         std::vector<int> bad_edges = {}) {
  return oc::explorer::DoomedStates(
      g,
      [&](std::size_t v) {
        return std::find(bad.begin(), bad.end(), static_cast<int>(v)) !=
               bad.end();
      },
      [&](std::size_t e) {
        return std::find(bad_edges.begin(), bad_edges.end(), g.names[e]) !=
               bad_edges.end();
      });
}

TEST_CASE("a state is doomed when every way out leads to doom") {
  // 0 -> 1 -> 3 (bad); 0 -> 2 -> 3; 2 -> 4 (terminal, fine).
  Graph g(5);
  g.AddEdge(0, 1, 0);
  g.AddEdge(0, 2, 2);
  g.AddEdge(1, 3, 1);
  g.AddEdge(2, 3, 3);
  g.AddEdge(2, 4, 4);
  const std::vector<bool> d = Doomed(g, {3});
  CHECK(d == std::vector<bool>{false, true, false, true, false});
}

TEST_CASE("a cycle that can avoid the bad state for ever is not doomed") {
  // 0 <-> 1, 1 -> 2 (bad): staying in the cycle avoids 2.
  Graph g(3);
  g.AddEdge(0, 1, 0);
  g.AddEdge(1, 0, 1);
  g.AddEdge(1, 2, 2);
  CHECK(Doomed(g, {2}) == std::vector<bool>{false, false, true});
}

TEST_CASE("a state whose every transition violates is doomed") {
  // 0 -> 1 by edge 7 (a violating transition), 0 -> 2 by edge 8 (also).
  Graph g(3);
  g.AddEdge(0, 1, 7);
  g.AddEdge(0, 2, 8);
  CHECK(Doomed(g, {}, {7, 8}) == std::vector<bool>{true, false, false});
  CHECK(Doomed(g, {}, {7}) == std::vector<bool>{false, false, false});
}

// A chain 0 -> 1 -> ... -> n-1 whose actions are classified by parity.
struct Chain {
  struct State {
    int at = 0;
    bool operator==(const State&) const = default;
  };
  using Action = int;
  int n = 5;
  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    if (s.at + 1 < n) out.push_back({s.at, State{s.at + 1}});
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 1; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s.at);
  }
  State Decode(const std::uint8_t* in) const { return State{in[0]}; }
  std::vector<std::string> ActionClassNames() const { return {"even", "odd"}; }
  std::size_t ActionClass(const State& from, const Action&,
                          const State&) const {
    return static_cast<std::size_t>(from.at % 2);
  }
};

TEST_CASE("the explorer counts transitions per action class") {
  const auto result = oc::explorer::Explore<Chain>(Chain{}, {});
  CHECK(result.action_classes == std::vector<std::string>{"even", "odd"});
  CHECK(result.action_counts == std::vector<std::uint64_t>{2, 2});
}

TEST_CASE("the explorer keeps the graph within its limit, and only then") {
  oc::explorer::Options options;
  options.graph_limit = 5;
  const auto kept = oc::explorer::Explore<Chain>(Chain{}, {}, options);
  REQUIRE(kept.graph.has_value());
  const auto& g = *kept.graph;
  CHECK(g.num_vertices() == 5);
  CHECK(g.num_edges() == 4);
  CHECK(g.terminal(4));
  CHECK_FALSE(g.terminal(3));
  CHECK(g.state(Chain{}, 3).at == 3);
  CHECK(g.out_degree(3) == 1);
  CHECK(g.target(g.out_begin(3)) == 4);
  CHECK(g.action(g.out_begin(3)) == 3);
  CHECK(g.source(g.out_begin(3)) == 3);
  CHECK(g.Find(Chain{}, Chain::State{2}) == 2u);
  CHECK_FALSE(g.Find(Chain{}, Chain::State{7}).has_value());
  CHECK(kept.stats.graph_bytes == g.Bytes());
  CHECK_FALSE(kept.graph_over_limit);
  options.graph_limit = 4;
  const auto dropped = oc::explorer::Explore<Chain>(Chain{}, {}, options);
  CHECK_FALSE(dropped.graph.has_value());
  CHECK(dropped.graph_over_limit);
}

TEST_CASE("the explorer keeps the graph only within its memory limits") {
  oc::explorer::Options options;
  options.graph_limit = 5;
  const auto kept = oc::explorer::Explore<Chain>(Chain{}, {}, options);
  REQUIRE(kept.graph.has_value());
  const std::uint64_t bytes = kept.graph->Bytes();
  options.graph_bytes_limit = bytes;
  CHECK(oc::explorer::Explore<Chain>(Chain{}, {}, options).graph.has_value());
  options.graph_bytes_limit = bytes - 1;
  const auto dropped = oc::explorer::Explore<Chain>(Chain{}, {}, options);
  CHECK_FALSE(dropped.graph.has_value());
  CHECK(dropped.graph_over_memory);
  CHECK_FALSE(dropped.graph_over_limit);
  CHECK(dropped.complete());
}

TEST_CASE("the search's memory limit counts the graph with the store") {
  const Chain chain{200};
  oc::explorer::Options options;
  options.graph_limit = 200;
  const auto kept = oc::explorer::Explore<Chain>(chain, {}, options);
  REQUIRE(kept.graph.has_value());
  CHECK(kept.stats.peak_bytes >= kept.stats.store_bytes + kept.graph->Bytes());
  options.graph_limit = 0;
  const auto plain = oc::explorer::Explore<Chain>(chain, {}, options);
  CHECK_FALSE(plain.graph.has_value());
  CHECK(plain.stats.graph_bytes == 0);
  // Room for the search, not for its graph of some 8 KB as well.
  options.graph_limit = 200;
  options.max_bytes = plain.stats.peak_bytes + 1024;
  const auto over = oc::explorer::Explore<Chain>(chain, {}, options);
  CHECK(over.complete());
  CHECK_FALSE(over.graph.has_value());
  CHECK(over.graph_over_memory);
  CHECK(over.stats.peak_bytes <= *options.max_bytes);
}

TEST_CASE("a graph built without counts is the graph built with them") {
  const Chain chain{7};
  const auto counted = oc::explorer::BuildStateGraph(chain, 1 << 20, 7, 6);
  const auto uncounted = oc::explorer::BuildStateGraph(chain);
  REQUIRE(counted.has_value());
  REQUIRE(uncounted.has_value());
  CHECK(counted->Bytes() ==
        oc::explorer::StateGraph<Chain>::BytesFor(7, 6, chain.EncodedSize()));
  CHECK(uncounted->num_vertices() == 7);
  CHECK(uncounted->num_edges() == 6);
  // Growing as it goes, it still stops at its limit.
  CHECK_FALSE(oc::explorer::BuildStateGraph(chain, 100).has_value());
}

}  // namespace
