// Fair cycles on hand-built graphs, each verdict worked out by hand, then on
// random small graphs against a brute force over every set of states.
//
// Notation in the comments: "B"/"G" per vertex (bad, good), and edges as
// "eN: u -> v cK" (edge id N, fairness class K), "F" for a fault.

#include "explorer/fair_cycles.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "explorer/state_graph.h"
#include "tests/explorer/tiny_graph.h"
#include "tests/explorer/toy_models.h"

namespace doctest {
template <>
struct StringMaker<std::vector<std::size_t>> {
  static String convert(const std::vector<std::size_t>& v) {
    std::string s = "{";
    for (std::size_t i = 0; i < v.size(); ++i) {
      s += (i ? ", " : "") + std::to_string(v[i]);
    }
    return (s + "}").c_str();
  }
};
}  // namespace doctest

namespace {

using oc::explorer::FindFairLasso;
using oc::explorer::HasNonFaultCycle;
using oc::explorer::IsFairLasso;
using oc::explorer::Lasso;
using Ids = std::vector<std::size_t>;

constexpr bool kFault = true;

using Edge = oc::testing::TinyEdge;
using oc::testing::TinyGraph;

std::optional<Lasso> Find(const TinyGraph& g) {
  return FindFairLasso(
      g, [&](std::size_t v) { return g.bad(v); },
      [&](std::size_t e) { return g.edge(e).fault; },
      [&](std::size_t e) { return g.edge(e).cls; });
}

bool Accepts(const TinyGraph& g, const Lasso& lasso) {
  return IsFairLasso(
      g, lasso, [&](std::size_t v) { return g.bad(v); },
      [&](std::size_t e) { return g.edge(e).fault; },
      [&](std::size_t e) { return g.edge(e).cls; });
}

bool HasCycle(const TinyGraph& g) {
  return HasNonFaultCycle(g, [&](std::size_t e) { return g.edge(e).fault; });
}

// Checks that g has exactly this fair lasso, and that IsFairLasso takes it.
void ExpectLasso(const TinyGraph& g, std::size_t loop_start, const Ids& stem,
                 const Ids& loop) {
  const std::optional<Lasso> lasso = Find(g);
  REQUIRE(lasso.has_value());
  CHECK(lasso->loop_start == loop_start);
  CHECK(lasso->stem == stem);
  CHECK(lasso->loop == loop);
  CHECK(Accepts(g, *lasso));
}

// The brute force: some set S of bad vertices such that S is strongly
// connected by S's own non-fault edges, has at least one such edge, is
// reachable from vertex 0, and is fair (each class enabled at every vertex
// of S, by a non-fault edge, is the class of a non-fault edge inside S).
// Knows nothing of components. Returns the least distance from vertex 0 to
// a vertex of such a set, nullopt if there is none. At most 8 vertices.
std::optional<std::size_t> BruteForce(const TinyGraph& g) {
  const std::size_t n = g.num_vertices();
  constexpr std::size_t kFar = 1000;
  std::vector<std::size_t> dist(n, kFar);
  if (n > 0) dist[0] = 0;
  for (std::size_t round = 0; round < n; ++round) {  // Bellman-Ford, unit
    for (std::size_t e = 0; e < g.num_edges(); ++e) {
      const Edge& x = g.edge(e);
      if (dist[x.from] + 1 < dist[x.to]) dist[x.to] = dist[x.from] + 1;
    }
  }
  std::optional<std::size_t> best;
  for (std::uint32_t set = 1; set < (1u << n); ++set) {
    auto in = [&](std::size_t v) { return ((set >> v) & 1) != 0; };
    bool all_bad = true;
    for (std::size_t v = 0; v < n; ++v) {
      if (in(v) && !g.bad(v)) all_bad = false;
    }
    if (!all_bad) continue;
    // reach[u][v]: v reachable from u by edges inside S (zero or more).
    bool reach[8][8] = {};
    bool any_edge = false;
    for (std::size_t v = 0; v < n; ++v) reach[v][v] = true;
    for (std::size_t e = 0; e < g.num_edges(); ++e) {
      const Edge& x = g.edge(e);
      if (!x.fault && in(x.from) && in(x.to)) {
        reach[x.from][x.to] = true;
        any_edge = true;
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t u = 0; u < n; ++u) {
        for (std::size_t v = 0; v < n; ++v) {
          if (reach[u][k] && reach[k][v]) reach[u][v] = true;
        }
      }
    }
    bool connected = any_edge;
    for (std::size_t u = 0; u < n; ++u) {
      for (std::size_t v = 0; v < n; ++v) {
        if (in(u) && in(v) && !reach[u][v]) connected = false;
      }
    }
    if (!connected) continue;
    bool fair = true;
    for (std::size_t c = 0; c < g.num_edges(); ++c) {
      const std::uint64_t k = g.edge(c).cls;
      bool everywhere = true;
      for (std::size_t v = 0; v < n; ++v) {
        if (!in(v)) continue;
        bool enabled = false;
        for (std::size_t e = 0; e < g.num_edges(); ++e) {
          const Edge& x = g.edge(e);
          if (x.from == v && !x.fault && x.cls == k) enabled = true;
        }
        if (!enabled) everywhere = false;
      }
      bool taken = false;
      for (std::size_t e = 0; e < g.num_edges(); ++e) {
        const Edge& x = g.edge(e);
        if (!x.fault && in(x.from) && in(x.to) && x.cls == k) taken = true;
      }
      if (everywhere && !taken) fair = false;
    }
    if (!fair) continue;
    for (std::size_t v = 0; v < n; ++v) {
      if (in(v) && dist[v] != kFar && (!best || dist[v] < *best)) {
        best = dist[v];
      }
    }
  }
  return best;
}

TEST_CASE("a bad state looping on its only action is a fair cycle") {
  // B0, e0: 0 -> 0 c1. C = {0}: c1 is enabled at 0 and taken by e0, so the
  // run that loops on e0 for ever is fair and never good.
  const TinyGraph g("B", {{0, 0, 1}});
  ExpectLasso(g, 0, {}, {0});
}

TEST_CASE("a self-loop is unfair while another class stays enabled") {
  // B0 G1; e0: 0 -> 0 c1, e1: 0 -> 1 c2, e2: 1 -> 1 c1. C = {0} takes only
  // c1, but c2 is enabled at 0 for ever: weak fairness takes e1, to a good
  // state. Holds.
  const TinyGraph g("BG", {{0, 0, 1}, {0, 1, 2}, {1, 1, 1}});
  CHECK_FALSE(Find(g));
  CHECK(BruteForce(g) == std::nullopt);
}

TEST_CASE("weak fairness keeps a relay enabled on the whole cycle unstarved") {
  // B0 B1 G2; e0: 0 -> 1 c1, e1: 0 -> 2 c3, e2: 1 -> 0 c2, e3: 1 -> 2 c3,
  // e4: 2 -> 2 c1. C = {0, 1} (e0, e2): the relay c3 is enabled at both
  // and taken by no edge inside C, so no fair run stays in C. Holds.
  const TinyGraph g("BBG",
                    {{0, 1, 1}, {0, 2, 3}, {1, 0, 2}, {1, 2, 3}, {2, 2, 1}});
  CHECK_FALSE(Find(g));
}

TEST_CASE(
    "weak fairness does not force a relay disabled on one state of the cycle") {
  // B0 B1 G2; e0: 0 -> 1 c1, e1: 0 -> 2 c3, e2: 1 -> 0 c2, e3: 2 -> 2 c1.
  // C = {0, 1}: enabled(0) = {1, 3}, enabled(1) = {2}; no class is enabled
  // at both, so going round C for ever is fair (weak fairness does not
  // force c3, disabled at 1 on each round). Violated.
  // The loop: classes 1, 2, 3 in C. At 0, c2 is disabled. c1 is not
  // enabled everywhere: the nearest vertex where it is disabled is 1, by
  // e0, which disables c3 too. Back to 0 by e2.
  const TinyGraph g("BBG", {{0, 1, 1}, {0, 2, 3}, {1, 0, 2}, {2, 2, 1}});
  ExpectLasso(g, 0, {}, {0, 2});
}

TEST_CASE("a fair cycle reached only through a fault is a violation") {
  // G0 B1; e0: 0 -> 1 c1 F, e1: 0 -> 0 c2, e2: 1 -> 1 c3. The stem may take
  // faults (finitely many); C = {1} takes c3, its only class. Violated,
  // with the stem e0.
  const TinyGraph g("GB", {{0, 1, 1, kFault}, {0, 0, 2}, {1, 1, 3}});
  ExpectLasso(g, 1, {0}, {2});
}

TEST_CASE("a cycle that needs a fault is no fair cycle: faults stop") {
  // B0 B1; e0: 0 -> 1 c1 F, e1: 1 -> 0 c1 F. H has no edge: a run that
  // stays bad must take faults for ever. Holds.
  const TinyGraph faults_only("BB", {{0, 1, 1, kFault}, {1, 0, 1, kFault}});
  CHECK_FALSE(Find(faults_only));
  CHECK_FALSE(HasCycle(faults_only));
  // e0: 0 -> 1 c1, e1: 1 -> 0 c1 F: the cycle closes only by a fault.
  const TinyGraph one_fault("BB", {{0, 1, 1}, {1, 0, 1, kFault}});
  CHECK_FALSE(Find(one_fault));
}

TEST_CASE("a cycle through a good state is no fair cycle") {
  // B0 B1 G2; e0: 0 -> 1 c1, e1: 1 -> 2 c1, e2: 2 -> 0 c1. Every round
  // visits the good state 2, and H (e0 only) has no cycle. Holds.
  const TinyGraph g("BBG", {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  CHECK_FALSE(Find(g));
  CHECK(HasCycle(g));
}

TEST_CASE("no fair part hides inside an unfair component") {
  // B0 B1 B2 G3; e0: 0 -> 1 c1, e1: 0 -> 0 c2, e2: 0 -> 3 c9, e3: 1 -> 2 c1,
  // e4: 1 -> 3 c9, e5: 2 -> 0 c1, e6: 2 -> 3 c9, e7: 3 -> 3 c1.
  // C = {0, 1, 2}: c9 is enabled at all three and never taken inside, so C
  // is unfair. Its parts: {0} with the self-loop e1, or any other strongly
  // connected part, have c9 enabled at each of their vertices too, and
  // their edges are C's: still never taken, still unfair. So testing the
  // maximal component was enough. Holds; the brute force, which tries every
  // set of states, agrees.
  const TinyGraph g("BBBG", {{0, 1, 1},
                             {0, 0, 2},
                             {0, 3, 9},
                             {1, 2, 1},
                             {1, 3, 9},
                             {2, 0, 1},
                             {2, 3, 9},
                             {3, 3, 1}});
  CHECK_FALSE(Find(g));
  CHECK(BruteForce(g) == std::nullopt);
}

TEST_CASE("a fair component may have unfair parts: the loop goes round all") {
  // B0 B1; e0: 0 -> 0 c1, e1: 0 -> 1 c2, e2: 1 -> 0 c3. C = {0, 1}:
  // enabled(0) = {1, 2}, enabled(1) = {3}, no class at both: fair.
  // The part {0} with e0 alone is unfair (c2 enabled, not taken), which is
  // fine: the loop need not stay there.
  // The loop: at 0, c3 is disabled. c1 (not everywhere): nearest vertex
  // where it is disabled is 1, by e1 (which takes c2; 1 disables c2 too).
  // Back by e2.
  const TinyGraph g("BB", {{0, 0, 1}, {0, 1, 2}, {1, 0, 3}});
  ExpectLasso(g, 0, {}, {1, 2});
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {0}}));
}

