#include "conform/conform_schema.h"

#include <fmt/format.h>

#include <iterator>
#include <vector>

namespace oc::conform {
namespace {

constexpr const char* kTables[] = {
    "CREATE TABLE outbox (id bigint PRIMARY KEY, "
    "event_id text NOT NULL UNIQUE, payload text NOT NULL, "
    "lease_owner text, lease_token integer NOT NULL DEFAULT 0, "
    "lease_expires_at timestamptz, published_at timestamptz, "
    "completed_token integer)",
    "CREATE TABLE broker_accepted (copy_id bigserial PRIMARY KEY, "
    "event_id text NOT NULL, sent_by text NOT NULL, "
    "lease_token integer NOT NULL)",
    "CREATE TABLE broker_ready (consumer text, event_id text, "
    "copies integer NOT NULL DEFAULT 0 CHECK (copies >= 0), "
    "PRIMARY KEY (consumer, event_id))",
    "CREATE TABLE accounts (id text PRIMARY KEY, "
    "credit_cents bigint NOT NULL DEFAULT 0)",
    "CREATE TABLE consumed_events (consumer text, event_id text, "
    "PRIMARY KEY (consumer, event_id))",
    "CREATE TABLE consumed_events_unkeyed (consumer text NOT NULL, "
    "event_id text NOT NULL)",
    "CREATE TABLE notification_ledger (consumer text, event_id text, "
    "PRIMARY KEY (consumer, event_id))",
    "CREATE TABLE notifications_sent (id bigserial PRIMARY KEY, "
    "consumer text NOT NULL, event_id text NOT NULL)",
    "CREATE TABLE projection_versions (consumer text, key text, "
    "version integer NOT NULL DEFAULT 0, PRIMARY KEY (consumer, key))",
    "CREATE TABLE cache_entries (consumer text, key text, "
    "state text NOT NULL CHECK (state IN ('stale', 'fresh')), "
    "PRIMARY KEY (consumer, key))",
};

}  // namespace

Status CheckSchemaName(const std::string& schema) {
  bool ok = !schema.empty() && schema.size() <= 63 &&
            !(schema[0] >= '0' && schema[0] <= '9');
  for (char c : schema) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  }
  if (ok) return Status::Ok();
  return Status::Error(fmt::format(
      "schema name '{}' is not allowed: use 1 to 63 lower-case letters, "
      "digits and '_', not starting with a digit",
      schema));
}

namespace {

std::string Payload(const Event& e) {
  std::string text = fmt::format("{{\"event\": \"{}\"", e.name);
  if (!e.type.empty()) text += fmt::format(", \"type\": \"{}\"", e.type);
  if (e.key) text += fmt::format(", \"key\": \"{}\"", *e.key);
  if (e.version) text += fmt::format(", \"version\": {}", *e.version);
  return text + "}";
}

}  // namespace

std::string AccountId(const Config& config, int group, int event) {
  const Event& e = config.events[event];
  return config.groups[group].name + "/" + e.account.value_or(e.name);
}

std::int64_t AmountCents(const Config& config, int event) {
  return config.events[event].amount.value_or(1000);
}

Status CheckSchemaIsFree(PgConnection& conn, const std::string& schema) {
  if (Status s = CheckSchemaName(schema); !s.ok()) return s;
  Result<PgRows> rows =
      conn.Exec("SELECT 1 FROM pg_namespace WHERE nspname = $1", {schema});
  if (!rows.ok()) return rows.status();
  if (rows.value().rows.empty()) return Status::Ok();
  return Status::Error(fmt::format(
      "schema \"{}\" already exists; outbox-check works only in a schema it "
      "creates, and drops nothing it did not create. Choose another name "
      "with --schema, or, if an interrupted run of outbox-check left it "
      "behind, drop it yourself (DROP SCHEMA {} CASCADE)",
      schema, schema));
}

