// Runs model actions as SQL against a real PostgreSQL: the mapping of
// conform/README.md, one connection per relay and per consumer instance,
// plus one for the broker's store and one for the clock.
//
// A relay's and an instance's memory (which row it claimed, with which
// token; what a handler's first step read) lives here, in the driver, as it
// would in a relay or handler process: a crash forgets it and closes that
// connection, so the server rolls back whatever the connection had not
// committed.
//
// A SqlDriver is built per path on a freshly created schema, and driven
// with the actions of one model trace in order. It is not thread-safe.

#ifndef OUTBOX_CHECK_CONFORM_SQL_DRIVER_H_
#define OUTBOX_CHECK_CONFORM_SQL_DRIVER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "conform/pg_connection.h"
#include "conform/sql_statements.h"
#include "model/outbox_model.h"

namespace oc::conform {

// One statement as the driver ran it, for reports.
struct RunStatement {
  std::string connection;  // "relay A", "instance billing/1", "broker", ...
  std::string sql;         // or a note such as "(connection closed)"
  std::vector<std::string> params;
  std::string outcome;  // "1 row", "UPDATE 0", or the server's error
};

class SqlDriver {
 public:
  // Opens the connections, each with its search_path at `schema`.
  // REQUIRES: `model` and `sql` outlive the driver; `schema` was created by
  // CreateSchema for model.config().
  static Result<std::unique_ptr<SqlDriver>> Open(const std::string& conninfo,
                                                 const std::string& schema,
                                                 const OutboxModel& model,
                                                 const SqlStatements& sql);

  // Runs the SQL of `action`, appending every statement to `log`. An error
  // means the database did not do what the model's action does: a
  // statement failed, or had an outcome the action rules out (a claim of a
  // row that the model says is claimable updated no row; a consume found
  // no copy ready). REQUIRES: `action` is enabled in the model state the
  // previous actions led to.
  Status Run(const Action& action, std::vector<RunStatement>& log);

  // Checks the claim's guard against the model's in state `s`, the state
  // the actions run so far led to: for each event, the first relay the
  // driver holds idle tries the claim in a transaction it rolls back. The
  // error says where they disagree: the model would claim and the SQL
  // claims nothing, or the other way round. Events whose claims only the
  // model's claim bound stops (a bound of the search, not of the system)
  // are not probed. Appends the statements to `log`.
  Status ProbeClaims(const State& s, std::vector<RunStatement>& log);

  SqlDriver(const SqlDriver&) = delete;
  SqlDriver& operator=(const SqlDriver&) = delete;
  ~SqlDriver();

 private:
  struct RelayMemory;
  struct InstanceMemory;
  SqlDriver(const std::string& conninfo, const std::string& schema,
            const OutboxModel& model, const SqlStatements& sql);

  Result<PgRows> Exec(PgConnection& conn, const std::string& label,
                      const std::string& sql,
                      const std::vector<std::string>& params,
                      std::vector<RunStatement>& log);
  Result<PgConnection> Connect();
  Status RunRelay(const Action& a, std::vector<RunStatement>& log);
  Status RunConsumer(const Action& a, std::vector<RunStatement>& log);
  // Runs step `step` (0 or 1) of the instance's handler for `event`.
  Status RunHandlerStep(int group, int instance, int event, int step,
                        std::vector<RunStatement>& log);

  std::string conninfo_;
  std::string schema_;
  const OutboxModel& model_;
  const SqlStatements& sql_;
  std::vector<PgConnection> relay_conns_;
  std::vector<PgConnection> instance_conns_;  // [FirstInstance(g) + i]
  std::optional<PgConnection> broker_;        // the broker's store
  std::optional<PgConnection> clock_;         // moves leases in time
  std::vector<RelayMemory> relays_;
  std::vector<InstanceMemory> instances_;
};

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_SQL_DRIVER_H_
