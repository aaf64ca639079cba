#include "conform/conformance_text.h"

#include <fmt/format.h>

#include "common/text.h"

namespace oc::conform {
namespace {

std::string Indented(const std::string& text, std::string_view indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::size_t stop = end == std::string::npos ? text.size() : end;
    out += fmt::format("{}{}\n", indent, text.substr(start, stop - start));
    start = stop + 1;
  }
  return out;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::string FormatScenarioLine(const ScenarioConformance& c) {
  std::size_t pinned = 0, counterexamples = 0, explored = 0, walked = 0;
  std::string pinned_label;
  for (const ConformPath& p : c.selection.paths) {
    if (p.label.starts_with("pinned order")) {
      ++pinned;
      pinned_label = p.label;  // with its loop's turns, if any
    } else if (p.label.starts_with("counterexample")) {
      ++counterexamples;
    } else if (p.label.starts_with("walked")) {
      ++walked;
    } else {
      ++explored;
    }
  }
  std::vector<std::string> kinds;
  if (pinned) kinds.push_back(pinned_label);
  if (counterexamples)
    kinds.push_back(Plural(counterexamples, "counterexample"));
  if (explored) kinds.push_back(fmt::format("{} explored", explored));
  if (walked) kinds.push_back(fmt::format("{} walked", walked));
  std::string line;
  if (c.divergence) {
    line =
        fmt::format("{}: DIVERGES on {}, step {} ({} of {} agreed first)",
                    c.name, c.divergence->path_label, c.divergence->step,
                    Plural(c.paths_agreed, "path"), c.selection.paths.size());
  } else {
    line = fmt::format("{}: {}, {} agree ({})", c.name,
                       Plural(c.paths_agreed, "path"),
                       Plural(c.steps_agreed, "step"), Join(kinds));
  }
  line += fmt::format("\n  covered: {}", Join(c.selection.covered));
  if (!c.selection.uncovered.empty()) {
    line += fmt::format("\n  not covered by these paths: {}",
                        Join(c.selection.uncovered));
  }
  if (c.concurrent) {
    const ConcurrentDuplicate& d = *c.concurrent;
    std::string text = FormatConcurrentDuplicate(d);
    if (c.agrees()) text = text.substr(0, text.find('\n'));  // timeline too
    line += "\n  " + text;                                   // if it differs
    while (!line.empty() && line.back() == '\n') line.pop_back();
  }
  if (c.selection.no_graph) {
    line +=
        "\n  the search was too big to keep its graph: further paths were "
        "walked from the model";
  }
  return line;
}

std::string FormatDivergence(const ScenarioConformance& c) {
  const Divergence& d = *c.divergence;
  std::string out =
      fmt::format("divergence in {} ({}), {}, ", c.name, c.path, d.path_label);
  out += d.step == 0 ? "before the first step (the seeded rows)\n"
                     : fmt::format("step {}: {}\n", d.step, d.action_text);
  if (!d.steps_before.empty()) {
    out += "  steps before it, all agreeing:\n";
    for (std::size_t i = 0; i < d.steps_before.size(); ++i) {
      out += fmt::format("    {:>2}. {}\n", i + 1, d.steps_before[i]);
    }
  }
  if (!d.statements.empty()) out += "  SQL of the step:\n";
  for (const RunStatement& s : d.statements) {
    out += fmt::format("    [{}] {}\n", s.connection, s.sql);
    if (!s.params.empty()) {
      std::vector<std::string> params;
      for (std::size_t i = 0; i < s.params.size(); ++i) {
        params.push_back(fmt::format("${} = '{}'", i + 1, s.params[i]));
      }
      out += fmt::format("        with {}\n", Join(params));
    }
    out += fmt::format("        -> {}\n", s.outcome);
  }
  if (!d.error.empty()) out += fmt::format("  {}\n", d.error);
  if (!d.differences.empty()) {
    out += "  durable cells that differ (model, database):\n";
    for (const CellDifference& diff : d.differences) {
      out +=
          fmt::format("    {}: model {}, database {} (table {})\n", diff.name,
                      diff.model_value, diff.database_value, diff.table);
    }
  }
  for (const auto& [table, rows] : d.tables) {
    out += fmt::format("  rows of {} after the step:\n", table);
    out += Indented(FormatRows(rows), "    ");
  }
  return out;
}

std::string FormatClosingLine(const std::vector<ScenarioConformance>& all,
                              const std::string& server_version) {
  std::size_t paths = 0, steps = 0, diverging = 0, concurrent = 0;
  for (const ScenarioConformance& c : all) {
    paths += c.paths_agreed;
    steps += c.steps_agreed;
    if (!c.agrees()) ++diverging;
    if (c.concurrent) ++concurrent;
  }
  if (diverging > 0) {
    return fmt::format(
        "conformance: {} of {} diverge from PostgreSQL {} ({} and {} agreed)",
        diverging, Plural(all.size(), "scenario"), server_version,
        Plural(paths, "path"), Plural(steps, "step"));
  }
  return fmt::format("conformance: {}, {}, {} agree with PostgreSQL {}{}",
                     Plural(all.size(), "scenario"), Plural(paths, "path"),
                     Plural(steps, "step"), server_version,
                     concurrent == 0
                         ? std::string()
                         : fmt::format(" (and {} concurrent duplicate{})",
                                       concurrent, concurrent == 1 ? "" : "s"));
}

}  // namespace oc::conform
