#include "reports/markdown_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/text.h"
#include "model/action.h"
#include "model/fault_budgets.h"
#include "model/presentation.h"
#include "model/state_cells.h"
#include "reports/sequence.h"
#include "reports/wording.h"

namespace oc::reports {
namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)); }

// A step singled out in a step table and its diagram.
struct StepMark {
  std::size_t step = 0;  // 1-based
  std::string symbol;    // "⛔", "✖"
  std::string text;      // "point of no return"
  bool shade = false;    // draw a shaded rect around it in the diagram
};

// A run of steps a trace shows apart: a lasso's loop, a turn of a pinned
// loop. The diagram puts it in a Mermaid `loop` block, the step table
// gives it a table of its own under a heading.
struct StepBlock {
  std::size_t first = 0;  // 1-based, inclusive
  std::size_t last = 0;
  std::string label;    // of the Mermaid block: "for ever"
  std::string heading;  // Markdown, above its table
};

// A table row of cells that are already Markdown.
std::string TableRow(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + MarkdownCell(c) + " |";
  return out + "\n";
}

// Author prose (a scenario description) as Markdown paragraphs that render
// as written: lines keep their breaks, blank lines separate paragraphs, and
// nothing at the start of a line can open a heading, list, quote, code
// block or table.
std::string MarkdownProse(std::string_view text) {
  std::string out;
  bool blank_pending = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line[0])))
      line.remove_prefix(1);
    while (!line.empty() &&
           std::isspace(static_cast<unsigned char>(line[line.size() - 1])))
      line.remove_suffix(1);
    if (line.empty()) {
      blank_pending = !out.empty();
      continue;
    }
    if (blank_pending) out += "\n";
    blank_pending = false;
    std::string escaped = MarkdownText(line);
    if (std::string_view("-+=>").find(escaped[0]) != std::string_view::npos) {
      escaped.insert(0, "\\");
    }
    std::size_t digits = 0;
    while (digits < escaped.size() &&
           std::isdigit(static_cast<unsigned char>(escaped[digits])))
      ++digits;
    if (digits > 0 && digits < escaped.size() &&
        (escaped[digits] == '.' || escaped[digits] == ')')) {
      escaped.insert(digits, "\\");
    }
    out += escaped + "\n";
  }
  return out;
}

