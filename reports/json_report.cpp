#include "reports/json_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "common/json_writer.h"
#include "model/action.h"
#include "model/fault_budgets.h"
#include "model/presentation.h"
#include "model/relay_styles.h"
#include "model/state_cells.h"
#include "model/timing.h"
#include "reports/wording.h"

namespace oc::reports {
namespace {

std::string_view StopName(explorer::Stop stop) {
  switch (stop) {
    case explorer::Stop::kComplete:
      return "complete";
    case explorer::Stop::kMaxDepth:
      return "max_depth";
    case explorer::Stop::kMaxStates:
      return "max_states";
    case explorer::Stop::kFirstViolation:
      return "first_violation";
    case explorer::Stop::kMaxMemory:
      return "max_memory";
    case explorer::Stop::kInterrupted:
      return "interrupted";
    case explorer::Stop::kSampled:
      return "sampled";
  }
  return "?";
}

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kAsExpected:
      return "ok";
    case Outcome::kUnexpected:
      return "unexpected";
    case Outcome::kInconclusive:
      return "inconclusive";
    case Outcome::kNoExpectationHolds:
    case Outcome::kNoExpectationViolated:
      return "no_expectation";
  }
  return "?";
}

// An action with its arguments by name; an argument its kind does not take
// is null, and the instance is numbered from 1 as in the text form.
void WriteAction(JsonWriter& w, const Config& config, const Action& a) {
  const std::vector<ActionArgument> args = ActionArguments(config, a);
  w.BeginObject();
  w.Key("kind").String(ActionKindName(a.kind));
  for (std::string_view name : kActionArgumentNames) {
    w.Key(name);
    const auto it =
        std::find_if(args.begin(), args.end(),
                     [&](const ActionArgument& x) { return x.name == name; });
    if (it == args.end()) {
      w.Null();
    } else if (it->number) {
      w.Number(*it->number);
    } else {
      w.String(it->value);
    }
  }
  w.Key("text").String(FormatAction(config, a));
  w.EndObject();
}

void WriteState(JsonWriter& w, const OutboxModel& model, const State& s) {
  w.BeginObject();
  for (const Cell& c : Cells(model, s)) w.Key(c.name).String(c.value);
  w.EndObject();
}

// The steps of `trace` as an array, numbered from `first` + 1.
void WriteSteps(JsonWriter& w, const OutboxModel& model, const Trace& trace,
                std::size_t first = 0) {
  w.BeginArray();
  const std::vector<StepPresentation> steps =
      PresentSteps(model, trace.actions, trace.states);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const State& after = trace.states[i + 1];
    w.BeginObject();
    w.Key("index").Number(static_cast<std::uint64_t>(first + i + 1));
    w.Key("action");
    WriteAction(w, model.config(), trace.actions[i]);
    w.Key("detail").String(steps[i].detail);
    w.Key("changed").BeginArray();
    for (const CellChange& c : steps[i].changed) {
      w.BeginObject();
      w.Key("cell").String(c.name);
      w.Key("before").String(c.before);
      w.Key("after").String(c.after);
      w.EndObject();
    }
    w.EndArray();
    w.Key("state");
    WriteState(w, model, after);
    w.EndObject();
  }
  w.EndArray();
}

// "initial_state" and "steps" of a trace (keys of an open object).
void WriteTrace(JsonWriter& w, const OutboxModel& model, const Trace& trace) {
  w.Key("initial_state");
  WriteState(w, model, trace.states.front());
  w.Key("steps");
  WriteSteps(w, model, trace);
}

void WriteScenario(JsonWriter& w, const ScenarioResult& result) {
  const Scenario& s = result.scenario;
  w.Key("scenario").BeginObject();
  w.Key("name").String(s.name);
  w.Key("path").String(s.path);
  w.Key("description").String(s.description);
  w.Key("invariants").Strings(s.invariants);
  w.Key("unchecked").Strings(s.unchecked);
  w.Key("search").String(!s.order.empty()    ? "pinned"
                         : result.simulation ? "simulation"
                                             : "exhaustive");
  w.Key("stop_at_first_violation").Bool(s.stop_at_first_violation);
  w.Key("must_fire").Strings(s.must_fire);
  w.Key("limits").BeginObject();
  w.Key("max_depth").OptionalNumber(s.limits.max_depth);
  w.Key("max_states").OptionalNumber(s.limits.max_states);
  w.EndObject();
  w.EndObject();
}

