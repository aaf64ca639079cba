// Conformance against a real PostgreSQL. CTest runs this binary through
// postgres_fixture.sh, which starts a throwaway cluster and sets
// OC_TEST_POSTGRES to its connection string.

#include <doctest/doctest.h>

#include <cstdlib>

#include "conform/concurrent_duplicate.h"
#include "conform/conform_schema.h"
#include "conform/conformance_run.h"
#include "conform/conformance_text.h"
#include "scenarios/scenario_loader.h"

namespace oc::conform {
namespace {

std::string Conninfo() {
  const char* c = std::getenv("OC_TEST_POSTGRES");
  if (c == nullptr) {
    FAIL(
        "OC_TEST_POSTGRES is not set; run through "
        "tests/conform/postgres_fixture.sh");
  }
  return c;
}

ScenarioResult Checked(const std::string& file) {
  Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/scenarios/" + file);
  REQUIRE(s.ok());
  Result<ScenarioResult> r = CheckScenario(s.value());
  REQUIRE(r.ok());
  return std::move(r).value();
}

ScenarioConformance Conform(const std::string& file, const SqlStatements& sql,
                            const std::string& schema) {
  Result<PgConnection> admin = PgConnection::Open(Conninfo());
  REQUIRE(admin.ok());
  ConformOptions options;
  options.conninfo = Conninfo();
  options.schema = schema;
  options.sql = &sql;
  Result<ScenarioConformance> c =
      ConformScenario(Checked(file), options, admin.value());
  if (!c.ok()) FAIL(c.status().message());
  return std::move(c).value();
}

TEST_CASE(
    "the seed's SQL agrees with the model on every step of a pinned "
    "order") {
  const ScenarioConformance c =
      Conform("seed/1-send-crash-resend.naive.order.toml", SeedSql(),
              "conform_test_seed");
  CHECK_FALSE(c.divergence);
  CHECK(c.paths_agreed == 1);
  CHECK(c.steps_agreed == 11);
}

TEST_CASE(
    "a monotonic projection without its version check diverges where "
    "the older version arrives") {
  SqlStatements broken = SeedSql();
  broken.projection_monotonic = broken.projection_lww;
  const ScenarioConformance c =
      Conform("seed/6-projection-reorder.monotonic.order.toml", broken,
              "conform_test_projection");
  REQUIRE(c.divergence);
  const Divergence& d = *c.divergence;
  CHECK(d.path_label == "pinned order");
  CHECK(d.step == 9);
  CHECK(d.action_text == "consume(orders, 1, e1)");
  CHECK(d.error.empty());
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0] == CellDifference{"orders.version[order-7]",
                                           "projection_versions", "2", "1"});
  REQUIRE(d.tables.size() == 1);
  CHECK(d.tables[0].first == "projection_versions");
  CHECK(c.steps_agreed == 8);
  const std::string report = FormatDivergence(c);
  CHECK(report.find("pinned order, step 9: consume(orders, 1, e1)\n") !=
        std::string::npos);
  CHECK(report.find("orders.version[order-7]: model 2, database 1 (table "
                    "projection_versions)") != std::string::npos);
  CHECK(report.find("[instance orders/1] " + broken.projection_lww) !=
        std::string::npos);
  CHECK(report.find("rows of projection_versions after the step:") !=
        std::string::npos);
}

TEST_CASE(
    "an inbox insert without ON CONFLICT fails at the redelivered "
    "copy, and the report names the step and its SQL") {
  SqlStatements broken = SeedSql();
  broken.inbox_insert =
      "INSERT INTO consumed_events (consumer, event_id) VALUES ($1, $2)";
  const ScenarioConformance c =
      Conform("seed/4-consumer-redelivery.inbox.order.toml", broken,
              "conform_test_inbox");
  REQUIRE(c.divergence);
  const Divergence& d = *c.divergence;
  CHECK(d.step == 6);
  CHECK(d.action_text == "consume(billing, 1, e1)");
  CHECK(d.error.find("duplicate key value violates unique constraint") !=
        std::string::npos);
  REQUIRE(d.statements.size() >= 3);
  CHECK(d.statements[0].connection == "broker");
  CHECK(d.statements[2].connection == "instance billing/1");
  CHECK(d.statements[2].sql == broken.inbox_insert);
}

TEST_CASE(
    "a claim without its lease condition is caught by the claim "
    "probe in the first state where the lease is active") {
  SqlStatements broken = SeedSql();
  broken.claim =
      "UPDATE outbox SET lease_owner = $2, lease_token = lease_token + 1, "
      "lease_expires_at = now() + interval '30 seconds' "
      "WHERE id = $1 AND published_at IS NULL "
      "RETURNING id, event_id, payload, lease_token";
  const ScenarioConformance c =
      Conform("seed/2-stale-completion.fenced.order.toml", broken,
              "conform_test_claim");
  REQUIRE(c.divergence);
  const Divergence& d = *c.divergence;
  CHECK(d.step == 1);
  CHECK(d.action_text == "claim(A, e1)");
  CHECK(d.differences.empty());
  CHECK(d.error ==
        "probing the claim's guard: the claim SQL claims e1 for relay B "
        "(rolled back), but the model's claim(B, e1) is not enabled: the "
        "lease of event e1 is active (token 1, owner A)");
}