TEST_CASE("a fair cycle may need two classes taken") {
  // B0 B1; e0: 0 -> 1 c1, e1: 0 -> 0 c2, e2: 1 -> 0 c1, e3: 1 -> 1 c2.
  // C = {0, 1}: c1 and c2 are enabled at both, and both are taken inside
  // C: fair. Violated.
  // The loop: c1 is everywhere: nearest edge of it from 0 is e0 (to 1);
  // c2 is everywhere: nearest edge of it from 1 is e3 (back to 1); back to
  // 0 by e2.
  const TinyGraph g("BB", {{0, 1, 1}, {0, 0, 2}, {1, 0, 1}, {1, 1, 2}});
  ExpectLasso(g, 0, {}, {0, 3, 2});
  // Round e0, e2 never takes c2, enabled at both: unfair.
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {0, 2}}));
  // The self-loop e1 alone never takes c1, enabled at 0: unfair.
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {1}}));
}

TEST_CASE("an unreachable fair cycle is no violation") {
  // G0 B1; e0: 0 -> 0 c1, e1: 1 -> 1 c1. C = {1} is fair but no run
  // reaches it. Holds.
  const TinyGraph g("GB", {{0, 0, 1}, {1, 1, 1}});
  CHECK_FALSE(Find(g));
  CHECK(HasCycle(g));
}

