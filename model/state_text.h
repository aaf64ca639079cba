// How parts of a State read in messages and traces. One wording for the
// model's "why is this action disabled" messages and the printed cells.

#ifndef OUTBOX_CHECK_MODEL_STATE_TEXT_H_
#define OUTBOX_CHECK_MODEL_STATE_TEXT_H_

#include <string>
#include <string_view>

#include "model/config.h"
#include "model/state.h"

namespace oc {

// "none", "active", "expired".
std::string_view LeaseText(Lease lease);

// "idle", "claimed(e1, token 1)", "sent(e1, token 1)".
std::string RelayText(const Config& config, const RelayCells& relay);

// "idle", "holding(e1)", "midway(e1)", with the strategy's private data when
// it has any: "midway(e1, read inbox=0)", "midway(e1, ledger row new)".
std::string InstanceText(const Config& config, Strategy strategy,
                         const InstanceCells& instance);
// The same for an instance of `group`, which may have a declared strategy
// (its midway text then shows the locals kept for step 2).
std::string InstanceText(const Config& config, const Group& group,
                         const InstanceCells& i);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_STATE_TEXT_H_
