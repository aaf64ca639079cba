// The simulation behind CheckOptions::simulate: random walks over a
// scenario's model, the violation found shortened and, if affordable, made
// a shortest one by a bounded breadth-first search. Used by CheckScenario;
// not an interface of its own.

#ifndef OUTBOX_CHECK_CHECK_SIMULATION_H_
#define OUTBOX_CHECK_CHECK_SIMULATION_H_

#include <functional>
#include <vector>

#include "check/scenario_check.h"
#include "explorer/model_concept.h"

namespace oc {

using Properties = std::vector<explorer::Property<State>>;

// What the walks need beside the scenario: the checked properties of a
// model (a swarm walk's own budgets make another model to search for the
// shortest trace), and the search's limits.
struct SimulationContext {
  std::function<Properties(const OutboxModel&)> properties_for;
  int threads = 0;
  std::optional<std::uint64_t> max_bytes;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const explorer::Stats&)> on_progress;
};

// Fills result.exploration (as SimulationSummary describes) and
// result.simulation from walks over `model`, whose properties are
// `properties`. REQUIRES: result.model is `model`, built from
// result.scenario.config; the scenario has no pinned order.
void Simulate(const OutboxModel& model, const Properties& properties,
              const SimulationOptions& options, int max_depth,
              const SimulationContext& context, ScenarioResult& result);

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_SIMULATION_H_