TEST_CASE("an acyclic graph has no fair cycle") {
  // B0 B1 B2; e0: 0 -> 1 c1, e1: 0 -> 2 c1, e2: 1 -> 2 c2. No cycle at all.
  const TinyGraph g("BBB", {{0, 1, 1}, {0, 2, 1}, {1, 2, 2}});
  CHECK_FALSE(Find(g));
  CHECK_FALSE(HasCycle(g));
}

TEST_CASE("the fair cycle nearest the initial state is chosen") {
  // G0 G1 B2 B3 B4; e0: 0 -> 1, e1: 0 -> 3, e2: 1 -> 2, e3: 2 -> 2,
  // e4: 3 -> 4, e5: 4 -> 3, all c1. Two fair components: {2} at distance
  // 2, {3, 4} at distance 1 (though vertex 2 comes first by id). The
  // search meets 0, 1, 3: loop_start 3 by e1; loop e4, e5.
  const TinyGraph g(
      "GGBBB",
      {{0, 1, 1}, {0, 3, 1}, {1, 2, 1}, {2, 2, 1}, {3, 4, 1}, {4, 3, 1}});
  ExpectLasso(g, 3, {1}, {4, 5});

  // Ties go by discovery. G0 B1 B2; e0: 0 -> 0 c1, e1: 0 -> 2 c1,
  // e2: 0 -> 2 c2, e3: 0 -> 1 c1, e4: 1 -> 1 c1, e5: 2 -> 2 c1. {1} and
  // {2} are both fair at distance 1; 2 is discovered first, by e1 (not
  // the parallel e2).
  const TinyGraph tie(
      "GBB",
      {{0, 0, 1}, {0, 2, 1}, {0, 2, 2}, {0, 1, 1}, {1, 1, 1}, {2, 2, 1}});
  ExpectLasso(tie, 2, {1}, {5});
}

