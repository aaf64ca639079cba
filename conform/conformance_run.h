// Replaying a scenario's paths against a real PostgreSQL and comparing the
// durable rows with the model's state after every step.
//
// For each path (conform_paths.h) the run creates a fresh schema
// (conform_schema.h), opens the driver's connections (sql_driver.h), checks
// that the seeded rows equal the model's initial state, then runs each
// action's SQL and compares the durable cells (durable_cells.h). After each
// comparison it also probes the claim's guard in every state
// (SqlDriver::ProbeClaims), so that SQL which would claim a row the model
// keeps out (or the reverse) is found even though the path never tries.
// It stops a scenario at its first divergence, and drops every schema it
// created, also after a divergence.

#ifndef OUTBOX_CHECK_CONFORM_CONFORMANCE_RUN_H_
#define OUTBOX_CHECK_CONFORM_CONFORMANCE_RUN_H_

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/scenario_check.h"
#include "conform/concurrent_duplicate.h"
#include "conform/conform_paths.h"
#include "conform/durable_cells.h"
#include "conform/pg_connection.h"
#include "conform/sql_driver.h"
#include "conform/sql_statements.h"

namespace oc::conform {

struct ConformOptions {
  std::string conninfo;                         // libpq connection string
  std::string schema = "outbox_check_conform";  // created and dropped per path
  int further_paths = 8;                        // see SelectPaths
  // The SQL under test; tests swap a statement to see a divergence found.
  const SqlStatements* sql = &SeedSql();
  // Polled before each path: once it reads true, the run stops after
  // dropping its schema, and the result says it was interrupted (default:
  // none). Must outlive the run; may be set by a signal handler.
  const std::atomic<bool>* cancel = nullptr;
};

// The first step at which the database and the model disagree.
struct Divergence {
  std::string path_label;
  std::size_t step = 0;     // 1-based; 0: the seeded rows already differ
  std::string action_text;  // "claim(B, e1)"; empty for step 0
  std::vector<std::string> steps_before;  // the path's actions up to it
  std::vector<RunStatement> statements;   // the step's SQL, as run
  // A statement failed, or had an outcome the model's action rules out;
  // empty when every statement ran and only the rows differ.
  std::string error;
  std::vector<CellDifference> differences;
  // The tables holding a differing cell, as read after the step.
  std::vector<std::pair<std::string, PgRows>> tables;
};

struct ScenarioConformance {
  std::string name;
  std::string path;
  std::size_t paths_agreed = 0;
  std::size_t steps_agreed = 0;  // actions whose rows matched, over paths
  PathSelection selection;       // what was chosen (paths, coverage)
  std::optional<Divergence> divergence;
  // For a scenario with a credit.inbox or credit.check_then_act group of
  // two or more instances, and no divergence: the concurrent duplicate run
  // on two interleaved connections (concurrent_duplicate.h). Its credits
  // must equal the model's.
  std::optional<ConcurrentDuplicate> concurrent;

  // Stopped by ConformOptions::cancel before every path ran: the counts
  // cover the paths that did.
  bool interrupted = false;
  // No divergence, and the concurrent duplicate (if run) agrees.
  bool agrees() const {
    return !divergence && (!concurrent || concurrent->database_credits ==
                                              concurrent->model_credits);
  }
};

// Runs every selected path of `checked` against the database. The error
// case is trouble outside the comparison: the schema cannot be created, a
// connection cannot be opened (exit code 2 for the command).
Result<ScenarioConformance> ConformScenario(const ScenarioResult& checked,
                                            const ConformOptions& options,
                                            PgConnection& admin);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_CONFORMANCE_RUN_H_
