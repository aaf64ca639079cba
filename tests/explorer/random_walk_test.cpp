// Random walks and trace shortening on a toy model whose paths are known.
// No outbox header here: the explorer must work on any Model.

#include "explorer/random_walk.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "explorer/shorten_trace.h"

namespace {

using oc::explorer::Property;
using oc::explorer::PropertyKind;
using oc::explorer::RandomWalks;
using oc::explorer::ShortenTrace;
using oc::explorer::Stop;
using oc::explorer::WalkOptions;
using oc::explorer::WalkRandom;
using oc::explorer::WalkSeed;

// Two counters below n; each action increments one, and "reset" sends x
// back to 0 while y is below its top (so walks can loop); the corner is
// the one terminal state. Two action classes.
struct Counters {
  struct State {
    int x = 0;
    int y = 0;
    bool operator==(const State&) const = default;
  };
  enum class Action { kNone, kIncX, kIncY, kReset };

  int n = 5;

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    if (s.x + 1 < n) out.push_back({Action::kIncX, {s.x + 1, s.y}});
    if (s.y + 1 < n) out.push_back({Action::kIncY, {s.x, s.y + 1}});
    if (s.x > 0 && s.y + 1 < n) out.push_back({Action::kReset, {0, s.y}});
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 2; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s.x);
    out[1] = static_cast<std::uint8_t>(s.y);
  }
  State Decode(const std::uint8_t* in) const { return State{in[0], in[1]}; }
  std::vector<std::string> ActionClassNames() const {
    return {"increment", "reset"};
  }
  std::size_t ActionClass(const State&, Action a, const State&) const {
    return a == Action::kReset ? 1 : 0;
  }
};

Property<Counters::State> NotCorner(int n) {
  Property<Counters::State> p;
  p.name = "not_corner";
  p.kind = PropertyKind::kSafety;
  p.holds = [n](const Counters::State& s) {
    return !(s.x == n - 1 && s.y == n - 1);
  };
  return p;
}

// Follows the trace's actions through the model: a trace must be real.
bool Replays(const Counters& model,
             const oc::explorer::Trace<Counters>& trace) {
  for (std::size_t i = 0; i < trace.actions.size(); ++i) {
    std::vector<std::pair<Counters::Action, Counters::State>> next;
    model.Successors(trace.states[i], next);
    bool found = false;
    for (const auto& [a, s] : next) {
      found = found || (a == trace.actions[i] && s == trace.states[i + 1]);
    }
    if (!found) return false;
  }
  return true;
}

TEST_CASE("the walks' random numbers are pinned: the same on every platform") {
  // mt19937_64's output is fixed by the standard and the range reduction
  // is ours; a change here changes every seed's walks.
  WalkRandom random(WalkSeed(1, 0));
  std::vector<std::uint64_t> drawn;
  for (int i = 0; i < 6; ++i) drawn.push_back(random.Below(10));
  CHECK(drawn == std::vector<std::uint64_t>{3, 0, 4, 2, 4, 5});
  CHECK(WalkSeed(1, 0) != WalkSeed(1, 1));
  CHECK(WalkSeed(1, 0) != WalkSeed(2, 0));
}

TEST_CASE("a range is drawn without bias and never out of range") {
  WalkRandom random(7);
  std::vector<int> counts(3, 0);
  for (int i = 0; i < 30000; ++i) ++counts[random.Below(3)];
  for (int c : counts) CHECK(c > 9500);
  for (int i = 0; i < 1000; ++i) CHECK(random.Below(1) == 0);
}

TEST_CASE(
    "the same seed gives the same walks and result on any number of "
    "threads") {
  const Counters model;
  const std::vector<Property<Counters::State>> properties{NotCorner(5)};
  WalkOptions options;
  options.seed = 42;
  options.max_depth = 12;
  options.walks = 300;
  options.threads = 1;
  const auto one = RandomWalks(model, properties, options);
  REQUIRE(one.found);
  for (int threads : {2, 3, 8}) {
    options.threads = threads;
    const auto many = RandomWalks(model, properties, options);
    REQUIRE(many.found);
    CHECK(many.found->walk == one.found->walk);
    CHECK(many.found->violation.trace.actions ==
          one.found->violation.trace.actions);
    CHECK(many.walks == one.walks);
    CHECK(many.steps == one.steps);
    CHECK(many.distinct_states == one.distinct_states);
    CHECK(many.action_counts == one.action_counts);
  }
  // The run ends at the violating walk, which it counts.
  CHECK(one.walks == one.found->walk + 1);
  CHECK(one.stop == Stop::kSampled);
  options.seed = 43;
  const auto other = RandomWalks(model, properties, options);
  CHECK((!other.found ||
         other.found->violation.trace.actions !=
             one.found->violation.trace.actions ||
         other.steps != one.steps));
}

TEST_CASE("walks that find nothing count their distinct states, up to a cap") {
  const Counters model;
  WalkOptions options;
  options.max_depth = 30;
  options.walks = 50;
  options.threads = 2;
  const auto run = RandomWalks(model, {}, options);
  CHECK(!run.found);
  CHECK(run.walks == 50);
  CHECK(run.distinct_states == 25);  // every state of the 5 by 5 grid
  CHECK(!run.distinct_capped);
  CHECK(run.ended_at_rest + run.ended_at_depth == 50);
  CHECK(run.action_counts[0] + run.action_counts[1] == run.steps);
  options.distinct_limit = 3;
  const auto capped = RandomWalks(model, {}, options);
  CHECK(capped.distinct_states == 3);
  CHECK(capped.distinct_capped);
}

TEST_CASE(
    "class weights steer the walk, and a weight of 0 is taken only alone") {
  const Counters model;
  WalkOptions options;
  options.max_depth = 40;
  options.walks = 20;
  const oc::explorer::WalkStarter<Counters> no_reset = [](std::uint64_t,
                                                          WalkRandom&) {
    return oc::explorer::WalkStart<Counters>{Counters::State{}, {1, 0}};
  };
  const auto run = RandomWalks(model, {}, options, no_reset);
  CHECK(run.action_counts[1] == 0);
  // Without resets a walk reaches the corner, the terminal state, in 8.
  CHECK(run.ended_at_rest == 20);
  CHECK(run.steps == 20 * 8);
}

TEST_CASE("a walk's trace is shortened to a real path that still breaks") {
  const Counters model;
  const Property<Counters::State> corner = NotCorner(5);
  WalkOptions options;
  options.max_depth = 200;
  options.walks = 100;
  options.seed = 3;
  const auto run = RandomWalks(model, {corner}, options);
  REQUIRE(run.found);
  const auto& walked = run.found->violation.trace;
  CHECK(Replays(model, walked));
  const auto shortened = ShortenTrace(model, corner, walked);
  CHECK(Replays(model, shortened));
  CHECK(!corner.holds(shortened.states.back()));
  CHECK(shortened.length() <= walked.length());
  // Only increments are left: the shortest path to the corner.
  CHECK(shortened.length() == 8);
}

}  // namespace
