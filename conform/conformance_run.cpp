#include "conform/conformance_run.h"

#include <fmt/format.h>

#include <set>

#include "conform/conform_schema.h"

namespace oc::conform {
namespace {

// The tables that hold a differing cell, in the order they were read.
std::vector<std::pair<std::string, PgRows>> TablesOf(
    const std::vector<CellDifference>& differences, DatabaseCells& db) {
  std::set<std::string> wanted;
  for (const CellDifference& d : differences) wanted.insert(d.table);
  std::vector<std::pair<std::string, PgRows>> out;
  for (auto& [table, rows] : db.tables) {
    if (wanted.count(table)) out.emplace_back(table, std::move(rows));
  }
  return out;
}

// Replays one path on a schema that CreateSchema just made. Returns the
// divergence, if any, and counts agreeing steps into `steps_agreed`.
Result<std::optional<Divergence>> ReplayPath(const OutboxModel& model,
                                             const ConformPath& path,
                                             const ConformOptions& options,
                                             PgConnection& reader,
                                             std::size_t& steps_agreed) {
  Result<std::unique_ptr<SqlDriver>> driver =
      SqlDriver::Open(options.conninfo, options.schema, model, *options.sql);
  if (!driver.ok()) return driver.status();
  const Trace& trace = path.trace;
  std::vector<std::string> before;
  for (std::size_t step = 0; step <= trace.length(); ++step) {
    Divergence d;
    d.path_label = path.label;
    d.step = step;
    d.steps_before = before;
    if (step > 0) {
      const Action& a = trace.actions[step - 1];
      d.action_text = FormatAction(model.config(), a);
      if (Status s = driver.value()->Run(a, d.statements); !s.ok()) {
        d.error = s.message();
        return std::optional<Divergence>(std::move(d));
      }
    }
    Result<DatabaseCells> db = ReadDurableCells(reader, model.config());
    if (!db.ok()) return db.status();
    d.differences = CompareCells(ModelDurableCells(model, trace.states[step]),
                                 db.value().cells);
    if (!d.differences.empty()) {
      d.tables = TablesOf(d.differences, db.value());
      return std::optional<Divergence>(std::move(d));
    }
    if (Status s =
            driver.value()->ProbeClaims(trace.states[step], d.statements);
        !s.ok()) {
      d.error = s.message();
      return std::optional<Divergence>(std::move(d));
    }
    if (step > 0) {
      ++steps_agreed;
      before.push_back(d.action_text);
    }
  }
  return std::optional<Divergence>();
}

}  // namespace

Result<ScenarioConformance> ConformScenario(const ScenarioResult& checked,
                                            const ConformOptions& options,
                                            PgConnection& admin) {
  ScenarioConformance out;
  out.name = checked.scenario.name;
  out.path = checked.scenario.path;
  out.selection = SelectPaths(checked, options.further_paths);
  const OutboxModel& model = *checked.model;
  const auto cancelled = [&] {
    return options.cancel != nullptr && options.cancel->load();
  };
  for (const ConformPath& path : out.selection.paths) {
    if (cancelled()) {
      out.interrupted = true;
      return out;
    }
    if (Status s = CheckSchemaIsFree(admin, options.schema); !s.ok()) return s;
    if (Status s = CreateSchema(admin, options.schema, model.config());
        !s.ok()) {
      return s;
    }
    std::size_t steps = 0;
    Result<std::optional<Divergence>> replayed =
        ReplayPath(model, path, options, admin, steps);
    // The driver's connections are closed by now, so nothing holds a lock
    // in the schema and the drop cannot wait.
    const Status dropped = DropSchema(admin, options.schema);
    if (!replayed.ok()) return replayed.status();
    if (!dropped.ok()) return dropped;
    out.steps_agreed += steps;
    if (replayed.value()) {
      out.divergence = std::move(replayed).value();
      break;
    }
    ++out.paths_agreed;
  }
  if (out.divergence) return out;
  if (cancelled()) {
    out.interrupted = true;
    return out;
  }
  for (const Group& g : model.config().groups) {
    if (g.instances < 2 || !RunsConcurrentDuplicate(g.strategy)) {
      continue;
    }
    Result<ConcurrentDuplicate> c = RunConcurrentDuplicate(
        options.conninfo, options.schema, g.strategy, *options.sql);
    if (!c.ok()) return c.status();
    out.concurrent = std::move(c).value();
    break;  // the run depends only on the strategy
  }
  return out;
}

}  // namespace oc::conform