// Text for a Mermaid message, note or participant alias: one line, and the
// characters its parser takes as syntax (';' ends a statement, '#' starts
// a comment or an entity, '<' '>' '&' reach the HTML) as entity codes.
std::string MermaidText(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case ';':
        out += "#59;";
        break;
      case '#':
        out += "#35;";
        break;
      case '<':
        out += "#60;";
        break;
      case '>':
        out += "#62;";
        break;
      case '&':
        out += "#38;";
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string MarksText(const std::vector<StepMark>& marks, std::size_t step,
                      std::string_view separator) {
  std::string out;
  for (const StepMark& m : marks) {
    if (m.step != step) continue;
    out +=
        fmt::format("{}**{} {}**", separator, m.symbol, MarkdownText(m.text));
  }
  return out;
}

// "7", or "9–42" for a row that spans steps.
std::string StepNumbers(const SequenceItem& item) {
  return item.last() == item.step
             ? fmt::format("{}", item.step)
             : fmt::format("{}–{}", item.step, item.last());
}

// A Mermaid sequence diagram of `trace`: participants P0.. with their
// display names as aliases, one message or note line per step, prefixed
// with its step number.
void AppendDiagram(const OutboxModel& model, const std::vector<StepRow>& rows,
                   const std::vector<StepMark>& marks,
                   const std::vector<StepBlock>& blocks, std::string& out) {
  const SequenceDiagram d = SequenceOf(model, rows);
  out += "```mermaid\nsequenceDiagram\n";
  for (std::size_t p = 0; p < d.participants.size(); ++p) {
    out += fmt::format("  participant P{} as {}\n", p,
                       MermaidText(d.participants[p]));
  }
  for (const SequenceItem& item : d.items) {
    // Rows never run across a block's edge (AppendTrace keeps them apart).
    const StepBlock* block = nullptr;
    for (const StepBlock& b : blocks) {
      if (b.first <= item.step && item.last() <= b.last) block = &b;
    }
    if (block != nullptr && block->first == item.step) {
      out += fmt::format("  loop {}\n", MermaidText(block->label));
    }
    std::string text = fmt::format("{}. {}", StepNumbers(item), item.text);
    bool shade = false;
    for (const StepMark& m : marks) {
      if (m.step < item.step || m.step > item.last()) continue;
      text += " " + m.symbol;
      shade = shade || m.shade;
    }
    std::string indent = block != nullptr ? "    " : "  ";
    if (shade) {
      out += indent + "rect rgb(255, 228, 225)\n";
      indent += "  ";
    }
    if (item.kind == SequenceItem::Kind::kNote) {
      out += fmt::format("{}Note over P{}: {}\n", indent, item.from,
                         MermaidText(text));
    } else {
      const char* arrow = item.dashed ? (item.lost ? "--x" : "-->>")
                                      : (item.lost ? "-x" : "->>");
      out += fmt::format("{}P{}{}P{}: {}\n", indent, item.from, arrow, item.to,
                         MermaidText(text));
    }
    if (shade) out += indent.substr(2) + "end\n";
    if (block != nullptr && block->last == item.last()) out += "  end\n";
  }
  out += "```\n";
}

void AppendInitialState(const OutboxModel& model, const State& initial,
                        std::string& out) {
  const std::vector<Cell> cells = Cells(model, initial);
  out += fmt::format(
      "<details><summary>Initial durable state ({})</summary>\n\n"
      "| Cell | Value |\n|---|---|\n",
      Plural(cells.size(), "cell"));
  for (const Cell& c : cells) {
    out += TableRow({MarkdownCode(c.name), MarkdownText(c.value)});
  }
  out += "\n</details>\n\n";
}

// One row per step: number, action, changed cells, and the whole state
// after it (collapsed, changed cells bold).
void AppendStepTable(const OutboxModel& model, const Trace& trace,
                     const std::vector<StepRow>& rows,
                     const std::vector<StepMark>& marks, std::string& out) {
  out += "| Step | Action | Changed cells | Durable state after |\n";
  out += "|---:|---|---|---|\n";
  for (const StepRow& row : rows) {
    const StepPresentation& step = row.step;
    const State& after = trace.states[row.last + 1];
    std::string action = MarkdownCode(step.action);
    if (!step.detail.empty()) {
      action += " (" + MarkdownText(step.detail) + ")";
    }
    for (std::size_t i = row.first; i <= row.last; ++i) {
      action += MarksText(marks, i + 1, "<br>");
    }

    const std::vector<CellChange>& changes = step.changed;
    std::vector<std::string> changed;
    for (const CellChange& c : changes) {
      changed.push_back(fmt::format("{}: {} → {}", MarkdownCode(c.name),
                                    MarkdownText(c.before),
                                    MarkdownText(c.after)));
    }
    if (changed.empty()) changed.push_back("*(none)*");

    const std::vector<Cell> cells = Cells(model, after);
    std::vector<std::string> state;
    for (const Cell& c : cells) {
      const bool is_changed =
          std::any_of(changes.begin(), changes.end(),
                      [&](const CellChange& x) { return x.name == c.name; });
      std::string text =
          fmt::format("{} = {}", MarkdownCode(c.name), MarkdownText(c.value));
      state.push_back(is_changed ? "**" + text + "**" : text);
    }
    out += TableRow(
        {row.grouped() ? fmt::format("{}–{}", row.first + 1, row.last + 1)
                       : fmt::format("{}", row.first + 1),
         action, fmt::format("{}", fmt::join(changed, "<br>")),
         fmt::format("<details><summary>{}</summary>{}</details>",
                     Plural(cells.size(), "cell"), fmt::join(state, "<br>"))});
  }
  out += "\n";
}

// The initial state, the step table and the diagram of one trace; the
// steps of each block in `blocks` (in step order, apart) get a table of
// their own, under its heading, and a `loop` block in the diagram.
void AppendTrace(const OutboxModel& model, const Trace& trace,
                 const std::vector<StepMark>& marks, std::string& out,
                 const std::vector<StepBlock>& blocks = {}) {
  AppendInitialState(model, trace.states.front(), out);
  if (trace.length() == 0) {
    out += "The initial state already violates it.\n\n";
    return;
  }
  std::vector<std::size_t> marked;
  for (const StepMark& m : marks) marked.push_back(m.step);
  // A run of ticks stays on one side of a block's edge.
  for (const StepBlock& b : blocks) {
    marked.push_back(b.first);
    marked.push_back(b.last + 1);
  }
  const std::vector<StepRow> rows =
      PresentRows(model, trace.actions, trace.states, marked);
  // The rows before the first block, then each block's.
  std::vector<StepRow> part;
  std::size_t next_block = 0;
  for (const StepRow& row : rows) {
    if (next_block < blocks.size() &&
        row.first + 1 == blocks[next_block].first) {
      if (!part.empty()) AppendStepTable(model, trace, part, marks, out);
      part.clear();
      out += blocks[next_block].heading + "\n\n";
      ++next_block;
    }
    part.push_back(row);
  }
  AppendStepTable(model, trace, part, marks, out);
  std::vector<std::string> legend;
  for (const StepMark& m : marks) {
    legend.push_back(
        fmt::format("{} step {}: {}", m.symbol, m.step, MarkdownText(m.text)));
  }
  if (!legend.empty()) out += fmt::format("{}. ", fmt::join(legend, "; "));
  out += "Changed cells are bold in the full state.\n\n";
  AppendDiagram(model, rows, marks, blocks, out);
  out += "\n";
}

// A lasso: its stem, then its loop under "Loop, repeated for ever", one
// turn, in a `loop for ever` block of the diagram.
void AppendLasso(const ScenarioResult& result, const Violation& v,
                 std::string& out) {
  const std::size_t n = v.trace.length();
  const std::size_t m = v.loop.length();
  out += fmt::format(
      "A fair run takes the stem once and then repeats the loop for ever; "
      "{} fails in every state of the loop, so it never comes to hold.\n\n",
      MarkdownCode(v.property));
  const std::vector<StepMark> marks = {
      {n + m, "↺", fmt::format("then step {} again", n + 1), false}};
  // The search found the loop closed in its (possibly abstracted) graph;
  // the concrete states shown may differ in what it abstracted.
  const std::string closed =
      result.replay
          ? "`check.loop`, which the replay took twice"
          : fmt::format(
                "after step {} the run is back in the state before "
                "step {}{}",
                n + m, n + 1,
                result.abstraction ? ", up to the abstraction of the search"
                                   : "");
  const std::vector<StepBlock> blocks = {
      {n + 1, n + m, "for ever",
       fmt::format("**Loop, repeated for ever** (steps {}–{}; {}):", n + 1,
                   n + m, closed)}};
  AppendTrace(*result.model, LassoTrace(v), marks, out, blocks);
}

void AppendSummary(const ScenarioResult& result, std::string& out) {
  const Scenario& scenario = result.scenario;
  const std::vector<std::string> broke = result.ViolatedInvariants();
  std::vector<std::string> broke_code;
  std::vector<std::string> held_code;
  for (const std::string& name : scenario.invariants) {
    const bool violated =
        std::find(broke.begin(), broke.end(), name) != broke.end();
    (violated ? broke_code : held_code).push_back(MarkdownCode(name));
  }
  std::string held_label = "Held";
  if (result.replay) {
    held_label = "Held along the pinned order";
  } else if (!result.exploration.complete()) {
    held_label = "Not seen violated (search incomplete)";
  }
  auto row = [&](std::string_view label, const std::string& value) {
    out += TableRow({std::string(label), value});
  };
  auto list = [](const std::vector<std::string>& items) {
    return items.empty() ? std::string("none")
                         : fmt::format("{}", fmt::join(items, ", "));
  };
  out += "## Summary\n\n| Question | Answer |\n|---|---|\n";
  row("Verdict", MarkdownText(VerdictText(result)));
  row("Expected", MarkdownText(ExpectedText(scenario)));
  std::string outcome = "**" + MarkdownText(OutcomeText(result.outcome)) + "**";
  if (!scenario.expect && result.outcome != Outcome::kUnexpected &&
      result.outcome != Outcome::kInconclusive) {
    outcome += MarkdownText(": " + FoundText(result));
  }
  row("Outcome", outcome);
  row("Broke", list(broke_code));
  row(held_label, list(held_code));
  if (!scenario.unchecked.empty()) {
    std::vector<std::string> unchecked_code;
    for (const std::string& name : scenario.unchecked) {
      unchecked_code.push_back(MarkdownCode(name));
    }
    row("Not checked (check = false)", list(unchecked_code));
  }
  row("Scope", MarkdownText(BoundsText(result)));
  out += "\n";
  if (!result.mismatches.empty()) {
    out += "Why the outcome is not as expected:\n\n";
    for (const std::string& m : result.mismatches) {
      out += "- " + MarkdownText(m) + "\n";
    }
    out += "\n";
  }
  if (!result.time_assumptions.empty()) {
    out += "Timing assumptions the verdict rests on:\n\n";
    for (const std::string& t : result.time_assumptions) {
      out += "- " + MarkdownText(t) + "\n";
    }
    out += "\n";
  }
  if (!result.warnings.empty()) {
    out += "Warnings:\n\n";
    for (const std::string& w : result.warnings) {
      out += "- ⚠ " + MarkdownText(w) + "\n";
    }
    out += "\n";
  }
}

void AppendConfiguration(const ScenarioResult& result, std::string& out) {
  const Config& c = result.scenario.config;
  out += "## Configuration\n\n### Relays\n\n| Relay |\n|---|\n";
  for (const std::string& r : c.relays) {
    out += TableRow({MarkdownCode(r)});
  }

  // Only the attribute columns some event has.
  const auto any = [&](auto member) {
    return std::any_of(c.events.begin(), c.events.end(),
                       [&](const Event& e) { return (e.*member).has_value(); });
  };
  const bool key = any(&Event::key), version = any(&Event::version);
  const bool account = any(&Event::account), amount = any(&Event::amount);
  const bool own =
      std::any_of(c.events.begin(), c.events.end(),
                  [](const Event& e) { return !e.attributes.empty(); });
  out += "\n### Events\n\n| Event | Type |";
  std::string rule = "|---|---|";
  for (auto [shown, name] : {std::pair{key, "Key"},
                             {version, "Version"},
                             {account, "Account"},
                             {amount, "Amount"},
                             {own, "Other attributes"}}) {
    if (!shown) continue;
    out += fmt::format(" {} |", name);
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  auto text = [](const auto& v) {
    return v ? MarkdownText(fmt::format("{}", *v)) : std::string("–");
  };
  for (const Event& e : c.events) {
    std::vector<std::string> cells = {MarkdownCode(e.name),
                                      MarkdownText(e.type)};
    if (key) cells.push_back(text(e.key));
    if (version) cells.push_back(text(e.version));
    if (account) cells.push_back(text(e.account));
    if (amount) cells.push_back(text(e.amount));
    if (own) cells.push_back(MarkdownText(OwnAttributesText(e)));
    out += TableRow(cells);
  }

  out += "\n### Consumer groups\n\n";
  if (c.groups.empty()) {
    out += "None: no consumer reads the broker.\n";
  } else {
    out += "| Group | Strategy | Instances |\n|---|---|---:|\n";
    for (const Group& g : c.groups) {
      out += TableRow({MarkdownCode(g.name), MarkdownCode(StrategyLabel(g)),
                       fmt::format("{}", g.instances)});
    }
  }

  out += "\n### Switches\n\n| Switch | Value |\n|---|---|\n";
  out += fmt::format("| lease | {} |\n", c.lease ? "on" : "off");
  out += fmt::format("| fencing | {} |\n", c.fencing ? "on" : "off");
  out += fmt::format("| claim bound | {} |\n",
                     c.claim_bound > 0
                         ? Plural(c.claim_bound, "claim") + " per event"
                         : std::string("none"));

  out += "\n### Fault budgets\n\n| Fault | Budget |\n|---|---:|\n";
  for (const FaultBudget& budget : kFaultBudgets) {
    if (!Shown(c, budget)) continue;
    out += TableRow({MarkdownCode(budget.key), BudgetText(Pool(c, budget))});
  }
  out += fmt::format("\nScope of the verdict: {}.\n\n",
                     MarkdownText(BoundsText(result)));
}

void AppendSearch(const ScenarioResult& result, const ReportOptions& options,
                  std::string& out) {
  const Exploration& e = result.exploration;
  const explorer::Stats& s = e.stats;
  out += "## Search\n\n| Measure | Value |\n|---|---|\n";
  if (result.replay) {
    out += fmt::format(
        "| Search | pinned order of {}; {} |\n", PinnedLengthText(result),
        result.replay_ends_at_rest
            ? "it ends at rest, so at-rest invariants were checked"
            : "it does not end at rest, so at-rest invariants were not "
              "checked");
  } else if (const auto simulation = SimulationText(result)) {
    out += fmt::format("| Search | {} |\n", MarkdownText(*simulation));
    if (const auto weights = WalkWeightsText(result)) {
      out += fmt::format("| Walk weights | {} |\n", MarkdownText(*weights));
    }
    if (const auto draw = SwarmDrawText(result)) {
      out += fmt::format("| Swarm | the violating walk drew {} |\n",
                         MarkdownText(*draw));
    }
  } else {
    out += fmt::format("| Search | {}, breadth-first |\n", SearchExtentText(e));
  }
  out += fmt::format("| Completeness | {} |\n", MarkdownText(StopText(e.stop)));
  if (e.partial_order) {
    out += fmt::format("| States stored | {} (distinct states not counted) |\n",
                       s.stored_states);
  } else {
    out += fmt::format("| Distinct states | {} |\n", s.states);
  }
  out += fmt::format("| Transitions | {} |\n", s.transitions);
  out += fmt::format("| Terminal states | {} |\n", s.terminal_states);
  out += fmt::format("| Bounded dead ends | {} |\n", s.bounded_dead_ends);
  out += fmt::format("| Depth | {} |\n", s.depth);
  if (!result.replay) {
    out += fmt::format("| Reduction | {} |\n", MarkdownText(ReductionText(e)));
    if (result.abstraction) {
      out += fmt::format("| Abstraction | {} |\n",
                         MarkdownText(*result.abstraction));
    }
    if (result.liveness) {
      out += fmt::format("| Liveness | {} |\n", MarkdownText(*result.liveness));
    }
    if (const auto por = PartialOrderText(result)) {
      out +=
          fmt::format("| Partial-order reduction | {} |\n", MarkdownText(*por));
    }
  }
  if (options.wall_clock)
    out += fmt::format("| Seconds | {:.2f} |\n", s.seconds);
  out += "\n";
}

void AppendCoverage(const Exploration& e, std::string& out) {
  out += "## Coverage\n\n";
  if (e.action_classes.empty()) {
    out += "No action classes were recorded.\n\n";
    return;
  }
  if (e.partial_order) {
    out +=
        "Of the reduced search (partial-order reduction): an action class "
        "it never took may still fire in the whole state space.\n\n";
  }
  out += "| Action class | Transitions |\n|---|---:|\n";
  for (std::size_t c = 0; c < e.action_classes.size(); ++c) {
    const std::uint64_t n = c < e.action_counts.size() ? e.action_counts[c] : 0;
    out += TableRow(
        {MarkdownCode(e.action_classes[c]),
         n == 0 ? std::string("**0** (never fired)") : fmt::format("{}", n)});
  }
  out += "\n";
}

void AppendViolations(const ScenarioResult& result, std::string& out) {
  const Exploration& e = result.exploration;
  out += "## Violations\n\n";
  if (e.violations.empty()) {
    out += e.complete() ? "None: every checked invariant held.\n\n"
                        : "None found, but the search was incomplete.\n\n";
    return;
  }
  for (std::size_t i = 0; i < e.violations.size(); ++i) {
    const Violation& v = e.violations[i];
    if (v.lasso()) {
      out += fmt::format("### {}. {} (leads-to), violated by {}\n\n", i + 1,
                         MarkdownCode(v.property), MarkdownText(LassoText(v)));
      if (result.replay) {
        out +=
            "Its stem is the pinned order and its loop `check.loop`; see "
            "[the replayed order](#pinned-order-replayed) for both turns.\n\n";
      }
      out += fmt::format("**Point of no return:** {}.\n\n",
                         MarkdownText(PointOfNoReturnText(result, i)));
      AppendLasso(result, v, out);
      continue;
    }
    out +=
        fmt::format("### {}. {} ({}), {}\n\n", i + 1, MarkdownCode(v.property),
                    KindText(v.kind), Plural(v.trace.length(), "step"));
    if (result.simulation) {
      out += fmt::format("The {}.\n\n", MarkdownText(TraceKindText(result)));
    }
    out += fmt::format("**Point of no return:** {}.\n\n",
                       MarkdownText(PointOfNoReturnText(result, i)));
    if (result.replay) {
      // The trace is a prefix of the replayed order; show it once, there.
      out += fmt::format(
          "Its trace is the pinned order up to step {}: see [the replayed "
          "order](#pinned-order-replayed).\n\n",
          v.trace.length());
      continue;
    }
    std::vector<StepMark> marks;
    const PointOfNoReturn& p = result.points_of_no_return[i];
    if (p.step && *p.step > 0) {
      marks.push_back({*p.step, "⛔", "point of no return", true});
    }
    if (v.trace.length() > 0) {
      marks.push_back({v.trace.length(), "✖", v.property + " violated", false});
    }
    AppendTrace(*result.model, v.trace, marks, out);
  }
}

void AppendReplay(const ScenarioResult& result, std::string& out) {
  const Trace& replay = *result.replay;
  out += "## Pinned order, replayed\n\n";
  std::vector<StepMark> marks;
  for (const Violation& v : result.exploration.violations) {
    if (v.lasso()) {
      out += fmt::format(
          "- {} (leads-to) fails in every state of both turns of the loop: "
          "a fair cycle after step {}.\n",
          MarkdownCode(v.property), v.trace.length());
      continue;
    }
    out +=
        fmt::format("- {} ({}) broke at step {}.\n", MarkdownCode(v.property),
                    KindText(v.kind), v.trace.length());
    if (v.trace.length() > 0) {
      marks.push_back({v.trace.length(), "✖", v.property + " violated", false});
    }
  }
  if (result.exploration.violations.empty()) {
    out += "Every checked invariant held along it.\n";
  }
  out += "\n";
  std::vector<StepBlock> turns;
  const std::size_t n = result.replay_order_steps;
  const std::size_t m = result.replay_loop_steps;
  for (std::size_t turn = 0; m > 0 && turn < 2; ++turn) {
    const std::string label = fmt::format("check.loop, turn {}", turn + 1);
    turns.push_back(
        {n + turn * m + 1, n + (turn + 1) * m, label,
         fmt::format("**`check.loop`, turn {}** (steps {}–{}):", turn + 1,
                     n + turn * m + 1, n + (turn + 1) * m)});
  }
  AppendTrace(*result.model, replay, marks, out, turns);
}

}  // namespace

std::string MarkdownText(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '<':
        out += "&lt;";
        continue;
      case '&':
        out += "&amp;";
        continue;
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '#':
      case '~':
      case '$':
        out += '\\';
        break;
      case '_': {
        // Inside a word an underscore never opens emphasis (GFM), so
        // `effect_at_most_once` stays readable in the source.
        const bool inside_word = i > 0 && i + 1 < text.size() &&
                                 IsAlnum(text[i - 1]) && IsAlnum(text[i + 1]);
        if (!inside_word) out += '\\';
        break;
      }
      default:
        break;
    }
    out += c;
  }
  return out;
}

