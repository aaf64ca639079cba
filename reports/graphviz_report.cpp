#include "reports/graphviz_report.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "model/state_cells.h"

namespace oc::reports {
namespace {

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

Result<std::string> GraphvizReport(const ScenarioResult& result,
                                   std::uint64_t max_states) {
  const Exploration& e = result.exploration;
  if (result.replay) {
    return Status::Error("a pinned order explores no state graph");
  }
  if (!e.graph) {
    if (!e.complete()) {
      return Status::Error(
          "the search was incomplete; only a complete graph is drawn");
    }
    if (e.graph_over_memory) {
      return Status::Error(fmt::format(
          "the graph of the search's {} states would exceed the memory limit",
          e.stats.states));
    }
    return Status::Error(fmt::format(
        "the search reached {} states, over the checker's graph limit",
        e.stats.states));
  }
  const auto& g = *e.graph;
  const std::size_t n = g.num_vertices();
  if (n > max_states) {
    return Status::Error(fmt::format(
        "the graph has {} states, over the limit of {} (--graph-limit)", n,
        max_states));
  }
  const OutboxModel& model = *result.model;
  auto state = [&](std::size_t v) {
    return g.state(model, static_cast<std::uint32_t>(v));
  };
  const std::vector<Cell> initial = Cells(model, state(0));

  // The first violation's path, as the set of (state, state) edges on it,
  // and a lasso's loop apart. Followed through the graph by its actions
  // from the initial state: where the search abstracted counts, the
  // trace's states are concrete and the graph's are not. Of several edges
  // with the step's action (an abstracted count that fell may also stay),
  // the one to the trace's own state, if the graph has it, else the first.
  std::set<std::pair<std::size_t, std::size_t>> path, loop;
  std::set<std::size_t> bad;
  if (!e.violations.empty()) {
    const Violation& violation = e.violations.front();
    std::size_t at = 0;
    bool lost = false;
    auto follow = [&](const Trace& t,
                      std::set<std::pair<std::size_t, std::size_t>>& into) {
      for (std::size_t i = 0; i < t.actions.size() && !lost; ++i) {
        const std::optional<std::uint32_t> exact =
            g.Find(model, model.AbstractOf(t.states[i + 1]));
        std::optional<std::size_t> next;
        for (auto edge = g.out_begin(static_cast<std::uint32_t>(at));
             edge != g.out_end(static_cast<std::uint32_t>(at)); ++edge) {
          if (!(g.action(edge) == t.actions[i])) continue;
          if (!next || (exact && g.target(edge) == *exact)) {
            next = g.target(edge);
          }
        }
        if (!next) {
          lost = true;  // not in this graph; draw what was found
          break;
        }
        into.insert({at, *next});
        at = *next;
      }
    };
    follow(violation.trace, path);
    if (!lost) bad.insert(at);
    if (violation.lasso()) follow(violation.loop, loop);
  }

  // The DOT text, laid out as Boost.Graph's write_graphviz laid it out
  // when the graph was a Boost adjacency list: vertices, then edges in
  // vertex and successor order.
  std::ostringstream out;
  out << "digraph G {\n"
      << "node [shape=box, fontname=\"monospace\", fontsize=10];\n"
      << "edge [fontname=\"monospace\", fontsize=9];\n";
  for (std::uint32_t v = 0; v < n; ++v) {
    std::string label = fmt::format("#{}", v);
    const std::vector<Cell> cells = Cells(model, state(v));
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].value != initial[c].value) {
        label += fmt::format("\\n{} = {}", Escape(cells[c].name),
                             Escape(cells[c].value));
      }
    }
    out << v << "[label=\"" << label << "\"";
    if (g.terminal(v)) out << ", shape=doubleoctagon";
    if (g.bounded_dead_end(v)) out << ", style=dashed";
    if (bad.count(v)) out << ", style=filled, fillcolor=\"#f4b4b4\"";
    out << "];\n";
  }
  for (std::uint32_t from = 0; from < n; ++from) {
    for (auto edge = g.out_begin(from); edge != g.out_end(from); ++edge) {
      const std::size_t to = g.target(edge);
      out << from << "->" << to << " [label=\""
          << Escape(FormatAction(model.config(), g.action(edge))) << "\"";
      if (path.count({from, to})) {
        out << ", color=red, penwidth=2";
      } else if (loop.count({from, to})) {
        out << ", color=blue, penwidth=2, style=bold";
      }
      out << "];\n";
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace oc::reports
