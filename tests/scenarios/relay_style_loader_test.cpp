// The relay styles' keys in scenario files: [relay], [source], the new fault
// budgets, the exact messages for bad values and for knobs a relay style
// does not take, and the canonical form's round trip.

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

constexpr char kPath[] = "scenarios/x.toml";
constexpr std::string_view kTail =
    "\n[check]\ninvariants = [\"eventually_offered\"]\n\n[expect]\n"
    "verdict = \"holds\"\n";

std::string ErrorOf(const std::string& text) {
  Result<Scenario> r =
      ParseScenario(std::string(text) + std::string(kTail), kPath);
  return r.ok() ? std::string("(loaded)") : r.status().message();
}

Scenario Load(const std::string& text) {
  Result<Scenario> r = ParseScenario(text + std::string(kTail), kPath);
  if (!r.ok()) FAIL(r.status().message());
  return std::move(r).value();
}

TEST_CASE("relay style, message identity and source commits are read") {
  const Scenario s = Load(
      "relays = 1\nevents = 2\n\n[relay]\nstyle = \"cdc_offset\"\n"
      "message_id = \"per_attempt\"\n\n[source]\ncommits = \"during_run\"\n"
      "\n[faults]\nrelay_crashes = 1\nlost_broker_writes = 2\n");
  CHECK(s.config.relay_style == RelayStyle::kCdcOffset);
  CHECK(s.config.message_id == MessageIdentity::kPerAttempt);
  CHECK(s.config.commits_during_run);
  CHECK(s.config.budgets.lost_broker_writes == 2);
}

TEST_CASE("by default the relay is the seed's, committed before the run") {
  const Scenario s = Load("relays = 1\nevents = 1\n");
  CHECK(s.config.relay_style == RelayStyle::kLeaseToken);
  CHECK(s.config.message_id == MessageIdentity::kOutboxId);
  CHECK_FALSE(s.config.commits_during_run);
  CHECK(IsSeedPipeline(s.config));
}

TEST_CASE("an unknown style, identity or commit time is an error") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"row_locks\"\n") ==
        "scenarios/x.toml:4:9: relay.style: unknown style 'row_locks'; did "
        "you mean 'row_lock'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"sweeper\"\n") ==
        "scenarios/x.toml:4:9: relay.style: unknown style 'sweeper'; "
        "styles are lease_token, row_lock, sequence_cursor, cdc_offset, "
        "age_sweeper, inline_dispatch");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nmessage_id = 7\n") ==
        "scenarios/x.toml:4:14: relay.message_id: expected a string, got an "
        "integer");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[source]\ncommits = \"later\"\n") ==
        "scenarios/x.toml:4:11: source.commits: unknown commit time 'later'; "
        "commit times are before_run, during_run");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyles = \"row_lock\"\n") ==
        "scenarios/x.toml:4:1: relay.styles: unknown key; did you mean "
        "'style'?");
}

TEST_CASE("a knob the relay style does not take is an error at its place") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"row_lock\"\n"
                "[switches]\nlease = true\n") ==
        "scenarios/x.toml:6:9: switches.lease: relay.style 'row_lock' has no "
        "lease and no fencing token; leave [switches] out");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"cdc_offset\"\n"
                "[faults]\nfailed_commits = 1\n") ==
        "scenarios/x.toml:6:18: faults.failed_commits: relay.style "
        "'cdc_offset' takes no failed commits; only 'row_lock' does (its send "
        "and its commit share a transaction)");
  CHECK(ErrorOf("relays = 2\nevents = 1\n[relay]\nstyle = "
                "\"sequence_cursor\"\n") ==
        "scenarios/x.toml:1:10: relays: relay.style 'sequence_cursor' runs "
        "exactly one relay (one cursor or connector); got 2");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"row_lock\"\n"
                "[bounds]\nclaims = 2\n") ==
        "scenarios/x.toml:6:10: bounds.claims: relay.style 'row_lock' takes "
        "no claim bound; only 'lease_token' does");
  CHECK(
      ErrorOf("relays = 1\nevents = 1\n[faults]\nlost_broker_writes = 16\n") ==
      "scenarios/x.toml:4:22: faults.lost_broker_writes: 16 is out of range "
      "0..15");
}

TEST_CASE("relay styles and broker settings refuse to combine with time") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"row_lock\"\n"
                "[time]\nhorizon = \"1h\"\n") ==
        "scenarios/x.toml:4:9: relay.style: relay.style is 'row_lock', which "
        "does not combine with durations (time.horizon is set) "
        "(model/TIME.md) yet; use one or the other");
}

