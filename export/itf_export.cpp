#include "export/itf_export.h"

#include <fmt/format.h>

#include <cassert>
#include <optional>
#include <string_view>
#include <vector>

#include "common/json_writer.h"
#include "common/text.h"
#include "model/action.h"
#include "model/presentation.h"
#include "model/state_cells.h"

namespace oc::exports {
namespace {

constexpr std::string_view kFormatDescription =
    "https://apalache-mc.org/docs/adr/015adr-trace.html";

// Whether `text` is an integer written the one way we would write it, so
// that reading the ITF value back gives the cell's text.
bool IsCanonicalInteger(const std::string& text) {
  const std::optional<std::int64_t> n = ParseInteger(text);
  return n && fmt::format("{}", *n) == text;
}

}  // namespace

std::string ItfTrace(const ScenarioResult& result, std::size_t violation) {
  const Violation& v = result.exploration.violations.at(violation);
  const OutboxModel& model = *result.model;
  // A lasso: the stem, then the loop's states but its last, and ITF's
  // "loop" index says the run goes on from the loop's first state.
  Trace trace = v.trace;
  const std::size_t loop_start = trace.length();
  if (v.lasso()) {
    for (std::size_t i = 0; i + 1 < v.loop.actions.size(); ++i) {
      trace.actions.push_back(v.loop.actions[i]);
      trace.states.push_back(v.loop.states[i + 1]);
    }
  }

  std::vector<std::vector<Cell>> states;
  for (const State& s : trace.states) states.push_back(Cells(model, s));
  const std::vector<Cell>& first = states.front();
  // An integer variable is one in every state.
  std::vector<bool> integer(first.size(), true);
  for (const std::vector<Cell>& cells : states) {
    assert(cells.size() == first.size());  // Cells names depend on the model
    for (std::size_t c = 0; c < cells.size(); ++c) {
      assert(cells[c].name == first[c].name);
      if (!IsCanonicalInteger(cells[c].value)) integer[c] = false;
    }
  }
  const std::vector<StepPresentation> steps =
      PresentSteps(model, trace.actions, trace.states);
  const bool pinned = result.replay.has_value();

  JsonWriter w;
  w.BeginObject();
  w.Key("#meta").BeginObject();
  w.Key("format").String("ITF");
  w.Key("format-description").String(kFormatDescription);
  w.Key("source").String(result.scenario.path);
  w.Key("description")
      .String(
          v.lasso()
              ? fmt::format(
                    "A lasso breaking {} in scenario '{}', written by "
                    "outbox-check: a stem of {}, then a loop of {} that a "
                    "fair run repeats for ever; after the last state, "
                    "'{}' leads back to state {} (equal up to the "
                    "renumbering of tokens, where the search abstracts)",
                    v.property, result.scenario.name,
                    Plural(v.trace.length(), "step"),
                    Plural(v.loop.length(), "step"),
                    FormatAction(result.scenario.config, v.loop.actions.back()),
                    loop_start)
              : fmt::format(
                    "{} of {} in scenario '{}', {}, written by outbox-check",
                    pinned ? "The pinned order up to the violation"
                           : "The shortest counterexample",
                    v.property, result.scenario.name,
                    Plural(trace.length(), "step")));
  w.Key("scenario").String(result.scenario.name);
  w.Key("invariant").String(v.property);
  w.Key("kind").String(explorer::PropertyKindKey(v.kind));
  w.Key("search").String(pinned ? "pinned" : "exhaustive");
  w.Key("length").Number(static_cast<std::uint64_t>(v.trace.length()));
  if (v.lasso()) {
    w.Key("loop_length").Number(static_cast<std::uint64_t>(v.loop.length()));
    w.Key("loop_closing_action")
        .String(FormatAction(result.scenario.config, v.loop.actions.back()));
  }
  w.EndObject();
  w.Key("vars").BeginArray();
  for (const Cell& c : first) w.String(c.name);
  w.EndArray();
  w.Key("states").BeginArray();
  for (std::size_t i = 0; i < states.size(); ++i) {
    w.BeginObject();
    w.Key("#meta").BeginObject();
    w.Key("index").Number(static_cast<std::uint64_t>(i));
    if (i > 0) {
      const StepPresentation& step = steps[i - 1];
      w.Key("action").String(step.action);
      w.Key("detail").String(step.detail);
      w.Key("step").String(step.text);
    }
    w.EndObject();
    for (std::size_t c = 0; c < states[i].size(); ++c) {
      w.Key(states[i][c].name);
      if (integer[c]) {
        w.BeginObject().Key("#bigint").String(states[i][c].value).EndObject();
      } else {
        w.String(states[i][c].value);
      }
    }
    w.EndObject();
  }
  w.EndArray();
  if (v.lasso()) w.Key("loop").Number(static_cast<std::uint64_t>(loop_start));
  w.EndObject();
  return w.Finish();
}

}  // namespace oc::exports
