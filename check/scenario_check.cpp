#include "check/scenario_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "check/simulation.h"
#include "check/symmetry_quotient.h"
#include "common/text.h"
#include "explorer/breadth_first_search.h"
#include "explorer/compassion.h"
#include "explorer/distributed_search.h"
#include "explorer/fair_cycles.h"
#include "explorer/inevitability.h"
#include "explorer/quotient_fairness.h"
#include "explorer/worker_pool.h"
#include "invariants/invariant.h"
#include "model/fault_budgets.h"
#include "model/relay_styles.h"

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
std::vector<Property> PropertiesFor(
    const std::vector<std::string>& names,
    const std::vector<InvariantExpression>& expressions,
    const OutboxModel& model) {
  std::vector<Property> properties;
  for (const std::string& name : names) {
    const auto declared = std::find_if(
        expressions.begin(), expressions.end(),
        [&](const InvariantExpression& x) { return x.name == name; });
    if (declared != expressions.end()) {
      const InvariantExpression* x = &*declared;
      Property p;
      p.name = name;
      p.kind = KindOf(x->kind);
      if (x->kind == InvariantKind::kTransition) {
        p.holds_on = [x, &model](const State& a, const State& b) {
          return x->HoldsOn(model, a, b);
        };
      } else {
        p.holds = [x, &model](const State& s) { return x->Holds(model, s); };
      }
      properties.push_back(std::move(p));
      continue;
    }
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

// What the checked invariants read of events, beyond the model's own
// rules: the attributes the declared expressions read and the events they
// name. The built-in invariants read only what the model's rules read for
// the groups they are about (a projection group's key and version).
EventReads WhatChecksRead(const Config& config,
                          const std::vector<std::string>& names,
                          const std::vector<InvariantExpression>& expressions) {
  EventReads reads;
  auto add = [](std::vector<std::string>& to, const std::string& name) {
    if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
  };
  for (const std::string& name : names) {
    const auto x = std::find_if(
        expressions.begin(), expressions.end(),
        [&](const InvariantExpression& x) { return x.name == name; });
    if (x == expressions.end()) continue;
    for (const std::string& a : x->attributes) add(reads.attributes, a);
    for (const std::string& a : x->numbers) add(reads.attributes, a);
    for (int e : x->named_events) {
      add(reads.events, config.events[static_cast<std::size_t>(e)].name);
    }
  }
  return reads;
}

// What the checked safety and transition invariants read of the state,
// for partial-order reduction: the declared expressions' cells, and for
// the built-in invariants those their descriptor rows give. At-rest
// invariants are read in terminal states only, which the reduction keeps
// every one of, so they need no entry.
StateReads WhatChecksReadOfState(
    const Config& config, const std::vector<std::string>& names,
    const std::vector<InvariantExpression>& expressions) {
  StateReads reads;
  reads.groups.assign(config.groups.size(), 0);
  auto family = [&](StrategyFamily f, std::uint8_t bits) {
    for (std::size_t g = 0; g < config.groups.size(); ++g) {
      if (FamilyOf(config.groups[g]) == f) reads.groups[g] |= bits;
    }
  };
  for (const std::string& name : names) {
    const auto x = std::find_if(
        expressions.begin(), expressions.end(),
        [&](const InvariantExpression& x) { return x.name == name; });
    if (x != expressions.end()) {
      if (x->kind != InvariantKind::kAtRest) AddStateReads(*x, reads);
      continue;
    }
    const Invariant* builtin = FindInvariant(name);
    if (builtin == nullptr || builtin->kind == InvariantKind::kAtRest) {
      continue;
    }
    reads.rows = reads.rows || builtin->reads_rows;
    reads.offered = reads.offered || builtin->reads_offered;
    if (builtin->needs) family(*builtin->needs, builtin->group_reads);
  }
  return reads;
}

// Whether to try partial-order reduction (CheckOptions::partial_order).
bool UsePartialOrder(const Scenario& scenario,
                     CheckOptions::PartialOrderUse use) {
  using Use = CheckOptions::PartialOrderUse;
  if (use == Use::kOff || !scenario.must_fire.empty()) return false;
  const std::optional<Expectation>& expect = scenario.expect;
  if (use == Use::kOn) return true;
  if (expect && expect->states) return false;
  return !expect || expect->verdict == Verdict::kHolds;
}

// The explorer's options for `scenario` under `options` (partial-order
// reduction left off).
explorer::Options SearchOptions(const Scenario& scenario,
                                const CheckOptions& options) {
  explorer::Options search;
  search.max_depth =
      options.max_depth ? options.max_depth : scenario.limits.max_depth;
  search.max_states =
      options.max_states ? options.max_states : scenario.limits.max_states;
  search.stop_at_first_violation = options.stop_at_first_violation.value_or(
      scenario.stop_at_first_violation);
  search.on_progress = options.on_progress;
  search.graph_limit = options.graph_limit;
  search.max_bytes = options.max_bytes;
  search.graph_bytes_limit = options.graph_bytes_limit;
  search.threads = options.threads;
  search.symmetry = options.symmetry;
  search.cancel = options.cancel;
  return search;
}

// The bytes the leads-to check may hold in a state graph.
std::uint64_t LivenessGraphLimit(const CheckOptions& options) {
  return options.max_bytes.value_or(std::uint64_t{8} << 30);
}

// Whether the abstraction over-approximates counts, so that the leads-to
// check also needs compassion (no run taking more copies than were added).
bool NeedsCompassion(const OutboxModel& model) {
  return model.Abstracted() && !model.AbstractionExact();
}

// Whether the leads-to check asks its question on the symmetry quotient
// (see CheckLiveness): the search reduces by symmetry, and the count flows
// an over-approximation labels edges with can be renamed.
bool QuotientApplies(const OutboxModel& model, const CheckOptions& options) {
  const bool compassion = NeedsCompassion(model);
  return options.symmetry && model.HasSymmetry() &&
         (!compassion || model.FlowPairsDistinct());
}

// The symmetry quotient's renamings and keying, for the search to record
// the quotient graph with (when the leads-to check will ask for it) and
// the check to read its labels with.
struct Quotient {
  Quotient(const OutboxModel& model, bool counts)
      : group(model), keying(model, group, counts) {}
  RenamingGroup group;
  QuotientKeying keying;
};

// The exhaustive search `options` ask for: on this process, or spread
// over the ranks of CheckOptions::distributed. With `quotient`, a search
// on this process records the symmetry quotient's graph as it goes.
Exploration Search(const OutboxModel& model,
                   const std::vector<Property>& properties,
                   const explorer::Options& search, const CheckOptions& options,
                   Quotient* quotient = nullptr) {
  if (options.distributed != nullptr) {
    return explorer::ExploreDistributed<OutboxModel>(model, properties, search,
                                                     *options.distributed);
  }
  if (quotient != nullptr && !search.partial_order) {
    return explorer::ExploreRecording<OutboxModel>(model, properties, search,
                                                   quotient->keying,
                                                   LivenessGraphLimit(options));
  }
  return explorer::Explore<OutboxModel>(model, properties, search);
}

// Whether a signal stopped the run. Ranks of a distributed search agree
// on what stopped it, not on when each saw the signal: they ask the search.
bool Interrupted(const Exploration& e, const CheckOptions& options) {
  if (options.distributed != nullptr) {
    return e.stop == explorer::Stop::kInterrupted;
  }
  return options.cancel != nullptr && options.cancel->load();
}

// CheckOptions::partial_order_check.
void ComparePartialOrder(const OutboxModel& model,
                         const std::vector<Property>& properties,
                         const CheckOptions& options, ScenarioResult& result) {
  if (!model.HasPartialOrder()) {
    result.partial_order_check = "not compared: partial-order reduction " +
                                 model.PartialOrderDescription();
    return;
  }
  // The scenario's search, without progress, graph or early stop.
  explorer::Options search = SearchOptions(result.scenario, options);
  search.on_progress = nullptr;
  search.graph_limit = 0;
  search.stop_at_first_violation = false;
  search.partial_order = true;
  const Exploration reduced = Search(model, properties, search, options);
  search.partial_order = false;
  const Exploration full = Search(model, properties, search, options);
  if (!reduced.complete() || !full.complete()) {
    result.partial_order_check =
        "not compared: a limit stopped one of the searches";
    return;
  }
  std::vector<std::string> differences;
  auto names = [](const Exploration& e) {
    std::vector<std::string> n;
    for (const Violation& v : e.violations) n.push_back(v.property);
    std::sort(n.begin(), n.end());
    return n;
  };
  if (names(reduced) != names(full)) {
    differences.push_back(fmt::format(
        "violated with partial-order reduction: [{}]; without: [{}]",
        fmt::join(names(reduced), ", "), fmt::join(names(full), ", ")));
  }
  if (reduced.stats.terminal_states != full.stats.terminal_states ||
      reduced.stats.bounded_dead_ends != full.stats.bounded_dead_ends) {
    differences.push_back(fmt::format(
        "terminal states and bounded dead ends with partial-order "
        "reduction: {} and {}; without: {} and {}",
        reduced.stats.terminal_states, reduced.stats.bounded_dead_ends,
        full.stats.terminal_states, full.stats.bounded_dead_ends));
  }
  // Every reduced trace replays and breaks its invariant at its end.
  for (const Violation& v : reduced.violations) {
    const auto p =
        std::find_if(properties.begin(), properties.end(),
                     [&](const Property& p) { return p.name == v.property; });
    const Trace& t = v.trace;
    bool real = !t.states.empty() &&
                t.states.front() == model.InitialStates().front() &&
                t.states.size() == t.actions.size() + 1;
    for (std::size_t i = 0; real && i < t.actions.size(); ++i) {
      Result<State> next = model.Apply(t.states[i], t.actions[i]);
      real = next.ok() && next.value() == t.states[i + 1];
    }
    if (real && p != properties.end()) {
      switch (p->kind) {
        case explorer::PropertyKind::kTransition:
          real = t.states.size() >= 2 &&
                 !p->holds_on(t.states[t.states.size() - 2], t.states.back());
          break;
        case explorer::PropertyKind::kSafety:
        case explorer::PropertyKind::kAtRest:
          real = !p->holds(t.states.back());
          break;
      }
    }
    if (!real) {
      differences.push_back(
          fmt::format("the reduced trace of {} does not replay to a violation",
                      v.property));
    }
  }
  if (differences.empty()) {
    result.partial_order_check = fmt::format(
        "same verdicts, terminal states and dead ends; {} stored with "
        "partial-order reduction, {} without",
        reduced.stats.stored_states, full.stats.stored_states);
    return;
  }
  result.partial_order_check = "partial-order reduction differs: " +
                               fmt::format("{}", fmt::join(differences, "; "));
  for (std::string& d : differences) {
    result.mismatches.push_back("partial-order check: " + std::move(d));
    result.outcome = Outcome::kUnexpected;
  }
}

std::string Location(const Scenario& scenario, const SourcePosition& at) {
  if (at.line == 0) return scenario.path;
  return fmt::format("{}:{}:{}", scenario.path, at.line, at.column);
}

// Why the loop `trace.actions[from..]` (whole turns of check.loop) is not
// a fair cycle, or "" when it is: it takes no fault, and every fairness
// class enabled (by a non-fault action) in every state it passes through
// is taken on it, as FindFairLasso's loops are (explorer/fair_cycles.h).
std::string UnfairLoop(const OutboxModel& model, const Trace& trace,
                       std::size_t from) {
  const Config& config = model.config();
  std::set<std::uint64_t> taken;
  for (std::size_t k = from; k < trace.actions.size(); ++k) {
    if (model.IsFault(trace.states[k], trace.actions[k])) {
      return fmt::format("it takes the fault {}",
                         FormatAction(config, trace.actions[k]));
    }
    taken.insert(OutboxModel::FairnessClass(trace.actions[k]));
  }
  // Classes enabled in every state of the loop, with an action of each.
  std::map<std::uint64_t, Action> always;
  std::vector<std::pair<Action, State>> next;
  for (std::size_t k = from; k < trace.actions.size(); ++k) {
    next.clear();
    model.Successors(trace.states[k], next);
    std::map<std::uint64_t, Action> here;
    for (const auto& [a, to] : next) {
      if (!model.IsFault(trace.states[k], a)) {
        here.emplace(OutboxModel::FairnessClass(a), a);
      }
    }
    if (k == from) {
      always = std::move(here);
      continue;
    }
    std::erase_if(always, [&](const auto& c) { return !here.count(c.first); });
  }
  for (const auto& [c, a] : always) {
    if (!taken.count(c)) {
      return fmt::format(
          "{} is enabled in every state of it but never taken, which weak "
          "fairness rules out",
          FormatAction(config, a));
    }
  }
  return "";
}

// Replays the pinned order, and then two turns of check.loop if there is
// one, checking every invariant after every step, and describes the path
// as an Exploration of one path. An at-rest property that fails in every
// state of the loop's turns is violated by the lasso: the order as its
// stem, the loop's first turn as its loop.
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
  // Takes `step`, or says why it is not enabled; `key` and `i` name it,
  // `where` is said after "is not enabled".
  auto take = [&](const PinnedStep& step, std::string_view key, std::size_t i,
                  std::string_view where) {
    const State& before = trace.states.back();
    Result<State> next = model.Apply(before, step.action);
    if (!next.ok()) {
      return Status::Error(
          fmt::format("{}: check.{} step {} '{}' is not enabled{}: {}",
                      Location(scenario, step.position), key, i + 1, step.text,
                      where, next.status().message()));
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
    return Status::Ok();
  };
  check_state(explorer::PropertyKind::kSafety);
  for (std::size_t i = 0; i < scenario.order.size(); ++i) {
    if (Status s = take(scenario.order[i], "order", i, ""); !s.ok()) return s;
  }
  const std::size_t stem = trace.length();
  for (int turn = 0; turn < 2 && !scenario.loop.empty(); ++turn) {
    for (std::size_t i = 0; i < scenario.loop.size(); ++i) {
      if (Status s = take(scenario.loop[i], "loop", i,
                          turn == 0 ? "" : " on the loop's second turn");
          !s.ok()) {
        return s;
      }
    }
  }
  result.replay_order_steps = stem;
  result.replay_loop_steps = scenario.loop.size();
  std::vector<std::pair<Action, State>> successors;
  model.Successors(trace.states.back(), successors);
  result.replay_ends_at_rest =
      successors.empty() && !model.BlockedByBound(trace.states.back());
  if (result.replay_ends_at_rest) check_state(explorer::PropertyKind::kAtRest);
  if (!scenario.loop.empty()) {
    std::string unfair;
    for (std::size_t p = 0; p < properties.size(); ++p) {
      if (properties[p].kind != explorer::PropertyKind::kAtRest || found[p]) {
        continue;
      }
      const bool fails_throughout =
          std::none_of(trace.states.begin() + static_cast<std::ptrdiff_t>(stem),
                       trace.states.end(),
                       [&](const State& s) { return properties[p].holds(s); });
      if (!fails_throughout) continue;
      if (unfair.empty()) unfair = UnfairLoop(model, trace, stem);
      if (!unfair.empty()) {
        result.warnings.push_back(fmt::format(
            "{} fails in every state of check.loop, but the loop is not a "
            "fair cycle ({}), so it shows no violation",
            properties[p].name, unfair));
        continue;
      }
      Violation v{properties[p].name, explorer::PropertyKind::kAtRest, {}, {}};
      v.trace.states.assign(
          trace.states.begin(),
          trace.states.begin() + static_cast<std::ptrdiff_t>(stem + 1));
      v.trace.actions.assign(
          trace.actions.begin(),
          trace.actions.begin() + static_cast<std::ptrdiff_t>(stem));
      const auto turn = static_cast<std::ptrdiff_t>(scenario.loop.size());
      v.loop.states.assign(
          trace.states.begin() + static_cast<std::ptrdiff_t>(stem),
          trace.states.begin() + static_cast<std::ptrdiff_t>(stem) + turn + 1);
      v.loop.actions.assign(
          trace.actions.begin() + static_cast<std::ptrdiff_t>(stem),
          trace.actions.begin() + static_cast<std::ptrdiff_t>(stem) + turn);
      found[p] = std::move(v);
    }
  }

  Exploration& e = result.exploration;
  e.action_classes = model.ActionClassNames();
  e.action_counts.assign(e.action_classes.size(), 0);
  for (std::size_t i = 0; i < trace.actions.size(); ++i) {
    ++e.action_counts[model.ActionClass(trace.states[i], trace.actions[i],
                                        trace.states[i + 1])];
  }
  explorer::Stats& stats = e.stats;
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

// What the parts of Judge read: the violations found and how far the
// search went.
struct Findings {
  std::vector<std::string> violated;  // shortest violation first
  // Violated in the abstraction only (ScenarioResult::unconfirmed).
  std::set<std::string> unconfirmed;
  bool stop_first = false;   // stopped at the first violation
  bool complete = false;     // nothing a limit cut off
  const char* stopped = "";  // how it stopped, when not complete
  // Random walks, and how many: they prove a violation they find, and
  // nothing else.
  bool sampled = false;
  std::uint64_t walks = 0;
};

// A difference from what the scenario asks: exit code 1.
void Mismatch(ScenarioResult& result, std::string why) {
  result.mismatches.push_back(std::move(why));
  result.outcome = Outcome::kUnexpected;
}

// Undecided because a limit stopped the search: exit code 3, unless
// something already differs.
void Undecided(ScenarioResult& result, std::string why) {
  result.mismatches.push_back(std::move(why));
  if (result.outcome == Outcome::kAsExpected) {
    result.outcome = Outcome::kInconclusive;
  }
}

// Why random walks that found no violation prove nothing.
std::string SampledHolds(const Findings& f) {
  return fmt::format(
      "no violation found in {}; a simulation never proves that an "
      "invariant holds",
      Plural(f.walks, "random walk"));
}

// The violated set against expect.violated.
void JudgeViolated(ScenarioResult& result, const Expectation& expect,
                   const Findings& f) {
  const std::set<std::string> found(f.violated.begin(), f.violated.end());
  const std::set<std::string> wanted(expect.violated.begin(),
                                     expect.violated.end());
  for (const std::string& name : f.violated) {
    if (!wanted.count(name)) {
      Mismatch(
          result,
          fmt::format("'{}' is violated, but the scenario expects it to hold",
                      name));
    }
  }
  for (const std::string& name : expect.violated) {
    if (found.count(name) || f.unconfirmed.count(name)) continue;
    if (f.stop_first) {
      // Only the shortest violation is known; one expected invariant is
      // enough when stopping at the first.
      if (!f.violated.empty() && wanted.count(f.violated.front())) continue;
    }
    if (f.sampled) {
      Undecided(result, fmt::format("'{}' was not violated in {} (a "
                                    "simulation can find a violation, never "
                                    "prove there is none)",
                                    name, Plural(f.walks, "random walk")));
    } else if (!f.complete) {
      Undecided(result,
                fmt::format("'{}' was not violated before the search {}", name,
                            f.stopped));
    } else {
      Mismatch(result,
               fmt::format("'{}' holds, but the scenario expects it violated",
                           name));
    }
  }
  if (f.sampled && result.outcome == Outcome::kAsExpected && found.empty()) {
    Undecided(result, SampledHolds(f));
  } else if (!f.complete && result.outcome == Outcome::kAsExpected &&
             found.size() < result.scenario.invariants.size()) {
    Undecided(result,
              fmt::format("the search {}, so the invariants it did not see "
                          "violated are not proved to hold",
                          f.stopped));
  }
}

// check.must_fire, with or without an expectation.
void JudgeMustFire(ScenarioResult& result, const Findings& f) {
  for (const std::string& name : result.scenario.must_fire) {
    std::uint64_t fired = 0;
    for (std::size_t c : OutboxModel::ClassesNamed(name)) {
      fired += result.exploration.action_counts[c];
    }
    if (fired == 0 && f.sampled) {
      // Walks sample paths: an action they never took may still fire, and
      // a violation they found needs no hazard to be proved.
      result.warnings.push_back(fmt::format(
          "'{}' (check.must_fire) was not taken by any walk", name));
    } else if (fired == 0 && !f.complete) {
      // It might have fired in the part a limit cut off: not a verdict.
      Undecided(result, fmt::format("'{}' did not fire before the search "
                                    "stopped at a limit (check.must_fire)",
                                    name));
    } else if (fired == 0) {
      Mismatch(
          result,
          fmt::format("'{}' never fired (check.must_fire): the hazard this "
                      "scenario is about never happened, so its verdict proves "
                      "nothing about it",
                      name));
    }
  }
}

// expect.trace_length and expect.states.
void JudgeCounts(ScenarioResult& result, const Expectation& expect) {
  const Exploration& exploration = result.exploration;
  if (expect.trace_length && !exploration.violations.empty()) {
    const std::size_t shortest = exploration.violations.front().trace.length();
    if (shortest != static_cast<std::size_t>(*expect.trace_length)) {
      Mismatch(result,
               fmt::format("the shortest violation has {} steps; expected {}",
                           shortest, *expect.trace_length));
    }
  }
  // Under partial-order reduction (CheckOptions::PartialOrderUse::kOn) the
  // distinct states are not counted, so there is nothing to compare.
  if (expect.states && exploration.complete() && !exploration.partial_order &&
      exploration.stats.states != *expect.states) {
    Mismatch(result, fmt::format("{} distinct states; expected {}",
                                 exploration.stats.states, *expect.states));
  }
}

// Compares what was found with the scenario's [expect] table or, without
// one, sets the outcome from what was found. check.must_fire is judged
// either way: it belongs to [check], not to the expectation. The
// mismatches keep one order: the violated set, must_fire, the counts.
void Judge(ScenarioResult& result) {
  const Exploration& exploration = result.exploration;
  Findings f;
  f.violated = result.ViolatedInvariants();
  for (const auto& [property, why] : result.unconfirmed) {
    f.unconfirmed.insert(property);
    Undecided(result, why);
  }
  f.stop_first = exploration.stop == explorer::Stop::kFirstViolation;
  f.complete = exploration.complete() || f.stop_first;
  f.stopped = exploration.stop == explorer::Stop::kInterrupted
                  ? "was interrupted"
                  : "stopped at a limit";
  if (exploration.stop == explorer::Stop::kSampled) {
    // A violation a walk found stands as one the search stopped at.
    f.sampled = true;
    f.walks = result.simulation ? result.simulation->walks : 0;
    f.stop_first = f.complete = !f.violated.empty();
  }
  const std::optional<Expectation>& expect = result.scenario.expect;
  if (expect) {
    JudgeViolated(result, *expect, f);
  } else if (f.sampled && f.violated.empty()) {
    Undecided(result, SampledHolds(f));
  } else if (!f.complete && f.violated.empty()) {
    Undecided(result,
              fmt::format("the search {}, so no invariant is proved to hold",
                          f.stopped));
  }
  JudgeMustFire(result, f);
  // A walk's trace need not be a shortest one, nor its states all there
  // are: there is no count to compare.
  if (expect) {
    if (!f.sampled) JudgeCounts(result, *expect);
  } else if (result.outcome == Outcome::kAsExpected) {
    result.outcome = f.violated.empty() ? Outcome::kNoExpectationHolds
                                        : Outcome::kNoExpectationViolated;
  }
}

// The at-rest properties as leads-to properties under weak fairness
// (docs/SEMANTICS.md section 15): from every reachable state, every fair
// run that takes finitely many faults reaches a state where the property
// holds. A run that ends does so in a terminal state, which the search
// checked; one that does not ends in a fair cycle of non-fault actions
// through states where the property fails, which FindFairLasso looks for
// in the whole state graph. With bounded budgets the graph has no cycle
// (section 15 says why), so this runs where it can find something: when
// counts are abstracted, or when the search kept the graph anyway.
void CheckLiveness(const OutboxModel& model,
                   const std::vector<Property>& properties,
                   const CheckOptions& options, Quotient* recorded,
                   ScenarioResult& result) {
  Exploration& e = result.exploration;
  std::vector<const Property*> open;
  for (const Property& p : properties) {
    if (p.kind != explorer::PropertyKind::kAtRest) continue;
    const bool found =
        std::any_of(e.violations.begin(), e.violations.end(),
                    [&](const Violation& v) { return v.property == p.name; });
    if (!found) open.push_back(&p);
  }
  if (open.empty() || !e.complete() || e.partial_order) return;
  const auto start = std::chrono::steady_clock::now();
  struct Timer {
    std::chrono::steady_clock::time_point start;
    double& seconds;
    ~Timer() {
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              start)
                    .count();
    }
  } timer{start, result.liveness_seconds};
  // Spread over ranks (options.distributed), every rank builds the whole
  // graph below and reaches the same answer: this check is not shared out
  // between ranks, only between the threads of each.
  const int threads =
      options.threads > 0
          ? options.threads
          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (!model.Abstracted() && !e.graph) {
    result.liveness =
        "every run ends (bounded budgets leave no cycle), so the at-rest "
        "checks of terminal states decide every leads-to property";
    return;
  }
  const std::uint64_t limit = LivenessGraphLimit(options);
  const bool compassion = NeedsCompassion(model);
  using Vertex = explorer::StateGraph<OutboxModel>::Vertex;
  // Per vertex, which open properties fail there; per edge, a fault? Each
  // state is decoded once, on every thread: blocks of 64 vertices, so that
  // no two threads write one word of a vector<bool>; a byte per edge. With
  // `counts`, also the counts CountFlows compares, per vertex.
  struct Marks {
    std::vector<std::vector<bool>> bad;
    std::vector<std::uint8_t> fault;
    std::vector<std::uint8_t> counts;
  };
  auto mark = [&](const explorer::StateGraph<OutboxModel>& g,
                  std::size_t width) {
    const std::size_t n = g.num_vertices();
    Marks m;
    m.bad.assign(open.size(), std::vector<bool>(n));
    m.fault.resize(g.num_edges());
    m.counts.resize(n * width);
    explorer::WorkerPool pool(threads);
    constexpr std::size_t kBlock = 64;
    pool.ForEach((n + kBlock - 1) / kBlock, [&](int, std::size_t b) {
      const std::size_t end = std::min(n, (b + 1) * kBlock);
      for (std::size_t v = b * kBlock; v < end; ++v) {
        const State s = g.state(model, static_cast<Vertex>(v));
        for (std::size_t i = 0; i < open.size(); ++i) {
          m.bad[i][v] = !open[i]->holds(s);
        }
        for (auto edge = g.out_begin(static_cast<Vertex>(v));
             edge != g.out_end(static_cast<Vertex>(v)); ++edge) {
          m.fault[edge] = model.IsFault(s, g.action(edge)) ? 1 : 0;
        }
        if (width > 0) model.FlowCounts(s, m.counts.data() + v * width);
      }
    });
    return m;
  };
  // First the symmetry quotient, when the search reduced by symmetry: the
  // fair-cycle question has the same answer there (docs/SEMANTICS.md
  // section 15, explorer/quotient_fairness.h), on as many states as the
  // search stored. Only a property it cannot rule out goes on to the
  // whole graph, where its lasso is found.
  const std::size_t asked = open.size();
  std::string quotient_note;
  if (!e.graph && QuotientApplies(model, options)) {
    // The graph the search recorded, or else one built now.
    std::unique_ptr<Quotient> own;
    Quotient* quotient = recorded;
    // Its edges are about the search's transitions, which are weighted by
    // orbit, scaled by the states stored per state.
    const auto edges = static_cast<std::uint64_t>(
        static_cast<double>(e.stats.transitions) *
        static_cast<double>(e.stats.stored_states) /
        static_cast<double>(std::max<std::uint64_t>(1, e.stats.states)));
    std::optional<explorer::StateGraph<OutboxModel>> q;
    if (recorded != nullptr && e.recorded) {
      q = std::move(e.recorded);
      e.recorded.reset();
    } else {
      own = std::make_unique<Quotient>(model, compassion);
      quotient = own.get();
      q = explorer::BuildKeyedGraph(model, quotient->keying, limit,
                                    e.stats.stored_states, edges, threads);
    }
    if (q) {
      const Marks m = mark(*q, 0);
      const auto& labels = quotient->keying.edges();
      std::vector<const Property*> undecided;
      for (std::size_t i = 0; i < open.size(); ++i) {
        const bool maybe = explorer::QuotientHasFairRun(
            *q, [&](std::size_t v) { return m.bad[i][v]; },
            [&](std::size_t edge) { return m.fault[edge] != 0; },
            [&](std::size_t edge) {
              return OutboxModel::FairnessClass(q->action(edge));
            },
            [&](std::size_t edge) { return labels[q->label(edge)].sigma; },
            [&](std::size_t edge) { return labels[q->label(edge)].stays; },
            [&](std::size_t edge) { return labels[q->label(edge)].adds; },
            quotient->group);
        if (maybe) undecided.push_back(open[i]);
      }
      quotient_note = fmt::format(
          "over the symmetry quotient of {} orbits and {} transitions",
          q->num_vertices(), q->num_edges());
      if (undecided.empty()) {
        result.liveness = fmt::format(
            "leads-to under weak fairness{}, {}: no fair cycle avoids an "
            "at-rest property",
            compassion ? " (and no run taking more copies than were added)"
                       : "",
            quotient_note);
        return;
      }
      open = std::move(undecided);
    } else {
      // The whole graph is bigger still.
      Undecided(result,
                fmt::format("the leads-to check needs the state graph's "
                            "symmetry quotient of {} orbits and about {} "
                            "transitions, which would take more than {} MiB; "
                            "the at-rest properties were checked in terminal "
                            "states only",
                            e.stats.stored_states, edges, limit >> 20));
      return;
    }
  }
  std::optional<explorer::StateGraph<OutboxModel>> built;
  if (!e.graph) {
    built = explorer::BuildStateGraph(model, limit, e.stats.states,
                                      e.stats.transitions, threads);
    if (!built) {
      Undecided(result,
                fmt::format("the leads-to check needs the whole state graph "
                            "of {} states and {} transitions, which would "
                            "take more than {} MiB; the at-rest properties "
                            "were checked in terminal states only",
                            e.stats.states, e.stats.transitions, limit >> 20));
      return;
    }
  }
  const auto& g = e.graph ? *e.graph : *built;
  const std::size_t n = g.num_vertices();
  // Over-approximated counts: each edge's count flows (CountFlows), as an
  // index into a table of the distinct (stays, adds) pairs; the last
  // entry, "adds to everything", stands for any pair past the table's
  // size, which can only keep more cycles (each then replayed). The
  // counts they compare are kept per vertex, so no edge is decoded.
  const std::size_t width = compassion ? model.FlowCountsSize() : 0;
  const Marks marks = mark(g, width);
  const auto& bad = marks.bad;
  const auto& fault = marks.fault;
  const auto& counts = marks.counts;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> flows{{0, 0}};
  std::vector<std::uint8_t> flow_of(compassion ? g.num_edges() : 0, 0);
  for (std::size_t v = 0; compassion && v < n; ++v) {
    for (auto edge = g.out_begin(static_cast<Vertex>(v));
         edge != g.out_end(static_cast<Vertex>(v)); ++edge) {
      std::uint64_t stays = 0, adds = 0;
      model.CountFlows(counts.data() + v * width, g.action(edge),
                       counts.data() + g.target(edge) * width, stays, adds);
      if (stays == 0 && adds == 0) continue;
      auto at =
          std::find(flows.begin(), flows.end(), std::make_pair(stays, adds));
      if (at == flows.end()) {
        if (flows.size() < 255) {
          flows.emplace_back(stays, adds);
        } else {
          flows.resize(256, {0, ~std::uint64_t{0}});
        }
        at = flows.end() - 1;
      }
      flow_of[edge] = static_cast<std::uint8_t>(at - flows.begin());
    }
  }
  std::vector<Violation> lassos;
  for (std::size_t i = 0; i < open.size(); ++i) {
    const auto is_bad = [&](std::size_t v) { return bad[i][v]; };
    const auto is_fault = [&](std::size_t edge) { return fault[edge] != 0; };
    const auto fair_class = [&](std::size_t edge) {
      return OutboxModel::FairnessClass(g.action(edge));
    };
    const std::optional<explorer::Lasso> lasso =
        compassion
            ? explorer::FindCompassionateLasso(
                  g, is_bad, is_fault, fair_class,
                  [&](std::size_t edge) { return flows[flow_of[edge]].first; },
                  [&](std::size_t edge) { return flows[flow_of[edge]].second; })
            : explorer::FindFairLasso(g, is_bad, is_fault, fair_class);
    if (!lasso) continue;
    Violation v{open[i]->name, explorer::PropertyKind::kAtRest, {}, {}};
    auto follow = [&](Trace& t, Vertex from,
                      const std::vector<std::size_t>& edges) {
      t.states.push_back(g.state(model, from));
      for (std::size_t edge : edges) {
        t.actions.push_back(g.action(edge));
        t.states.push_back(g.state(model, g.target(edge)));
      }
    };
    follow(v.trace, 0, lasso->stem);
    follow(v.loop, static_cast<Vertex>(lasso->loop_start), lasso->loop);
    lassos.push_back(std::move(v));
  }
  result.liveness = fmt::format(
      "leads-to under weak fairness{}, {}over the whole graph of {} states "
      "and {} transitions: {}",
      compassion ? " (and no run taking more copies than were added)" : "",
      quotient_note.empty()
          ? std::string()
          : fmt::format("{} (which settled {} of the {} at-rest properties), "
                        "then ",
                        quotient_note, asked - open.size(), asked),
      n, g.num_edges(),
      lassos.empty()
          ? std::string("no fair cycle avoids an at-rest property")
          : fmt::format("{} of the {} at-rest properties can be put off for "
                        "ever",
                        lassos.size(), asked));
  for (Violation& v : lassos) e.violations.push_back(std::move(v));
  std::stable_sort(e.violations.begin(), e.violations.end(),
                   [](const Violation& a, const Violation& b) {
                     return a.trace.length() < b.trace.length();
                   });
}

// Replays each violation the abstracted search found on the concrete model
// (docs/SEMANTICS.md section 14). One that replays keeps its trace, with
// the concrete states (real tokens and counts); one that does not moves to
// result.unconfirmed. The shortest abstract trace that replays is a
// shortest concrete one: every concrete path is an abstract path of the
// same length.
void ConfirmOnConcreteModel(ScenarioResult& result) {
  const Config& config = result.scenario.config;
  const OutboxModel concrete(config, /*concrete=*/true);
  const std::vector<Property> properties = PropertiesFor(
      result.scenario.invariants, result.scenario.expressions, concrete);
  std::vector<Violation> kept;
  for (Violation& v : result.exploration.violations) {
    std::string why;
    Trace t;
    t.states.push_back(concrete.InitialStates().front());
    for (std::size_t i = 0; i < v.trace.actions.size() && why.empty(); ++i) {
      const Action& a = v.trace.actions[i];
      Result<State> next = concrete.Apply(t.states.back(), a);
      if (!next.ok()) {
        why = fmt::format("step {}, {}, is not enabled there: {}", i + 1,
                          FormatAction(config, a), next.status().message());
        break;
      }
      t.actions.push_back(a);
      t.states.push_back(std::move(next).value());
    }
    if (why.empty()) {
      const auto p =
          std::find_if(properties.begin(), properties.end(),
                       [&](const Property& q) { return q.name == v.property; });
      bool broken = false;
      if (p != properties.end()) {
        const State& last = t.states.back();
        switch (p->kind) {
          case explorer::PropertyKind::kSafety:
            broken = !p->holds(last);
            break;
          case explorer::PropertyKind::kTransition:
            broken = t.states.size() >= 2 &&
                     !p->holds_on(t.states[t.states.size() - 2], last);
            break;
          case explorer::PropertyKind::kAtRest: {
            std::vector<std::pair<Action, State>> next;
            concrete.Successors(last, next);
            broken = next.empty() && !concrete.BlockedByBound(last) &&
                     !p->holds(last);
            break;
          }
        }
      }
      // A lasso's stem need not end in a violation; its loop does.
      if (!broken && !v.lasso()) why = "its last state does not break it";
    }
    Trace loop;
    if (why.empty() && v.lasso()) {
      // A lasso: two turns of its loop, every state on them failing the
      // property.
      const auto p =
          std::find_if(properties.begin(), properties.end(),
                       [&](const Property& q) { return q.name == v.property; });
      loop.states.push_back(t.states.back());
      for (int turn = 0; turn < 2 && why.empty(); ++turn) {
        for (std::size_t i = 0; i < v.loop.actions.size(); ++i) {
          const Action& a = v.loop.actions[i];
          Result<State> next = concrete.Apply(loop.states.back(), a);
          if (!next.ok()) {
            why = fmt::format(
                "turn {} of the loop, step {}, {}, is not "
                "enabled there: {}",
                turn + 1, i + 1, FormatAction(config, a),
                next.status().message());
            break;
          }
          if (p != properties.end() && p->holds(next.value())) {
            why = fmt::format(
                "turn {} of the loop reaches a state where it "
                "holds",
                turn + 1);
            break;
          }
          if (turn == 0) loop.actions.push_back(a);
          loop.states.push_back(std::move(next).value());
        }
      }
      loop.states.resize(loop.actions.size() + 1);
    }
    if (why.empty()) {
      v.trace = std::move(t);
      if (v.lasso()) v.loop = std::move(loop);
      kept.push_back(std::move(v));
      continue;
    }
    result.unconfirmed.emplace_back(
        v.property,
        fmt::format("'{}' is violated only in the abstraction of unbounded "
                    "budgets: its trace of {} does not replay on the concrete "
                    "model ({}), so its verdict is inconclusive",
                    v.property, Plural(v.trace.length(), "step"), why));
  }
  result.exploration.violations = std::move(kept);
}

// Fault budgets that no transition spent: the verdict then says nothing
// about that fault, whatever the scenario meant.
std::vector<std::string> UnusedBudgets(const Scenario& scenario,
                                       const Exploration& exploration) {
  std::vector<std::string> warnings;
  for (const FaultBudget& budget : kFaultBudgets) {
    const int pool = Pool(scenario.config, budget);
    if (pool == 0) continue;
    const std::size_t c = OutboxModel::ClassesNamed(budget.spender).front();
    if (exploration.action_counts[c] != 0) continue;
    if (exploration.stop == explorer::Stop::kSampled) {
      warnings.push_back(
          fmt::format("faults.{} = {} was never used: no walk took {}",
                      budget.key, BudgetText(pool), budget.spender));
    } else if (exploration.partial_order) {
      // The reduction may have left every such transition out.
      warnings.push_back(fmt::format(
          "faults.{} = {} was never used in the reduced search: no {} fired "
          "there (partial-order reduction may have set it aside; "
          "--partial-order off counts every transition)",
          budget.key, BudgetText(pool), budget.spender));
    } else {
      warnings.push_back(
          fmt::format("faults.{} = {} was never used: no {} fired", budget.key,
                      BudgetText(pool), budget.spender));
    }
  }
  return warnings;
}

// Relay styles: the assumptions a verdict rests on that the seed never makes,
// one sentence each, so that a reader sees them beside the verdict.
std::vector<std::string> Assumptions(const Config& config) {
  std::vector<std::string> out;
  if (const std::string_view style = StyleOf(config).assumption;
      !style.empty()) {
    out.emplace_back(style);
  }
  if (config.message_id != MessageIdentity::kOutboxId) {
    out.push_back(fmt::format(
        "relay.message_id is '{}': the inbox deduplicates on a message id "
        "that is not the outbox row id, so a resent event is a new message "
        "to it and the inbox cannot stop its second effect",
        MessageIdentityName(config.message_id)));
  }
  if (config.budgets.lost_broker_writes != 0) {
    out.push_back(fmt::format(
        "the broker is assumed to acknowledge writes before they are durable "
        "and to lose up to {} of them (an unsynced write lost on a power "
        "failure); broker.offered counts the copies it still holds",
        config.budgets.lost_broker_writes));
  }
  return out;
}

// For each violation, the first step of its trace from which it was
// unavoidable, over the explored graph.
std::vector<PointOfNoReturn> PointsOfNoReturn(
    const OutboxModel& model, const std::vector<Property>& properties,
    const ScenarioResult& result, std::uint64_t graph_limit) {
  const Exploration& e = result.exploration;
  std::vector<PointOfNoReturn> points(e.violations.size());
  std::string unknown;
  if (result.replay) {
    unknown = "a pinned order explores no graph";
  } else if (result.simulation) {
    unknown = "a simulation keeps no state graph";
  } else if (!e.complete()) {
    unknown = "the search was incomplete, so continuations are unknown";
  } else if (e.graph_over_memory) {
    unknown = "the graph would exceed the memory limit";
  } else if (!e.graph) {
    unknown =
        fmt::format("the search reached {} states, over the graph limit of {}",
                    e.stats.states, graph_limit);
  }
  if (!unknown.empty()) {
    for (PointOfNoReturn& p : points) p.unknown_because = unknown;
    return points;
  }
  const auto& g = *e.graph;
  auto vertex_of = [&](const State& s) -> std::size_t {
    // Every trace state is in the graph.
    return g.Find(model, s).value_or(0);
  };
  auto state = [&](std::size_t v) {
    return g.state(model,
                   static_cast<explorer::StateGraph<OutboxModel>::Vertex>(v));
  };
  for (std::size_t i = 0; i < e.violations.size(); ++i) {
    const Violation& violation = e.violations[i];
    if (violation.lasso() || result.abstraction) {
      points[i].unknown_because =
          violation.lasso()
              ? "the violation is a cycle that a fair run repeats for ever"
              : "the graph's states are abstracted, the trace's concrete";
      continue;
    }
    const Property& p = *std::find_if(
        properties.begin(), properties.end(),
        [&](const Property& q) { return q.name == violation.property; });
    auto bad_state = [&](std::size_t v) {
      switch (p.kind) {
        case explorer::PropertyKind::kSafety:
          return !p.holds(state(v));
        case explorer::PropertyKind::kAtRest:
          return g.terminal(static_cast<std::uint32_t>(v)) &&
                 !p.holds(state(v));
        case explorer::PropertyKind::kTransition:
          return false;
      }
      return false;
    };
    auto bad_edge = [&](std::size_t edge) {
      return p.kind == explorer::PropertyKind::kTransition &&
             !p.holds_on(state(g.source(edge)), state(g.target(edge)));
    };
    const std::vector<bool> doomed =
        explorer::DoomedStates(g, bad_state, bad_edge);
    const Trace& t = violation.trace;
    std::size_t step = t.length();  // the violating step itself, at the latest
    for (std::size_t k = 0; k < t.states.size(); ++k) {
      if (doomed[vertex_of(t.states[k])]) {
        step = k;
        break;
      }
    }
    PointOfNoReturn& point = points[i];
    point.step = step;
    if (step == 0) continue;
    const auto last_safe =
        static_cast<std::uint32_t>(vertex_of(t.states[step - 1]));
    for (auto edge = g.out_begin(last_safe); edge != g.out_end(last_safe);
         ++edge) {
      if (!bad_edge(edge) && !doomed[g.target(edge)]) {
        point.safe_alternatives.push_back(g.action(edge));
      }
    }
  }
  return points;
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
  result.scenario.config.checks_read = WhatChecksRead(
      scenario.config, scenario.invariants, scenario.expressions);
  result.scenario.config.checks_state = WhatChecksReadOfState(
      scenario.config, scenario.invariants, scenario.expressions);
  // A pinned order and random walks follow the concrete model; only an
  // exhaustive search needs unbounded counts abstracted.
  result.model = std::make_shared<const OutboxModel>(
      result.scenario.config, !scenario.order.empty() || options.simulate);
  const OutboxModel& model = *result.model;
  const std::vector<Property> properties =
      PropertiesFor(scenario.invariants, result.scenario.expressions, model);
  std::unique_ptr<Quotient> quotient;

  if (!scenario.order.empty()) {
    if (Status s = Replay(model, properties, result); !s.ok()) return s;
  } else if (options.simulate) {
    SimulationContext context;
    const std::vector<InvariantExpression>& expressions =
        result.scenario.expressions;
    context.properties_for = [&](const OutboxModel& m) {
      return PropertiesFor(scenario.invariants, expressions, m);
    };
    context.threads = options.threads;
    context.max_bytes = options.max_bytes;
    context.cancel = options.cancel;
    context.on_progress = options.on_progress;
    const int depth = options.max_depth
                          ? *options.max_depth
                          : scenario.limits.max_depth.value_or(200);
    Simulate(model, properties, *options.simulate, depth, context, result);
  } else {
    explorer::Options search = SearchOptions(scenario, options);
    search.partial_order = UsePartialOrder(scenario, options.partial_order);
    // The leads-to check of abstracted counts (CheckLiveness) reads the
    // symmetry quotient's graph: recorded by the search, which meets every
    // edge of it anyway.
    if (model.Abstracted() && QuotientApplies(model, options) &&
        std::any_of(properties.begin(), properties.end(), [](const auto& p) {
          return p.kind == explorer::PropertyKind::kAtRest;
        })) {
      quotient = std::make_unique<Quotient>(model, NeedsCompassion(model));
    }
    result.exploration =
        Search(model, properties, search, options, quotient.get());
    if (result.exploration.partial_order &&
        !result.exploration.violations.empty() &&
        !Interrupted(result.exploration, options)) {
      // The reduced search proves violations but its traces need not be
      // shortest, nor its counts those of the whole space: search again.
      result.partial_order_rerun = result.exploration.partial_order;
      result.partial_order_stored = result.exploration.stats.stored_states;
      search.partial_order = false;
      result.exploration =
          Search(model, properties, search, options, quotient.get());
    }
  }
  if (scenario.order.empty() && !options.simulate &&
      !Interrupted(result.exploration, options)) {
    CheckLiveness(model, properties, options, quotient.get(), result);
  }
  result.exploration.recorded.reset();
  if (model.Abstracted() && scenario.order.empty() && !options.simulate) {
    result.abstraction = model.AbstractionDescription();
    ConfirmOnConcreteModel(result);
  }
  // Unused budgets first, then what the replay of a loop found.
  std::vector<std::string> warnings =
      UnusedBudgets(scenario, result.exploration);
  warnings.insert(warnings.end(), result.warnings.begin(),
                  result.warnings.end());
  result.warnings = std::move(warnings);
  result.assumptions = Assumptions(scenario.config);
  result.warnings.insert(result.warnings.end(), result.assumptions.begin(),
                         result.assumptions.end());
  result.points_of_no_return =
      PointsOfNoReturn(model, properties, result, options.graph_limit);
  Judge(result);
  if (options.partial_order_check && scenario.order.empty()) {
    ComparePartialOrder(model, properties, options, result);
  }
  // Classes the config cannot fire (time's, in an untimed scenario) are
  // left out of the coverage reports, once the checks that index them ran.
  Exploration& e = result.exploration;
  for (std::size_t c = e.action_classes.size(); c-- > 0;) {
    if (!model.ClassPossible(c) && e.action_counts[c] == 0) {
      e.action_classes.erase(e.action_classes.begin() +
                             static_cast<std::ptrdiff_t>(c));
      e.action_counts.erase(e.action_counts.begin() +
                            static_cast<std::ptrdiff_t>(c));
    }
  }
  result.time_assumptions = TimingAssumptions(scenario.config);
  return result;
}

int ExitCodeOf(Outcome outcome) {
  switch (outcome) {
    case Outcome::kAsExpected:
    case Outcome::kNoExpectationHolds:
      return 0;
    case Outcome::kUnexpected:
    case Outcome::kNoExpectationViolated:
      return 1;
    case Outcome::kInconclusive:
      return 3;
  }
  return 1;
}

int ExitCodeFor(const std::vector<Outcome>& outcomes) {
  int code = 0;
  for (Outcome o : outcomes) {
    const int c = ExitCodeOf(o);
    if (c == 1) return 1;
    if (c == 3) code = 3;
  }
  return code;
}

}  // namespace oc
