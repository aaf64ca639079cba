#include "cli/conform_command.h"

#include <fmt/format.h>

#include "check/scenario_check.h"
#include "cli/check_command.h"
#include "cli/interrupt.h"
#include "cli/progress.h"
#include "cli/scenario_paths.h"
#include "conform/conform_schema.h"
#include "conform/conformance_run.h"
#include "conform/conformance_text.h"
#include "conform/pg_connection.h"
#include "model/timing.h"

namespace oc {

int RunConform(const ConformFlags& flags, std::FILE* out, std::FILE* err) {
  std::optional<std::vector<Scenario>> loaded =
      LoadScenarios(flags.paths, "outbox-check conform", err);
  if (!loaded) return kExitUsage;
  std::vector<Scenario>& scenarios = *loaded;
  // Refused before connecting: the SQL driver runs built-in strategies only.
  for (const Scenario& scenario : scenarios) {
    for (const Group& g : scenario.config.groups) {
      if (!g.declared) continue;
      fmt::print(err,
                 "outbox-check conform: {}: group '{}' uses the declared "
                 "strategy {}; conform runs only the nine built-in "
                 "strategies against PostgreSQL\n",
                 scenario.path, g.name, StrategyLabel(g));
      return kExitUsage;
    }
  }
  for (const Scenario& scenario : scenarios) {
    if (std::optional<std::string> feature = TimeFeatureUsed(scenario.config)) {
      fmt::print(err,
                 "outbox-check conform: {}: scenario '{}' uses {}; the SQL "
                 "mapping covers docs/SEMANTICS.md sections 1 to 7 only, "
                 "not time (model/TIME.md)\n",
                 scenario.path, scenario.name, *feature);
      return kExitUsage;
    }
    // The other relay styles, message identity, source commits and broker
    // faults have no SQL mapping yet either.
    if (scenario.config.broker.delivery == Delivery::kPartitioned) {
      fmt::print(err,
                 "outbox-check conform: {}: broker.delivery is "
                 "'partitioned'; conform replays only the bag broker, whose "
                 "deliveries map to SQL (see conform/README.md)\n",
                 scenario.path);
      return kExitUsage;
    }
    std::string why;
    if (!IsSeedPipeline(scenario.config, &why)) {
      fmt::print(err,
                 "outbox-check conform: {}: {}; conform replays only the "
                 "seed's lease_token relay (see conform/README.md)\n",
                 scenario.path, why);
      return kExitUsage;
    }
  }
  if (Status s = conform::CheckSchemaName(flags.schema); !s.ok()) {
    fmt::print(err, "outbox-check conform: --schema: {}\n", s.message());
    return kExitUsage;
  }

  Result<conform::PgConnection> admin =
      conform::PgConnection::Open(flags.postgres);
  if (!admin.ok()) {
    fmt::print(err, "outbox-check conform: {}\n", admin.status().message());
    return kExitUsage;
  }
  if (Status s = conform::CheckSchemaIsFree(admin.value(), flags.schema);
      !s.ok()) {
    fmt::print(err, "outbox-check conform: {}\n", s.message());
    return kExitUsage;
  }

  // From here on SIGINT and SIGTERM stop the run before its next path,
  // after the schema of the current one is dropped.
  const InterruptFlag interrupt;
  conform::ConformOptions options;
  options.cancel = interrupt.flag();
  options.conninfo = flags.postgres;
  options.schema = flags.schema;
  options.further_paths = flags.further_paths;
  std::vector<conform::ScenarioConformance> results;
  for (const Scenario& scenario : scenarios) {
    // The same memory guard as `check`: a search too big for this machine
    // stops cleanly; its counterexamples are still replayed, without
    // further paths (the graph is kept only for small searches anyway).
    CheckOptions check;
    check.max_bytes = DefaultMemoryLimit();
    check.cancel = interrupt.flag();
    Result<ScenarioResult> checked = CheckScenario(scenario, check);
    if (!checked.ok()) {
      fmt::print(err, "{}\n", checked.status().message());
      return kExitUsage;
    }
    Result<conform::ScenarioConformance> c =
        conform::ConformScenario(checked.value(), options, admin.value());
    if (!c.ok()) {
      fmt::print(err, "outbox-check conform: {}: {}\n", scenario.path,
                 c.status().message());
      return kExitUsage;
    }
    if (c.value().interrupted) {
      fmt::print(out,
                 "{}: interrupted by {} after {} agreeing path{}; schema "
                 "\"{}\" dropped; not every path was compared\n",
                 scenario.name, interrupt.SignalName(), c.value().paths_agreed,
                 c.value().paths_agreed == 1 ? "" : "s", flags.schema);
      return kExitLimit;
    }
    fmt::print(out, "{}\n", conform::FormatScenarioLine(c.value()));
    if (c.value().divergence) {
      fmt::print(out, "\n{}\n", conform::FormatDivergence(c.value()));
    }
    std::fflush(out);
    results.push_back(std::move(c).value());
  }
  fmt::print(
      out, "{}\n",
      conform::FormatClosingLine(results, admin.value().ServerVersion()));
  for (const conform::ScenarioConformance& c : results) {
    if (!c.agrees()) return 1;
  }
  return 0;
}

}  // namespace oc
