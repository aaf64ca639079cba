#include "scenarios/scenario_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "explorer/breadth_first_search.h"
#include "invariants/invariant.h"

namespace oc {
namespace {

using Property = explorer::Property<State>;

explorer::PropertyKind KindOf(InvariantKind kind) {
  switch (kind) {
    case InvariantKind::kSafety:
      return explorer::PropertyKind::kSafety;
    case InvariantKind::kTransition:
      return explorer::PropertyKind::kTransition;
    case InvariantKind::kAtRest:
      return explorer::PropertyKind::kAtRest;
  }
  return explorer::PropertyKind::kSafety;
}

// REQUIRES: every name is a known invariant (the loader checked).
std::vector<Property> PropertiesFor(const std::vector<std::string>& names,
                                    const OutboxModel& model) {
  std::vector<Property> properties;
  for (const std::string& name : names) {
    const Invariant* inv = FindInvariant(name);
    Property p;
    p.name = name;
    p.kind = KindOf(inv->kind);
    if (inv->holds != nullptr) {
      p.holds = [inv, &model](const State& s) { return inv->holds(model, s); };
    }
    if (inv->holds_on != nullptr) {
      p.holds_on = [inv, &model](const State& a, const State& b) {
        return inv->holds_on(model, a, b);
      };
    }
    properties.push_back(std::move(p));
  }
  return properties;
}

std::string Location(const Scenario& scenario, const SourcePosition& at) {
  if (at.line == 0) return scenario.path;
  return fmt::format("{}:{}:{}", scenario.path, at.line, at.column);
}

// Replays the pinned order, checking every invariant after every step, and
// describes the path as an Exploration of one path.
Status Replay(const OutboxModel& model, const std::vector<Property>& properties,
              ScenarioResult& result) {
  const Scenario& scenario = result.scenario;
  Trace trace;
  trace.states.push_back(model.InitialStates().front());
  std::vector<std::optional<Violation>> found(properties.size());
  auto prefix = [&] { return trace; };
  auto check_state = [&](explorer::PropertyKind kind) {
    for (std::size_t p = 0; p < properties.size(); ++p) {
      if (properties[p].kind == kind && !found[p] &&
          !properties[p].holds(trace.states.back())) {
        found[p] = Violation{properties[p].name, kind, prefix()};
      }
    }
  };
  check_state(explorer::PropertyKind::kSafety);
  for (std::size_t i = 0; i < scenario.order.size(); ++i) {
    const PinnedStep& step = scenario.order[i];
    const State& before = trace.states.back();
    Result<State> next = model.Apply(before, step.action);
    if (!next.ok()) {
      return Status::Error(
          fmt::format("{}: check.order step {} '{}' is not enabled: {}",
                      Location(scenario, step.position), i + 1, step.text,
                      next.status().message()));
    }
    trace.actions.push_back(step.action);
    trace.states.push_back(std::move(next).value());
    for (std::size_t p = 0; p < properties.size(); ++p) {
      if (properties[p].kind == explorer::PropertyKind::kTransition &&
          !found[p] &&
          !properties[p].holds_on(trace.states[trace.states.size() - 2],
                                  trace.states.back())) {
        found[p] = Violation{properties[p].name, properties[p].kind, prefix()};
      }
    }
    check_state(explorer::PropertyKind::kSafety);
  }
  std::vector<std::pair<Action, State>> successors;
  model.Successors(trace.states.back(), successors);
  result.replay_ends_at_rest =
      successors.empty() && !model.BlockedByBound(trace.states.back());
  if (result.replay_ends_at_rest) check_state(explorer::PropertyKind::kAtRest);

  explorer::Stats& stats = result.exploration.stats;
  stats.states = trace.states.size();
  stats.transitions = trace.actions.size();
  stats.depth = static_cast<int>(trace.actions.size());
  stats.terminal_states = result.replay_ends_at_rest ? 1 : 0;
  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < properties.size(); ++p) {
    if (found[p]) order.push_back(p);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return found[a]->trace.length() < found[b]->trace.length();
                   });
  for (std::size_t p : order) {
    result.exploration.violations.push_back(std::move(*found[p]));
  }
  result.replay = std::move(trace);
  return Status::Ok();
}

