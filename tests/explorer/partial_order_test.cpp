// The explorer's side of partial-order reduction, on toy models: it expands
// what the model's reduced successor function offers, and the cycle
// condition keeps a reduction that would put an action off forever from
// hiding a violation. No outbox header here.

#include <doctest/doctest.h>

#include <vector>

#include "explorer/breadth_first_search.h"
#include "tests/explorer/toy_models.h"

namespace {

using oc::explorer::Explore;
using oc::explorer::Options;
using oc::explorer::Property;
using oc::explorer::PropertyKind;
using oc::explorer::testing::Counters;
using oc::explorer::testing::FlipAndRaise;

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
