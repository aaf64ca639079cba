// The distributed search on 1 to 4 ranks, each a thread talking through an
// in-process transport (thread_transport.h): every rank's result must be
// Explore's, on one thread and on three, for the same model and options:
// the same counts, stop reason, coverage, and violations in the same order
// with the same traces.

#include "explorer/distributed_search.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "explorer/breadth_first_search.h"
#include "tests/explorer/thread_transport.h"
#include "tests/explorer/toy_models.h"

namespace {

using oc::explorer::Distribution;
using oc::explorer::Exploration;
using oc::explorer::Explore;
using oc::explorer::ExploreDistributed;
using oc::explorer::Options;
using oc::explorer::Property;
using oc::explorer::PropertyKind;
using oc::explorer::Stop;
using oc::explorer::Transport;
using oc::explorer::testing::Counters;
using oc::explorer::testing::FlipAndRaise;
using oc::explorer::testing::Grid;
using oc::explorer::testing::RankMismatch;
using oc::explorer::testing::RunRanks;
using oc::explorer::testing::SwapGrid;

// A grid (or the symmetric one) that sorts its transitions by action, so
// that coverage (action_counts) is compared too.
template <class Base>
struct Classified : Base {
  std::vector<std::string> ActionClassNames() const {
    return {"inc_x", "inc_y", "reset"};
  }
  std::size_t ActionClass(const Grid::State&, Grid::Action a,
                          const Grid::State&) const {
    return a == Grid::Action::kIncX ? 0 : a == Grid::Action::kIncY ? 1 : 2;
  }
};
using ClassifiedGrid = Classified<Grid>;
static_assert(oc::explorer::ClassifiesActions<ClassifiedGrid>);

ClassifiedGrid MakeGrid(int n, bool with_reset = false, int y_bound = -1) {
  ClassifiedGrid grid;
  grid.n = n;
  grid.with_reset = with_reset;
  grid.y_bound = y_bound;
  return grid;
}

// A directed graph given by its edges: state v's successors are
// edges[v] in order (action j: the j-th edge), and terminal when it has
// none. Several initial states, duplicates among them, are allowed.
struct Digraph {
  using State = std::uint16_t;
  using Action = std::uint8_t;
  std::vector<State> initial;
  std::vector<std::vector<State>> edges;

  std::vector<State> InitialStates() const { return initial; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    for (std::size_t j = 0; j < edges[s].size(); ++j) {
      out.push_back({static_cast<Action>(j), edges[s][j]});
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 2; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s);
    out[1] = static_cast<std::uint8_t>(s >> 8);
  }
  State Decode(const std::uint8_t* in) const {
    return static_cast<State>(in[0] | in[1] << 8);
  }
};

// A graph of `n` states with 0 to 3 edges each (a fixed pseudo-random
// choice for each seed: many paths of equal length, terminal states at
// many depths) and four initial states, the first listed twice.
Digraph RandomDigraph(int n, std::uint32_t seed) {
  auto next = [&seed](std::uint32_t below) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % below;
  };
  Digraph graph;
  graph.edges.resize(static_cast<std::size_t>(n));
  for (auto& out : graph.edges) {
    const std::uint32_t degree = next(8) == 0 ? 0 : 1 + next(3);
    for (std::uint32_t k = 0; k < degree; ++k) {
      out.push_back(static_cast<Digraph::State>(next(n)));
    }
  }
  const auto a = static_cast<Digraph::State>(next(n));
  const auto b = static_cast<Digraph::State>(next(n));
  const auto c = static_cast<Digraph::State>(next(n));
  graph.initial = {a, b, a, c};
  return graph;
}

// State 0 fans out to 1 .. width (action k - 1 to state k); state i of
// them goes on to width + 1 + (i - 1) / group, which is terminal. With
// group 0, states 1 .. width are terminal.
struct Fan {
  using State = std::uint32_t;
  using Action = std::uint32_t;
  std::uint32_t width = 10;
  std::uint32_t group = 0;