void Judge(ScenarioResult& result) {
  const Scenario& scenario = result.scenario;
  const Expectation& expect = scenario.expect;
  const Exploration& exploration = result.exploration;
  const std::vector<std::string> violated = result.ViolatedInvariants();
  const std::set<std::string> found(violated.begin(), violated.end());
  const std::set<std::string> wanted(expect.violated.begin(),
                                     expect.violated.end());
  const bool stop_first = exploration.stop == explorer::Stop::kFirstViolation;
  const bool complete = exploration.complete() || stop_first;
  auto mismatch = [&](std::string why) {
    result.mismatches.push_back(std::move(why));
    result.outcome = Outcome::kUnexpected;
  };

  for (const std::string& name : violated) {
    if (!wanted.count(name)) {
      mismatch(fmt::format(
          "'{}' is violated, but the scenario expects it to hold", name));
    }
  }
  for (const std::string& name : expect.violated) {
    if (found.count(name)) continue;
    if (stop_first) {
      // Only the shortest violation is known; one expected invariant is
      // enough when stopping at the first.
      if (!violated.empty() && wanted.count(violated.front())) continue;
    }
    if (!complete) {
      result.mismatches.push_back(fmt::format(
          "'{}' was not violated before the search stopped at a limit", name));
      if (result.outcome == Outcome::kAsExpected) {
        result.outcome = Outcome::kInconclusive;
      }
    } else {
      mismatch(fmt::format("'{}' holds, but the scenario expects it violated",
                           name));
    }
  }
  if (!complete && result.outcome == Outcome::kAsExpected &&
      found.size() < scenario.invariants.size()) {
    result.mismatches.push_back(
        "the search stopped at a limit, so the invariants it did not see "
        "violated are not proved to hold");
    result.outcome = Outcome::kInconclusive;
  }
  if (expect.trace_length && !exploration.violations.empty()) {
    const std::size_t shortest = exploration.violations.front().trace.length();
    if (shortest != static_cast<std::size_t>(*expect.trace_length)) {
      mismatch(fmt::format("the shortest violation has {} steps; expected {}",
                           shortest, *expect.trace_length));
    }
  }
  if (expect.states && exploration.complete() &&
      exploration.stats.states != *expect.states) {
    mismatch(fmt::format("{} distinct states; expected {}",
                         exploration.stats.states, *expect.states));
  }
}

}  // namespace

std::vector<std::string> ScenarioResult::ViolatedInvariants() const {
  std::vector<std::string> names;
  for (const Violation& v : exploration.violations) names.push_back(v.property);
  return names;
}

Result<ScenarioResult> CheckScenario(const Scenario& scenario,
                                     const CheckOptions& options) {
  ScenarioResult result;
  result.scenario = scenario;
  result.model = std::make_shared<const OutboxModel>(scenario.config);
  const OutboxModel& model = *result.model;
  const std::vector<Property> properties =
      PropertiesFor(scenario.invariants, model);

  if (!scenario.order.empty()) {
    if (Status s = Replay(model, properties, result); !s.ok()) return s;
  } else {
    explorer::Options search;
    search.max_depth =
        options.max_depth ? options.max_depth : scenario.limits.max_depth;
    search.max_states =
        options.max_states ? options.max_states : scenario.limits.max_states;
    search.stop_at_first_violation = options.stop_at_first_violation.value_or(
        scenario.stop_at_first_violation);
    search.on_progress = options.on_progress;
    result.exploration =
        explorer::Explore<OutboxModel>(model, properties, search);
  }
  Judge(result);
  return result;
}

int ExitCodeFor(const std::vector<Outcome>& outcomes) {
  if (std::count(outcomes.begin(), outcomes.end(), Outcome::kUnexpected)) {
    return 1;
  }
  if (std::count(outcomes.begin(), outcomes.end(), Outcome::kInconclusive)) {
    return 3;
  }
  return 0;
}

}  // namespace oc