TEST_CASE("a terminal bad state is not the fair cycles' business") {
  // B0 B1; e0: 0 -> 1 c1; 1 has no successor. No infinite run stays bad;
  // a deadlock is another check's verdict. Holds here.
  const TinyGraph g("BB", {{0, 1, 1}});
  CHECK_FALSE(Find(g));
}

TEST_CASE(
    "weak fairness does not force a class disabled on the cycle sometimes") {
  // B0 B1 B2 G3; e0: 0 -> 1 c1, e1: 0 -> 3 c5, e2: 1 -> 2 c1, e3: 1 -> 3 c5,
  // e4: 2 -> 0 c1, e5: 3 -> 3 c1. C = {0, 1, 2}: c5 (the way out) is
  // enabled at 0 and 1 but not at 2, so it is disabled once per round and
  // weak fairness does not force it; c1 is everywhere and taken. Violated.
  // The loop: c1 is everywhere: e0 from 0 (to 1); c5: the nearest vertex
  // where it is disabled, from 1, is 2 by e2; back by e4.
  const TinyGraph sometimes(
      "BBBG",
      {{0, 1, 1}, {0, 3, 5}, {1, 2, 1}, {1, 3, 5}, {2, 0, 1}, {3, 3, 1}});
  ExpectLasso(sometimes, 0, {}, {0, 2, 4});

  // The same with e5: 2 -> 3 c5 added: c5 is enabled at all three, never
  // taken inside C. Holds.
  const TinyGraph always("BBBG", {{0, 1, 1},
                                  {0, 3, 5},
                                  {1, 2, 1},
                                  {1, 3, 5},
                                  {2, 0, 1},
                                  {2, 3, 5},
                                  {3, 3, 1}});
  CHECK_FALSE(Find(always));
}