TEST_CASE("the gap-waiting cursor's keys are read and written back") {
  const std::string text =
      "relays = 1\nevents = 2\n\n[relay]\nstyle = \"sequence_cursor\"\n"
      "gaps = \"wait\"\ngap_timeout = \"3s\"\n\n[source]\n"
      "commits = \"during_run\"\ncommit_within = \"6s\"\n";
  const Scenario s = Load(text);
  CHECK(s.config.gaps_wait);
  CHECK(s.config.gap_timeout == 3);
  CHECK(s.config.commit_within == 6);
  CHECK(Timed(s.config));
  Result<Scenario> back = ParseScenario(FormatScenario(s), kPath);
  REQUIRE_MESSAGE(back.ok(), back.status().message());
  CHECK(back.value().config == s.config);
  // Waiting with no duration stays untimed.
  CHECK_FALSE(Timed(Load("relays = 1\nevents = 2\n[relay]\nstyle = "
                         "\"sequence_cursor\"\ngaps = \"wait\"\n[source]\n"
                         "commits = \"during_run\"\n")
                        .config));
}

TEST_CASE("the gap-waiting cursor's keys are refused where they mean nothing") {
  const std::string cursor =
      "relays = 1\nevents = 2\n[relay]\nstyle = \"sequence_cursor\"\n";
  CHECK(ErrorOf(cursor + "gaps = \"skip\"\n") ==
        "scenarios/x.toml:5:8: relay.gaps: unknown gap rule 'skip'; gap rules "
        "are pass_over, wait");
  CHECK(ErrorOf("relays = 1\nevents = 2\n[relay]\nstyle = \"row_lock\"\n"
                "gaps = \"wait\"\n[source]\ncommits = \"during_run\"\n") ==
        "scenarios/x.toml:5:8: relay.gaps: relay.style 'row_lock' reads no "
        "cursor; only 'sequence_cursor' waits at gaps");
  CHECK(ErrorOf(cursor + "gap_timeout = \"3s\"\n[source]\n"
                         "commits = \"during_run\"\n") ==
        "scenarios/x.toml:5:15: relay.gap_timeout: needs relay.gaps = "
        "\"wait\" (a cursor that passes over gaps has none to time out)");
  CHECK(ErrorOf(cursor + "[source]\ncommits = \"during_run\"\n"
                         "commit_within = \"6s\"\n") ==
        "scenarios/x.toml:7:17: source.commit_within: only the gap-waiting "
        "cursor (relay.style = \"sequence_cursor\", relay.gaps = \"wait\") "
        "is timed with source commits so far");
  CHECK(ErrorOf(cursor + "gaps = \"wait\"\n") ==
        "scenarios/x.toml:5:8: relay.gaps: with every row committed before "
        "the run no gap ever opens; set source.commits = \"during_run\"");
  const std::string waiting =
      cursor +
      "gaps = \"wait\"\ngap_timeout = \"3s\"\n[source]\n"
      "commits = \"during_run\"\n";
  CHECK(ErrorOf(waiting + "[time]\npoll = \"1s\"\n") ==
        "scenarios/x.toml:10:8: time.poll: the gap-waiting cursor takes "
        "relay.gap_timeout, source.commit_within, time.horizon and "
        "time.clocks, and no other duration yet");
  CHECK(ErrorOf(waiting + "[faults]\nlost_broker_writes = 1\n") ==
        "scenarios/x.toml:10:22: faults.lost_broker_writes: the gap-waiting "
        "cursor takes relay.gap_timeout, source.commit_within, time.horizon "
        "and time.clocks; lost broker writes do not combine with durations "
        "yet");
  CHECK(ErrorOf(waiting + "[time]\nhorizon = \"1m\"\nclocks = \"plain\"\n") ==
        "(loaded)");
}

TEST_CASE("the age sweeper's minimum age and send time are read") {
  const Scenario s = Load(
      "relays = [\"producer\", \"sweeper\"]\nevents = 1\n\n[relay]\n"
      "style = \"age_sweeper\"\nmin_age = \"5s\"\nsend_time = \"10s\"\n");
  CHECK(s.config.relay_style == RelayStyle::kAgeSweeper);
  CHECK(s.config.min_age == 5);
  CHECK(s.config.send_time == 10);
  CHECK(Timed(s.config));
  CHECK_FALSE(IsSeedPipeline(s.config));
  CHECK(UntimedStylesOnly(s.config));
}

