#include "reports/sequence.h"

namespace oc::reports {

SequenceDiagram SequenceOf(const OutboxModel& model,
                           const std::vector<StepRow>& rows) {
  SequenceDiagram d;
  d.participants = Participants(model);
  for (const StepRow& row : rows) {
    const StepPresentation& s = row.step;
    d.items.push_back(SequenceItem{s.shape, row.first + 1, s.from, s.to, s.text,
                                   s.dashed, s.lost,
                                   row.grouped() ? row.last + 1 : 0});
  }
  return d;
}

SequenceDiagram SequenceOf(const OutboxModel& model, const Trace& trace) {
  return SequenceOf(model, PresentRows(model, trace.actions, trace.states));
}

}  // namespace oc::reports