TEST_CASE("weak fairness gives a starved instance its turn") {
  // Instances 1 and 2 retry for ever at 0; instance 3 could complete.
  // B0 G1; e0: 0 -> 0 c1, e1: 0 -> 0 c2, e2: 0 -> 1 c3, e3: 1 -> 1 c1.
  // C = {0}: c3 is enabled there for ever and never taken inside. Holds.
  const TinyGraph g("BG", {{0, 0, 1}, {0, 0, 2}, {0, 1, 3}, {1, 1, 1}});
  CHECK_FALSE(Find(g));

  // When instance 3's step keeps the state bad and leads back (1 bad,
  // e3: 1 -> 0 c1), the starved instance runs and nothing improves:
  // C = {0, 1}, enabled(0) = {1, 2, 3}, enabled(1) = {1}; c1 is everywhere
  // and taken: fair. Violated.
  // The loop: c1 is everywhere: nearest edge of it from 0 is the self-loop
  // e0; c2: nearest vertex where it is disabled is 1, by e2 (which takes
  // c3); back by e3.
  const TinyGraph back("BB", {{0, 0, 1}, {0, 0, 2}, {0, 1, 3}, {1, 0, 1}});
  ExpectLasso(back, 0, {}, {0, 2, 3});
}

TEST_CASE("faults neither take nor enable a fairness class") {
  // B0 B1 G2; e0: 0 -> 1 c1, e1: 0 -> 2 c2 F, e2: 1 -> 0 c1,
  // e3: 1 -> 2 c2 F, e4: 2 -> 2 c1. The way out is a fault at both states,
  // so c2 is not enabled: C = {0, 1} with c1 everywhere and taken is fair.
  // Violated, going round e0, e2.
  const TinyGraph fault_out(
      "BBG",
      {{0, 1, 1}, {0, 2, 2, kFault}, {1, 0, 1}, {1, 2, 2, kFault}, {2, 2, 1}});
  ExpectLasso(fault_out, 0, {}, {0, 2});

  // The same ways out, not faults: c2 is enabled at both, never taken
  // inside C. Holds.
  const TinyGraph way_out(
      "BBG", {{0, 1, 1}, {0, 2, 2}, {1, 0, 1}, {1, 2, 2}, {2, 2, 1}});
  CHECK_FALSE(Find(way_out));

  // B0 B1 G2; e0: 0 -> 1 c1, e1: 0 -> 2 c2, e2: 1 -> 0 c1, e3: 1 -> 1 c2 F,
  // e4: 1 -> 2 c2, e5: 2 -> 2 c1. c2 is enabled at 0 and 1; the only c2
  // edge inside C is the fault e3, which is not an edge of H. Holds.
  const TinyGraph fault_inside("BBG", {{0, 1, 1},
                                       {0, 2, 2},
                                       {1, 0, 1},
                                       {1, 1, 2, kFault},
                                       {1, 2, 2},
                                       {2, 2, 1}});
  CHECK_FALSE(Find(fault_inside));
}

TEST_CASE("an empty graph has no fair cycle") {
  const TinyGraph g("", {});
  CHECK_FALSE(Find(g));
  CHECK_FALSE(HasCycle(g));
}

