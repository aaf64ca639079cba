// "Duplicate arrives concurrently" (docs/SEMANTICS.md section 7, row 5) as the
// database really does it: two consumer instances, each on its own
// connection, handle two copies of one credit event with their
// transactions interleaved statement by statement, under PostgreSQL's
// default READ COMMITTED isolation. One thread drives both connections
// through libpq's asynchronous calls, so that a statement can be left
// waiting for a lock while the other transaction goes on.
//
// credit.inbox: instance 1 inserts its inbox row; instance 2's
// INSERT ... ON CONFLICT DO NOTHING then waits for instance 1's transaction;
// instance 1 credits and commits; instance 2's insert finds the committed
// row, inserts nothing, and instance 2 does not credit. One credit.
//
// credit.check_then_act: both read "no inbox row"; instance 1 inserts and
// credits; instance 2 inserts (no constraint stops it) and its credit waits
// for instance 1's row lock; instance 1 commits; instance 2's UPDATE then
// applies to the committed row. Two credits.
//
// The model's answer for the same interleaving (consume, consume, then the
// second steps) comes with the result, so a caller can compare.

#ifndef OUTBOX_CHECK_CONFORM_CONCURRENT_DUPLICATE_H_
#define OUTBOX_CHECK_CONFORM_CONCURRENT_DUPLICATE_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "conform/pg_connection.h"
#include "conform/sql_driver.h"
#include "conform/sql_statements.h"
#include "model/config.h"

namespace oc::conform {

struct ConcurrentDuplicate {
  Strategy strategy = Strategy::kCreditInbox;
  int database_credits = 0;  // credit_cents over the event's amount
  int model_credits = 0;     // effects the model gives the interleaving
  // Instance 2's statement was seen waiting for a lock held by instance 1
  // (pg_stat_activity.wait_event_type = 'Lock') before instance 1 ended.
  bool second_waited = false;
  std::vector<RunStatement> timeline;  // in the order they were sent
};

// Runs the interleaving in a schema `schema` that it creates and drops.
// REQUIRES: strategy is kCreditInbox or kCreditCheckThenAct; `schema` does
// not exist. The error case: the database could not be used (connect,
// create, a statement failed, or a lock wait that never came within ten
// seconds).
Result<ConcurrentDuplicate> RunConcurrentDuplicate(
    const std::string& conninfo, const std::string& schema, Strategy strategy,
    const SqlStatements& sql = SeedSql());

// "credit.inbox: 1 credit (the model: 1); instance billing/2 waited for
// instance billing/1's lock", and the timeline.
std::string FormatConcurrentDuplicate(const ConcurrentDuplicate& result);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_CONCURRENT_DUPLICATE_H_
