#include "reports/graphviz_report.h"

#include <fmt/format.h>

#include <boost/graph/graphviz.hpp>
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
    return Status::Error(fmt::format(
        "the search reached {} states, over the checker's graph limit",
        e.stats.states));
  }
  const auto& g = *e.graph;
  const std::size_t n = boost::num_vertices(g);
  if (n > max_states) {
    return Status::Error(fmt::format(
        "the graph has {} states, over the limit of {} (--graph-limit)", n,
        max_states));
  }
  const OutboxModel& model = *result.model;
  const std::vector<Cell> initial = Cells(model, g[0].state);

  // The first violation's path, as the set of (state, action) edges on it.
  std::set<std::pair<std::size_t, std::size_t>> path;
  std::set<std::size_t> bad;
  if (!e.violations.empty()) {
    const Trace& t = e.violations.front().trace;
    std::map<std::uint64_t, std::vector<std::size_t>> by_fingerprint;
    for (std::size_t v = 0; v < n; ++v) {
      by_fingerprint[model.Fingerprint(g[v].state)].push_back(v);
    }
    auto vertex = [&](const State& s) {
      for (std::size_t v : by_fingerprint[model.Fingerprint(s)]) {
        if (g[v].state == s) return v;
      }
      return std::size_t{0};
    };
    for (std::size_t i = 0; i < t.actions.size(); ++i) {
      path.insert({vertex(t.states[i]), vertex(t.states[i + 1])});
    }
    bad.insert(vertex(t.states.back()));
  }

  auto vertex_writer = [&](std::ostream& out, std::size_t v) {
    std::string label = fmt::format("#{}", v);
    const std::vector<Cell> cells = Cells(model, g[v].state);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].value != initial[c].value) {
        label += fmt::format("\\n{} = {}", Escape(cells[c].name),
                             Escape(cells[c].value));
      }
    }
    out << "[label=\"" << label << "\"";
    if (g[v].terminal) out << ", shape=doubleoctagon";
    if (g[v].bounded_dead_end) out << ", style=dashed";
    if (bad.count(v)) out << ", style=filled, fillcolor=\"#f4b4b4\"";
    out << "]";
  };
  auto edge_writer = [&](std::ostream& out, const auto& edge) {
    const std::size_t from = boost::source(edge, g);
    const std::size_t to = boost::target(edge, g);
    out << "[label=\"" << Escape(FormatAction(model.config(), g[edge].action))
        << "\"";
    if (path.count({from, to})) out << ", color=red, penwidth=2";
    out << "]";
  };
  auto graph_writer = [&](std::ostream& out) {
    out << "node [shape=box, fontname=\"monospace\", fontsize=10];\n"
        << "edge [fontname=\"monospace\", fontsize=9];\n";
  };
  std::ostringstream out;
  boost::write_graphviz(out, g, vertex_writer, edge_writer, graph_writer);
  return out.str();
}

}  // namespace oc::reports
