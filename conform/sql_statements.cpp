#include "conform/sql_statements.h"

namespace oc::conform {

const SqlStatements& SeedSql() {
  static const SqlStatements sql{
      .claim =
          "UPDATE outbox SET lease_owner = $2, "
          "lease_token = lease_token + 1, "
          "lease_expires_at = now() + interval '30 seconds' "
          "WHERE id = $1 AND published_at IS NULL "
          "AND (lease_expires_at IS NULL OR lease_expires_at < now()) "
          "RETURNING id, event_id, payload, lease_token",
      .claim_no_lease =
          "UPDATE outbox SET lease_owner = $2, "
          "lease_token = lease_token + 1 "
          "WHERE id = $1 AND published_at IS NULL "
          "RETURNING id, event_id, payload, lease_token",
      // completed_token is an audit column the tool adds so that a stale
      // completion can be seen in the rows; the WHERE clause is the seed's.
      .complete =
          "UPDATE outbox SET published_at = now(), "
          "completed_token = $3 "
          "WHERE id = $1 AND lease_owner = $2 AND lease_token = $3 "
          "AND published_at IS NULL",
      .complete_unfenced =
          "UPDATE outbox SET published_at = now(), "
          "completed_token = $2 "
          "WHERE id = $1 AND published_at IS NULL",
      .expire =
          "UPDATE outbox "
          "SET lease_expires_at = now() - interval '1 second' "
          "WHERE id = $1",
      .broker_accept =
          "WITH accepted AS (INSERT INTO broker_accepted "
          "(event_id, sent_by, lease_token) VALUES ($1, $2, $3) "
          "RETURNING event_id) "
          "UPDATE broker_ready SET copies = copies + 1 "
          "WHERE event_id IN (SELECT event_id FROM accepted)",
      .broker_take =
          "UPDATE broker_ready SET copies = copies - 1 "
          "WHERE consumer = $1 AND event_id = $2 AND copies > 0",
      .broker_requeue =
          "UPDATE broker_ready SET copies = copies + 1 "
          "WHERE consumer = $1 AND event_id = $2",
      .credit =
          "UPDATE accounts SET credit_cents = credit_cents + $2 "
          "WHERE id = $1",
      .inbox_insert =
          "INSERT INTO consumed_events (consumer, event_id) "
          "VALUES ($1, $2) ON CONFLICT DO NOTHING",
      .inbox_read =
          "SELECT count(*) FROM consumed_events "
          "WHERE consumer = $1 AND event_id = $2",
      .unkeyed_inbox_read =
          "SELECT count(*) FROM consumed_events_unkeyed "
          "WHERE consumer = $1 AND event_id = $2",
      .unkeyed_inbox_insert =
          "INSERT INTO consumed_events_unkeyed (consumer, event_id) "
          "VALUES ($1, $2)",
      .projection_lww =
          "UPDATE projection_versions SET version = $3 "
          "WHERE consumer = $1 AND key = $2",
      .projection_monotonic =
          "UPDATE projection_versions SET version = $3 "
          "WHERE consumer = $1 AND key = $2 "
          "AND version < $3",
      .ledger_insert =
          "INSERT INTO notification_ledger (consumer, event_id) "
          "VALUES ($1, $2) ON CONFLICT DO NOTHING",
      .ledger_read =
          "SELECT count(*) FROM notification_ledger "
          "WHERE consumer = $1 AND event_id = $2",
      .notification_send =
          "INSERT INTO notifications_sent (consumer, event_id) "
          "VALUES ($1, $2)",
      .cache_invalidate =
          "UPDATE cache_entries SET state = 'fresh' "
          "WHERE consumer = $1 AND key = $2",
  };
  return sql;
}

}  // namespace oc::conform
