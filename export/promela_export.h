// The configuration of an exhaustive scenario as a Promela model, so that
// SPIN can explore the same state space and its "states, stored" can be
// compared with our distinct-state count (bench/spin_compare.sh,
// tests/reports/spin_counts_test.sh).
//
// The model mirrors oc::State exactly and nothing else:
//  - global variables, one flat array per State vector field (per event:
//    published, owner, token, lease, completed_token, offered; per relay:
//    relay_phase, relay_event, relay_token; per instance, flattened over
//    groups as in State::instances: instance_phase, instance_event,
//    instance_memo; per group x event, index g * E + e: ready, effects,
//    inbox, ledger, sent; per group x key, index g * keys + k: version,
//    fresh) and the six budgets, in the smallest Promela type that holds
//    their range (bit, byte, short or int), initialised as
//    OutboxModel::InitialStates does. An empty field (no groups, no keys)
//    has no array.
//  - one process, `active proctype main()`, whose body is one `do` loop
//    with one `:: d_step { guard -> effect }` option per concrete action,
//    in the order of OutboxModel::Successors, with the guards and effects
//    of model/outbox_model.cpp (the strategy's steps unrolled per group).
//    Each option is one indivisible transition back to the loop head, so
//    the process's control state is the same in every stored state and
//    SPIN's state count equals ours. The loop head carries an `end` label:
//    a state with no enabled action is a valid end state, not a deadlock.
//  - the scenario's safety invariants (effect_at_most_once,
//    stale_completion_rejected, notify_at_most_once) as one `assert` at the
//    end of every option, and projection_monotonic as an `assert` before a
//    last-writer-wins projection write. They do not change the state count;
//    run pan with -A (ignore assertions) or -c0 (do not stop at the first
//    error) to count a violating scenario's whole space. At-rest invariants
//    are left out. The initial state is not asserted (it satisfies them).
//
// SPIN must run as `spin -o2 -a`: by default it hides write-only variables
// (offered; owner when fencing is off; ...) from the state vector, merging
// states we keep apart. Then pan, compiled with -DNOREDUCE -DNOCLAIM
// -DSAFETY and run with -m deeper than the search, stores exactly our
// distinct states (tests/reports/spin_counts_test.sh).
//
// The scenario's search limits (max_depth, max_states) are not exported.
// Pure and deterministic: the same scenario gives the same text.

#ifndef OUTBOX_CHECK_EXPORT_PROMELA_EXPORT_H_
#define OUTBOX_CHECK_EXPORT_PROMELA_EXPORT_H_

#include <string>

#include "check/scenario.h"

namespace oc::exports {

// REQUIRES: scenario.order is empty (an exhaustive scenario) and
// Validate(scenario.config).ok().
std::string PromelaModel(const Scenario& scenario);

}  // namespace oc::exports

#endif  // OUTBOX_CHECK_EXPORT_PROMELA_EXPORT_H_