  std::vector<State> InitialStates() const { return {0}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    if (s == 0) {
      for (std::uint32_t k = 0; k < width; ++k) out.push_back({k, k + 1});
    } else if (s <= width && group > 0) {
      out.push_back({0, width + 1 + (s - 1) / group});
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 4; }
  void Encode(const State& s, std::uint8_t* out) const {
    std::memcpy(out, &s, 4);
  }
  State Decode(const std::uint8_t* in) const {
    State s;
    std::memcpy(&s, in, 4);
    return s;
  }
};

// Four clocks counting modulo `m`, any of which may tick: m^4 states, and
// cycles everywhere. Its partial-order "reduction" (not a sound one: it
// is here for the cycle condition) offers only the tick of clock number
// (sum of the counts) mod 4, so many reduced sets close a cycle, and the
// state is then expanded fully.
struct Clocks {
  struct State {
    std::array<std::uint8_t, 4> count{};
    bool operator==(const State&) const = default;
  };
  using Action = int;
  struct PartialOrderScratch {};
  int m = 5;

  State Tick(State s, int i) const {
    auto& c = s.count[static_cast<std::size_t>(i)];
    c = static_cast<std::uint8_t>((c + 1) % m);
    return s;
  }
  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    for (int i = 0; i < 4; ++i) out.push_back({i, Tick(s, i)});
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 4; }
  void Encode(const State& s, std::uint8_t* out) const {
    std::memcpy(out, s.count.data(), 4);
  }
  State Decode(const std::uint8_t* in) const {
    State s;
    std::memcpy(s.count.data(), in, 4);
    return s;
  }
  bool HasPartialOrder() const { return true; }
  std::string PartialOrderDescription() const { return "one clock"; }
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch&) const {
    const int i = (s.count[0] + s.count[1] + s.count[2] + s.count[3]) % 4;
    out.push_back({i, Tick(s, i)});
    return true;
  }
};
static_assert(oc::explorer::PartiallyOrdered<Clocks>);

template <class State>
Property<State> Safety(std::string name, std::function<bool(const State&)> f) {
  return {std::move(name), PropertyKind::kSafety, std::move(f), nullptr};
}
template <class State>
Property<State> AtRest(std::string name, std::function<bool(const State&)> f) {
  return {std::move(name), PropertyKind::kAtRest, std::move(f), nullptr};
}
template <class State>
Property<State> Transition(std::string name,
                           std::function<bool(const State&, const State&)> f) {
  return {std::move(name), PropertyKind::kTransition, nullptr, std::move(f)};
}

// Everything of two results that must not depend on how the search ran.
template <class M>
void CheckSame(const Exploration<M>& a, const Exploration<M>& b) {
  CHECK(a.stats.states == b.stats.states);
  CHECK(a.stats.transitions == b.stats.transitions);
  CHECK(a.stats.terminal_states == b.stats.terminal_states);
  CHECK(a.stats.bounded_dead_ends == b.stats.bounded_dead_ends);
  CHECK(a.stats.depth == b.stats.depth);
  CHECK(a.stats.stored_states == b.stats.stored_states);
  CHECK(a.stop == b.stop);
  CHECK(a.reduction == b.reduction);
  CHECK(a.partial_order == b.partial_order);
  CHECK(a.action_classes == b.action_classes);
  CHECK(a.action_counts == b.action_counts);
  REQUIRE(a.violations.size() == b.violations.size());
  for (std::size_t i = 0; i < a.violations.size(); ++i) {
    CAPTURE(i);
    CHECK(a.violations[i].property == b.violations[i].property);
    CHECK(a.violations[i].kind == b.violations[i].kind);
    CHECK(a.violations[i].trace.actions == b.violations[i].trace.actions);
    CHECK(a.violations[i].trace.states == b.violations[i].trace.states);
  }
}

// Runs ExploreDistributed on `ranks` ranks; every rank's result, by rank.
template <class M>
std::vector<Exploration<M>> ExploreOnRanks(
    int ranks, const M& model,
    const std::vector<Property<typename M::State>>& properties,
    const Options& options) {
  return RunRanks(ranks, [&](Transport& net) {
    return ExploreDistributed(model, std::span(properties), options, net);
  });
}

