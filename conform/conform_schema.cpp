#include "conform/conform_schema.h"

#include <fmt/format.h>

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

Status DropSchema(PgConnection& conn, const std::string& schema) {
  if (Status s = CheckSchemaName(schema); !s.ok()) return s;
  Result<PgRows> r =
      conn.Exec(fmt::format("DROP SCHEMA \"{}\" CASCADE", schema));
  if (r.ok()) return Status::Ok();
  return Status::Error(fmt::format("cannot drop schema \"{}\": {}", schema,
                                   r.status().message()));
}

}  // namespace oc::conform
