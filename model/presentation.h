// How the outbox model presents its own steps to people, so that renderers
// (the terminal, Markdown with Mermaid, HTML with SVG, JSON) draw and print
// what the model says instead of knowing relay styles or action kinds.
//
// A step is an action with the state before and after it. Its presentation
// is one item of a sequence diagram, either a message between two
// participants or a note over one, together with the step table's columns:
// the action's text form, what it worked on that the text form does not say,
// and the cells it changed.
//
// Participants, left to right: the outbox database, each relay, the broker,
// each consumer instance ("billing/1"). A participant is named by its index
// in Participants().
//
// Everything here is a pure function of the model and its arguments: the
// same step always gives the same words.

#ifndef OUTBOX_CHECK_MODEL_PRESENTATION_H_
#define OUTBOX_CHECK_MODEL_PRESENTATION_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/action.h"
#include "model/config.h"
#include "model/outbox_model.h"
#include "model/state.h"
#include "model/state_cells.h"

namespace oc {

// The diagram's display names: "outbox database", "relay A", "broker",
// "billing/1", in participant order.
std::vector<std::string> Participants(const OutboxModel& model);

enum class StepShape : std::uint8_t {
  kMessage,  // an arrow from `from` to `to` (equal for a self-message)
  kNote,     // a box over `from`
};

struct StepPresentation {
  StepShape shape = StepShape::kMessage;
  int from = 0;  // participant index; for a note, the one it is over
  int to = 0;    // participant index; equal to `from` for a note
  // The diagram's words: "claim e1 (token 1)", "lease of e1 expires".
  std::string text;
  bool dashed = false;  // a reply or an acknowledgement
  bool lost = false;    // the message never arrived or did not take effect
  // The step table's columns.
  std::string action;               // FormatAction: "claim(A, e1)"
  std::string detail;               // ActionDetail: "token 1", or ""
  std::vector<CellChange> changed;  // ChangedCells(before, after)
};

// One step. `elapsed` is the time the run's earlier steps let pass (the sum
// of their ticks), which a tick's note counts on from.
// REQUIRES: `after` is the successor of `before` under `action` in `model`.
StepPresentation PresentStep(const OutboxModel& model, const Action& action,
                             const State& before, const State& after,
                             Seconds elapsed);

// Every step of a run from states[0]: actions[i] leads from states[i] to
// states[i + 1]. Keeps the elapsed time across ticks.
// REQUIRES: states.size() == actions.size() + 1, and each step is a
// transition of `model`.
std::vector<StepPresentation> PresentSteps(const OutboxModel& model,
                                           std::span<const Action> actions,
                                           std::span<const State> states);

// A row of a run as people read it: one step, or a run of two or more
// consecutive ticks shown as one note ("time passes 2h 50m in 34 ticks, to
// 3h 5m since the start"), so that a long wait does not bury the steps that
// matter. Step numbers stay those of the model: a row says which steps it
// spans.
struct StepRow {
  std::size_t first = 0;  // 0-based index of the row's first step
  std::size_t last = 0;   // and of its last; equal for a single step
  // The step's presentation; for a run of ticks, a note over the outbox
  // database whose changed cells go from before `first` to after `last`.
  StepPresentation step;
  bool grouped() const { return last > first; }
};

// The rows of a run: PresentSteps with each run of consecutive ticks made
// one row, except the steps `alone` lists (1-based), which keep rows of
// their own (a renderer's marked steps). REQUIRES: as PresentSteps.
std::vector<StepRow> PresentRows(const OutboxModel& model,
                                 std::span<const Action> actions,
                                 std::span<const State> states,
                                 std::span<const std::size_t> alone = {});

// What the relay style adds to the scope of a verdict, each clause led by
// "; ", or "" for the seed's lease_token without budgets of the styles:
// "; relay style row_lock, at most 1 failed commit", "; relay style
// age_sweeper (minimum age 5m, sends up to 30s)", "; at most 2 lost broker
// writes". Its budgets come from the fault-budget table.
std::string RelayStyleClauses(const Config& config);

// A setting of the relay style, keyed as in scenario files ("min_age") and
// valued as a duration ("5m"), or nullopt when unset.
struct RelaySetting {
  std::string name;
  std::optional<std::string> value;
  bool operator==(const RelaySetting&) const = default;
};

// The settings only `config`'s relay style has, in a fixed order: min_age
// and send_time for age_sweeper, none for the other styles.
std::vector<RelaySetting> RelayStyleSettings(const Config& config);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_PRESENTATION_H_