// Checks that Explore on three threads, and every rank of a distributed
// search on 1, 2, 3 and 4 ranks, give what Explore gives on one thread
// with the same options, and returns that (for the caller to check that
// the case is not trivial).
template <class M>
Exploration<M> CheckDistributed(
    const M& model, const std::vector<Property<typename M::State>>& properties,
    Options options = {}) {
  options.threads = 1;
  const Exploration<M> serial = Explore(model, std::span(properties), options);
  options.threads = 3;
  {
    INFO("Explore on 3 threads");
    CheckSame(Explore(model, std::span(properties), options), serial);
  }
  for (int ranks = 1; ranks <= 4; ++ranks) {
    CAPTURE(ranks);
    const auto results = ExploreOnRanks(ranks, model, properties, options);
    REQUIRE(results.size() == static_cast<std::size_t>(ranks));
    REQUIRE(results[0].distribution.has_value());
    const Distribution& first = *results[0].distribution;
    for (int rank = 0; rank < ranks; ++rank) {
      CAPTURE(rank);
      const Exploration<M>& result = results[static_cast<std::size_t>(rank)];
      CheckSame(result, serial);
      REQUIRE(result.distribution.has_value());
      const Distribution& d = *result.distribution;
      CHECK(d.ranks == ranks);
      REQUIRE(d.rank_stored.size() == static_cast<std::size_t>(ranks));
      CHECK(d.rank_peak_bytes.size() == static_cast<std::size_t>(ranks));
      CHECK(std::accumulate(d.rank_stored.begin(), d.rank_stored.end(),
                            std::uint64_t{0}) == serial.stats.stored_states);
      // Every rank reports the same distribution.
      CHECK(d.rank_stored == first.rank_stored);
      CHECK(d.candidates == first.candidates);
      CHECK(d.crossing == first.crossing);
      CHECK(d.bytes_sent == first.bytes_sent);
      CHECK(d.crossing <= d.candidates);
      if (ranks == 1) {
        CHECK(d.crossing == 0);
        CHECK(d.bytes_sent == 0);
      } else if (d.candidates >= 32) {
        // A few candidates may all stay on their ranks (the hash decides),
        // not 32 or more.
        CHECK(d.crossing > 0);
        CHECK(d.bytes_sent > 0);
      }
    }
  }
  return serial;
}

std::vector<std::size_t> Lengths(const auto& exploration) {
  std::vector<std::size_t> lengths;
  for (const auto& v : exploration.violations) {
    lengths.push_back(v.trace.length());
  }
  return lengths;
}

TEST_CASE("the thread transport carries every collective call") {
  struct Seen {
    std::array<std::uint64_t, 2> sum{};
    std::uint64_t max = 0, min = 0, below = 0, sent = 0;
    std::vector<std::vector<std::uint8_t>> gathered, from, later;
    std::vector<std::uint8_t> broadcast;
  };
  for (int n = 1; n <= 4; ++n) {
    CAPTURE(n);
    const auto seen = RunRanks(n, [n](Transport& net) {
      const auto r = static_cast<std::uint8_t>(net.rank());
      Seen s;
      s.sum = {r + 1u, 100};
      net.SumAll(s.sum);
      s.max = net.MaxAll(r + 1u);
      s.min = net.MinAll(r + 1u);
      s.below = net.SumBelow(r + 1u);
      s.gathered = net.GatherAll(std::vector<std::uint8_t>(r + 1u, r));
      s.broadcast = {r, r};
      net.Broadcast(s.broadcast, n - 1);
      // to[k]: r + k + 1 bytes of r; the transport keeps its own copy.
      std::vector<std::vector<std::uint8_t>> to(static_cast<std::size_t>(n));
      for (std::size_t k = 0; k < to.size(); ++k) to[k].assign(r + k + 1, r);
      net.Exchange(to, s.from);
      net.StartExchange(to);
      for (auto& bytes : to) bytes.assign(1, 99);
      net.SumAll(1);  // other calls while an exchange is in flight
      net.FinishExchange(s.later);
      s.sent = net.BytesSent();
      return s;
    });
    REQUIRE(seen.size() == static_cast<std::size_t>(n));
    const auto u = static_cast<std::uint64_t>(n);
    for (std::uint64_t r = 0; r < u; ++r) {
      CAPTURE(r);
      const Seen& s = seen[r];
      CHECK(s.sum == std::array<std::uint64_t, 2>{u * (u + 1) / 2, 100 * u});
      CHECK(s.max == u);
      CHECK(s.min == 1);
      CHECK(s.below == r * (r + 1) / 2);
      REQUIRE(s.gathered.size() == u);
      REQUIRE(s.from.size() == u);
      std::uint64_t sent = 0;
      for (std::uint64_t k = 0; k < u; ++k) {
        const auto byte = static_cast<std::uint8_t>(k);
        CHECK(s.gathered[k] == std::vector<std::uint8_t>(k + 1, byte));
        // from[k]: what rank k sent this one.
        CHECK(s.from[k] == std::vector<std::uint8_t>(k + r + 1, byte));
        CHECK(s.later[k] == s.from[k]);
        if (k != r) sent += 2 * (r + k + 1);
      }
      const auto root = static_cast<std::uint8_t>(n - 1);
      CHECK(s.broadcast == std::vector<std::uint8_t>{root, root});
      CHECK(s.sent == sent);
    }
  }
}