TEST_CASE("the age sweeper's knobs are checked where they are written") {
  // A missing minimum age is reported at the [relay] header.
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = "
                "\"age_sweeper\"\n") ==
        "scenarios/x.toml:3:1: relay.min_age: required with relay.style = "
        "\"age_sweeper\": the age from which the sweeper sends a row still "
        "not marked dispatched again");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"row_lock\"\n"
                "min_age = \"5s\"\n") ==
        "scenarios/x.toml:5:11: relay.min_age: relay.style 'row_lock' has no "
        "sweeper; only 'age_sweeper' takes relay.min_age");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nsend_time = \"5s\"\n") ==
        "scenarios/x.toml:4:13: relay.send_time: relay.style 'lease_token' "
        "has no sweeper; only 'age_sweeper' takes relay.send_time");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5 s\"\n") ==
        "scenarios/x.toml:5:11: relay.min_age: '5 s' is not a duration; write "
        "whole numbers with a unit s, m, h or d, largest first, as in "
        "\"30s\", \"5m\", \"1h30m\", \"7d\"");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\nsend_time = \"0s\"\n") ==
        "scenarios/x.toml:6:13: relay.send_time: a duration must be longer "
        "than 0s");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = 5\n") ==
        "scenarios/x.toml:5:11: relay.min_age: expected a duration string "
        "such as \"5m\", got an integer");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\n[time]\nlease = \"1m\"\n") ==
        "scenarios/x.toml:7:9: time.lease: relay.style 'age_sweeper' takes no "
        "lease; leave time.lease out (relay.send_time bounds a send, "
        "relay.min_age the sweeper)");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\nmin_ages = \"5s\"\n") ==
        "scenarios/x.toml:6:1: relay.min_ages: unknown key; did you mean "
        "'min_age'?");
}

TEST_CASE(
    "the age sweeper combines with time, the other relay-style features "
    "still do not") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\n[time]\npoll = \"5s\"\nhorizon = "
                "\"1m\"\n[broker]\ndedup = \"window\"\nwindow = \"1m\"\n") ==
        "(loaded)");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "message_id = \"per_attempt\"\nmin_age = \"5s\"\n") ==
        "scenarios/x.toml:5:14: relay.message_id: relay.message_id is "
        "'per_attempt', which does not combine with durations (relay.min_age "
        "is set) (model/TIME.md) yet; use one or the other");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\n[source]\ncommits = \"during_run\"\n") ==
        "scenarios/x.toml:7:11: source.commits: source.commits is "
        "'during_run', which does not combine with durations (relay.min_age "
        "is set) (model/TIME.md) yet; use one or the other");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[relay]\nstyle = \"age_sweeper\"\n"
                "min_age = \"5s\"\n[switches]\nfencing = true\n") ==
        "scenarios/x.toml:7:11: switches.fencing: relay.style 'age_sweeper' "
        "has no lease and no fencing token; leave [switches] out");
}

// Prints `first`, parses the print back and checks it reads the same;
// returns the print.
std::string CheckRoundTrip(const Scenario& first) {
  const std::string printed = FormatScenario(first);
  INFO(printed);
  Result<Scenario> second = ParseScenario(printed, "elsewhere/other.toml");
  if (!second.ok()) FAIL(second.status().message());
  CHECK(second.value().config == first.config);
  CHECK(FormatScenario(second.value()) == printed);
  return printed;
}

TEST_CASE("the relay styles' keys survive parse, print, parse") {
  const Scenario first = Load(
      "relays = [\"A\", \"B\"]\nevents = 2\n\n[relay]\nstyle = \"row_lock\"\n"
      "message_id = \"per_attempt\"\n\n[source]\ncommits = \"during_run\"\n"
      "\n[faults]\nfailed_commits = 1\nlost_broker_writes = 1\n");
  CHECK(CheckRoundTrip(first).find("[switches]") == std::string::npos);
}

TEST_CASE("the age sweeper's keys survive parse, print, parse") {
  const Scenario first = Load(
      "relays = [\"producer\", \"sweeper\"]\nevents = 1\n\n[relay]\n"
      "style = \"age_sweeper\"\nmin_age = \"90s\"\nsend_time = \"10s\"\n"
      "\n[time]\npoll = \"5s\"\n\n[faults]\nrelay_crashes = 1\n");
  CHECK(CheckRoundTrip(first).find(
            "min_age = \"1m30s\"\nsend_time = \"10s\"\n") != std::string::npos);
}

}  // namespace
}  // namespace oc
