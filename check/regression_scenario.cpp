#include "check/regression_scenario.h"

#include <fmt/format.h>

#include <filesystem>

namespace oc {

Result<Scenario> RegressionScenario(const ScenarioResult& result, std::size_t i,
                                    const std::string& folder) {
  const Scenario& original = result.scenario;
  const Violation& violation = result.exploration.violations[i];
  Scenario s;
  s.name = fmt::format("{}.{}", original.name, violation.property);
  s.config = original.config;
  if (const auto& sim = result.simulation) {
    // A swarm walk ran with budgets of its own: the order replays with
    // those.
    if (sim->budgets) s.config.budgets = *sim->budgets;
    s.description = fmt::format(
        "A counterexample of {} that a simulation of scenario '{}' ({}) "
        "found in walk {} of seed {}{}, shortened ({}), replayed as a "
        "pinned order.",
        violation.property, original.name, original.path, sim->walk.value_or(0),
        sim->seed,
        sim->budgets ? " (swarm: with the fault budgets that walk drew)" : "",
        sim->shortest ? "a breadth-first search proved it a shortest one"
                      : "not necessarily a shortest one");
  } else if (violation.lasso()) {
    s.description = fmt::format(
        "A fair cycle that puts {} off for ever, which outbox-check found in "
        "scenario '{}' ({}): its shortest stem as a pinned order and its "
        "loop as check.loop, replayed for two turns.",
        violation.property, original.name, original.path);
  } else {
    s.description = fmt::format(
        "The shortest counterexample of {} that outbox-check found in "
        "scenario '{}' ({}), replayed as a pinned order.",
        violation.property, original.name, original.path);
  }
  // The regression file is written elsewhere: a declared strategy's file,
  // relative to the original scenario's folder, becomes relative to
  // `folder`. Both sides are made absolute and normalized lexically, as the
  // loader joins a scenario's folder and the path it names.
  std::filesystem::path to = std::filesystem::absolute(folder);
  to = to.lexically_normal();
  // "out/" normalizes to "out/": the empty last element is no folder.
  if (!to.has_filename()) to = to.parent_path();
  for (Group& g : s.config.groups) {
    if (!g.declared) continue;
    const std::filesystem::path file =
        std::filesystem::absolute(
            std::filesystem::path(original.path).parent_path() /
            g.declared->file)
            .lexically_normal();
    const std::filesystem::path relative = file.lexically_relative(to);
    g.declared->file =
        relative.empty() ? file.generic_string() : relative.generic_string();
  }
  s.invariants = original.invariants;
  s.unchecked = original.unchecked;
  s.expressions = original.expressions;
  s.must_fire = {};
  for (const Action& a : violation.trace.actions) {
    s.order.push_back(PinnedStep{a, FormatAction(s.config, a), {}});
  }
  for (const Action& a : violation.loop.actions) {
    s.loop.push_back(PinnedStep{a, FormatAction(s.config, a), {}});
  }
  // A loop needs an order before it: a lasso from the initial state gets
  // one turn of its loop as its stem.
  if (s.order.empty()) s.order = s.loop;
  // Whatever else breaks along this order belongs in the expectation too:
  // ask the checker rather than guess.
  Result<ScenarioResult> replay = CheckScenario(s);
  if (!replay.ok()) return replay.status();
  const Exploration& found = replay.value().exploration;
  Expectation& expect = s.expect.emplace();
  if (found.violations.empty()) {
    // A lasso whose loop, replayed on the concrete model, is not a fair
    // cycle after all (the replay's warning says why): the file says what
    // the replay finds.
    expect.verdict = Verdict::kHolds;
    return s;
  }
  expect.verdict = Verdict::kViolated;
  expect.violated = replay.value().ViolatedInvariants();
  expect.trace_length =
      static_cast<int>(found.violations.front().trace.length());
  return s;
}

}  // namespace oc
