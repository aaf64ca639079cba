#include "reports/text_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/text.h"
#include "model/presentation.h"
#include "model/timing.h"
#include "reports/sequence.h"

namespace oc::reports {
namespace {

// A line that opens a part of a trace: before the step after `after`
// steps (0-based index of its first step).
struct Heading {
  std::size_t after = 0;
  std::string text;
};

// The steps of `trace`, each with the cells it changed; a run of ticks
// is one row, with the cells the whole run changed, and never runs across
// a heading.
void AppendSteps(const OutboxModel& model, const Trace& trace, std::string& out,
                 const std::vector<Heading>& headings = {}) {
  std::vector<std::size_t> alone;
  for (const Heading& h : headings) {
    alone.push_back(h.after);
    alone.push_back(h.after + 1);
  }
  for (const StepRow& row :
       PresentRows(model, trace.actions, trace.states, alone)) {
    for (const Heading& h : headings) {
      if (h.after == row.first) out += "  " + h.text + "\n";
    }
    const StepPresentation& step = row.step;
    const std::string number =
        row.grouped() ? fmt::format("{}-{}", row.first + 1, row.last + 1)
                      : fmt::format("{:>2}", row.first + 1);
    out += fmt::format("    {}. {}{}\n", number, step.action,
                       step.detail.empty() ? "" : "  [" + step.detail + "]");
    if (step.changed.empty()) out += "          (no cell changed)\n";
    for (const CellChange& c : step.changed) {
      out += fmt::format("          {}: {} -> {}\n", c.name, c.before, c.after);
    }
  }
}

}  // namespace

std::string FormatResult(const ScenarioResult& result,
                         const TextOptions& options) {
  const Scenario& scenario = result.scenario;
  const Exploration& e = result.exploration;
  const explorer::Stats& stats = e.stats;
  std::string out = fmt::format("{} ({})\n", scenario.name, scenario.path);
  out += fmt::format("  verdict:   {}\n", VerdictText(result));
  out += fmt::format("  expected:  {}\n", ExpectedText(scenario));
  out += fmt::format("  outcome:   {}\n", OutcomeSentence(result));
  for (const std::string& why : result.mismatches) {
    out += fmt::format("             - {}\n", why);
  }
  if (result.replay) {
    out += fmt::format("  search:    pinned order of {}, {}\n",
                       PinnedLengthText(result),
                       result.replay_ends_at_rest
                           ? "ends at rest (at-rest invariants checked)"
                           : "does not end at rest (at-rest invariants not "
                             "checked)");
  } else if (const auto simulation = SimulationText(result)) {
    out += fmt::format("  search:    {}: {}", SearchText(e), *simulation);
    if (options.wall_clock) out += fmt::format(", {:.2f} s", stats.seconds);
    out += "\n";
    if (const auto weights = WalkWeightsText(result)) {
      out += fmt::format("  weights:   {}\n", *weights);
    }
    if (const auto draw = SwarmDrawText(result)) {
      out += fmt::format("  swarm:     walk {} drew {}\n",
                         result.simulation->walk.value_or(0), *draw);
    }
  } else {
    out += fmt::format(
        "  search:    {}: {}, {}, {}, depth {}", SearchText(e),
        e.partial_order ? Plural(stats.stored_states, "state") + " stored"
                        : Plural(stats.states, "distinct state"),
        Plural(stats.transitions, "transition"),
        Plural(stats.terminal_states, "terminal state"), stats.depth);
    if (stats.bounded_dead_ends > 0) {
      const Config& c = scenario.config;
      std::vector<std::string> bounds;
      if (c.claim_bound > 0) {
        bounds.push_back(fmt::format("claim bound {}", c.claim_bound));
      }
      if (c.time.horizon) {
        bounds.push_back("horizon " + FormatDuration(*c.time.horizon));
      }
      out += fmt::format(", {} ({})",
                         Plural(stats.bounded_dead_ends, "bounded dead end"),
                         fmt::join(bounds, ", "));
    }
    if (options.wall_clock) out += fmt::format(", {:.2f} s", stats.seconds);
    out += "\n";
    out += fmt::format("  reduction: {}\n", ReductionText(e));
    if (result.abstraction) {
      out += fmt::format("  abstraction: {}\n", *result.abstraction);
    }
    if (result.liveness) {
      out += fmt::format("  liveness:  {}", *result.liveness);
      if (options.wall_clock && result.liveness_seconds > 0) {
        out += fmt::format(", {:.2f} s", result.liveness_seconds);
      }
      out += "\n";
    }
    if (const auto por = PartialOrderText(result)) {
      out += fmt::format("  partial-order reduction: {}\n", *por);
    }
    if (result.partial_order_check) {
      out += fmt::format("  partial-order check: {}\n",
                         *result.partial_order_check);
    }
  }
  out += fmt::format("  checked:   {}\n", fmt::join(scenario.invariants, ", "));
  if (!scenario.unchecked.empty()) {
    out += fmt::format("  unchecked: {} (check = false)\n",
                       fmt::join(scenario.unchecked, ", "));
  }
  out += fmt::format("  bounds:    {}\n", BoundsText(result));
  std::vector<std::string> fired;
  std::vector<std::string> never;
  for (std::size_t c = 0; c < e.action_classes.size(); ++c) {
    if (e.action_counts[c] > 0) {
      fired.push_back(
          fmt::format("{} {}", e.action_classes[c], e.action_counts[c]));
    } else {
      never.push_back(e.action_classes[c]);
    }
  }
  if (e.partial_order) {
    out += "  coverage:  of the reduced search (partial-order reduction)\n";
  }
  out += fmt::format("  fired:     {}\n", fmt::join(fired, ", "));
  if (!never.empty()) {
    out += fmt::format("  never:     {}\n", fmt::join(never, ", "));
  }
  for (const std::string& t : result.time_assumptions) {
    out += fmt::format("  timing:    {}\n", t);
  }
  for (const std::string& w : result.warnings) {
    out += fmt::format("  warning:   {}\n", w);
  }
  if (!options.traces) return out;

  const OutboxModel& model = *result.model;
  if (result.replay) {
    out += "\n  pinned order, replayed:\n";
    std::vector<Heading> turns;
    if (const std::size_t m = result.replay_loop_steps; m > 0) {
      turns.push_back({result.replay_order_steps, "check.loop, turn 1:"});
      turns.push_back({result.replay_order_steps + m, "check.loop, turn 2:"});
    }
    AppendSteps(model, *result.replay, out, turns);
    for (const Violation& v : e.violations) {
      if (v.lasso()) {
        out += fmt::format(
            "  {} (leads-to) violated by the loop: it fails in every state "
            "of both turns, a fair cycle after step {}\n",
            v.property, v.trace.length());
        continue;
      }
      out += fmt::format("  {} ({}) broke at step {}\n", v.property,
                         KindText(v.kind), v.trace.length());
    }
  } else {
    for (std::size_t i = 0; i < e.violations.size(); ++i) {
      const Violation& v = e.violations[i];
      if (v.lasso()) {
        out += fmt::format(
            "\n  {} (leads-to) violated by a fair cycle; shortest stem, {}, "
            "then a loop of {} repeated for ever:\n",
            v.property, Plural(v.trace.length(), "step"),
            Plural(v.loop.length(), "step"));
        AppendSteps(model, LassoTrace(v), out,
                    {{v.trace.length(), "loop, for ever:"}});
        continue;
      }
      out += fmt::format("\n  {} ({}) violated; {}, {}:\n", v.property,
                         KindText(v.kind), TraceKindText(result),
                         Plural(v.trace.length(), "step"));
      AppendSteps(model, v.trace, out);
      out += fmt::format("  point of no return: {}\n",
                         PointOfNoReturnText(result, i));
    }
  }
  return out;
}

namespace {

// The verdict in a few words, for the summary table.
std::string ShortVerdict(const ScenarioResult& r) {
  const Exploration& e = r.exploration;
  if (e.violations.empty()) {
    return e.complete() ? "holds" : "none found, incomplete";
  }
  const Violation& shortest = e.violations.front();
  if (shortest.lasso()) {
    return fmt::format("{} violated, fair cycle",
                       r.ViolatedInvariants().size());
  }
  return fmt::format("{} violated, {}", r.ViolatedInvariants().size(),
                     Plural(shortest.trace.length(), "step"));
}

// `text` in `width` columns: cut with "..." when longer.
std::string Fit(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  if (width <= 3) return text.substr(0, width);
  std::size_t keep = width - 3;
  // Never cut a UTF-8 sequence in two.
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  return text.substr(0, keep) + "...";
}

}  // namespace

std::string OutcomeCell(Outcome outcome, std::size_t width,
                        const TextOptions& options) {
  const std::string padded = fmt::format("{:<{}}", OutcomeText(outcome), width);
  if (!options.colour) return padded;
  const char* colour = "";
  switch (outcome) {
    case Outcome::kAsExpected:
      colour = "\033[32m";
      break;
    case Outcome::kUnexpected:
      colour = "\033[1;31m";
      break;
    case Outcome::kInconclusive:
      colour = "\033[33m";
      break;
    case Outcome::kNoExpectationHolds:
      colour = "\033[36m";
      break;
    case Outcome::kNoExpectationViolated:
      colour = "\033[31m";
      break;
  }
  // Only the word is coloured: the padding stays plain.
  const std::string word = OutcomeText(outcome);
  return fmt::format("{}{}\033[0m{}", colour, word, padded.substr(word.size()));
}

std::string FormatSummary(const std::vector<ScenarioResult>& results,
                          const TextOptions& options) {
  std::size_t name_width = 8;  // "scenario"
  std::size_t verdict_width = 7;
  std::size_t states_width = 6;
  std::size_t outcome_width = 7;
  for (const ScenarioResult& r : results) {
    name_width = std::max(name_width, r.scenario.name.size());
    verdict_width = std::max(verdict_width, ShortVerdict(r).size());
    states_width = std::max(states_width, StatesCount(r.exploration).size());
    outcome_width = std::max(outcome_width, OutcomeText(r.outcome).size());
  }
  // The name takes what the other columns leave (each column is followed
  // by two spaces but the last).
  const std::size_t others = verdict_width + 2 + states_width + 2 +
                             (options.wall_clock ? 8 + 2 : 0) + outcome_width;
  name_width = std::min(name_width, others + 2 + 8 < kSummaryWidth
                                        ? kSummaryWidth - 2 - others
                                        : std::size_t{8});
  std::string out =
      fmt::format("{:<{}}  {:<{}}  {:>{}}", "scenario", name_width, "verdict",
                  verdict_width, "states", states_width);
  if (options.wall_clock) out += fmt::format("  {:>8}", "seconds");
  out += "  outcome\n";
  for (const ScenarioResult& r : results) {
    const explorer::Stats& s = r.exploration.stats;
    out +=
        fmt::format("{:<{}}  {:<{}}  {:>{}}", Fit(r.scenario.name, name_width),
                    name_width, ShortVerdict(r), verdict_width,
                    StatesCount(r.exploration), states_width);
    if (options.wall_clock) out += fmt::format("  {:>8.2f}", s.seconds);
    // The last cell is not padded: no trailing spaces.
    out += fmt::format("  {}\n", OutcomeCell(r.outcome, 0, options));
  }
  // The details the table has no room for.
  for (const ScenarioResult& r : results) {
    if (ExitCodeOf(r.outcome) == 0) continue;
    out += fmt::format("{}: {}: {}; expected {}\n", r.scenario.name,
                       OutcomeCell(r.outcome, 0, options), VerdictText(r),
                       ExpectedText(r.scenario));
    for (const std::string& why : r.mismatches) {
      out += fmt::format("  - {}\n", why);
    }
  }
  // The assumptions a verdict rests on are not lost in a table.
  for (const ScenarioResult& r : results) {
    for (const std::string& a : r.assumptions) {
      out += fmt::format("{}: warning: {}\n", r.scenario.name, a);
    }
  }
  return out;
}

}  // namespace oc::reports
