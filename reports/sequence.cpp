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

Trace LassoTrace(const Violation& v) {
  Trace t = v.trace;
  t.actions.insert(t.actions.end(), v.loop.actions.begin(),
                   v.loop.actions.end());
  t.states.insert(t.states.end(), v.loop.states.begin() + 1,
                  v.loop.states.end());
  return t;
}

}  // namespace oc::reports