Status CreateSchema(PgConnection& conn, const std::string& schema,
                    const Config& config) {
  if (Status s = CheckSchemaName(schema); !s.ok()) return s;
  std::vector<std::pair<std::string, std::vector<std::string>>> statements;
  statements.push_back({fmt::format("CREATE SCHEMA \"{}\"", schema), {}});
  statements.push_back(
      {fmt::format("SET LOCAL search_path TO \"{}\"", schema), {}});
  for (const char* table : kTables) statements.push_back({table, {}});
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    statements.push_back(
        {"INSERT INTO outbox (id, event_id, payload) VALUES ($1, $2, $3)",
         {std::to_string(e + 1), config.events[e].name,
          Payload(config.events[e])}});
  }
  const std::vector<std::string> keys = Keys(config);
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    const Group& group = config.groups[g];
    for (const Event& e : config.events) {
      statements.push_back(
          {"INSERT INTO broker_ready (consumer, event_id) VALUES ($1, $2)",
           {group.name, e.name}});
    }
    switch (FamilyOf(group.strategy)) {
      case StrategyFamily::kCredit:
        for (std::size_t e = 0; e < config.events.size(); ++e) {
          statements.push_back(
              {"INSERT INTO accounts (id) VALUES ($1) "
               "ON CONFLICT DO NOTHING",
               {AccountId(config, static_cast<int>(g), static_cast<int>(e))}});
        }
        break;
      case StrategyFamily::kProjection:
        for (const std::string& key : keys) {
          statements.push_back(
              {"INSERT INTO projection_versions "
               "(consumer, key) VALUES ($1, $2)",
               {group.name, key}});
        }
        break;
      case StrategyFamily::kCache:
        for (const std::string& key : keys) {
          statements.push_back(
              {"INSERT INTO cache_entries "
               "(consumer, key, state) "
               "VALUES ($1, $2, 'stale')",
               {group.name, key}});
        }
        break;
      case StrategyFamily::kNotification:
      case StrategyFamily::kCustom:  // declared: refused before conform
        break;
    }
  }

  if (Result<PgRows> r = conn.Exec("BEGIN"); !r.ok()) return r.status();
  for (const auto& [sql, params] : statements) {
    Result<PgRows> r = conn.Exec(sql, params);
    if (!r.ok()) {
      (void)conn.Exec("ROLLBACK");
      return Status::Error(
          fmt::format("cannot create schema \"{}\": {}; statement: {}", schema,
                      r.status().message(), sql));
    }
  }
  if (Result<PgRows> r = conn.Exec("COMMIT"); !r.ok()) return r.status();
  return UseSchema(conn, schema);
}

Status UseSchema(PgConnection& conn, const std::string& schema) {
  if (Status s = CheckSchemaName(schema); !s.ok()) return s;
  Result<PgRows> r =
      conn.Exec(fmt::format("SET search_path TO \"{}\"", schema));
  return r.ok() ? Status::Ok() : r.status();
}