TEST_CASE("a schema in the way is refused and left as it was") {
  Result<PgConnection> admin = PgConnection::Open(Conninfo());
  REQUIRE(admin.ok());
  PgConnection& conn = admin.value();
  REQUIRE(conn.Exec("CREATE SCHEMA conform_test_in_the_way").ok());
  REQUIRE(
      conn.Exec("CREATE TABLE conform_test_in_the_way.outbox (x int)").ok());
  REQUIRE(
      conn.Exec("INSERT INTO conform_test_in_the_way.outbox VALUES (7)").ok());
  ConformOptions options;
  options.conninfo = Conninfo();
  options.schema = "conform_test_in_the_way";
  Result<ScenarioConformance> c = ConformScenario(
      Checked("seed/4-consumer-redelivery.inbox.order.toml"), options, conn);
  REQUIRE_FALSE(c.ok());
  CHECK(c.status().message().find(
            "schema \"conform_test_in_the_way\" already exists") !=
        std::string::npos);
  Result<PgRows> rows =
      conn.Exec("SELECT x FROM conform_test_in_the_way.outbox");
  REQUIRE(rows.ok());
  REQUIRE(rows.value().rows.size() == 1);
  CHECK(rows.value().rows[0][0] == "7");
  CHECK(conn.Exec("DROP SCHEMA conform_test_in_the_way CASCADE").ok());
}

bool SchemaExists(PgConnection& conn, const std::string& schema) {
  Result<PgRows> rows =
      conn.Exec("SELECT 1 FROM pg_namespace WHERE nspname = $1", {schema});
  REQUIRE(rows.ok());
  return !rows.value().rows.empty();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE(
    "a schema that objects outside it depend on is kept, and they are "
    "named") {
  Result<PgConnection> admin = PgConnection::Open(Conninfo());
  REQUIRE(admin.ok());
  PgConnection& conn = admin.value();
  const std::string schema = "conform_test_depended";
  const ScenarioResult checked =
      Checked("seed/4-consumer-redelivery.inbox.order.toml");
  REQUIRE(CreateSchema(conn, schema, checked.model->config()).ok());
  REQUIRE(conn.Exec("CREATE VIEW public.conform_test_view AS SELECT id FROM "
                    "conform_test_depended.outbox")
              .ok());
  REQUIRE(conn.Exec("CREATE TABLE public.conform_test_fk (a text REFERENCES "
                    "conform_test_depended.accounts (id))")
              .ok());

  const Status kept = DropSchema(conn, schema);
  REQUIRE_FALSE(kept.ok());
  INFO(kept.message());
  CHECK(Contains(kept.message(),
                 "schema \"conform_test_depended\" was "
                 "kept: objects outside it depend on "
                 "objects in it"));
  CHECK(Contains(kept.message(), "view public.conform_test_view depends on "));
  CHECK(
      Contains(kept.message(), "on table public.conform_test_fk depends on "));
  CHECK(SchemaExists(conn, schema));
  CHECK(conn.Exec("SELECT * FROM public.conform_test_view").ok());
  CHECK(conn.Exec("SELECT * FROM public.conform_test_fk").ok());

  // Without the outside objects, an object someone else put into the
  // schema still keeps it: nothing is dropped by CASCADE.
  REQUIRE(conn.Exec("DROP VIEW public.conform_test_view").ok());
  REQUIRE(conn.Exec("DROP TABLE public.conform_test_fk").ok());
  REQUIRE(conn.Exec("CREATE TABLE conform_test_depended.theirs (x int)").ok());
  const Status theirs = DropSchema(conn, schema);
  REQUIRE_FALSE(theirs.ok());
  CHECK(Contains(theirs.message(), "was kept: cannot drop it"));
  CHECK(conn.Exec("SELECT x FROM conform_test_depended.theirs").ok());

  REQUIRE(conn.Exec("DROP TABLE conform_test_depended.theirs").ok());
  CHECK(DropSchema(conn, schema).ok());
  CHECK_FALSE(SchemaExists(conn, schema));
}

TEST_CASE(
    "a concurrent duplicate credits once with the inbox: the second "
    "INSERT waits for the first to commit") {
  Result<ConcurrentDuplicate> r = RunConcurrentDuplicate(
      Conninfo(), "conform_test_concurrent_inbox", Strategy::kCreditInbox);
  if (!r.ok()) FAIL(r.status().message());
  CHECK(r.value().second_waited);
  CHECK(r.value().database_credits == 1);
  CHECK(r.value().model_credits == 1);
}

TEST_CASE(
    "a concurrent duplicate credits twice with check_then_act under "
    "READ COMMITTED") {
  Result<ConcurrentDuplicate> r =
      RunConcurrentDuplicate(Conninfo(), "conform_test_concurrent_check",
                             Strategy::kCreditCheckThenAct);
  if (!r.ok()) FAIL(r.status().message());
  CHECK(r.value().second_waited);
  CHECK(r.value().database_credits == 2);
  CHECK(r.value().model_credits == 2);
}

}  // namespace
}  // namespace oc::conform
