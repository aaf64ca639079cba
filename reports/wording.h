// The words every report uses for a result, so that the terminal, Markdown,
// HTML, JSON and JUnit outputs say the same thing the same way.

#ifndef OUTBOX_CHECK_REPORTS_WORDING_H_
#define OUTBOX_CHECK_REPORTS_WORDING_H_

#include <optional>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

// How long a pinned order is: "11 steps", or, with check.loop, "4 steps,
// then two turns of its loop of 6 steps". REQUIRES: result.replay.
std::string PinnedLengthText(const ScenarioResult& result);

// "violated: effect_at_most_once (8 steps)", "holds", "no violation found
// (search incomplete)"; when the shortest violation is a lasso,
// "violated: eventually_offered (a fair cycle: stem 3 steps, loop 2
// steps)".
std::string VerdictText(const ScenarioResult& result);
// A lasso's shape, for its verdict: "a fair cycle: stem 3 steps, loop 2
// steps". REQUIRES: v.lasso().
std::string LassoText(const Violation& v);
// "violated: effect_at_most_once (8 steps)", "holds"; "none" for a
// scenario without an expectation.
std::string ExpectedText(const Scenario& scenario);
// "ok", "UNEXPECTED", "INCONCLUSIVE", "no expectation" (both outcomes of a
// scenario without an expectation).
std::string OutcomeText(Outcome outcome);
// What a check found, per invariant, in a sentence for a scenario without
// an expectation: "2 invariants hold", "effect_at_most_once violated in 8
// steps; 1 other invariant holds", "eventually_offered violated by a fair
// cycle (stem 3 steps, loop 2 steps)", "no violation found before the
// search stopped at a limit; nothing is proved".
std::string FoundText(const ScenarioResult& result);
// The outcome as the verdict blocks print it: OutcomeText, and for the
// outcomes of a scenario without an expectation ": " and FoundText ("no
// expectation: 2 invariants hold").
std::string OutcomeSentence(const ScenarioResult& result);
// The last line of a run, which says what its exit code means: "all
// scenarios as expected", "some scenario differs from its expectation",
// "some search stopped at a limit; not proved" when every scenario has an
// expectation; otherwise it also says what was found without one ("no
// expectation: effect_at_most_once violated in 8 steps; 1 other invariant
// holds" for a single scenario).
std::string RunOutcomeText(const std::vector<ScenarioResult>& results);
// The bounds a verdict holds for: "exhaustive for at most 1 premature
// expiry, 0 relay crashes, 0 lost publish acknowledgements, 0 lost consumer
// acknowledgements, 0 consumer crashes and 0 broker redeliveries" (with
// ", and at most 3 claims per event" when there is a claim bound), or "along
// one pinned order of 9 steps" ("..., then two turns of a loop of 2
// steps" with check.loop). A search a limit cut begins "incomplete,
// within at most ...", one stopped at its first violation "up to the first
// violation, within at most ...".
std::string BoundsText(const ScenarioResult& result);
// How a violation's trace was found, after "violated; ": "shortest trace"
// for a search; for a simulation "trace of walk 12, shortened; a shortest
// one (a breadth-first search proved it)" or "trace of walk 12, shortened;
// not necessarily a shortest one (WHY)".
std::string TraceKindText(const ScenarioResult& result);
// For a simulation, what it did: "1000 random walks of at most 200 steps
// from seed 1, 5432 distinct states seen, 80123 steps, 950 ended at rest"
// ("swarm: " first for a swarm, "at least" before a capped count);
// nullopt for a search or a pinned order.
std::optional<std::string> SimulationText(const ScenarioResult& result);
// For a swarm simulation that found a violation, what its walk drew:
// "faults.premature_expiries = 1, faults.lost_publish_acks = 0; weights
// claim 3, send 0, ..."; nullopt otherwise.
std::optional<std::string> SwarmDrawText(const ScenarioResult& result);
// For a simulation whose walks used the scenario's check.walk_weights, the
// classes whose weight is not 1: "check.walk_weights crash_relay 4, consume
// 0, every other class 1" (a swarm's adds "; each walk multiplies them by
// the weights it drew"); nullopt otherwise.
std::optional<std::string> WalkWeightsText(const ScenarioResult& result);
// "the search stopped at the depth limit", ... or "complete".
std::string StopText(explorer::Stop stop);
// The reduction the search used and what it stored: "none (every state
// stored)", or "symmetry of relays r1 r2 (2!); instances of billing (2!):
// 1768 states stored, one per orbit of the 7055".
std::string ReductionText(const Exploration& e);
// Partial-order reduction, for a search that used it or whose reduced
// search found a violation (then the unreduced search followed): "stubborn
// sets over 53 transitions, ...: 15394 states stored; distinct states not
// counted", or "found a violation; counts and shortest traces are from the
// unreduced search"; nullopt when it played no part.
std::optional<std::string> PartialOrderText(const ScenarioResult& result);
// The distinct states of a search, or, under partial-order reduction (not
// counted), the states it stored: "7055" or "15394 stored".
std::string StatesCount(const Exploration& e);
// How much of the state space a search covered: "exhaustive breadth-first,
// complete", "incomplete breadth-first, stopped at the state limit" (any
// limit or a signal), or "breadth-first, stopped at the first violation".
// A search a limit cut is never called exhaustive.
std::string SearchText(const Exploration& e);
// The first word of it, for a table cell: "exhaustive", "incomplete", or
// "up to the first violation".
std::string SearchExtentText(const Exploration& e);
// Who wrote a report: "outbox-check 0.1.0", then ", by the command:
// outbox-check check scenarios --report-dir out" when the options carry
// the command line. Plain text; each writer escapes it.
std::string WrittenBy(const ReportOptions& options);
// "safety", "transition", "at rest".
std::string KindText(explorer::PropertyKind kind);
// The point of no return of violation `i` in words: "step 4, claim(B, e1):
// after it, every continuation violates effect_at_most_once; the state
// after step 3 was the last safe state, where complete(A) stayed clear", or
// why it is unknown.
std::string PointOfNoReturnText(const ScenarioResult& result, std::size_t i);

// The file stem of a scenario's reports: SafeFileStem of its name (see
// reports/file_names.h), before UniqueStems makes it unique in a run.
std::string ReportStem(const Scenario& scenario);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_WORDING_H_