namespace {

// The tables CreateSchema makes, in kTables' order; their sequences and
// indexes go with them.
constexpr const char* kTableNames[] = {
    "outbox",
    "broker_accepted",
    "broker_ready",
    "accounts",
    "consumed_events",
    "consumed_events_unkeyed",
    "notification_ledger",
    "notifications_sent",
    "projection_versions",
    "cache_entries",
};
static_assert(std::size(kTableNames) == std::size(kTables));

// Each pg_depend row whose referenced object lies in schema $1 and whose
// dependent object does not, as (dependent, referenced) descriptions. The
// schema of an object is read from its own catalog for the kinds that have
// one, or from the table it belongs to (a view's rule, a column default, a
// trigger, a policy); an object of any other kind counts as outside. Only
// normal and automatic dependencies: internal ones (a table's row type, its
// TOAST table) belong to the object they depend on.
constexpr const char* kOutsideDependents = R"sql(
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
d AS (
  SELECT d.*,
    CASE d.refclassid
      WHEN 'pg_class'::regclass THEN
        (SELECT relnamespace FROM pg_class WHERE oid = d.refobjid)
      WHEN 'pg_type'::regclass THEN
        (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid)
      WHEN 'pg_proc'::regclass THEN
        (SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid)
      WHEN 'pg_constraint'::regclass THEN
        (SELECT connamespace FROM pg_constraint WHERE oid = d.refobjid)
      WHEN 'pg_namespace'::regclass THEN d.refobjid
    END AS ref_ns,
    CASE d.classid
      WHEN 'pg_class'::regclass THEN
        (SELECT relnamespace FROM pg_class WHERE oid = d.objid)
      WHEN 'pg_type'::regclass THEN
        (SELECT typnamespace FROM pg_type WHERE oid = d.objid)
      WHEN 'pg_proc'::regclass THEN
        (SELECT pronamespace FROM pg_proc WHERE oid = d.objid)
      WHEN 'pg_constraint'::regclass THEN
        (SELECT connamespace FROM pg_constraint WHERE oid = d.objid)
      WHEN 'pg_rewrite'::regclass THEN
        (SELECT c.relnamespace FROM pg_rewrite r
           JOIN pg_class c ON c.oid = r.ev_class WHERE r.oid = d.objid)
      WHEN 'pg_attrdef'::regclass THEN
        (SELECT c.relnamespace FROM pg_attrdef a
           JOIN pg_class c ON c.oid = a.adrelid WHERE a.oid = d.objid)
      WHEN 'pg_trigger'::regclass THEN
        (SELECT c.relnamespace FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid WHERE t.oid = d.objid)
      WHEN 'pg_policy'::regclass THEN
        (SELECT c.relnamespace FROM pg_policy p
           JOIN pg_class c ON c.oid = p.polrelid WHERE p.oid = d.objid)
      WHEN 'pg_namespace'::regclass THEN d.objid
    END AS dep_ns
  FROM pg_depend d
  WHERE d.deptype IN ('n', 'a')
)
SELECT DISTINCT
  CASE d.classid
    WHEN 'pg_rewrite'::regclass THEN
      (SELECT pg_describe_object('pg_class'::regclass, r.ev_class, 0)
         FROM pg_rewrite r WHERE r.oid = d.objid)
    ELSE pg_describe_object(d.classid, d.objid, d.objsubid)
  END AS dependent,
  pg_describe_object(d.refclassid, d.refobjid, d.refobjsubid) AS referenced
FROM d, ns
WHERE d.ref_ns = ns.oid AND d.dep_ns IS DISTINCT FROM ns.oid
ORDER BY 1, 2
)sql";

}  // namespace

Status DropSchema(PgConnection& conn, const std::string& schema) {
  if (Status s = CheckSchemaName(schema); !s.ok()) return s;
  Result<PgRows> outside = conn.Exec(kOutsideDependents, {schema});
  if (!outside.ok()) {
    return Status::Error(fmt::format(
        "cannot drop schema \"{}\": cannot list what depends on it: {}", schema,
        outside.status().message()));
  }
  if (!outside.value().rows.empty()) {
    std::string list;
    for (const auto& row : outside.value().rows) {
      list += fmt::format("; {} depends on {}", row[0].value_or("?"),
                          row[1].value_or("?"));
    }
    return Status::Error(fmt::format(
        "schema \"{}\" was kept: objects outside it depend on objects in "
        "it{}. outbox-check drops nothing it did not create; change or drop "
        "those, then the schema (DROP SCHEMA {} CASCADE)",
        schema, list, schema));
  }
  // RESTRICT throughout, so that an object created since the query above,
  // or one put into the schema by someone else, stops the drop instead of
  // going with it.
  std::string tables;
  for (const char* table : kTableNames) {
    tables += fmt::format("{}\"{}\".\"{}\"", tables.empty() ? "" : ", ", schema,
                          table);
  }
  const std::string statements[] = {
      "BEGIN",
      fmt::format("DROP TABLE {} RESTRICT", tables),
      fmt::format("DROP SCHEMA \"{}\" RESTRICT", schema),
      "COMMIT",
  };
  for (const std::string& sql : statements) {
    Result<PgRows> r = conn.Exec(sql);
    if (!r.ok()) {
      (void)conn.Exec("ROLLBACK");
      return Status::Error(fmt::format(
          "schema \"{}\" was kept: cannot drop it: {}; outbox-check drops "
          "nothing it did not create",
          schema, r.status().message()));
    }
  }
  return Status::Ok();
}

}  // namespace oc::conform
