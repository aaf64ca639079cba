// The expectation that says what a check found: what `check --bless`
// writes into a scenario file's [expect] table, so that checking the file
// again is as expected.

#ifndef OUTBOX_CHECK_CHECK_OBSERVED_EXPECTATION_H_
#define OUTBOX_CHECK_CHECK_OBSERVED_EXPECTATION_H_

#include "check/scenario.h"
#include "check/scenario_check.h"
#include "common/status.h"

namespace oc {

// What `result` found, as an expectation: `holds`, or `violated` with the
// violated invariants (in the order the scenario checks them) and the
// length of the shortest violation; and the number of distinct states when
// the search explored the whole state space (not for a pinned order, nor
// for a search that stopped at its first violation, whose count is
// partial). The count is that of the unreduced space, which a symmetry
// reduction does not change, as expect.states is.
//
// The error case, a sentence without the file's name: the search was
// stopped by a limit or a signal (nothing was proved, so there is nothing
// to expect), or the scenario fails whatever its [expect] says (an action
// of check.must_fire never fired).
//
// REQUIRES: `result` was checked without an expectation
// (!result.scenario.expect), so that its outcome depends on nothing an
// [expect] table says.
Result<Expectation> ObservedExpectation(const ScenarioResult& result);

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_OBSERVED_EXPECTATION_H_
