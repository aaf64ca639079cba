#include "reports/wording.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/text.h"
#include "model/action.h"
#include "model/fault_budgets.h"
#include "model/presentation.h"
#include "model/timing.h"
#include "reports/file_names.h"

namespace oc::reports {

std::string ReductionText(const Exploration& e) {
  if (e.reduction == "none") {
    return e.partial_order ? "no symmetry" : "none (every state stored)";
  }
  if (e.partial_order) {
    return fmt::format("symmetry of {}: one state stored per orbit",
                       e.reduction);
  }
  return fmt::format("symmetry of {}: {} stored, one per orbit of the {}",
                     e.reduction, Plural(e.stats.stored_states, "state"),
                     e.stats.states);
}

std::optional<std::string> PartialOrderText(const ScenarioResult& result) {
  const Exploration& e = result.exploration;
  if (e.partial_order) {
    return fmt::format("{}: {} stored; distinct states not counted",
                       *e.partial_order,
                       Plural(e.stats.stored_states, "state"));
  }
  if (result.partial_order_rerun) {
    return "found a violation; the counts and shortest traces are those of "
           "the unreduced search that followed";
  }
  return std::nullopt;
}

std::string StatesCount(const Exploration& e) {
  if (e.partial_order) return fmt::format("{} stored", e.stats.stored_states);
  return fmt::format("{}", e.stats.states);
}

std::string StopText(explorer::Stop stop) {
  switch (stop) {
    case explorer::Stop::kComplete:
      return "complete";
    case explorer::Stop::kMaxDepth:
      return "INCOMPLETE: stopped at the depth limit";
    case explorer::Stop::kMaxStates:
      return "INCOMPLETE: stopped at the state limit";
    case explorer::Stop::kFirstViolation:
      return "stopped at the first violation";
    case explorer::Stop::kMaxMemory:
      return "INCOMPLETE: stopped at the memory limit";
    case explorer::Stop::kInterrupted:
      return "INCOMPLETE: interrupted by a signal";
    case explorer::Stop::kSampled:
      return "INCOMPLETE: random walks (simulation)";
  }
  return "?";
}

std::string SearchText(const Exploration& e) {
  switch (e.stop) {
    case explorer::Stop::kComplete:
      return "exhaustive breadth-first, complete";
    case explorer::Stop::kMaxDepth:
      return "incomplete breadth-first, stopped at the depth limit";
    case explorer::Stop::kMaxStates:
      return "incomplete breadth-first, stopped at the state limit";
    case explorer::Stop::kMaxMemory:
      return "incomplete breadth-first, stopped at the memory limit";
    case explorer::Stop::kInterrupted:
      return "incomplete breadth-first, interrupted by a signal";
    case explorer::Stop::kFirstViolation:
      return "breadth-first, stopped at the first violation";
    case explorer::Stop::kSampled:
      return "simulation (random walks), incomplete";
  }
  return "?";
}

std::string SearchExtentText(const Exploration& e) {
  switch (e.stop) {
    case explorer::Stop::kComplete:
      return "exhaustive";
    case explorer::Stop::kMaxDepth:
    case explorer::Stop::kMaxStates:
    case explorer::Stop::kMaxMemory:
    case explorer::Stop::kInterrupted:
      return "incomplete";
    case explorer::Stop::kSampled:
      return "sampled by random walks";
    case explorer::Stop::kFirstViolation:
      return "up to the first violation";
  }
  return "?";
}

std::string KindText(explorer::PropertyKind kind) {
  switch (kind) {
    case explorer::PropertyKind::kSafety:
      return "safety";
    case explorer::PropertyKind::kTransition:
      return "transition";
    case explorer::PropertyKind::kAtRest:
      return "at rest";
  }
  return "?";
}

std::string TraceKindText(const ScenarioResult& result) {
  const auto& sim = result.simulation;
  if (!sim || !sim->walk) return "shortest trace";
  std::string text = fmt::format("trace of walk {}, shortened; ", *sim->walk);
  if (sim->shortest) {
    return text + "a shortest one (a breadth-first search proved it)";
  }
  return text + fmt::format("not necessarily a shortest one ({})",
                            sim->shortest_unknown_because);
}

std::optional<std::string> SimulationText(const ScenarioResult& result) {
  const auto& sim = result.simulation;
  if (!sim) return std::nullopt;
  const explorer::Stats& s = result.exploration.stats;
  return fmt::format(
      "{}{} of at most {} from seed {}, {}{} seen, {}, {} ended at rest",
      sim->swarm ? "swarm: " : "", Plural(sim->walks, "random walk"),
      Plural(static_cast<std::uint64_t>(sim->max_depth), "step"), sim->seed,
      sim->distinct_capped ? "at least " : "",
      Plural(s.states, "distinct state"), Plural(s.transitions, "step"),
      s.terminal_states);
}

std::optional<std::string> SwarmDrawText(const ScenarioResult& result) {
  const auto& sim = result.simulation;
  if (!sim || !sim->budgets) return std::nullopt;
  std::vector<std::string> budgets;
  for (const FaultBudget& budget : kFaultBudgets) {
    if (Pool(result.scenario.config, budget) == 0) continue;
    budgets.push_back(fmt::format("faults.{} = {}", budget.key,
                                  BudgetText((*sim->budgets).*budget.pool)));
  }
  std::vector<std::string> weights;
  const std::vector<std::string>& classes = result.exploration.action_classes;
  const std::vector<std::string> all = OutboxModel::ActionClassNames();
  for (std::size_t c = 0; c < sim->class_weights.size() && c < all.size();
       ++c) {
    // Only the classes this configuration can fire.
    if (std::find(classes.begin(), classes.end(), all[c]) == classes.end()) {
      continue;
    }
    weights.push_back(fmt::format("{} {}", all[c], sim->class_weights[c]));
  }
  return fmt::format("{}; weights {}",
                     budgets.empty()
                         ? std::string("no fault budgets")
                         : fmt::format("{}", fmt::join(budgets, ", ")),
                     fmt::join(weights, ", "));
}

std::optional<std::string> WalkWeightsText(const ScenarioResult& result) {
  const auto& sim = result.simulation;
  if (!sim || sim->walk_weights.empty()) return std::nullopt;
  const std::vector<std::string> all = OutboxModel::ActionClassNames();
  std::vector<std::string> weights;
  for (std::size_t c = 0; c < sim->walk_weights.size() && c < all.size(); ++c) {
    if (sim->walk_weights[c] == 1) continue;
    weights.push_back(fmt::format("{} {}", all[c], sim->walk_weights[c]));
  }
  return fmt::format(
      "check.walk_weights {}, every other class 1{}", fmt::join(weights, ", "),
      sim->swarm ? "; each walk multiplies them by the weights it drew" : "");
}

std::string VerdictText(const ScenarioResult& result) {
  const Exploration& e = result.exploration;
  if (e.violations.empty()) {
    if (e.complete()) return "holds";
    if (result.simulation && e.stop == explorer::Stop::kSampled) {
      return fmt::format("no violation found in {}, {}{} seen",
                         Plural(result.simulation->walks, "walk"),
                         result.simulation->distinct_capped ? "at least " : "",
                         Plural(e.stats.states, "distinct state"));
    }
    return "no violation found (search incomplete)";
  }
  std::vector<std::string> names = result.ViolatedInvariants();
  const Violation& shortest = e.violations.front();
  return fmt::format("violated: {} ({})", fmt::join(names, ", "),
                     shortest.lasso()
                         ? LassoText(shortest)
                         : Plural(shortest.trace.length(), "step"));
}

std::string LassoText(const Violation& v) {
  return fmt::format("a fair cycle: stem {}, loop {}",
                     Plural(v.trace.length(), "step"),
                     Plural(v.loop.length(), "step"));
}

std::string ExpectedText(const Scenario& scenario) {
  if (!scenario.expect) return "none";
  const Expectation& x = *scenario.expect;
  if (x.verdict == Verdict::kHolds) return "holds";
  std::string text = fmt::format("violated: {}", fmt::join(x.violated, ", "));
  if (x.trace_length)
    text += fmt::format(" ({})", Plural(*x.trace_length, "step"));
  return text;
}

std::string OutcomeText(Outcome outcome) {
  switch (outcome) {
    case Outcome::kAsExpected:
      return "ok";
    case Outcome::kUnexpected:
      return "UNEXPECTED";
    case Outcome::kInconclusive:
      return "INCONCLUSIVE";
    case Outcome::kNoExpectationHolds:
    case Outcome::kNoExpectationViolated:
      return "no expectation";
  }
  return "?";
}

std::string FoundText(const ScenarioResult& result) {
  const Exploration& e = result.exploration;
  const std::size_t checked = result.scenario.invariants.size();
  const bool stop_first = e.stop == explorer::Stop::kFirstViolation;
  if (e.violations.empty()) {
    if (!e.complete()) {
      return fmt::format(
          "no violation found before the search {}; nothing is proved",
          e.stop == explorer::Stop::kInterrupted ? "was interrupted"
                                                 : "stopped at a limit");
    }
    return fmt::format("{} {}{}", Plural(checked, "invariant"),
                       checked == 1 ? "holds" : "hold",
                       result.replay ? " along the pinned order" : "");
  }
  std::vector<std::string> broke;
  for (const Violation& v : e.violations) {
    if (v.lasso()) {
      broke.push_back(
          fmt::format("{} violated by a fair cycle (stem {}, loop "
                      "{})",
                      v.property, Plural(v.trace.length(), "step"),
                      Plural(v.loop.length(), "step")));
      continue;
    }
    broke.push_back(fmt::format(
        "{} violated {} {}", v.property, result.replay ? "at step" : "in",
        result.replay ? std::to_string(v.trace.length())
                      : Plural(v.trace.length(), "step")));
  }
  std::string text = fmt::format("{}", fmt::join(broke, ", "));
  const std::size_t others = checked - e.violations.size();
  if (others == 0) return text;
  const bool proved = e.complete() && !stop_first;
  return text + fmt::format("; {} other {} {}", others,
                            others == 1 ? "invariant" : "invariants",
                            !proved       ? "not proved to hold"
                            : others == 1 ? "holds"
                                          : "hold");
}

std::string OutcomeSentence(const ScenarioResult& result) {
  std::string text = OutcomeText(result.outcome);
  if (result.outcome == Outcome::kNoExpectationHolds ||
      result.outcome == Outcome::kNoExpectationViolated) {
    text += ": " + FoundText(result);
  }
  return text;
}

std::string RunOutcomeText(const std::vector<ScenarioResult>& results) {
  std::vector<Outcome> outcomes;
  std::size_t without = 0;
  for (const ScenarioResult& r : results) {
    outcomes.push_back(r.outcome);
    if (!r.scenario.expect) ++without;
  }
  const int code = ExitCodeFor(outcomes);
  auto count = [&](Outcome o) {
    return static_cast<std::size_t>(
        std::count(outcomes.begin(), outcomes.end(), o));
  };
  if (without == 0 || code == 3) {
    return code == 0   ? "all scenarios as expected"
           : code == 1 ? "some scenario differs from its expectation"
                       : "some search stopped at a limit; not proved";
  }
  if (results.size() == 1) {
    const ScenarioResult& r = results.front();
    std::string text = "no expectation: " + FoundText(r);
    for (const std::string& why : r.mismatches) text += "; " + why;
    return text;
  }
  std::vector<std::string> parts;
  if (code == 0) {
    if (const std::size_t n = count(Outcome::kAsExpected); n > 0) {
      parts.push_back(fmt::format("{} as expected", Plural(n, "scenario")));
    }
    parts.push_back(
        fmt::format("no expectation: every checked invariant holds in {}",
                    Plural(count(Outcome::kNoExpectationHolds), "scenario")));
  } else {
    if (count(Outcome::kUnexpected) > 0) {
      parts.emplace_back("some scenario differs from its expectation");
    }
    if (const std::size_t n = count(Outcome::kNoExpectationViolated); n > 0) {
      parts.push_back(
          fmt::format("no expectation: an invariant is violated in {}",
                      Plural(n, "scenario")));
    }
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string PinnedLengthText(const ScenarioResult& result) {
  if (result.replay_loop_steps == 0) {
    return Plural(result.replay->length(), "step");
  }
  return fmt::format("{}, then two turns of its loop of {}",
                     Plural(result.replay_order_steps, "step"),
                     Plural(result.replay_loop_steps, "step"));
}

std::string BoundsText(const ScenarioResult& result) {
  if (result.replay && result.replay_loop_steps > 0) {
    return fmt::format(
        "along one pinned order of {}, then two turns of a "
        "loop of {}",
        Plural(result.replay_order_steps, "step"),
        Plural(result.replay_loop_steps, "step"));
  }
  if (result.replay) {
    return fmt::format("along one pinned order of {}",
                       Plural(result.replay->length(), "step"));
  }
  const Config& c = result.scenario.config;
  // "at most" once in front of the seed's six, unless one is "any"; then
  // each says its own limit.
  const bool any = AnyUnboundedBudget(c);
  auto words = [&](const FaultBudget& budget) {
    const int pool = Pool(c, budget);
    if (!any) return Plural(pool, budget.singular, budget.plural);
    return pool == 0 ? fmt::format("no {}", budget.plural)
                     : BudgetLimit(pool, budget);
  };
  std::vector<std::string> seed;
  ForEachBudget(BudgetFamily::kSeed, [&](const FaultBudget& budget) {
    seed.push_back(words(budget));
  });
  const std::string last = seed.back();
  seed.pop_back();
  const std::string coverage = SearchExtentText(result.exploration);
  std::string text = fmt::format(
      "{}{} {} and {}",
      coverage == "exhaustive" ? "exhaustive for" : coverage + ", within",
      any ? "" : " at most", fmt::join(seed, ", "), last);
  ForEachBudget(BudgetFamily::kTime, [&](const FaultBudget& budget) {
    if (Shown(c, budget)) text += ", " + words(budget);
  });
  ForEachBudget(BudgetFamily::kBroker, [&](const FaultBudget& budget) {
    if (Shown(c, budget)) text += ", " + words(budget);
  });
  if (c.claim_bound > 0) {
    text += fmt::format(", and at most {} per event",
                        Plural(c.claim_bound, "claim"));
  } else if (CountsAbstracted(c) && !c.lease) {
    text += ", and any number of claims per event";
  }
  if (c.time.horizon) {
    text +=
        fmt::format(", up to the horizon {}", FormatDuration(*c.time.horizon));
  }
  // The relay style, its settings and its budgets, when not the seed's.
  text += RelayStyleClauses(c);
  if (c.commits_during_run)
    text += "; source transactions commit during the run";
  if (c.message_id != MessageIdentity::kOutboxId) {
    text += fmt::format("; message id {}", MessageIdentityName(c.message_id));
  }
  return text;
}

std::string PointOfNoReturnText(const ScenarioResult& result, std::size_t i) {
  const PointOfNoReturn& p = result.points_of_no_return[i];
  if (!p.step) return "unknown: " + p.unknown_because;
  const Config& config = result.scenario.config;
  const Trace& trace = result.exploration.violations[i].trace;
  if (*p.step == 0) return "unavoidable from the initial state";
  std::string text =
      fmt::format("step {}, {}: after it, every continuation violates {}",
                  *p.step, FormatAction(config, trace.actions[*p.step - 1]),
                  result.exploration.violations[i].property);
  if (!p.safe_alternatives.empty()) {
    std::vector<std::string> names;
    for (const Action& a : p.safe_alternatives) {
      names.push_back(FormatAction(config, a));
    }
    text += fmt::format(
        "; {} was the last safe state, where {} stayed clear",
        *p.step == 1 ? std::string("the initial state")
                     : fmt::format("the state after step {}", *p.step - 1),
        fmt::join(names, " or "));
  }
  return text;
}

std::string ReportStem(const Scenario& scenario) {
  return SafeFileStem(scenario.name);
}

std::string WrittenBy(const ReportOptions& options) {
  std::string out = std::string("outbox-check ") + OUTBOX_CHECK_VERSION;
  if (!options.command_line.empty()) {
    out += fmt::format(", by the command: {}", options.command_line);
  }
  return out;
}

}  // namespace oc::reports
