// The durable part of a model state and of a database, as the same list of
// named cells, so that a conformance run can compare them step by step.
//
// Compared (names as in model/state_cells.h where the model has the cell):
//   outbox[e1].published .owner .token .lease .completed_token
//   broker.offered[e1]  broker.ready[GROUP][e1]
//   GROUP.credit_cents[ACCOUNT]   the model's effects times the amounts of
//                                 the events crediting that account
//   GROUP.inbox[e1]  GROUP.ledger[e1]  GROUP.sent[e1]
//   GROUP.version[KEY]  GROUP.cache[KEY]
// Not compared, because no table holds them: relay[...] and instance[...]
// (a relay's or handler's memory, lost in a crash) and faults.* (the
// scenario's budgets, not part of the system).
//
// Both lists come out in the same fixed order for a given Config.

#ifndef OUTBOX_CHECK_CONFORM_DURABLE_CELLS_H_
#define OUTBOX_CHECK_CONFORM_DURABLE_CELLS_H_

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "conform/pg_connection.h"
#include "model/outbox_model.h"
#include "model/state.h"

namespace oc::conform {

struct DurableCell {
  std::string name;   // "outbox[e1].token"
  std::string value;  // "1", "active", "-", "fresh"
  std::string table;  // the table the database value is read from
  bool operator==(const DurableCell&) const = default;
};

// The durable cells of model state `s`.
std::vector<DurableCell> ModelDurableCells(const OutboxModel& model,
                                           const State& s);

// What the database holds, read through `conn` (whose search_path is the
// run's schema): the cells in ModelDurableCells order, and each table's
// rows as read, for reports.
struct DatabaseCells {
  std::vector<DurableCell> cells;
  std::vector<std::pair<std::string, PgRows>> tables;  // in cell order
};
Result<DatabaseCells> ReadDurableCells(PgConnection& conn,
                                       const Config& config);

struct CellDifference {
  std::string name;
  std::string table;
  std::string model_value;
  std::string database_value;
  bool operator==(const CellDifference&) const = default;
};

// Every cell whose value differs, in `model` order. A cell missing on one
// side reads "(missing)" there.
std::vector<CellDifference> CompareCells(
    const std::vector<DurableCell>& model,
    const std::vector<DurableCell>& database);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_DURABLE_CELLS_H_
