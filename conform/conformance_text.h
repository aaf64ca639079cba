// How a conformance run reads: one line per scenario, a block for a
// divergence, and a closing line. Pure functions; the caller prints.

#ifndef OUTBOX_CHECK_CONFORM_CONFORMANCE_TEXT_H_
#define OUTBOX_CHECK_CONFORM_CONFORMANCE_TEXT_H_

#include <string>
#include <vector>

#include "conform/conformance_run.h"

namespace oc::conform {

// "send-crash-resend.inbox: 3 paths, 31 steps agree (1 counterexample,
// 2 explored)" or "...: DIVERGES on PATH, step N (...)", then indented
// lines: the action classes covered (and those left out by the --paths
// limit), and the concurrent duplicate's result when it ran (with its
// timeline when it disagrees with the model).
std::string FormatScenarioLine(const ScenarioConformance& c);

// The first divergence: path, step, the steps before it, the step's SQL as
// run on which connection, what went wrong, each differing cell with the
// model's and the database's value, and the tables holding them.
// REQUIRES: c.divergence.
std::string FormatDivergence(const ScenarioConformance& c);

// "conformance: 30 scenarios, 97 paths, 823 steps agree with PostgreSQL
// 15.18" or "conformance: 2 of 30 scenarios diverge from PostgreSQL 15.18".
std::string FormatClosingLine(const std::vector<ScenarioConformance>& all,
                              const std::string& server_version);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_CONFORMANCE_TEXT_H_
