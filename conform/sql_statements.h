// The SQL under test: the statements each model action runs (the seed and
// docs/SEMANTICS.md section 5, as plain SQL). conform/README.md explains the
// mapping from actions to statements and connections.
//
// The statements name tables without a schema: every connection of a
// conformance run sets its search_path to the run's own schema (see
// conform_schema.h). Parameters are $1, $2, ... as text; each field says
// which it takes.
//
// SqlStatements is plain data so that a test can change one statement and
// watch the conformance run find the divergence it causes; SeedSql() is
// what the tool runs.

#ifndef OUTBOX_CHECK_CONFORM_SQL_STATEMENTS_H_
#define OUTBOX_CHECK_CONFORM_SQL_STATEMENTS_H_

#include <string>

namespace oc::conform {

struct SqlStatements {
  // Relay, on its own connection. All return or touch at most one row.
  std::string claim;              // $1 outbox id, $2 relay; RETURNING the token
  std::string claim_no_lease;     // the same without the lease (lease = false)
  std::string complete;           // $1 id, $2 relay, $3 token (fencing on)
  std::string complete_unfenced;  // $1 id, $2 token; no owner/token check
  // The clock: a premature or orphaned lease expiry made real.
  std::string expire;  // $1 id
  // The broker's durable store, on the broker's connection.
  std::string broker_accept;   // $1 event, $2 relay, $3 token
  std::string broker_take;     // $1 group, $2 event; copies > 0 only
  std::string broker_requeue;  // $1 group, $2 event
  // Consumer handlers, on the instance's connection. $1 group, $2 event
  // unless said otherwise; accounts are "GROUP/ACCOUNT".
  std::string credit;              // $1 account id, $2 amount in cents
  std::string inbox_insert;        // ON CONFLICT DO NOTHING: 1 row if new
  std::string inbox_read;          // count(*) of the inbox rows
  std::string unkeyed_inbox_read;  // check_then_act's inbox, no constraint
  std::string unkeyed_inbox_insert;
  std::string projection_lww;        // $1 group, $2 key, $3 version
  std::string projection_monotonic;  // the same, only upwards
  std::string ledger_insert;         // ON CONFLICT DO NOTHING: 1 row if new
  std::string ledger_read;           // count(*)
  std::string notification_send;     // the outside world receives one
  std::string cache_invalidate;      // $1 group, $2 key
};

// The statements of the seed design.
const SqlStatements& SeedSql();

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_SQL_STATEMENTS_H_
