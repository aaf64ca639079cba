#include "reports/graphviz_report.h"

#include <fmt/format.h>

#include <map>
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

  // The first violation's path, as the set of (state, action) edges on it.
  std::set<std::pair<std::size_t, std::size_t>> path;
  std::set<std::size_t> bad;
  if (!e.violations.empty()) {
    const Trace& t = e.violations.front().trace;
    auto vertex = [&](const State& s) -> std::size_t {
      return g.Find(model, s).value_or(0);
    };
    for (std::size_t i = 0; i < t.actions.size(); ++i) {
      path.insert({vertex(t.states[i]), vertex(t.states[i + 1])});
    }
    bad.insert(vertex(t.states.back()));
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
      if (path.count({from, to})) out << ", color=red, penwidth=2";
      out << "];\n";
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace oc::reports
