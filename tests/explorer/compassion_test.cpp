// Fair lassos with compassion pairs (explorer/compassion.h): hand-solved
// graphs, then random small graphs against a brute force over every set of
// edges a run could take infinitely often.
//
// Notation: "B"/"G" per vertex (bad, good); "eN: u -> v cK" edge N with
// fairness class K; "req i" an edge that takes a copy of count i while
// leaving it at the cap, "res i" one that adds to count i.

#include "explorer/compassion.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tests/explorer/tiny_graph.h"

namespace {

using oc::explorer::FindCompassionateLasso;
using oc::explorer::IsFairLasso;
using oc::explorer::Lasso;

using Edge = oc::testing::TinyEdge;
using Graph = oc::testing::TinyGraph;

std::optional<Lasso> Find(const Graph& g) {
  return FindCompassionateLasso(
      g, [&](std::size_t v) { return g.bad(v); },
      [&](std::size_t e) { return g.edge(e).fault; },
      [&](std::size_t e) { return g.edge(e).cls; },
      [&](std::size_t e) { return g.edge(e).req; },
      [&](std::size_t e) { return g.edge(e).res; });
}

// The loop is weakly fair (IsFairLasso) and answers every pair it asks.
bool Valid(const Graph& g, const Lasso& lasso) {
  if (!IsFairLasso(
          g, lasso, [&](std::size_t v) { return g.bad(v); },
          [&](std::size_t e) { return g.edge(e).fault; },
          [&](std::size_t e) { return g.edge(e).cls; })) {
    return false;
  }
  std::uint64_t asked = 0, answered = 0;
  for (std::size_t e : lasso.loop) {
    asked |= g.edge(e).req;
    answered |= g.edge(e).res;
  }
  return (asked & ~answered) == 0;
}

TEST_CASE("a loop that only takes copies out of a saturated count is no run") {
  // 0 B: e0 0 -> 0 c1 req 0. Consuming for ever from "2 or more" without
  // adding: every real pile runs out. Nothing else is enabled, so weak
  // fairness alone would call it a violation; compassion removes e0.
  const Graph g("B", {{0, 0, 1, false, 1, 0}});
  CHECK_FALSE(Find(g).has_value());
}

TEST_CASE("taking and adding in turn keeps the loop") {
  // 0 B, 1 B: e0 0 -> 1 c1 req 0 (consume, staying at 2), e1 1 -> 0 c2
  // res 0 (send). A relay keeps sending while a consumer keeps consuming:
  // a real run, never good.
  const Graph g("BB", {{0, 1, 1, false, 1, 0}, {1, 0, 2, false, 0, 1}});
  const auto lasso = Find(g);
  REQUIRE(lasso);
  CHECK(lasso->stem.empty());
  CHECK(lasso->loop == std::vector<std::size_t>{0, 1});
  CHECK(Valid(g, *lasso));
}

TEST_CASE("an answer for another count does not count") {
  // As above, but e1 adds to count 1, not 0: e0 goes, and what is left (e1
  // alone, 1 -> 0) is no cycle.
  const Graph g("BB", {{0, 1, 1, false, 1, 0}, {1, 0, 2, false, 0, 2}});
  CHECK_FALSE(Find(g).has_value());
}

TEST_CASE("refining leaves a fair cycle that needs no stay") {
  // 0 B: e0 0 -> 0 c1 req 0; e1 0 -> 1 c2; 1 B: e2 1 -> 0 c3. The whole
  // component asks for pair 0 and never answers, so e0 is removed; 0 <-> 1
  // remains. Classes: at 0 {1, 2}, at 1 {3}; none enabled in both, so the
  // cycle e1 e2 is weakly fair: violated, without e0.
  const Graph g(
      "BB",
      {{0, 0, 1, false, 1, 0}, {0, 1, 2, false, 0, 0}, {1, 0, 3, false, 0, 0}});
  const auto lasso = Find(g);
  REQUIRE(lasso);
  CHECK(lasso->loop == std::vector<std::size_t>{1, 2});
  CHECK(Valid(g, *lasso));
}

TEST_CASE("refining can leave a weakly unfair remainder") {
  // 0 B: e0 0 -> 0 c1 req 0; e1 0 -> 1 c2 (to a good state). Without e0 no
  // cycle is left; with it the run would have to starve class 2 anyway.
  const Graph g("BG", {{0, 0, 1, false, 1, 0}, {0, 1, 2, false, 0, 0}});
  CHECK_FALSE(Find(g).has_value());
}

TEST_CASE("the loop takes a detour to add what it takes") {
  // 0 B: e0 0 -> 0 c1 req 0; e1 0 -> 1 c2 res 0; 1 B: e2 1 -> 0 c3.
  // Every class is disabled somewhere or taken; the component answers
  // pair 0 (e1), so nothing is removed. Whatever loop weak fairness
  // picks, if it takes e0 it must also go round e1 e2.
  const Graph g(
      "BB",
      {{0, 0, 1, false, 1, 0}, {0, 1, 2, false, 0, 1}, {1, 0, 3, false, 0, 0}});
  const auto lasso = Find(g);
  REQUIRE(lasso);
  CHECK(Valid(g, *lasso));
}

TEST_CASE("faults still may not be on the loop, and may be on the stem") {
  // 0 G: e0 0 -> 1 F; 1 B: e1 1 -> 2 c1 req 0; 2 B: e2 2 -> 1 F res 0.
  // The only answer is a fault, which a fair run takes finitely often:
  // holds. With e2 no fault: violated, the stem the fault e0.
  const Graph faulty(
      "GBB",
      {{0, 1, 0, true, 0, 0}, {1, 2, 1, false, 1, 0}, {2, 1, 2, true, 0, 1}});
  CHECK_FALSE(Find(faulty).has_value());
  const Graph fair(
      "GBB",
      {{0, 1, 0, true, 0, 0}, {1, 2, 1, false, 1, 0}, {2, 1, 2, false, 0, 1}});
  const auto lasso = Find(fair);
  REQUIRE(lasso);
  CHECK(lasso->stem == std::vector<std::size_t>{0});
  CHECK(Valid(fair, *lasso));
}

// The brute force: a fair run's edges taken infinitely often form a
// non-empty set F of allowed edges (non-fault, bad to bad) that is
// strongly connected over the vertices it touches, reachable from vertex
// 0, weakly fair (each class enabled at every vertex of F is taken in F)
// and compassionate (F answers every pair it asks). Conversely any such F
// gives a run: go round all of F for ever.
bool BruteForce(const Graph& g) {
  std::vector<std::size_t> allowed;
  for (std::size_t e = 0; e < g.num_edges(); ++e) {
    const Edge& x = g.edge(e);
    if (!x.fault && g.bad(x.from) && g.bad(x.to)) allowed.push_back(e);
  }
  const std::size_t n = g.num_vertices();
  // Reachability from 0 over every edge.
  std::vector<bool> reach(n, false);
  reach[0] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t e = 0; e < g.num_edges(); ++e) {
      if (reach[g.edge(e).from] && !reach[g.edge(e).to]) {
        reach[g.edge(e).to] = grew = true;
      }
    }
  }
  for (std::uint32_t mask = 1; mask < (1u << allowed.size()); ++mask) {
    std::vector<bool> in(n, false);
    std::uint64_t asked = 0, answered = 0;
    std::vector<std::uint64_t> taken;
    for (std::size_t i = 0; i < allowed.size(); ++i) {
      if (!((mask >> i) & 1)) continue;
      const Edge& x = g.edge(allowed[i]);
      in[x.from] = in[x.to] = true;
      asked |= x.req;
      answered |= x.res;
      taken.push_back(x.cls);
    }
    if ((asked & ~answered) != 0) continue;
    // Strongly connected over its vertices: every vertex reaches every
    // other by edges of F (closure by repeated relaxation).
    std::vector<std::vector<bool>> r(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < allowed.size(); ++i) {
      if ((mask >> i) & 1)
        r[g.edge(allowed[i]).from][g.edge(allowed[i]).to] = true;
    }
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          if (r[a][k] && r[k][b]) r[a][b] = true;
        }
      }
    }
    bool connected = true, reachable = false;
    for (std::size_t a = 0; a < n; ++a) {
      if (!in[a]) continue;
      reachable = reachable || reach[a];
      for (std::size_t b = 0; b < n; ++b) {
        if (in[b] && !r[a][b]) connected = false;
      }
    }
    if (!connected || !reachable) continue;
    // Weak fairness: a class enabled (by a non-fault edge) at every vertex
    // of F is taken in F.
    bool fair = true;
    for (std::size_t e = 0; e < g.num_edges() && fair; ++e) {
      const Edge& x = g.edge(e);
      if (x.fault || !in[x.from]) continue;
      bool everywhere = true;
      for (std::size_t v = 0; v < n && everywhere; ++v) {
        if (!in[v]) continue;
        bool here = false;
        for (std::size_t f = g.out_begin(v); f < g.out_end(v); ++f) {
          here = here || (!g.edge(f).fault && g.edge(f).cls == x.cls);
        }
        everywhere = here;
      }
      if (everywhere &&
          std::find(taken.begin(), taken.end(), x.cls) == taken.end()) {
        fair = false;
      }
    }
    if (fair) return true;
  }
  return false;
}

TEST_CASE("random small graphs agree with the brute force over edge sets") {
  std::mt19937_64 random(20261204);
  int violated = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::size_t n = 1 + random() % 5;
    std::string kinds;
    for (std::size_t v = 0; v < n; ++v) kinds += random() % 4 ? 'B' : 'G';
    std::vector<Edge> edges;
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t out = random() % 3;
      for (std::size_t k = 0; k < out && edges.size() < 11; ++k) {
        Edge e{v,
               static_cast<std::size_t>(random() % n),
               random() % 3,
               random() % 6 == 0,
               0,
               0};
        if (random() % 3 == 0) e.req = 1u << (random() % 2);
        if (random() % 3 == 0) e.res = 1u << (random() % 2);
        edges.push_back(e);
      }
    }
    const Graph g(kinds, edges);
    CAPTURE(round);
    const auto lasso = Find(g);
    CHECK(lasso.has_value() == BruteForce(g));
    if (lasso) {
      ++violated;
      CHECK(Valid(g, *lasso));
    }
  }
  // Both verdicts were exercised.
  CHECK(violated > 100);
  CHECK(violated < 2900);
}

}  // namespace
