// One connection to a PostgreSQL server through libpq, as a value-owning
// handle, and the rows a statement returned.
//
// Every statement is sent with PQexecParams / PQsendQueryParams: parameters
// travel apart from the SQL text as text values, so names from a scenario
// file are never spliced into SQL. Errors are Status values carrying the
// server's message (primary message, detail and SQLSTATE), never exceptions.
//
// Thread safety: a PgConnection is used by one thread at a time. Several
// connections may be driven by one thread through the asynchronous calls
// (Send, Busy, Finish), which is how the concurrency test interleaves two
// transactions at statement level.

#ifndef OUTBOX_CHECK_CONFORM_PG_CONNECTION_H_
#define OUTBOX_CHECK_CONFORM_PG_CONNECTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

struct pg_conn;

namespace oc::conform {

// What one statement returned: column names, rows as text (nullopt for
// SQL NULL), and how many rows an INSERT/UPDATE/DELETE touched.
struct PgRows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::int64_t affected = 0;  // PQcmdTuples; 0 for statements that report none
};

class PgConnection {
 public:
  // Connects with a libpq connection string ("host=... port=... dbname=...",
  // or a postgresql:// URI). The error says the connection could not be
  // made and why, as libpq put it.
  static Result<PgConnection> Open(const std::string& conninfo);

  PgConnection(PgConnection&& other) noexcept;
  PgConnection& operator=(PgConnection&& other) noexcept;
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;
  ~PgConnection();  // closes the connection: the server rolls back any
                    // transaction still open on it

  // Runs one statement and waits for its result. `params` are $1, $2, ...
  Result<PgRows> Exec(std::string_view sql,
                      const std::vector<std::string>& params = {});

  // Asynchronous use: Send starts a statement without waiting; Busy reads
  // what the server sent so far and says whether the result is still
  // pending (the statement is running or waiting for a lock); Finish waits
  // for and returns the result. REQUIRES: one statement in flight at most.
  Status Send(std::string_view sql, const std::vector<std::string>& params);
  Result<bool> Busy();
  Result<PgRows> Finish();

  // The server process serving this connection (pg_stat_activity.pid).
  int BackendPid() const;
  // "15.18", as the server reports it.
  std::string ServerVersion() const;

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  pg_conn* conn_ = nullptr;
};

// The text of `rows` as an aligned table, for divergence reports.
std::string FormatRows(const PgRows& rows);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_PG_CONNECTION_H_