void WriteConfig(JsonWriter& w, const Config& c) {
  w.Key("config").BeginObject();
  w.Key("relays").Strings(c.relays);
  w.Key("events").BeginArray();
  for (const Event& e : c.events) {
    w.BeginObject();
    w.Key("name").String(e.name);
    w.Key("type").String(e.type);
    w.Key("key").OptionalString(e.key);
    w.Key("version").OptionalNumber(e.version);
    w.Key("account").OptionalString(e.account);
    w.Key("amount").OptionalNumber(e.amount);
    // The partitioned broker's fields only where it is used, so that
    // other reports keep their shape.
    if (e.partition) w.Key("partition").Number(*e.partition);
    if (!e.attributes.empty()) {
      w.Key("attributes").BeginObject();
      for (const EventAttribute& a : e.attributes) {
        if (a.text) {
          w.Key(a.name).String(*a.text);
        } else {
          w.Key(a.name).OptionalNumber(a.number);
        }
      }
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("groups").BeginArray();
  for (const Group& g : c.groups) {
    w.BeginObject();
    w.Key("name").String(g.name);
    w.Key("strategy").String(StrategyLabel(g));
    w.Key("instances").Number(g.instances);
    auto duration = [&](const std::optional<Seconds>& d) {
      return d ? std::optional<std::string>(FormatDuration(*d)) : std::nullopt;
    };
    w.Key("inbox_retention").OptionalString(duration(g.inbox_retention));
    w.Key("inbox_cleanup_every")
        .OptionalString(duration(g.inbox_cleanup_every));
    std::vector<std::string> delays;
    for (Seconds d : g.redelivery) delays.push_back(FormatDuration(d));
    w.Key("redelivery").Strings(delays);
    w.Key("dead_letter_redrive")
        .OptionalString(duration(g.dead_letter_redrive));
    w.Key("dead_letter_retention")
        .OptionalString(duration(g.dead_letter_retention));
    if (c.broker.delivery == Delivery::kPartitioned) {
      w.Key("commit").String(g.commit_before ? "before" : "after");
      w.Key("on_failure")
          .String(g.retry_topic ? "retry_topic" : "retry_in_place");
    }
    // Starting values of declared tables, only when the scenario gives
    // some, so that other reports keep their shape.
    if (!g.initial.empty()) {
      w.Key("initial").BeginObject();
      for (const std::string& t : InitialTables(g)) {
        w.Key(t).BeginObject();
        for (const InitialValue& v : g.initial) {
          // Validated: a cell holds -32768..32767.
          if (v.table == t) w.Key(v.at).Number(static_cast<int>(v.value));
        }
        w.EndObject();
      }
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("switches").BeginObject();
  w.Key("lease").Bool(c.lease);
  w.Key("fencing").Bool(c.fencing);
  w.EndObject();
  // The relay styles' budgets and relay settings only when the configuration is
  // not the seed's, so that seed reports keep their shape.
  const bool seed = IsSeedPipeline(c);
  w.Key("budgets").BeginObject();
  for (const FaultBudget& budget : kFaultBudgets) {
    if (seed && budget.family == BudgetFamily::kStyle) continue;
    if (c.broker.delivery == Delivery::kBag &&
        budget.family == BudgetFamily::kBroker) {
      continue;
    }
    // "any" for an unbounded budget.
    const int pool = Pool(c, budget);
    pool == kAnyBudget ? w.Key(budget.key).String("any")
                       : w.Key(budget.key).Number(pool);
  }
  w.EndObject();
  w.Key("claim_bound").Number(c.claim_bound);
  auto duration = [](const std::optional<Seconds>& d) {
    return d ? std::optional<std::string>(FormatDuration(*d)) : std::nullopt;
  };
  w.Key("time").BeginObject();
  w.Key("lease").OptionalString(duration(c.time.lease));
  w.Key("poll").OptionalString(duration(c.time.poll));
  w.Key("horizon").OptionalString(duration(c.time.horizon));
  w.Key("consumer_outage").OptionalString(duration(c.time.consumer_outage));
  w.Key("database_outage").OptionalString(duration(c.time.database_outage));
  w.Key("clocks").String(c.time.clocks == Clocks::kPlain ? "plain" : "capped");
  w.EndObject();
  w.Key("broker").BeginObject();
  w.Key("dedup").String(c.broker.dedup == Dedup::kWindow ? "window"
                        : c.broker.dedup == Dedup::kProducerSession
                            ? "producer_session"
                            : "none");
  w.Key("window").OptionalString(duration(c.broker.window));
  if (c.broker.delivery == Delivery::kPartitioned) {
    w.Key("delivery").String("partitioned");
    w.Key("partitions").Number(c.broker.partitions);
    w.Key("commit_fencing").Bool(c.broker.commit_fencing);
    w.Key("max_in_flight").Number(c.max_in_flight);
    w.Key("idempotent_producer").Bool(c.idempotent_producer);
  }
  w.EndObject();
  if (!seed) {
    w.Key("relay").BeginObject();
    w.Key("style").String(RelayStyleName(c.relay_style));
    w.Key("message_id").String(MessageIdentityName(c.message_id));
    w.Key("source_commits")
        .String(c.commits_during_run ? "during_run" : "before_run");
    for (const RelaySetting& setting : RelayStyleSettings(c)) {
      w.Key(setting.name).OptionalString(setting.value);
    }
    w.EndObject();
  }
  w.EndObject();
}

void WriteExpectation(JsonWriter& w, const Scenario& s) {
  if (!s.expect) {
    w.Key("expectation").Null();
    return;
  }
  const Expectation& x = *s.expect;
  w.Key("expectation").BeginObject();
  w.Key("verdict").String(x.verdict == Verdict::kHolds ? "holds" : "violated");
  w.Key("violated").Strings(x.violated);
  w.Key("trace_length").OptionalNumber(x.trace_length);
  w.Key("states").OptionalNumber(x.states);
  w.Key("text").String(ExpectedText(s));
  w.EndObject();
}

void WriteVerdict(JsonWriter& w, const ScenarioResult& result) {
  const std::vector<std::string> violated = result.ViolatedInvariants();
  std::vector<std::string> held;
  for (const std::string& name : result.scenario.invariants) {
    // Violated only in the abstraction: neither held nor violated.
    const bool unconfirmed =
        std::any_of(result.unconfirmed.begin(), result.unconfirmed.end(),
                    [&](const auto& u) { return u.first == name; });
    if (std::find(violated.begin(), violated.end(), name) == violated.end() &&
        !unconfirmed) {
      held.push_back(name);
    }
  }
  w.Key("verdict").BeginObject();
  w.Key("text").String(VerdictText(result));
  w.Key("violated").Strings(violated);
  w.Key("held").Strings(held);
  w.Key("complete").Bool(result.exploration.complete());
  w.Key("scope").String(BoundsText(result));
  w.EndObject();
}

void WriteStats(JsonWriter& w, const ScenarioResult& result,
                const ReportOptions& options) {
  const Exploration& e = result.exploration;
  const explorer::Stats& s = e.stats;
  w.Key("stats").BeginObject();
  w.Key("stop").String(StopName(e.stop));
  w.Key("stop_text").String(StopText(e.stop));
  // Under partial-order reduction the distinct states are not counted.
  if (e.partial_order) {
    w.Key("states").Null();
  } else {
    w.Key("states").Number(s.states);
  }
  w.Key("transitions").Number(s.transitions);
  w.Key("terminal_states").Number(s.terminal_states);
  w.Key("bounded_dead_ends").Number(s.bounded_dead_ends);
  w.Key("depth").Number(s.depth);
  w.Key("stored_states").Number(s.stored_states);
  w.Key("reduction").String(e.reduction);
  // Unbounded fault budgets: what the search abstracted, or null.
  w.Key("abstraction").OptionalString(result.abstraction);
  // What the leads-to check of the at-rest properties did, or null.
  w.Key("liveness").OptionalString(result.liveness);
  if (e.partial_order) {
    w.Key("partial_order").String(*e.partial_order);
  } else {
    w.Key("partial_order").Null();
  }
  w.Key("partial_order_rerun").Bool(result.partial_order_rerun.has_value());
  if (result.partial_order_check) {
    w.Key("partial_order_check").String(*result.partial_order_check);
  } else {
    w.Key("partial_order_check").Null();
  }
  w.EndObject();
  if (options.wall_clock) {
    w.Key("timing").BeginObject();
    w.Key("seconds").Seconds(s.seconds);
    w.EndObject();
  }
  w.Key("coverage").BeginObject();
  for (std::size_t c = 0; c < e.action_classes.size(); ++c) {
    w.Key(e.action_classes[c])
        .Number(c < e.action_counts.size() ? e.action_counts[c] : 0);
  }
  w.EndObject();
}

void WriteViolations(JsonWriter& w, const ScenarioResult& result) {
  const Exploration& e = result.exploration;
  const Config& config = result.scenario.config;
  w.Key("violations").BeginArray();
  for (std::size_t i = 0; i < e.violations.size(); ++i) {
    const Violation& v = e.violations[i];
    const PointOfNoReturn& p = result.points_of_no_return[i];
    w.BeginObject();
    w.Key("invariant").String(v.property);
    w.Key("kind").String(explorer::PropertyKindKey(v.kind));
    w.Key("length").Number(static_cast<std::uint64_t>(v.trace.length()));
    w.Key("lasso").Bool(v.lasso());
    w.Key("point_of_no_return").BeginObject();
    w.Key("step").OptionalNumber(p.step);
    w.Key("text").String(PointOfNoReturnText(result, i));
    w.Key("safe_alternatives").BeginArray();
    for (const Action& a : p.safe_alternatives) WriteAction(w, config, a);
    w.EndArray();
    w.Key("unknown_because");
    p.step ? w.Null() : w.String(p.unknown_because);
    w.EndObject();
    WriteTrace(w, *result.model, v.trace);
    // A lasso's loop: its steps numbered on from the stem's; the state
    // after the last is again the one the loop began in.
    w.Key("loop");
    if (v.lasso()) {
      w.BeginObject();
      w.Key("length").Number(static_cast<std::uint64_t>(v.loop.length()));
      w.Key("steps");
      WriteSteps(w, *result.model, v.loop, v.trace.length());
      w.EndObject();
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
}

// A simulation's parameters and what it found; null for a search.
void WriteSimulation(JsonWriter& w, const ScenarioResult& result) {
  w.Key("simulation");
  const auto& sim = result.simulation;
  if (!sim) {
    w.Null();
    return;
  }
  w.BeginObject();
  w.Key("seed").Number(sim->seed);
  w.Key("swarm").Bool(sim->swarm);
  w.Key("max_depth").Number(sim->max_depth);
  w.Key("walks").Number(sim->walks);
  w.Key("walks_asked").OptionalNumber(sim->walks_asked);
  w.Key("time_limit_seconds")
      .OptionalNumber(
          sim->time ? std::optional<double>(
                          static_cast<double>(sim->time->count()) / 1000.0)
                    : std::nullopt);
  w.Key("distinct_states_seen").Number(result.exploration.stats.states);
  w.Key("distinct_states_capped").Bool(sim->distinct_capped);
  w.Key("faults_never_exercised").Strings(sim->faults_never);
  w.Key("violating_walk").OptionalNumber(sim->walk);
  w.Key("walk_length");
  sim->walk ? w.Number(static_cast<std::uint64_t>(sim->walk_length)) : w.Null();
  w.Key("trace_minimised").Bool(sim->walk.has_value());
  w.Key("trace_shortest").Bool(sim->shortest);
  w.Key("drawn_budgets");
  if (sim->budgets) {
    w.BeginObject();
    for (const FaultBudget& budget : kFaultBudgets) {
      if (Pool(result.scenario.config, budget) == 0) continue;
      const int pool = (*sim->budgets).*budget.pool;
      pool == kAnyBudget ? w.Key(budget.key).String("any")
                         : w.Key(budget.key).Number(pool);
    }
    w.EndObject();
  } else {
    w.Null();
  }
  // check.walk_weights: the classes whose weight is not 1.
  w.Key("walk_weights");
  if (!sim->walk_weights.empty()) {
    const std::vector<std::string> classes = OutboxModel::ActionClassNames();
    w.BeginObject();
    for (std::size_t c = 0; c < sim->walk_weights.size() && c < classes.size();
         ++c) {
      if (sim->walk_weights[c] == 1) continue;
      w.Key(classes[c])
          .Number(static_cast<std::uint64_t>(sim->walk_weights[c]));
    }
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
}

void WriteReplay(JsonWriter& w, const ScenarioResult& result) {
  w.Key("replay");
  if (!result.replay) {
    w.Null();
    return;
  }
  w.BeginObject();
  w.Key("length").Number(static_cast<std::uint64_t>(result.replay->length()));
  w.Key("order_length")
      .Number(static_cast<std::uint64_t>(result.replay_order_steps));
  w.Key("loop_length")
      .Number(static_cast<std::uint64_t>(result.replay_loop_steps));
  w.Key("ends_at_rest").Bool(result.replay_ends_at_rest);
  w.Key("broke").BeginArray();
  for (const Violation& v : result.exploration.violations) {
    w.BeginObject();
    w.Key("invariant").String(v.property);
    w.Key("kind").String(explorer::PropertyKindKey(v.kind));
    w.Key("step").Number(static_cast<std::uint64_t>(v.trace.length()));
    w.Key("lasso").Bool(v.lasso());
    w.EndObject();
  }
  w.EndArray();
  WriteTrace(w, *result.model, *result.replay);
  w.EndObject();
}

// The whole per-scenario document, as one value of `w`.
void WriteReport(JsonWriter& w, const ScenarioResult& result,
                 const ReportOptions& options) {
  w.BeginObject();
  w.Key("schema_version").Number(kJsonSchemaVersion);
  w.Key("tool").BeginObject();
  w.Key("name").String("outbox-check");
  w.Key("version").String(OUTBOX_CHECK_VERSION);
  w.Key("command_line")
      .OptionalString(options.command_line.empty()
                          ? std::nullopt
                          : std::optional<std::string>(options.command_line));
  w.EndObject();
  WriteScenario(w, result);
  WriteConfig(w, result.scenario.config);
  WriteExpectation(w, result.scenario);
  WriteVerdict(w, result);
  w.Key("outcome").String(OutcomeName(result.outcome));
  w.Key("exit_code").Number(ExitCodeOf(result.outcome));
  w.Key("mismatches").Strings(result.mismatches);
  w.Key("warnings").Strings(result.warnings);
  w.Key("timing_assumptions").Strings(result.time_assumptions);
  WriteStats(w, result, options);
  WriteViolations(w, result);
  WriteReplay(w, result);
  WriteSimulation(w, result);
  w.EndObject();
}

}  // namespace

std::string JsonReport(const ScenarioResult& result,
                       const ReportOptions& options) {
  JsonWriter w;
  WriteReport(w, result, options);
  return w.Finish();
}

std::string JsonRunReport(const std::vector<ScenarioResult>& results,
                          const JsonRun& run, const ReportOptions& options) {
  JsonWriter w;
  w.BeginObject();
  w.Key("schema_version").Number(kJsonSchemaVersion);
  w.Key("tool").BeginObject();
  w.Key("name").String("outbox-check");
  w.Key("version").String(run.tool_version);
  w.EndObject();
  w.Key("exit_code").Number(run.exit_code);
  w.Key("interrupted").Bool(run.interrupted);
  w.Key("scenarios").BeginArray();
  for (const ScenarioResult& result : results) {
    WriteReport(w, result, options);
  }
  w.EndArray();
  w.EndObject();
  return w.Finish();
}

}  // namespace oc::reports
