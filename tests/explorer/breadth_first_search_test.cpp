// The generic explorer on toy models whose state spaces are known exactly.
// No outbox header here: the explorer must work on any Model.

#include "explorer/breadth_first_search.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/explorer/toy_models.h"

namespace {

using oc::explorer::Explore;
using oc::explorer::Options;
using oc::explorer::Property;
using oc::explorer::PropertyKind;
using oc::explorer::Stop;
using oc::explorer::testing::Grid;
using oc::explorer::testing::SwapGrid;
using oc::explorer::testing::WideTree;

// Follows the trace's actions through the model and checks it reaches the
// trace's states: a trace must be concrete and replayable.
template <class M = Grid>
bool Replays(const Grid& model, const oc::explorer::Trace<M>& trace) {
  if (trace.states.empty() || !(trace.states[0] == Grid::State{})) return false;
  for (std::size_t i = 0; i < trace.actions.size(); ++i) {
    std::vector<std::pair<Grid::Action, Grid::State>> next;
    model.Successors(trace.states[i], next);
    bool found = false;
    for (const auto& [a, s] : next) {
      if (a == trace.actions[i] && s == trace.states[i + 1]) found = true;
    }
    if (!found) return false;
  }
  return true;
}

Property<Grid::State> Safety(std::string name,
                             std::function<bool(const Grid::State&)> f) {
  Property<Grid::State> p;
  p.name = std::move(name);
  p.kind = PropertyKind::kSafety;
  p.holds = std::move(f);
  return p;
}

TEST_CASE(
    "an N by N grid has N*N states, 2N(N-1) transitions and one terminal "
    "state") {
  for (int n : {1, 2, 4, 7}) {
    Grid grid{n};
    const auto result = Explore<Grid>(grid, {});
    CHECK(result.complete());
    CHECK(result.stats.states == static_cast<std::uint64_t>(n * n));
    CHECK(result.stats.transitions ==
          static_cast<std::uint64_t>(2 * n * (n - 1)));
    CHECK(result.stats.terminal_states == 1);
    CHECK(result.stats.depth == 2 * (n - 1));
    CHECK(result.violations.empty());
  }
}

TEST_CASE("a safety violation comes with a shortest, replayable trace") {
  Grid grid{5};
  const std::vector<Property<Grid::State>> props = {Safety(
      "sum_below_3", [](const Grid::State& s) { return s.x + s.y < 3; })};
  const auto result = Explore<Grid>(grid, props);
  REQUIRE(result.violations.size() == 1);
  const auto& v = result.violations[0];
  CHECK(v.property == "sum_below_3");
  CHECK(v.trace.length() == 3);
  CHECK(v.trace.states.back().x + v.trace.states.back().y == 3);
  CHECK(Replays(grid, v.trace));
  // Successor order decides among shortest traces: x first.
  CHECK(v.trace.states.back() == Grid::State{3, 0});
  // It goes on to the end by default.
  CHECK(result.stats.states == 25);
}

TEST_CASE("a transition property sees steps into states already visited") {
  Grid grid{3, /*with_reset=*/true};
  Property<Grid::State> monotonic;
  monotonic.name = "x_never_decreases";
  monotonic.kind = PropertyKind::kTransition;
  monotonic.holds_on = [](const Grid::State& a, const Grid::State& b) {
    return b.x >= a.x;
  };
  const auto result = Explore<Grid>(grid, std::vector{monotonic});
  REQUIRE(result.violations.size() == 1);
  const auto& trace = result.violations[0].trace;
  // x must reach 2 (two steps) and reset: the reset leads back to a state
  // that was already reached, and the violation is still found.
  CHECK(trace.length() == 3);
  CHECK(trace.actions.back() == Grid::Action::kReset);
  CHECK(trace.states.back() == Grid::State{0, 0});
  CHECK(Replays(grid, trace));
}

TEST_CASE("at-rest properties are checked on terminal states only") {
  Grid grid{3};
  Property<Grid::State> at_rest;
  at_rest.name = "ends_at_origin";
  at_rest.kind = PropertyKind::kAtRest;
  at_rest.holds = [](const Grid::State& s) { return s.x == 0 && s.y == 0; };
  const auto result = Explore<Grid>(grid, std::vector{at_rest});
  REQUIRE(result.violations.size() == 1);
  CHECK(result.violations[0].trace.length() == 4);
  CHECK(result.violations[0].trace.states.back() == Grid::State{2, 2});
}

TEST_CASE("dead ends of the model's own bound are not terminal states") {
  Grid grid{3};
  grid.y_bound =
      1;  // y stops at 1: states with y == 1 and x == 2 are dead ends
  Property<Grid::State> at_rest;
  at_rest.name = "never_at_rest";
  at_rest.kind = PropertyKind::kAtRest;
  at_rest.holds = [](const Grid::State&) { return false; };
  const auto result = Explore<Grid>(grid, std::vector{at_rest});
  CHECK(result.stats.states == 6);
  CHECK(result.stats.terminal_states == 0);
  CHECK(result.stats.bounded_dead_ends == 1);
  CHECK(result.violations.empty());
  CHECK(result.complete());
}

TEST_CASE(
    "a depth limit leaves deeper states unexpanded and the search incomplete") {
  Grid grid{4};
  Options options;
  options.max_depth = 2;
  const auto result = Explore<Grid>(grid, {}, options);
  CHECK(result.stop == Stop::kMaxDepth);
  CHECK_FALSE(result.complete());
  // A limit at the true depth cuts nothing: the last level has no successor.
  options.max_depth = 6;
  const auto full = Explore<Grid>(grid, {}, options);
  CHECK(full.complete());
  CHECK(full.stats.states == 16);
}

TEST_CASE("a state limit stops the search") {
  Grid grid{10};
  Options options;
  options.max_states = 20;
  const auto result = Explore<Grid>(grid, {}, options);
  CHECK(result.stop == Stop::kMaxStates);
  CHECK(result.stats.states == 20);
}

TEST_CASE(
    "a memory limit holds on a wide model, counting the batch's buffers, "
    "at any thread count") {
  constexpr std::uint64_t kCap = 6 << 20;
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    Options options;
    options.max_bytes = kCap;
    options.threads = threads;
    const auto result = Explore<WideTree>(WideTree{}, {}, options);
    CHECK(result.stop == Stop::kMaxMemory);
    // Within the limit (the first store block aside, which any search
    // allocates), and not stopped long before it.
    CHECK(result.stats.peak_bytes <= kCap + kCap / 20);
    CHECK(result.stats.store_bytes <= kCap);
    CHECK(result.stats.stored_states > 100'000);
    // What a search stopped by memory counted is still consistent.
    CHECK(result.stats.states == result.stats.stored_states);
  }
}

TEST_CASE("batches cut short by a memory limit change no count or trace") {
  const WideTree tree{30, 30'000};
  const std::vector<Property<WideTree::State>> props = {
      {"below_20000",
       PropertyKind::kSafety,
       [](const WideTree::State& s) { return s < 20'000; },
       {}}};
  Options roomy;
  Options tight = roomy;
  // Enough for the store, not for a batch of 2^14 states' successors.
  tight.max_bytes = 3 << 20;
  const auto a = Explore<WideTree>(tree, props, roomy);
  const auto b = Explore<WideTree>(tree, props, tight);
  CHECK(a.complete());
  CHECK(b.complete());
  CHECK(a.stats.states == 30'000);
  CHECK(a.stats.states == b.stats.states);
  CHECK(a.stats.terminal_states == b.stats.terminal_states);
  CHECK(a.stats.transitions == b.stats.transitions);
  CHECK(a.stats.depth == b.stats.depth);
  REQUIRE(a.violations.size() == 1);
  REQUIRE(b.violations.size() == 1);
  CHECK(a.violations[0].trace.states == b.violations[0].trace.states);
  CHECK(b.stats.peak_bytes <= *tight.max_bytes);
  CHECK(a.stats.peak_bytes > *tight.max_bytes);
}

TEST_CASE(
    "stop at first reports only the shortest violation over all properties") {
  Grid grid{6};
  const std::vector<Property<Grid::State>> props = {
      Safety("y_below_4", [](const Grid::State& s) { return s.y < 4; }),
      Safety("x_below_2", [](const Grid::State& s) { return s.x < 2; })};
  Options options;
  options.stop_at_first_violation = true;
  const auto first = Explore<Grid>(grid, props, options);
  REQUIRE(first.violations.size() == 1);
  CHECK(first.violations[0].property == "x_below_2");
  CHECK(first.violations[0].trace.length() == 2);
  CHECK(first.stop == Stop::kFirstViolation);
  CHECK(first.stats.states < 36);

  const auto all = Explore<Grid>(grid, props);
  REQUIRE(all.violations.size() == 2);
  CHECK(all.violations[0].property == "x_below_2");  // shortest first
  CHECK(all.violations[1].property == "y_below_4");
  CHECK(all.violations[1].trace.length() == 4);
}

TEST_CASE("the same search twice gives the same counts and traces") {
  Grid grid{6, true};
  const std::vector<Property<Grid::State>> props = {Safety(
      "sum_below_7", [](const Grid::State& s) { return s.x + s.y < 7; })};
  const auto a = Explore<Grid>(grid, props);
  const auto b = Explore<Grid>(grid, props);
  CHECK(a.stats.states == b.stats.states);
  CHECK(a.stats.transitions == b.stats.transitions);
  REQUIRE(a.violations.size() == 1);
  REQUIRE(b.violations.size() == 1);
  CHECK(a.violations[0].trace.states == b.violations[0].trace.states);
  CHECK(a.violations[0].trace.actions == b.violations[0].trace.actions);
}

TEST_CASE("the thread count changes no count, verdict or trace") {
  Grid grid{40, true};
  const std::vector<Property<Grid::State>> props = {
      Safety("sum_below_60",
             [](const Grid::State& s) { return s.x + s.y < 60; }),
      Safety("not_39_39",
             [](const Grid::State& s) { return s.x != 39 || s.y != 39; })};
  Options one;
  one.threads = 1;
  const auto a = Explore<Grid>(grid, props, one);
  CHECK(a.threads == 1);
  for (int threads : {2, 3, 8}) {
    CAPTURE(threads);
    Options many;
    many.threads = threads;
    const auto b = Explore<Grid>(grid, props, many);
    CHECK(b.threads == threads);
    CHECK(a.stats.states == b.stats.states);
    CHECK(a.stats.transitions == b.stats.transitions);
    CHECK(a.stats.depth == b.stats.depth);
    REQUIRE(a.violations.size() == b.violations.size());
    for (std::size_t i = 0; i < a.violations.size(); ++i) {
      CHECK(a.violations[i].property == b.violations[i].property);
      CHECK(a.violations[i].trace.states == b.violations[i].trace.states);
      CHECK(a.violations[i].trace.actions == b.violations[i].trace.actions);
    }
  }
  CHECK(a.stats.states == 1600);
}

TEST_CASE("the search times its phases, within its own time") {
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    Grid grid{300};
    Options options;
    options.threads = threads;
    const auto result = Explore<Grid>(grid, {}, options);
    REQUIRE(result.complete());
    const auto& p = result.stats.phases;
    for (double phase :
         {p.generate, p.deduplicate, p.commit, p.store, p.renumber}) {
      CHECK(phase > 0);
    }
    CHECK(p.generate + p.deduplicate + p.commit + p.store + p.renumber <=
          result.stats.seconds);
  }
}

TEST_CASE("a symmetric model is searched one orbit at a time") {
  SwapGrid grid;
  grid.n = 30;
  const std::vector<Property<Grid::State>> props = {Safety(
      "sum_below_40", [](const Grid::State& s) { return s.x + s.y < 40; })};
  Options plain;
  plain.symmetry = false;
  const auto full = Explore<SwapGrid>(grid, props, plain);
  const auto reduced = Explore<SwapGrid>(grid, props);
  CHECK(full.stats.states == 900);
  CHECK(full.stats.stored_states == 900);
  CHECK(full.reduction == "none");
  CHECK(reduced.reduction == "x and y");
  // 30 states on the diagonal, and one of each pair off it.
  CHECK(reduced.stats.stored_states == 30 + (900 - 30) / 2);
  CHECK(reduced.stats.states == 900);
  CHECK(reduced.stats.transitions == full.stats.transitions);
  CHECK(reduced.stats.terminal_states == full.stats.terminal_states);
  REQUIRE(reduced.violations.size() == 1);
  REQUIRE(full.violations.size() == 1);
  const auto& trace = reduced.violations[0].trace;
  CHECK(trace.length() == full.violations[0].trace.length());
  CHECK(trace.length() == 40);
  // The trace is concrete: its actions replay through the model.
  CHECK(Replays(grid, trace));
  CHECK(trace.states.back().x + trace.states.back().y == 40);
}

}  // namespace
