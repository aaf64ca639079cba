// Durations and the time unit of a timed scenario (model/TIME.md).
//
// Scenario files write durations as "30s", "5m", "1h", "7d" or sums of
// those ("1h30m"); the Config keeps seconds. The model counts in one unit,
// the greatest common divisor of every duration of the Config, so that only
// the ratios of durations cost states. Timing is that conversion, done once
// per model.

#ifndef OUTBOX_CHECK_MODEL_TIMING_H_
#define OUTBOX_CHECK_MODEL_TIMING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/config.h"

namespace oc {

// "1h30m" -> 5400. nullopt for anything else (no sign, no spaces, no
// fractions; units s, m, h, d, each at most once and in that order from
// the largest).
std::optional<Seconds> ParseDuration(std::string_view text);
// 5400 -> "1h30m", 0 -> "0s": the shortest text ParseDuration reads back.
std::string FormatDuration(Seconds seconds);

struct GroupTiming {
  int retention = 0;  // T, in units; 0 with `has_retention` false
  int cleanup = 0;    // I
  bool has_retention = false;
  // A row is deleted once older than T (age >= T + 1), and by T + I at
  // the latest (T + 1 without I): the inbox age's cap.
  int cleanup_due = 0;
  std::vector<int> delays;  // d1..dn
  bool has_dead_letter = false;
  int redrive = 0;         // D; 0: never redriven
  int dead_retention = 0;  // R; 0: kept forever
  // A dead letter is dropped once older than R: at R + 1.
  int dead_expiry = 0;
  int park_cap = 0;  // the largest of the delays, D and R + 1
  // K: a call with an idempotency key is dropped while the last one let
  // through is younger than K; 0 with no window (keys kept forever).
  int key_window = 0;
  // Failed deliveries park copies instead of requeueing them.
  bool parks() const { return !delays.empty() || has_dead_letter; }
};

struct Timing {
  bool timed = false;
  Seconds unit = 1;  // seconds per unit
  bool plain = false;
  int lease = 0;  // L; 0 when time.lease is unset
  int poll = 0;   // P
  int window = 0;
  int consumer_outage = 0;
  int database_outage = 0;
  int horizon = 0;  // 0: none
  std::vector<GroupTiming> groups;
  // Caps of the clocks (plain clocks: the horizon).
  int lease_clock_cap = 0;  // max(L, P)
  bool has_lease_clock = false;
  bool tracks_now = false;
  // The age sweeper (relay.style = "age_sweeper"): a row's age clock
  // (EventCells::clock) and each relay's send clock.
  bool sweeper = false;
  int min_age = 0;    // M
  int send_time = 0;  // S; 0: a send returns at the instant it begins
  int sweep_due = 0;  // M + P: a sweep is due; the row age's cap
  // The gap-waiting cursor (relay.gaps = "wait", timed): a pending row's
  // age (EventCells::clock), compared with G and Tx.
  bool gap_clock = false;
  int gap_timeout = 0;    // G; 0: gaps never time out
  int commit_within = 0;  // Tx; 0: a transaction may stay open for ever
  int gap_clock_cap = 0;  // max(G, Tx)

  int Cap(int capped) const { return plain ? horizon : capped; }
};

// REQUIRES: Validate(config).ok().
Timing ComputeTiming(const Config& config);

// The checks of Validate() that concern time, with messages in scenario
// file terms ("time.lease", "groups[1].inbox_retention").
Status ValidateTiming(const Config& config);

// What the config uses of docs/SEMANTICS.md section 8 and model/TIME.md
// ("durations", "broker deduplication"), for tools that support only
// sections 1 to 7 (the Promela export, the PostgreSQL conformance run);
// nullopt if nothing.
std::optional<std::string> TimeFeatureUsed(const Config& config);

// Why a timed scenario with the gap-waiting cursor (relay.gaps = "wait")
// cannot be checked, in scenario-file terms ("time.poll: ..."); nullopt if
// it can. The cursor's clock (model/TIME.md, "The gap-waiting cursor")
// takes relay.gap_timeout, source.commit_within and the horizon, and none
// of the other durations or untimed style features yet.
std::optional<std::string> GapCursorTimeConflict(const Config& config);

// The comparisons between durations a timed verdict rests on, one line
// each, e.g. "inbox retention of billing 1d < dead-letter redrive 3d". Empty
// for an untimed config.
std::vector<std::string> TimingAssumptions(const Config& config);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_TIMING_H_
