#include "reports/sequence.h"

namespace oc::reports {

SequenceDiagram SequenceOf(const OutboxModel& model,
                           const std::vector<StepPresentation>& steps) {
  SequenceDiagram d;
  d.participants = Participants(model);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepPresentation& s = steps[i];
    d.items.push_back(
        SequenceItem{s.shape, i + 1, s.from, s.to, s.text, s.dashed, s.lost});
  }
  return d;
}

SequenceDiagram SequenceOf(const OutboxModel& model, const Trace& trace) {
  return SequenceOf(model, PresentSteps(model, trace.actions, trace.states));
}

}  // namespace oc::reports
