// Small fixed results for the Markdown, JSON and JUnit writer tests, built
// the way the command line builds them: scenario text, ParseScenario,
// CheckScenario.

#ifndef OUTBOX_CHECK_TESTS_REPORTS_WRITER_FIXTURES_H_
#define OUTBOX_CHECK_TESTS_REPORTS_WRITER_FIXTURES_H_

#include <doctest/doctest.h>

#include <string>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"

namespace oc::reports::testing {

// Whether `part` occurs in `text`.
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// How often `part` occurs in `text`, overlapping occurrences included.
inline int Count(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1)) {
    ++n;
  }
  return n;
}

// The lease-expiry-after-send configuration: relays A and B, one event, a
// billing group with one instance of `strategy`, one premature expiry.
inline std::string LeaseExpiryText(const std::string& strategy,
                                   const std::string& expect) {
  return R"x(name = "lease-expiry-after-send"
description = "Relay A's lease expires after it sent."
relays = ["A", "B"]
[[events]]
name = "e1"
type = "credit"
account = "acct-1"
amount = 1000
[[groups]]
name = "billing"
strategy = ")x" +
         strategy +
         R"x("
instances = 1
[faults]
premature_expiries = 1
[check]
invariants = ["effect_at_most_once", "stale_completion_rejected"]
)x" + expect;
}

// Parses and checks `text` as the file `path`; fails the test on an error.
inline ScenarioResult CheckText(const std::string& text,
                                const std::string& path = "lease.toml") {
  const Result<Scenario> scenario = ParseScenario(text, path);
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const Result<ScenarioResult> result = CheckScenario(scenario.value());
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return result.value();
}

// Naive credit: effect_at_most_once is violated in 8 steps, as expected;
// the point of no return is step 4, claim(B, e1).
inline ScenarioResult Violated() {
  return CheckText(LeaseExpiryText("credit.naive", R"x([expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 8
)x"));
}

// The same configuration with an inbox: every invariant holds, as expected.
inline ScenarioResult Holding() {
  return CheckText(LeaseExpiryText("credit.inbox", R"x([expect]
verdict = "holds"
)x"));
}

// Naive credit, but the scenario expects "holds": UNEXPECTED.
inline ScenarioResult Unexpected() {
  return CheckText(LeaseExpiryText("credit.naive", R"x([expect]
verdict = "holds"
)x"));
}

// The lease-expiry-after-send configuration without an [expect] table:
// with credit.naive effect_at_most_once is violated in 8 steps and
// stale_completion_rejected holds; with credit.inbox both hold.
inline ScenarioResult WithoutExpectation(const std::string& strategy) {
  return CheckText(LeaseExpiryText(strategy, ""),
                   "lease." + strategy + ".toml");
}

// The holding lease-expiry configuration (credit.inbox) sampled by 20
// random walks of seed 1, `check` added to its [check] table (such as a
// check.walk_weights line).
inline ScenarioResult Simulated(const std::string& check, bool swarm = false) {
  const Result<Scenario> scenario = ParseScenario(
      LeaseExpiryText("credit.inbox", check + "\n"), "simulated.toml");
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  CheckOptions options;
  SimulationOptions& simulate = options.simulate.emplace();
  simulate.walks = 20;
  simulate.swarm = swarm;
  options.threads = 1;
  const Result<ScenarioResult> result =
      CheckScenario(scenario.value(), options);
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return result.value();
}

// A pinned order whose first publish acknowledgement is lost (its message
// text has a ';'), replayed with an inbox: holds.
inline ScenarioResult Pinned() {
  return CheckText(R"x(name = "publish-ack-lost.order"
relays = ["A", "B"]
events = 1
[[groups]]
name = "billing"
strategy = "credit.inbox"
[faults]
lost_publish_acks = 1
[check]
invariants = ["eventually_offered", "effect_at_most_once"]
order = [
  "claim(A, e1)", "send_ack_lost(A)", "send(A)", "complete(A)",
  "consume(billing, 1, e1)", "acknowledge(billing, 1)",
  "consume(billing, 1, e1)", "acknowledge(billing, 1)",
]
[expect]
verdict = "holds"
)x",
                   "pinned.toml");
}

// The lease-expiry-after-send trace as a pinned order, with naive credit:
// effect_at_most_once breaks at step 8 of 9.
inline ScenarioResult PinnedViolated() {
  return CheckText(LeaseExpiryText("credit.naive", R"x(order = [
  "claim(A, e1)", "send(A)", "expire(e1)", "claim(B, e1)", "send(B)",
  "consume(billing, 1, e1)", "acknowledge(billing, 1)",
  "consume(billing, 1, e1)", "acknowledge(billing, 1)",
]
[expect]
verdict = "violated"
violated = "effect_at_most_once"
)x"),
                   "pinned-violated.toml");
}

// A consumer down for five minutes, in one-minute ticks, replayed: the
// five ticks are one row of the trace.
inline ScenarioResult PinnedTicks() {
  return CheckText(R"x(name = "outage.order"
relays = 1
events = 1
[[groups]]
name = "g1"
strategy = "credit.inbox"
[time]
poll = "1m"
consumer_outage = "5m"
[faults]
consumer_outages = 1
[check]
invariants = ["effect_at_most_once"]
order = [
  "claim(r1, e1)", "send(r1)", "complete(r1)", "consumer_outage(g1)",
  "tick", "tick", "tick", "tick", "tick", "consume(g1, 1, e1)",
]
[expect]
verdict = "holds"
)x",
                   "outage.toml");
}

// Without a lease, relays A and B take turns claiming and sending e1 for
// ever while fencing rejects every completion: eventually_offered is
// violated by a lasso, a stem of 4 steps and a loop of 6.
inline std::string NoLeaseText(const std::string& pinned) {
  return R"x(name = "no-lease.unbounded"
relays = ["A", "B"]
events = 1
[switches]
lease = false
fencing = true
[faults]
relay_crashes = "any"
[check]
invariants = ["stale_completion_rejected", "eventually_offered"]
)x" + pinned;
}

// The exhaustive search that finds the lasso, without an expectation.
inline ScenarioResult Lasso() {
  return CheckText(NoLeaseText(""), "no-lease.toml");
}

// The same lasso pinned: its stem as check.order, its loop as check.loop.
inline ScenarioResult PinnedLasso() {
  return CheckText(NoLeaseText(R"x(order = ["claim(A, e1)", "send(A)",
         "claim(B, e1)", "send(B)"]
loop = ["complete(A)", "claim(A, e1)", "complete(B)", "send(A)",
        "claim(B, e1)", "send(B)"]
[expect]
verdict = "violated"
violated = "eventually_offered"
trace_length = 4
)x"),
                   "no-lease.pinned.toml");
}

}  // namespace oc::reports::testing

#endif  // OUTBOX_CHECK_TESTS_REPORTS_WRITER_FIXTURES_H_
