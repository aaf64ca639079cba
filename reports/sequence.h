// A trace as a sequence diagram, independent of how it is drawn: the
// Markdown report renders it as Mermaid, the HTML report as SVG.
//
// The model says what each step looks like (model/presentation.h): who the
// participants are, and for every step a message between two of them or a
// note over one. This header only puts that in the shape both drawings
// read, with the step numbers, so that a drawing can also be built by hand
// (tests).

#ifndef OUTBOX_CHECK_REPORTS_SEQUENCE_H_
#define OUTBOX_CHECK_REPORTS_SEQUENCE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "model/presentation.h"

namespace oc::reports {

struct SequenceItem {
  using Kind = StepShape;
  Kind kind = Kind::kMessage;
  std::size_t step = 0;  // 1-based step of the trace
  int from = 0;          // participant index; for a note, the one it is over
  int to = 0;            // participant index; equal to `from` for a note
  std::string text;      // "claim e1 (token 1)", "lease of e1 expires"
  bool dashed = false;   // a reply or an acknowledgement
  bool lost = false;     // the message never arrived (a lost acknowledgement)
  // The last step it spans, for a run of ticks drawn as one note; 0 when it
  // is the one step `step`.
  std::size_t last_step = 0;
  std::size_t last() const { return last_step ? last_step : step; }
};

struct SequenceDiagram {
  std::vector<std::string> participants;  // display names
  std::vector<SequenceItem> items;        // one per row, in order
};

// REQUIRES: `rows` are the rows of a run of `model`, in order.
SequenceDiagram SequenceOf(const OutboxModel& model,
                           const std::vector<StepRow>& rows);
// REQUIRES: `trace` is a trace of `model`.
SequenceDiagram SequenceOf(const OutboxModel& model, const Trace& trace);

// A lasso's stem and one turn of its loop as one trace, the loop's steps
// numbered on from the stem's (steps stem + 1 .. stem + loop), for the
// tables and drawings that show both. REQUIRES: v.lasso(); the loop starts
// in the stem's last state.
Trace LassoTrace(const Violation& v);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_SEQUENCE_H_
