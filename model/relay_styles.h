// The relay styles, one row each: the one list the loader, the writer,
// Validate, the state's cells and encoding and the reports read. Code that
// depends on the style asks the row a question (`StyleOf(config).sweeper`)
// rather than comparing with a particular style; the model's guards and
// effects (model/outbox_model.cpp) switch on RelayStyle, without a default,
// so that -Wswitch points at every place a new style must decide.
//
// Adding a style means: an enumerator in RelayStyle (model/config.h), a row
// here, its case in the switches of model/outbox_model.cpp and of
// ReadsPerEvent, and its SQL or its refusal in conform/.

#ifndef OUTBOX_CHECK_MODEL_RELAY_STYLES_H_
#define OUTBOX_CHECK_MODEL_RELAY_STYLES_H_

#include <array>
#include <string>
#include <string_view>

#include "model/config.h"

namespace oc {

struct RelayStyleInfo {
  RelayStyle style;
  // The value of relay.style in scenario files; reports print it too.
  std::string_view name;
  // What the relay does, in one line (`outbox-check list styles`).
  std::string_view summary;

  // What it combines with (Validate):
  // a lease and a fencing token, as the seed's relay: it takes [switches],
  // faults.premature_expiries and bounds.claims, its claims bump a row's
  // token, and a row shows an owner, token, lease and completed token.
  bool lease_and_token;
  // It takes faults.failed_commits (a commit that fails after the send).
  bool failed_commits;
  // It runs exactly one relay (one cursor or connector).
  bool one_relay;
  // An age sweeper: it requires relay.min_age, takes relay.send_time, and
  // takes no time.lease.
  bool sweeper;
  // It combines with the durations of model/TIME.md.
  bool timed;

  // The cells it adds (model/state_cells.h):
  // the name of State::log.offset (a durable cursor or offset, which reads
  // rows in id or log order), or "" when it keeps none.
  std::string_view offset_cell;
  // It reads a commit log: each row has a log position (with
  // source.commits = "during_run"), and State::log.position is the
  // connector's in-memory read position.
  bool commit_log;

  // The action class only this style enables (OutboxModel::ClassPossible),
  // or "".
  std::string_view action_class;
  // The assumption a verdict rests on with this style that the seed's
  // pipeline does not make, one sentence, or "" (none yet).
  std::string_view assumption;
};

// In the order of RelayStyle; the first is the default.
inline constexpr RelayStyleInfo kRelayStyles[] = {
    {.style = RelayStyle::kLeaseToken,
     .name = "lease_token",
     .summary = "the seed's relay: claims a row under a lease with a fencing "
                "token, sends, then completes the row with that token",
     .lease_and_token = true,
     .failed_commits = false,
     .one_relay = false,
     .sweeper = false,
     .timed = true,
     .offset_cell = "",
     .commit_log = false,
     .action_class = "",
     .assumption = ""},
    {.style = RelayStyle::kRowLock,
     .name = "row_lock",
     .summary = "locks the row (SELECT ... FOR UPDATE SKIP LOCKED), sends, "
                "marks it and commits, all in one transaction",
     .lease_and_token = false,
     .failed_commits = true,
     .one_relay = false,
     .sweeper = false,
     .timed = false,
     .offset_cell = "",
     .commit_log = false,
     .action_class = "commit_fails",
     .assumption = ""},
    {.style = RelayStyle::kSequenceCursor,
     .name = "sequence_cursor",
     .summary = "one relay reads rows above the highest id it has relayed, in "
                "id order, and keeps that id; it passes over ids still "
                "pending, or waits at them (relay.gaps)",
     .lease_and_token = false,
     .failed_commits = false,
     .one_relay = true,
     .sweeper = false,
     .timed = false,
     .offset_cell = "outbox.last_seen",
     .commit_log = false,
     .action_class = "",
     .assumption = ""},
    {.style = RelayStyle::kCdcOffset,
     .name = "cdc_offset",
     .summary = "one connector reads the database's commit log and flushes its "
                "read offset now and then",
     .lease_and_token = false,
     .failed_commits = false,
     .one_relay = true,
     .sweeper = false,
     .timed = false,
     .offset_cell = "connector.flushed_offset",
     .commit_log = true,
     .action_class = "flush_offset",
     .assumption = ""},
    {.style = RelayStyle::kAgeSweeper,
     .name = "age_sweeper",
     .summary = "sends each row after its transaction, and a timer sends again "
                "every row still unmarked after relay.min_age",
     .lease_and_token = false,
     .failed_commits = false,
     .one_relay = false,
     .sweeper = true,
     .timed = true,
     .offset_cell = "",
     .commit_log = false,
     .action_class = "",
     .assumption = ""},
    {.style = RelayStyle::kInlineDispatch,
     .name = "inline_dispatch",
     .summary = "a consumer's own outbox: the handler's transaction writes "
                "the rows, then one delivery pass sends them and cleans up",
     .lease_and_token = false,
     .failed_commits = false,
     .one_relay = false,
     .sweeper = false,
     .timed = false,
     .offset_cell = "",
     .commit_log = false,
     .action_class = "",
     .assumption = ""},
};

inline constexpr RelayStyle kDefaultRelayStyle = kRelayStyles[0].style;

// The values of relay.style, in table order.
inline constexpr auto kRelayStyleNames = [] {
  std::array<std::string_view, std::size(kRelayStyles)> names{};
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] = kRelayStyles[i].name;
  return names;
}();

const RelayStyleInfo& Style(RelayStyle s);
inline const RelayStyleInfo& StyleOf(const Config& config) {
  return Style(config.relay_style);
}

// The styles whose row has `feature`, quoted and joined for a message:
// "'lease_token'", "'sequence_cursor' and 'cdc_offset'".
std::string StylesWith(bool RelayStyleInfo::*feature);

// How often one event can be read (claimed) under the config's style, each
// read followed by at most one send; `tokens` bounds the lease_token relay's
// claims.
int ReadsPerEvent(const Config& config, int tokens);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_RELAY_STYLES_H_
