#include "cli/export_command.h"

#include <fmt/format.h>

#include "cli/atomic_file.h"
#include "cli/check_command.h"
#include "export/promela_export.h"
#include "model/fault_budgets.h"
#include "model/timing.h"
#include "scenarios/scenario_loader.h"

namespace oc {

int RunExport(const ExportFlags& flags, std::FILE* out, std::FILE* err) {
  if (!flags.promela) {
    fmt::print(err,
               "outbox-check export: say which format to write; the only one "
               "is --promela\n");
    return kExitUsage;
  }
  Result<Scenario> scenario = LoadScenario(flags.scenario);
  if (!scenario.ok()) {
    fmt::print(err, "{}\n", scenario.status().message());
    return kExitUsage;
  }
  if (!scenario.value().order.empty()) {
    fmt::print(err,
               "{}: scenario '{}' pins an order of actions; only exhaustive "
               "scenarios (no check.order) can be exported to Promela\n",
               flags.scenario, scenario.value().name);
    return kExitUsage;
  }
  for (const Group& g : scenario.value().config.groups) {
    if (g.declared) {
      fmt::print(err,
                 "{}: group '{}' uses the declared strategy {}; the Promela "
                 "export knows only the nine built-in strategies\n",
                 flags.scenario, g.name, StrategyLabel(g));
      return kExitUsage;
    }
  }
  if (std::optional<std::string> feature =
          TimeFeatureUsed(scenario.value().config)) {
    fmt::print(err,
               "{}: scenario '{}' uses {}; the Promela export covers "
               "docs/SEMANTICS.md sections 1 to 7 only, not time "
               "(model/TIME.md)\n",
               flags.scenario, scenario.value().name, *feature);
    return kExitUsage;
  }
  if (CountsAbstracted(scenario.value().config)) {
    fmt::print(err,
               "{}: scenario '{}' has an unbounded budget (\"any\") or no "
               "claim bound without a lease; the Promela export needs every "
               "budget and token finite (the checker abstracts them, "
               "docs/SEMANTICS.md section 14; SPIN would not)\n",
               flags.scenario, scenario.value().name);
    return kExitUsage;
  }
  if (scenario.value().config.broker.delivery == Delivery::kPartitioned) {
    fmt::print(err,
               "{}: scenario '{}': broker.delivery is 'partitioned'; the "
               "Promela export covers only the bag broker (docs/SEMANTICS.md "
               "section 16)\n",
               flags.scenario, scenario.value().name);
    return kExitUsage;
  }
  if (std::string why; !IsSeedPipeline(scenario.value().config, &why)) {
    fmt::print(err,
               "{}: scenario '{}': {}; the Promela export covers only the "
               "seed's lease_token relay\n",
               flags.scenario, scenario.value().name, why);
    return kExitUsage;
  }
  const std::string model = exports::PromelaModel(scenario.value());
  if (!flags.output) {
    fmt::print(out, "{}", model);
    return 0;
  }
  if (Status written = WriteFileAtomically(*flags.output, model);
      !written.ok()) {
    fmt::print(err, "outbox-check: {}\n", written.message());
    return kExitUsage;
  }
  return 0;
}

}  // namespace oc