TEST_CASE("ranks that disagree make the thread transport throw, not hang") {
  CHECK_THROWS_AS(RunRanks(2,
                           [](Transport& net) {
                             return net.rank() == 0 ? net.SumAll(1)
                                                    : net.MaxAll(1);
                           }),
                  RankMismatch);
  CHECK_THROWS_AS(RunRanks(3,
                           [](Transport& net) -> std::uint64_t {
                             if (net.rank() == 1) return 0;
                             return net.SumAll(1);
                           }),
                  RankMismatch);
  // A rank's own error comes first, not the others' complaint.
  CHECK_THROWS_WITH_AS(RunRanks(3,
                                [](Transport& net) {
                                  if (net.rank() == 2) {
                                    throw std::runtime_error("rank 2 failed");
                                  }
                                  return net.SumAll(1);
                                }),
                       "rank 2 failed", std::runtime_error);
}

TEST_CASE("a complete search without violations, on any number of ranks") {
  const auto grid = CheckDistributed(MakeGrid(12, /*with_reset=*/true), {});
  CHECK(grid.complete());
  CHECK(grid.stats.states == 144);
  CHECK(grid.action_counts[2] > 0);  // resets were counted

  const auto one = CheckDistributed(MakeGrid(1), {});
  CHECK(one.stats.states == 1);
  CHECK(one.stats.terminal_states == 1);

  // Bounded dead ends: y stops at 2.
  const auto bounded = CheckDistributed(MakeGrid(5, false, 2), {});
  CHECK(bounded.stats.bounded_dead_ends == 1);
  CHECK(bounded.stats.terminal_states == 0);
}