TEST_CASE("IsFairLasso rejects a lasso that is not a fair violation") {
  // The graph of "a relay disabled on one state ...": B0 B1 G2;
  // e0: 0 -> 1 c1, e1: 0 -> 2 c3, e2: 1 -> 0 c2, e3: 2 -> 2 c1.
  const TinyGraph g("BBG", {{0, 1, 1}, {0, 2, 3}, {1, 0, 2}, {2, 2, 1}});
  CHECK(Accepts(g, Lasso{0, {}, {0, 2}}));
  CHECK(Accepts(g, Lasso{1, {0}, {2, 0}}));        // another start
  CHECK(Accepts(g, Lasso{0, {0, 2}, {0, 2}}));     // a longer stem is fine
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {}}));       // an empty loop
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {0}}));      // not closed
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {2, 0}}));   // e2 is not out of 0
  CHECK_FALSE(Accepts(g, Lasso{1, {}, {2, 0}}));   // the stem ends at 0
  CHECK_FALSE(Accepts(g, Lasso{1, {2}, {2, 0}}));  // the stem starts at 1
  CHECK_FALSE(Accepts(g, Lasso{0, {}, {99}}));     // no such edge
  CHECK_FALSE(Accepts(g, Lasso{7, {}, {0, 2}}));   // no such vertex
  CHECK_FALSE(Accepts(g, Lasso{2, {1}, {3}}));     // round a good state

  // A loop through a good state: B0 B1 G2, a ring of c1.
  const TinyGraph ring("BBG", {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  CHECK_FALSE(Accepts(ring, Lasso{0, {}, {0, 1, 2}}));
  // A loop over faults: B0 B1, e0: 0 -> 1 F, e1: 1 -> 0 F.
  const TinyGraph faults("BB", {{0, 1, 1, kFault}, {1, 0, 1, kFault}});
  CHECK_FALSE(Accepts(faults, Lasso{0, {}, {0, 1}}));
  // An unfair loop: the relay graph, c3 enabled at 0 and 1 and untaken.
  const TinyGraph relay(
      "BBG", {{0, 1, 1}, {0, 2, 3}, {1, 0, 2}, {1, 2, 3}, {2, 2, 1}});
  CHECK_FALSE(Accepts(relay, Lasso{0, {}, {0, 2}}));
}

TEST_CASE(
    "a state graph built on several threads is the one built on one, vertex "
    "for vertex and edge for edge") {
  using oc::explorer::testing::Grid;
  Grid model;
  model.n = 120;  // 14,400 states: several blocks of 2,048 per thread
  model.with_reset = true;
  const auto one = oc::explorer::BuildStateGraph(
      model, std::numeric_limits<std::uint64_t>::max(), 0, 0, 1);
  REQUIRE(one.has_value());
  REQUIRE(one->num_vertices() == 120 * 120);
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    const auto many = oc::explorer::BuildStateGraph(
        model, std::numeric_limits<std::uint64_t>::max(), 0, 0, threads);
    REQUIRE(many.has_value());
    REQUIRE(many->num_vertices() == one->num_vertices());
    REQUIRE(many->num_edges() == one->num_edges());
    bool same = true;
    for (std::uint32_t v = 0; v < one->num_vertices(); ++v) {
      same = same && many->state(model, v) == one->state(model, v) &&
             many->terminal(v) == one->terminal(v) &&
             many->out_begin(v) == one->out_begin(v);
    }
    for (std::size_t e = 0; e < one->num_edges(); ++e) {
      same = same && many->target(e) == one->target(e) &&
             many->action(e) == one->action(e);
    }
    CHECK(same);
  }
  // A limit stops the build on several threads as on one.
  CHECK_FALSE(oc::explorer::BuildStateGraph(model, 4096, 0, 0, 2).has_value());
}

TEST_CASE("a StateGraph's fair cycles, by action class") {
  // The 3 x 3 grid with reset: row y is a cycle (IncX, IncX, Reset) and
  // IncY leaves it upward, enabled everywhere in rows 0 and 1. With every
  // state bad, rows 0 and 1 are unfair (IncY always enabled, never taken
  // inside the row) and row 2 is fair (no IncY there). The search meets
  // (0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2): loop_start (0, 2), by
  // IncY twice. In row 2, IncX is disabled at (2, 2) only: the loop goes
  // there by IncX twice, and back by Reset.
  using oc::explorer::testing::Grid;
  Grid model;
  model.n = 3;
  model.with_reset = true;
  const auto g = oc::explorer::BuildStateGraph(model);
  REQUIRE(g.has_value());
  auto cls = [&](std::size_t e) {
    return static_cast<std::uint64_t>(g->action(e));
  };
  auto no_fault = [](std::size_t) { return false; };
  auto all_bad = [](std::size_t) { return true; };
  const auto lasso = FindFairLasso(*g, all_bad, no_fault, cls);
  REQUIRE(lasso.has_value());
  CHECK(IsFairLasso(*g, *lasso, all_bad, no_fault, cls));
  const auto start =
      g->state(model, static_cast<std::uint32_t>(lasso->loop_start));
  CHECK(start == Grid::State{0, 2});
  std::vector<Grid::Action> stem, loop;
  for (const std::size_t e : lasso->stem) stem.push_back(g->action(e));
  for (const std::size_t e : lasso->loop) loop.push_back(g->action(e));
  CHECK(stem == std::vector{Grid::Action::kIncY, Grid::Action::kIncY});
  CHECK(loop == std::vector{Grid::Action::kIncX, Grid::Action::kIncX,
                            Grid::Action::kReset});

  // Good once y reaches the top: weak fairness takes IncY. Holds.
  auto low = [&](std::size_t v) {
    return g->state(model, static_cast<std::uint32_t>(v)).y < 2;
  };
  CHECK_FALSE(FindFairLasso(*g, low, no_fault, cls));
  // With Reset a fault, no cycle is left at all.
  auto reset_fault = [&](std::size_t e) {
    return g->action(e) == Grid::Action::kReset;
  };
  CHECK_FALSE(FindFairLasso(*g, all_bad, reset_fault, cls));
  CHECK(HasNonFaultCycle(*g, no_fault));
  CHECK_FALSE(HasNonFaultCycle(*g, reset_fault));
}

