// The schema a conformance run works in: created fresh for every path,
// owned by the run, and dropped by it afterwards. Nothing outside it is
// created, changed or dropped.
//
// Tables (conform/README.md has the full mapping from model cells):
//   outbox(id, event_id, payload, lease_owner, lease_token,
//          lease_expires_at, published_at, completed_token)
//   broker_accepted(copy_id, event_id, sent_by, lease_token)
//   broker_ready(consumer, event_id, copies)
//   accounts(id, credit_cents)                 id is "GROUP/ACCOUNT"
//   consumed_events(consumer, event_id)        primary key: the inbox
//   consumed_events_unkeyed(consumer, event_id)  check_then_act's, no key
//   notification_ledger(consumer, event_id)    primary key
//   notifications_sent(id, consumer, event_id) the outside world
//   projection_versions(consumer, key, version)
//   cache_entries(consumer, key, state)        'stale' or 'fresh'
// Seeded with one outbox row per event (every event is committed before
// the run starts, docs/SEMANTICS.md section 1), and the broker, account,
// projection and cache rows at their initial values.

#ifndef OUTBOX_CHECK_CONFORM_CONFORM_SCHEMA_H_
#define OUTBOX_CHECK_CONFORM_CONFORM_SCHEMA_H_

#include <cstdint>
#include <string>

#include "common/status.h"
#include "conform/pg_connection.h"
#include "model/config.h"

namespace oc::conform {

// The account row id that event `e` of group `g` credits, and the amount:
// "GROUP/ACCOUNT" (the event's account, or its name when it has none) and
// its amount in cents (1000 when it has none).
std::string AccountId(const Config& config, int group, int event);
std::int64_t AmountCents(const Config& config, int event);

// Ok for 1 to 63 lower-case letters, digits and '_', not starting with a
// digit: a name that needs no quoting rules to be safe in SQL text.
Status CheckSchemaName(const std::string& schema);

// Fails with a message a person can act on when `schema` already exists
// (it is never reused or dropped: it may hold someone's tables).
Status CheckSchemaIsFree(PgConnection& conn, const std::string& schema);

// Creates `schema` with the tables above and their initial rows, in one
// transaction, and points `conn`'s search_path at it. Errors name what
// failed: a missing privilege, a schema that appeared meanwhile.
Status CreateSchema(PgConnection& conn, const std::string& schema,
                    const Config& config);

// Points `conn`'s search_path at `schema` only.
Status UseSchema(PgConnection& conn, const std::string& schema);

// Drops `schema`, which CreateSchema made, with its tables, and nothing
// else: when an object outside the schema depends on one in it (a view, a
// foreign key, a function), the schema is kept and the error names each
// such object; an object someone else put into the schema also keeps it
// (every drop is RESTRICT, never CASCADE).
// REQUIRES: no other connection holds a lock in it (close them first).
Status DropSchema(PgConnection& conn, const std::string& schema);

}  // namespace oc::conform

#endif  // OUTBOX_CHECK_CONFORM_CONFORM_SCHEMA_H_
