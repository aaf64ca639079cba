// Actions of the outbox model (docs/SEMANTICS.md sections 3 and 4), and their
// text form, which is both what traces print and what pinned orders in scenario
// files are written in:
//
//   claim(A, e1)  send(A)  send_ack_lost(A)  complete(A)  expire(e1)
//   crash_relay(A)  consume(billing, 1, e1)  step(billing, 1)
//   acknowledge(billing, 1)  ack_lost(billing, 1)  crash_consumer(billing, 1)
//   redeliver(billing, 1)
//   tick  retry(billing, e1)  redrive(billing, e1)
//   dead_letter_expire(billing, e1)  cleanup(billing, e1)
//   consumer_outage(billing)  database_outage
//   source_commit(e1)  commit_fails(A)  flush_offset(A)  lose_write(e1)
//                                                      (the relay styles'
//                                                      actions)
//   rebalance(billing, p1, 2)  send_fails(A)  retry_send(A)
//   consume_fails(billing, 1, e1)  consume_retry(billing, 1, e1)
//                                      (the partitioned broker's; p1 is
//                                       the first partition)
//
// Relays, events and groups are named as in the Config; instances are
// numbered from 1 within their group. FormatAction and ParseAction round-trip.

#ifndef OUTBOX_CHECK_MODEL_ACTION_H_
#define OUTBOX_CHECK_MODEL_ACTION_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/config.h"

namespace oc {

enum class ActionKind : std::uint8_t {
  kClaim,          // relay, event
  kSend,           // relay
  kSendAckLost,    // relay
  kComplete,       // relay
  kExpire,         // event
  kCrashRelay,     // relay
  kConsume,        // group, instance, event
  kStep,           // group, instance
  kAcknowledge,    // group, instance
  kAckLost,        // group, instance
  kCrashConsumer,  // group, instance
  kRedeliver,      // group, instance
  // Time (model/TIME.md).
  kTick,              // none
  kRetry,             // group, event
  kRedrive,           // group, event
  kDeadLetterExpire,  // group, event
  kCleanup,           // group, event
  kConsumerOutage,    // group
  kDatabaseOutage,    // none
  // Relay styles, message identity, source commits and lost writes.
  kSourceCommit,  // event: its source transaction commits
  kCommitFails,   // relay (row_lock): the commit after the send fails
  kFlushOffset,   // relay (cdc_offset): the read position becomes durable
  kLoseWrite,     // event: the broker loses a copy it acknowledged
  // The partitioned broker (docs/SEMANTICS.md section 16).
  kRebalance,     // group, partition, instance: the partition moves there
  kSendFails,     // relay: its producer's write fails, to be retried
  kRetrySend,     // relay: the producer's retry of the failed write
  kConsumeFails,  // group, instance, event: the handler fails on a record
  kConsumeRetry,  // group, instance, event: from the group's retry topic
};
inline constexpr int kActionKindCount = 28;

// "claim", "send_ack_lost", ...
std::string_view ActionKindName(ActionKind kind);

// One concrete action. Arguments a kind does not take are zero, so that
// equal actions compare equal. Indices are 0-based; `instance` is the index
// within the group.
struct Action {
  ActionKind kind = ActionKind::kClaim;
  std::uint8_t relay = 0;
  std::uint8_t event = 0;
  std::uint8_t group = 0;
  std::uint8_t instance = 0;
  std::uint8_t partition = 0;  // from 0
  bool operator==(const Action&) const = default;
};

// Which arguments actions of `kind` take (the others are zero).
struct ArgumentsTaken {
  bool relay = false, event = false, group = false, instance = false,
       partition = false;
};
ArgumentsTaken ArgumentsOf(ActionKind kind);

// "claim(A, e1)"; instance numbers printed from 1.
// REQUIRES: the action's indices are within `config`.
std::string FormatAction(const Config& config, const Action& action);

// One argument of an action, named as in the comments of ActionKind.
struct ActionArgument {
  std::string_view name;  // "relay", "event", "group", "instance", ...
  std::string value;      // as the text form writes it: "A", "e1", "2"
  // Set for an instance (numbered from 1, as in the text form): a count,
  // where the others are names from the Config.
  std::optional<int> number;
  bool operator==(const ActionArgument&) const = default;
};

// Every argument name an action may take, in a fixed order that readers of a
// record with one slot per argument (JSON) can rely on.
inline constexpr std::array<std::string_view, 5> kActionArgumentNames = {
    "relay", "event", "group", "instance", "partition"};

// The arguments `action`'s kind takes, in the order of its text form:
// consume(billing, 2, e1) gives group "billing", instance "2", event "e1";
// tick gives none. FormatAction writes exactly these values.
// REQUIRES: the action's indices are within `config`.
std::vector<ActionArgument> ActionArguments(const Config& config,
                                            const Action& action);

// Parses the text form. Spaces around names and commas are optional. The
// error message says what was wrong with the text ("unknown relay 'C' in
// 'claim(C, e1)'; relays are A, B") without a file location.
Result<Action> ParseAction(const Config& config, std::string_view text);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_ACTION_H_
