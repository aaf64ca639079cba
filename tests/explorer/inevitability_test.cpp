// Doomed states on hand-built graphs, and the explorer's graph and coverage.

#include "explorer/inevitability.h"

#include <doctest/doctest.h>

#include <vector>

#include "explorer/breadth_first_search.h"

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS,
                                    boost::bidirectionalS, boost::no_property,
                                    boost::property<boost::edge_name_t, int>>;

std::vector<bool> Doomed(const Graph& g, std::vector<int> bad,
                         std::vector<int> bad_edges = {}) {
  auto names = boost::get(boost::edge_name, g);
  return oc::explorer::DoomedStates(
      g,
      [&](std::size_t v) {
        return std::find(bad.begin(), bad.end(), static_cast<int>(v)) !=
               bad.end();
      },
      [&](const auto& e) {
        return std::find(bad_edges.begin(), bad_edges.end(), names[e]) !=
               bad_edges.end();
      });
}

TEST_CASE("a state is doomed when every way out leads to doom") {
  // 0 -> 1 -> 3 (bad); 0 -> 2 -> 3; 2 -> 4 (terminal, fine).
  Graph g(5);
  boost::add_edge(0, 1, 0, g);
  boost::add_edge(1, 3, 1, g);
  boost::add_edge(0, 2, 2, g);
  boost::add_edge(2, 3, 3, g);
  boost::add_edge(2, 4, 4, g);
  const std::vector<bool> d = Doomed(g, {3});
  CHECK(d == std::vector<bool>{false, true, false, true, false});
}

TEST_CASE("a cycle that can avoid the bad state for ever is not doomed") {
  // 0 <-> 1, 1 -> 2 (bad): staying in the cycle avoids 2.
  Graph g(3);
  boost::add_edge(0, 1, 0, g);
  boost::add_edge(1, 0, 1, g);
  boost::add_edge(1, 2, 2, g);
  CHECK(Doomed(g, {2}) == std::vector<bool>{false, false, true});
}

TEST_CASE("a state whose every transition violates is doomed") {
  // 0 -> 1 by edge 7 (a violating transition), 0 -> 2 by edge 8 (also).
  Graph g(3);
  boost::add_edge(0, 1, 7, g);
  boost::add_edge(0, 2, 8, g);
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
  CHECK(boost::num_vertices(*kept.graph) == 5);
  CHECK(boost::num_edges(*kept.graph) == 4);
  CHECK((*kept.graph)[4].terminal);
  CHECK_FALSE(kept.graph_over_limit);
  options.graph_limit = 4;
  const auto dropped = oc::explorer::Explore<Chain>(Chain{}, {}, options);
  CHECK_FALSE(dropped.graph.has_value());
  CHECK(dropped.graph_over_limit);
}

}  // namespace