TEST_CASE("levels wider than a rank's round of states, with many parents") {
  // 20000 states on level 1 (more than a round of 8192 on each of 1 or 2
  // ranks) whose successors reach 200 states with 100 parents each. The
  // traces go through parents late on level 1, which the parent lookup
  // finds in a later wave (on 1 or 2 ranks).
  const Fan fan{20'000, 100};
  using S = Fan::State;
  const std::vector<Property<S>> properties = {
      AtRest<S>("rests_below_20150", [](const S& s) { return s < 20'150; }),
      Safety<S>("not_last_group", [](const S& s) { return s != 20'200; }),
      Transition<S>("no_step_from_19999_on",
                    [](const S& a, const S&) { return a < 19'999; }),
      Safety<S>("not_group_50", [](const S& s) { return s != 20'051; }),
      Safety<S>("odd_on_level_1",
                [](const S& s) { return s == 0 || s > 20'000 || s % 2; }),
  };
  const auto result = CheckDistributed(fan, properties);
  CHECK(result.complete());
  CHECK(result.stats.states == 1 + 20'000 + 200);
  CHECK(Lengths(result) == std::vector<std::size_t>{1, 2, 2, 2, 2});
  CHECK(result.violations[1].property == "not_group_50");
  // Its parent is the first state of level 1 that reaches it, late on it.
  CHECK(result.violations[2].trace.states == std::vector<S>{0, 19'901, 20'200});

  Options options;
  options.max_depth = 1;
  const auto limited = CheckDistributed(fan, properties, options);
  CHECK(limited.stop == Stop::kMaxDepth);
  CHECK(limited.stats.states == 1 + 20'000);
}

TEST_CASE(
    "safety, transition and at-rest violations of equal length come in "
    "Explore's order, with Explore's traces") {
  using S = Grid::State;
  // Listed so that the order of the properties is not the order in which
  // the search meets their violations.
  const std::vector<Property<S>> properties = {
      Safety<S>("not_0_3",
                [](const S& s) {
                  return !(s == S{0, 3});
                }),
      AtRest<S>("not_at_rest_in_corner",
                [](const S& s) {
                  return !(s == S{3, 3});
                }),
      Safety<S>("sum_below_6", [](const S& s) { return s.x + s.y < 6; }),
      Transition<S>("no_step_into_1_2",
                    [](const S&, const S& b) {
                      return !(b == S{1, 2});
                    }),
      Transition<S>("into_corner_only_by_x",
                    [](const S& a, const S& b) {
                      return !(b == S{3, 3} && a.y == 2);
                    }),
      Safety<S>("not_2_1",
                [](const S& s) {
                  return !(s == S{2, 1});
                }),
      Safety<S>("not_3_0",
                [](const S& s) {
                  return !(s == S{3, 0});
                }),
  };
  const auto result = CheckDistributed(MakeGrid(4), properties);
  // The ties are real: four of length 3, three of length 6.
  CHECK(Lengths(result) == std::vector<std::size_t>{3, 3, 3, 3, 6, 6, 6});
  REQUIRE(result.violations.size() == 7);
  CHECK(result.violations[0].property == "not_3_0");
  CHECK(result.violations[6].property == "not_at_rest_in_corner");

  // Transitions into states already visited (the reset), many of them.
  const std::vector<Property<S>> monotonic = {
      Transition<S>("x_never_decreases",
                    [](const S& a, const S& b) { return b.x >= a.x; }),
      Transition<S>(
          "y_never_reaches_3_by_reset",
          [](const S& a, const S& b) { return !(b.y == 3 && b.x < a.x); }),
      Safety<S>("sum_below_5", [](const S& s) { return s.x + s.y < 5; }),
  };
  const auto reset = CheckDistributed(MakeGrid(5, true), monotonic);
  CHECK(Lengths(reset) == std::vector<std::size_t>{5, 5, 8});
}

TEST_CASE("random graphs with several initial states and many ties") {
  using S = Digraph::State;
  const std::vector<Property<S>> properties = {
      Safety<S>("not_5_mod_17", [](const S& s) { return s % 17 != 5; }),
      AtRest<S>("rests_on_odd", [](const S& s) { return s % 2 == 1; }),
      Transition<S>("no_step_down_by_one",
                    [](const S& a, const S& b) { return b + 1 != a; }),
      Safety<S>("not_11_mod_13", [](const S& s) { return s % 13 != 11; }),
  };
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    const Digraph graph = RandomDigraph(300, seed);
    const auto all = CheckDistributed(graph, properties);
    CHECK(all.stats.states > 20);
    CHECK_FALSE(all.violations.empty());
    Options first;
    first.stop_at_first_violation = true;
    CheckDistributed(graph, properties, first);
    Options shallow;
    shallow.max_depth = 2;
    CheckDistributed(graph, properties, shallow);
  }
}

TEST_CASE("stop at the first violation, as Explore stops") {
  using S = Grid::State;
  Options options;
  options.stop_at_first_violation = true;
  const std::vector<Property<S>> properties = {
      Safety<S>("y_below_4", [](const S& s) { return s.y < 4; }),
      Safety<S>("x_below_2", [](const S& s) { return s.x < 2; })};
  const auto first = CheckDistributed(MakeGrid(6), properties, options);
  CHECK(first.stop == Stop::kFirstViolation);
  REQUIRE(first.violations.size() == 1);
  CHECK(first.violations[0].property == "x_below_2");
  CHECK(first.stats.states < 36);

  // A shorter at-rest violation met in the same level as a longer safety
  // one wins: 0 -> 1 (at rest), 0 -> 2 -> 3 (unsafe).
  using D = Digraph::State;
  const Digraph graph{{0}, {{1, 2}, {}, {3}, {}}};
  const std::vector<Property<D>> mixed = {
      Safety<D>("not_3", [](const D& s) { return s != 3; }),
      AtRest<D>("rests_on_3", [](const D& s) { return s == 3; })};
  const auto at_rest = CheckDistributed(graph, mixed, options);
  REQUIRE(at_rest.violations.size() == 1);
  CHECK(at_rest.violations[0].property == "rests_on_3");
  CHECK(at_rest.stop == Stop::kFirstViolation);
}

TEST_CASE("a depth limit stops every rank where Explore stops") {
  using S = Grid::State;
  const std::vector<Property<S>> properties = {
      Safety<S>("sum_below_3", [](const S& s) { return s.x + s.y < 3; }),
      Safety<S>("sum_below_9", [](const S& s) { return s.x + s.y < 9; })};
  Options options;
  options.max_depth = 4;
  const auto limited = CheckDistributed(MakeGrid(6, true), properties, options);
  CHECK(limited.stop == Stop::kMaxDepth);
  CHECK(limited.violations.size() == 1);

  options.max_depth = 0;
  const auto none = CheckDistributed(MakeGrid(6, true), properties, options);
  CHECK(none.stop == Stop::kMaxDepth);
  CHECK(none.stats.states == 1);

  // A limit at the true depth cuts nothing; one below it does.
  options.max_depth = 6;
  CHECK(CheckDistributed(MakeGrid(4), {}, options).complete());
  options.max_depth = 5;
  CHECK(CheckDistributed(MakeGrid(4), {}, options).stop == Stop::kMaxDepth);
}

TEST_CASE("a symmetric model, with and without its symmetry") {
  using S = Grid::State;
  Classified<SwapGrid> grid;
  grid.n = 30;
  const std::vector<Property<S>> properties = {
      Safety<S>("sum_below_40", [](const S& s) { return s.x + s.y < 40; }),
      Transition<S>("never_onto_10_10",
                    [](const S&, const S& b) {
                      return !(b == S{10, 10});
                    }),
      AtRest<S>("never_at_rest", [](const S&) { return false; }),
      Safety<S>("not_3_4_nor_4_3", [](const S& s) {
        return !((s.x == 3 && s.y == 4) || (s.x == 4 && s.y == 3));
      })};
  const auto reduced = CheckDistributed(grid, properties);
  CHECK(reduced.reduction == "x and y");
  CHECK(reduced.stats.stored_states == 30 + (900 - 30) / 2);
  CHECK(reduced.stats.states == 900);
  CHECK(reduced.violations.size() == 4);

  Options plain;
  plain.symmetry = false;
  const auto full = CheckDistributed(grid, properties, plain);
  CHECK(full.reduction == "none");
  CHECK(full.stats.stored_states == 900);
}

TEST_CASE("partial-order reduction gives Explore's reduced search") {
  const FlipAndRaise flip;
  const std::vector<Property<FlipAndRaise::State>> never_raised = {
      Safety<FlipAndRaise::State>("never_raised",
                                  [](const auto& s) { return s.b == 0; })};
  Options options;
  options.partial_order = true;
  // The cycle condition: the flip's successor is stored, so the state is
  // expanded fully and the raise is found.
  const auto cycle = CheckDistributed(flip, never_raised, options);
  CHECK(cycle.partial_order == std::string("flip first"));
  REQUIRE(cycle.violations.size() == 1);

  Counters counters;
  counters.n = 8;
  const std::vector<Property<Counters::State>> at_rest = {
      AtRest<Counters::State>("never_at_rest",
                              [](const auto&) { return false; })};
  const auto reduced = CheckDistributed(counters, at_rest, options);
  CHECK(reduced.partial_order == std::string("first not done"));
  CHECK(reduced.stats.stored_states == 9);
  CHECK(Lengths(reduced) == std::vector<std::size_t>{8});
  const auto full = CheckDistributed(counters, at_rest);
  CHECK(full.stats.stored_states == 256);

  // Cycles everywhere: which reduced sets are expanded fully depends on
  // states stored by other ranks.
  using S = Clocks::State;
  const std::vector<Property<S>> properties = {
      Safety<S>("not_all_4",
                [](const S& s) {
                  return !(s.count == decltype(s.count){4, 4, 4, 4});
                }),
      Transition<S>("clock_0_never_wraps", [](const S& a, const S& b) {
        return !(a.count[0] == 4 && b.count[0] == 0);
      })};
  const auto clocks = CheckDistributed(Clocks{}, properties, options);
  CHECK(clocks.stats.stored_states < 625);
  CHECK(clocks.stats.stored_states > 100);
  CHECK(clocks.violations.size() == 2);
  CHECK(CheckDistributed(Clocks{}, properties).stats.stored_states == 625);
  Options first = options;
  first.stop_at_first_violation = true;
  CHECK(CheckDistributed(Clocks{}, properties, first).stop ==
        Stop::kFirstViolation);
  Options shallow = options;
  shallow.max_depth = 3;
  CHECK(CheckDistributed(Clocks{}, properties, shallow).stop ==
        Stop::kMaxDepth);
}

TEST_CASE("a state with more than 65535 successors keeps their order") {
  // State 0's successors are 1 .. 70000, all terminal; its successor
  // 65536 (to state 65537) must come after its successor 1 (to state 2).
  const Fan star{70'000};
  using S = Fan::State;
  const std::vector<Property<S>> properties = {
      Safety<S>("not_65537", [](const S& s) { return s != 65'537; }),
      Safety<S>("not_2", [](const S& s) { return s != 2; }),
      Safety<S>("not_65538", [](const S& s) { return s != 65'538; })};
  const auto result = CheckDistributed(star, properties);
  REQUIRE(result.violations.size() == 3);
  CHECK(result.violations[0].property == "not_2");
  CHECK(result.violations[1].property == "not_65537");
}

}  // namespace
