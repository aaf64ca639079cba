// The explorer's side of partial-order reduction, on toy models: it expands
// what the model's reduced successor function offers, and the cycle
// condition keeps a reduction that would put an action off forever from
// hiding a violation. No outbox header here.

#include <doctest/doctest.h>

#include <vector>

#include "explorer/breadth_first_search.h"

namespace {

using oc::explorer::Explore;
using oc::explorer::Options;
using oc::explorer::Property;
using oc::explorer::PropertyKind;

// Two processes. The first flips a bit forever (a cycle of two states);
// the second can raise `b` once, which the property forbids. The reduced
// successor function offers only the flip whenever both are enabled: a
// stubborn set (the flip touches nothing the raise does) that, without a
// cycle condition, would never let the raise happen.
struct FlipAndRaise {
  struct State {
    int a = 0;
    int b = 0;
    bool operator==(const State&) const = default;
  };
  enum class Action { kFlip, kRaise };
  struct PartialOrderScratch {
    int calls = 0;
  };

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    out.push_back({Action::kFlip, {1 - s.a, s.b}});
    if (s.b == 0) out.push_back({Action::kRaise, {s.a, 1}});
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 2; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s.a);
    out[1] = static_cast<std::uint8_t>(s.b);
  }
  State Decode(const std::uint8_t* in) const { return State{in[0], in[1]}; }

  bool HasPartialOrder() const { return true; }
  std::string PartialOrderDescription() const { return "flip first"; }
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch& scratch) const {
    ++scratch.calls;
    out.push_back({Action::kFlip, {1 - s.a, s.b}});
    return s.b == 0;  // fewer than Successors while the raise is enabled
  }
};
static_assert(oc::explorer::PartiallyOrdered<FlipAndRaise>);

std::vector<Property<FlipAndRaise::State>> NeverRaised() {
  return {{"never_raised", PropertyKind::kSafety,
           [](const FlipAndRaise::State& s) { return s.b == 0; }, nullptr}};
}

TEST_CASE("the cycle condition lets an action put off on a cycle happen") {
  const FlipAndRaise model;
  const auto properties = NeverRaised();
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    Options options;
    options.partial_order = true;
    options.threads = threads;
    const auto reduced = Explore(model, std::span(properties), options);
    REQUIRE(reduced.partial_order == std::string("flip first"));
    // The flip closes a cycle back to the initial state; there the state
    // is expanded fully, and the raise is found.
    REQUIRE(reduced.violations.size() == 1);
    CHECK(reduced.violations[0].property == "never_raised");
    CHECK(reduced.complete());
  }
}

TEST_CASE(
    "without partial-order reduction the model's full successors "
    "are used") {
  const FlipAndRaise model;
  const auto properties = NeverRaised();
  Options options;
  const auto full = Explore(model, std::span(properties), options);
  CHECK_FALSE(full.partial_order.has_value());
  CHECK(full.stats.states == 4);
  REQUIRE(full.violations.size() == 1);
  CHECK(full.violations[0].trace.length() == 1);
}

// Independent counters: n processes that each step from 0 to 1. Every
// order reaches the one terminal state; a reduction that steps the first
// process not yet done stores a line of n + 1 states, not 2^n.
struct Counters {
  struct State {
    std::uint8_t done = 0;  // bit i: process i stepped
    bool operator==(const State&) const = default;
  };
  using Action = int;
  struct PartialOrderScratch {};
  int n = 6;

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    for (int i = 0; i < n; ++i) {
      if (!((s.done >> i) & 1)) {
        out.push_back({i, State{static_cast<std::uint8_t>(s.done | 1 << i)}});
      }
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 1; }
  void Encode(const State& s, std::uint8_t* out) const { out[0] = s.done; }
  State Decode(const std::uint8_t* in) const { return State{in[0]}; }
  bool HasPartialOrder() const { return true; }
  std::string PartialOrderDescription() const { return "first not done"; }
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch&) const {
    Successors(s, out);
    if (out.size() <= 1) return false;
    out.resize(1);
    return true;
  }
};

TEST_CASE(
    "a reduced search stores fewer states and keeps every terminal "
    "state") {
  const Counters model;
  const std::vector<Property<Counters::State>> none;
  Options options;
  options.threads = 2;
  const auto full = Explore(model, std::span(none), options);
  options.partial_order = true;
  const auto reduced = Explore(model, std::span(none), options);
  CHECK(full.stats.stored_states == 64);
  CHECK(reduced.stats.stored_states == 7);
  CHECK(reduced.stats.terminal_states == full.stats.terminal_states);
  CHECK(reduced.stats.terminal_states == 1);
}

}  // namespace
