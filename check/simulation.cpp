#include "check/simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "explorer/breadth_first_search.h"
#include "explorer/random_walk.h"
#include "explorer/shorten_trace.h"
#include "model/fault_budgets.h"

namespace oc {
namespace {

// Highest weight a swarm walk draws for an action class.
constexpr std::uint64_t kMaxSwarmWeight = 4;

// What a swarm walk draws, in this order, from its own generator before
// its first step: each fault budget the scenario sets, from 0 to its pool,
// in table order; then a weight per action class.
struct SwarmDraw {
  FaultBudgets budgets;
  std::vector<std::uint32_t> weights;
};

SwarmDraw DrawSwarm(const Config& config, std::size_t classes,
                    explorer::WalkRandom& random) {
  SwarmDraw draw;
  draw.budgets = config.budgets;
  for (const FaultBudget& budget : kFaultBudgets) {
    const int pool = Pool(config, budget);
    if (pool <= 0) continue;
    draw.budgets.*budget.pool =
        static_cast<int>(random.Below(static_cast<std::uint64_t>(pool) + 1));
  }
  for (std::size_t c = 0; c < classes; ++c) {
    draw.weights.push_back(
        static_cast<std::uint32_t>(random.Below(kMaxSwarmWeight + 1)));
  }
  return draw;
}

// A swarm walk's weights: each class's drawn weight times the scenario's
// check.walk_weights (none given: the drawn weights as they are).
std::vector<std::uint32_t> Combined(
    std::vector<std::uint32_t> drawn,
    const std::vector<std::uint32_t>& scenario) {
  for (std::size_t c = 0; c < drawn.size() && c < scenario.size(); ++c) {
    drawn[c] *= scenario[c];
  }
  return drawn;
}

// `initial` with the budgets left set to `budgets`' pools.
State WithBudgets(State initial, const FaultBudgets& budgets) {
  for (const FaultBudget& budget : kFaultBudgets) {
    const int pool = budgets.*budget.pool;
    initial.budgets.*budget.left =
        static_cast<std::uint8_t>(pool == kAnyBudget ? 1 : pool);
  }
  return initial;
}

// Looks for a shortest violation of `property` no deeper than `trace`, in
// the model of `config`; sets `summary.shortest` (and puts that trace in
// `trace`) or says why not.
void SearchShortest(const Config& config, const std::string& property,
                    const SimulationOptions& options,
                    const SimulationContext& context, Trace& trace,
                    SimulationSummary& summary) {
  if (options.shortest_search_states == 0) {
    summary.shortest_unknown_because = "no breadth-first search was asked for";
    return;
  }
  const OutboxModel model(config);
  if (!(model.InitialStates().front() == trace.states.front())) {
    summary.shortest_unknown_because =
        "the walk did not start in the configuration's initial state";
    return;
  }
  Properties properties;
  for (auto& p : context.properties_for(model)) {
    if (p.name == property) properties.push_back(std::move(p));
  }
  explorer::Options search;
  search.max_depth = static_cast<int>(trace.length());
  search.max_states = options.shortest_search_states;
  search.max_bytes = context.max_bytes;
  search.stop_at_first_violation = true;
  search.threads = context.threads;
  search.cancel = context.cancel;
  const Exploration found =
      explorer::Explore<OutboxModel>(model, properties, search);
  if (!found.violations.empty()) {
    summary.shortest = true;
    if (found.violations.front().trace.length() < trace.length()) {
      trace = found.violations.front().trace;
    }
    return;
  }
  summary.shortest_unknown_because = fmt::format(
      "the breadth-first search to depth {} stopped at its limit of {} "
      "states",
      trace.length(), options.shortest_search_states);
}

}  // namespace

void Simulate(const OutboxModel& model, const Properties& properties,
              const SimulationOptions& options, int max_depth,
              const SimulationContext& context, ScenarioResult& result) {
  const auto began = std::chrono::steady_clock::now();
  const Config& config = result.scenario.config;
  explorer::WalkOptions walk;
  walk.seed = options.seed;
  walk.max_depth = max_depth;
  walk.walks = options.walks;
  walk.time = options.time;
  walk.threads = context.threads;
  walk.distinct_limit = options.distinct_limit;
  if (context.max_bytes) {
    // The set of distinct states seen holds each one's encoding in the
    // keys and at most 8 / 0.35 bytes of index: keep it within the
    // memory cap (a quarter of it, leaving room for the walks and the
    // shortening search), counting fewer states rather than passing it.
    const std::uint64_t per_state = model.EncodedSize() + 24;
    walk.distinct_limit =
        std::min(walk.distinct_limit, *context.max_bytes / 4 / per_state);
  }
  walk.cancel = context.cancel;
  walk.on_progress = context.on_progress;
  const std::vector<State> initials = model.InitialStates();
  const State& initial = initials.front();
  const std::size_t classes = OutboxModel::ActionClassNames().size();
  // check.walk_weights, by class index; empty: every class weighs 1.
  const std::vector<std::uint32_t>& weights = result.scenario.walk_weights;
  explorer::WalkStarter<OutboxModel> starter;
  if (options.swarm) {
    starter = [&](std::uint64_t, explorer::WalkRandom& random) {
      SwarmDraw draw = DrawSwarm(config, classes, random);
      return explorer::WalkStart<OutboxModel>{
          WithBudgets(initial, draw.budgets),
          Combined(std::move(draw.weights), weights)};
    };
  } else if (!weights.empty()) {
    // The initial state drawn as a walk without a starter draws it, so that
    // weights of 1 take the very steps no weights take.
    starter = [&](std::uint64_t, explorer::WalkRandom& random) {
      return explorer::WalkStart<OutboxModel>{
          initials[random.Below(initials.size())], weights};
    };
  }
  explorer::WalkRun<OutboxModel> run =
      explorer::RandomWalks<OutboxModel>(model, properties, walk, starter);

  SimulationSummary& summary = result.simulation.emplace();
  summary.seed = options.seed;
  summary.swarm = options.swarm;
  summary.max_depth = max_depth;
  summary.walks = run.walks;
  summary.walks_asked = options.walks;
  summary.time = options.time;
  summary.distinct_capped = run.distinct_capped;
  summary.ended_at_depth = run.ended_at_depth;
  summary.walk_weights = weights;
  Exploration& e = result.exploration;
  e.stop = run.stop;
  e.threads = context.threads;
  e.stats.states = run.distinct_states;
  e.stats.stored_states = run.distinct_states;
  e.stats.transitions = run.steps;
  e.stats.terminal_states = run.ended_at_rest;
  e.stats.bounded_dead_ends = run.ended_at_bound;
  e.stats.depth = run.depth;
  e.action_classes = std::move(run.action_classes);
  e.action_counts = std::move(run.action_counts);
  for (const FaultBudget& budget : kFaultBudgets) {
    if (Pool(config, budget) == 0) continue;
    std::uint64_t fired = 0;
    for (std::size_t c : OutboxModel::ClassesNamed(budget.spender)) {
      fired += e.action_counts[c];
    }
    if (fired == 0) summary.faults_never.emplace_back(budget.key);
  }

  if (run.found) {
    Violation violation = std::move(run.found->violation);
    summary.walk = run.found->walk;
    summary.walk_length = violation.trace.length();
    Config walk_config = config;
    if (options.swarm) {
      // Draw again what that walk drew: its generator starts the same.
      explorer::WalkRandom random(
          explorer::WalkSeed(options.seed, run.found->walk));
      SwarmDraw draw = DrawSwarm(config, classes, random);
      walk_config.budgets = draw.budgets;
      summary.budgets = draw.budgets;
      summary.class_weights = std::move(draw.weights);
    }
    const auto property = std::find_if(
        properties.begin(), properties.end(),
        [&](const auto& p) { return p.name == violation.property; });
    violation.trace = explorer::ShortenTrace(model, *property, violation.trace);
    if (!(context.cancel && context.cancel->load())) {
      SearchShortest(walk_config, violation.property, options, context,
                     violation.trace, summary);
    } else {
      summary.shortest_unknown_because = "the run was interrupted";
    }
    e.violations.push_back(std::move(violation));
  }
  e.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began)
          .count();
}

}  // namespace oc
