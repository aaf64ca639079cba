// A State seen as named cells, for people: trace printouts and reports show
// the cells an action changed, or every cell of a state.
//
// Cell names (FORMAT.md and the README use the same words):
//   outbox[e1].published .owner .token .lease .completed_token
//   broker.offered[e1]   broker.ready[GROUP][e1]
//   relay[A]             "idle", "claimed(e1, token 1)", "sent(e1, token 1)"
//   instance[GROUP/1]    "idle", "holding(e1)", "midway(e1)", with the
//                        strategy's private data when it has any
//   GROUP.effects[e1] .inbox[e1] .ledger[e1] .sent[e1]   (per strategy)
//   GROUP.version[k1] .cache[k1]                         (per strategy)
//   faults.premature_expiries ...                        (budgets left)
// and the relay styles', only in configurations that use them:
//   outbox[e1].committed .log_position   outbox.last_seen
// (with a style other than lease_token, a row shows no owner, token, lease
// or completed_token: those styles never set them)
//   connector.flushed_offset  connector.read_position
//   faults.failed_commits  faults.lost_broker_writes
//   outbox[e1].dispatch_begun .age   relay[A].sending_for   (age_sweeper)
// Only the tables a group's strategy uses are listed.

#ifndef OUTBOX_CHECK_MODEL_STATE_CELLS_H_
#define OUTBOX_CHECK_MODEL_STATE_CELLS_H_

#include <string>
#include <vector>

#include "model/outbox_model.h"
#include "model/state.h"

namespace oc {

struct Cell {
  std::string name;
  std::string value;
  bool operator==(const Cell&) const = default;
};

struct CellChange {
  std::string name;
  std::string before;
  std::string after;
  bool operator==(const CellChange&) const = default;
};

// Every cell of `s`, in a fixed order (outbox, broker, relays, instances,
// group tables, budgets).
std::vector<Cell> Cells(const OutboxModel& model, const State& s);

// The cells whose value differs between `before` and `after`, in Cells order.
std::vector<CellChange> ChangedCells(const OutboxModel& model,
                                     const State& before, const State& after);

// What an action worked on that its text form does not say, from the state
// before it: "token 1" for claim (the new token; with age_sweeper "dispatch"
// or "sweep"); "e1, token 1" for send,
// send_ack_lost, complete and crash_relay; "token 2" for expire; "" for the
// consumer actions, whose arguments say it all.
// REQUIRES: `a` is enabled in `before`.
std::string ActionDetail(const OutboxModel& model, const State& before,
                         const Action& a);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_STATE_CELLS_H_