TEST_CASE("fair cycles agree with a brute force on random small graphs") {
  std::mt19937_64 rng(0x0FA1C7C1E5ULL);
  int violated = 0, held = 0;
  for (int round = 0; round < 4000; ++round) {
    const std::size_t n = 1 + rng() % 8;
    std::string kinds;
    for (std::size_t v = 0; v < n; ++v) kinds += rng() % 4 == 0 ? 'G' : 'B';
    std::vector<Edge> edges;
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t degree = rng() % 4;
      for (std::size_t i = 0; i < degree; ++i) {
        edges.push_back({v, static_cast<std::size_t>(rng() % n), rng() % 3,
                         rng() % 5 == 0});
      }
    }
    const TinyGraph g(kinds, edges);
    CAPTURE(round);
    const std::optional<Lasso> lasso = Find(g);
    const std::optional<std::size_t> oracle = BruteForce(g);
    REQUIRE(lasso.has_value() == oracle.has_value());
    if (lasso) {
      ++violated;
      CHECK(Accepts(g, *lasso));
      CHECK(lasso->stem.size() == *oracle);  // a shortest stem
      CHECK(Find(g) == lasso);               // deterministic
    } else {
      ++held;
    }
    // The instantiations only graphs with 2^32 vertices or H edges reach
    // otherwise: 64-bit vertex ids, and 64-bit edge indices in H.
    {
      std::vector<bool> fault(g.num_edges());
      for (std::size_t e = 0; e < fault.size(); ++e) fault[e] = g.edge(e).fault;
      auto bad = [&](std::size_t v) { return g.bad(v); };
      auto cls = [&](std::size_t e) { return g.edge(e).cls; };
      CHECK(oc::explorer::detail::FindFairLassoWith<std::uint64_t>(
                g, bad, fault, fault, cls) == lasso);
      std::vector<std::uint32_t> local(n, ~std::uint32_t{0});
      std::uint32_t num_local = 0;
      std::size_t num_local_edges = 0;
      for (std::size_t v = 0; v < n; ++v) {
        if (g.bad(v)) local[v] = num_local++;
      }
      for (const Edge& e : edges) {
        if (!e.fault && g.bad(e.from) && g.bad(e.to)) ++num_local_edges;
      }
      using oc::explorer::detail::BadComponents;
      CHECK(BadComponents<std::uint32_t, std::uint64_t>(
                g, fault, local, num_local, num_local_edges) ==
            BadComponents<std::uint32_t, std::uint32_t>(
                g, fault, local, num_local, num_local_edges));
    }
    // Any cycle of non-fault edges: some vertex reaches itself.
    bool cycle = false;
    bool reach[8][8] = {};
    for (const Edge& e : edges) {
      if (!e.fault) reach[e.from][e.to] = true;
    }
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t u = 0; u < n; ++u) {
        for (std::size_t v = 0; v < n; ++v) {
          if (reach[u][k] && reach[k][v]) reach[u][v] = true;
        }
      }
    }
    for (std::size_t v = 0; v < n; ++v) cycle = cycle || reach[v][v];
    CHECK(HasCycle(g) == cycle);
  }
  // Both verdicts are well represented.
  CHECK(violated > 500);
  CHECK(held > 500);
}

}  // namespace