std::string MarkdownCode(std::string_view text) {
  std::size_t longest = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t run = 0;
    while (i + run < text.size() && text[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run > 0 ? run : 1;
  }
  const std::string fence(longest + 1, '`');
  // A space on each side keeps a leading or trailing backtick apart from
  // the fence; CommonMark strips one such space.
  const bool pad = longest > 0;
  return fmt::format("{}{}{}{}{}", fence, pad ? " " : "", text, pad ? " " : "",
                     fence);
}

std::string MarkdownCell(std::string_view cell) {
  std::string out;
  for (char c : cell) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownReport(const ScenarioResult& result,
                           const ReportOptions& options) {
  const Scenario& scenario = result.scenario;
  std::string out = fmt::format("# {}\n\n", MarkdownText(scenario.name));
  if (!scenario.description.empty()) {
    out += MarkdownProse(scenario.description) + "\n";
  }
  out += fmt::format("Scenario file: {}\n\n", MarkdownCode(scenario.path));
  // What a reader comes for first: the verdict, then the traces with their
  // step tables and diagrams; the configuration, search and coverage after.
  AppendSummary(result, out);
  AppendViolations(result, out);
  if (result.replay) AppendReplay(result, out);
  AppendConfiguration(result, out);
  AppendSearch(result, options, out);
  AppendCoverage(result.exploration, out);
  out += MarkdownWrittenBy(options);
  // One trailing newline, whatever the last section ended with.
  while (out.size() > 1 && out[out.size() - 1] == '\n' &&
         out[out.size() - 2] == '\n') {
    out.pop_back();
  }
  return out;
}

std::string MarkdownWrittenBy(const ReportOptions& options) {
  std::string out =
      fmt::format("---\n\nWritten by outbox-check {}", OUTBOX_CHECK_VERSION);
  if (!options.command_line.empty()) {
    out += ", by the command " + MarkdownCode(options.command_line);
  }
  return out + ".\n";
}

}  // namespace oc::reports
