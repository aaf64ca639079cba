// A trace as a sequence diagram, independent of how it is drawn: the
// Markdown report renders it as Mermaid, the HTML report as SVG.
//
// Participants, left to right: the outbox database, each relay, the broker,
// each consumer instance ("billing/1"). Every step of the trace becomes one
// item: a message between two participants, or a note over one (lease
// expiry, crashes, a consumer's second step, a broker redelivery).

#ifndef OUTBOX_CHECK_REPORTS_SEQUENCE_H_
#define OUTBOX_CHECK_REPORTS_SEQUENCE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "check/scenario_check.h"

namespace oc::reports {

struct SequenceItem {
  enum class Kind { kMessage, kNote };
  Kind kind = Kind::kMessage;
  std::size_t step = 0;  // 1-based step of the trace
  int from = 0;          // participant index; for a note, the one it is over
  int to = 0;            // participant index; equal to `from` for a note
  std::string text;      // "claim e1 (token 1)", "lease of e1 expires"
  bool dashed = false;   // a reply or an acknowledgement
  bool lost = false;     // the message never arrived (a lost acknowledgement)
};

struct SequenceDiagram {
  std::vector<std::string> participants;  // display names
  std::vector<SequenceItem> items;        // one per step, in order
};

// REQUIRES: `trace` is a trace of `model`.
SequenceDiagram SequenceOf(const OutboxModel& model, const Trace& trace);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_SEQUENCE_H_
