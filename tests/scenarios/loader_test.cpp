// Tests of the scenario loader and writer: defaults, every key, the round
// trip (parse, print, parse), and the exact message of every error path.

#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "model/outbox_model.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

const std::string kPath = "scenarios/x.toml";

// The message of the error `text` gives, or "(loaded)".
std::string ErrorOf(std::string_view text) {
  Result<Scenario> r = ParseScenario(text, kPath);
  return r.ok() ? std::string("(loaded)") : r.status().message();
}

Event MakeEvent(std::string name, std::string type) {
  Event event;
  event.name = std::move(name);
  event.type = std::move(type);
  return event;
}

Scenario Load(std::string_view text) {
  Result<Scenario> r = ParseScenario(text, kPath);
  if (!r.ok()) FAIL(r.status().message());
  return std::move(r).value();
}

// Equal as scenarios: ignores the path, source positions and the spelling
// of pinned steps.
void CheckSame(const Scenario& a, const Scenario& b) {
  CHECK(a.name == b.name);
  CHECK(a.description == b.description);
  CHECK(a.config == b.config);
  CHECK(a.invariants == b.invariants);
  CHECK(a.stop_at_first_violation == b.stop_at_first_violation);
  CHECK(a.must_fire == b.must_fire);
  CHECK(a.walk_weights == b.walk_weights);
  CHECK(a.limits.max_depth == b.limits.max_depth);
  CHECK(a.limits.max_states == b.limits.max_states);
  REQUIRE(a.order.size() == b.order.size());
  for (std::size_t i = 0; i < a.order.size(); ++i) {
    CHECK(a.order[i].action == b.order[i].action);
  }
  REQUIRE(a.loop.size() == b.loop.size());
  for (std::size_t i = 0; i < a.loop.size(); ++i) {
    CHECK(a.loop[i].action == b.loop[i].action);
  }
  REQUIRE(a.expect.has_value() == b.expect.has_value());
  if (!a.expect) return;
  CHECK(a.expect->verdict == b.expect->verdict);
  CHECK(a.expect->violated == b.expect->violated);
  CHECK(a.expect->trace_length == b.expect->trace_length);
  CHECK(a.expect->states == b.expect->states);
}

// Parse, print, parse: the second parse equals the first, and printing it
// again gives the same text.
void CheckRoundTrip(std::string_view text) {
  const Scenario first = Load(text);
  const std::string printed = FormatScenario(first);
  INFO(printed);
  Result<Scenario> second = ParseScenario(printed, "elsewhere/other.toml");
  if (!second.ok()) FAIL(second.status().message());
  CheckSame(first, second.value());
  CHECK(FormatScenario(second.value()) == printed);
}

constexpr std::string_view kMinimal = R"toml(relays = 1
events = 1
[check]
invariants = ["eventually_offered"]
[expect]
verdict = "holds"
)toml";

constexpr std::string_view kFull = R"toml(name = "lease-expiry-after-send"
description = "A lease expires after the send; a second relay resends."
relays = ["A", "B"]

[[events]]
type = "credit"
account = "acct-1"
amount = -10

[[events]]
name = "p1"
type = "projection"
key = "k1"
version = 2

[[groups]]
name = "billing"
strategy = "credit.naive"
instances = 2

[switches]
lease = true
fencing = false

[faults]
premature_expiries = 1
relay_crashes = 2
lost_publish_acks = 3
lost_consumer_acks = 4
consumer_crashes = 5
redeliveries = 6

[bounds]
claims = 3
max_depth = 40
max_states = 1000000

[check]
invariants = ["effect_at_most_once", "eventually_offered"]
stop_at_first_violation = true
must_fire = ["expire", "send_ack_lost"]
walk_weights = { lose_write = 0, crash_relay = 4, claim = 1 }

[expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 7
states = 120
)toml";

constexpr std::string_view kPinned = R"toml(relays = ["A", "B"]
events = 1

[[groups]]
name = "billing"
strategy = "credit.naive"

[faults]
premature_expiries = 1

[check]
invariants = ["effect_at_most_once"]
order = ["claim(A, e1)", "send(A)", "expire(e1)", "claim(B,e1)", "send(B)",
         "consume(billing, 1, e1)", "acknowledge(billing, 1)",
         "consume(billing, 1, e1)"]

[expect]
verdict = "violated"
violated = ["effect_at_most_once"]
trace_length = 8
)toml";

// ---------------------------------------------------------------------------
// Loading valid files

TEST_CASE("a minimal scenario gets every default") {
  const Scenario s = Load(kMinimal);
  CHECK(s.path == kPath);
  CHECK(s.name == "x");
  CHECK(s.description.empty());
  CHECK(s.config.relays == std::vector<std::string>{"r1"});
  REQUIRE(s.config.events.size() == 1);
  CHECK(s.config.events[0] == MakeEvent("e1", "event"));
  CHECK(s.config.groups.empty());
  CHECK(s.config.lease);
  CHECK(s.config.fencing);
  CHECK(s.config.budgets == FaultBudgets{});
  CHECK(s.config.claim_bound == 0);
  CHECK(s.invariants == std::vector<std::string>{"eventually_offered"});
  CHECK_FALSE(s.stop_at_first_violation);
  CHECK(s.walk_weights.empty());
  CHECK_FALSE(s.limits.max_depth.has_value());
  CHECK_FALSE(s.limits.max_states.has_value());
  CHECK(s.order.empty());
  REQUIRE(s.expect.has_value());
  CHECK(s.expect->verdict == Verdict::kHolds);
  CHECK(s.expect->violated.empty());
  CHECK_FALSE(s.expect->trace_length.has_value());
  CHECK_FALSE(s.expect->states.has_value());
  CHECK(s.expect->position.line == 5);
  CHECK(s.expect->position.column == 1);
}

TEST_CASE("relay and event counts expand to default names") {
  const Scenario s = Load(R"toml(relays = 3
events = 2
[[groups]]
strategy = "credit.inbox"
[[groups]]
strategy = "credit.naive"
[check]
invariants = ["effect_at_most_once"]
[expect]
verdict = "holds"
)toml");
  CHECK(s.config.relays == std::vector<std::string>{"r1", "r2", "r3"});
  REQUIRE(s.config.events.size() == 2);
  CHECK(s.config.events[1] == MakeEvent("e2", "event"));
  REQUIRE(s.config.groups.size() == 2);
  CHECK(s.config.groups[0].name == "g1");
  CHECK(s.config.groups[1].name == "g2");
  CHECK(s.config.groups[1].instances == 1);
}

TEST_CASE("a full scenario sets every key") {
  const Scenario s = Load(kFull);
  CHECK(s.name == "lease-expiry-after-send");
  CHECK(s.description ==
        "A lease expires after the send; a second relay resends.");
  CHECK(s.config.relays == std::vector<std::string>{"A", "B"});
  REQUIRE(s.config.events.size() == 2);
  Event credit = MakeEvent("e1", "credit");
  credit.account = "acct-1";
  credit.amount = -10;
  CHECK(s.config.events[0] == credit);
  Event projection = MakeEvent("p1", "projection");
  projection.key = "k1";
  projection.version = 2;
  CHECK(s.config.events[1] == projection);
  REQUIRE(s.config.groups.size() == 1);
  CHECK(s.config.groups[0] == Group{.name = "billing",
                                    .strategy = Strategy::kCreditNaive,
                                    .instances = 2});
  CHECK(s.config.lease);
  CHECK_FALSE(s.config.fencing);
  CHECK(s.config.budgets == FaultBudgets{.premature_expiries = 1,
                                         .relay_crashes = 2,
                                         .lost_publish_acks = 3,
                                         .lost_consumer_acks = 4,
                                         .consumer_crashes = 5,
                                         .redeliveries = 6});
  CHECK(s.config.claim_bound == 3);
  CHECK(s.limits.max_depth == 40);
  CHECK(s.limits.max_states == 1000000u);
  CHECK(s.invariants ==
        std::vector<std::string>{"effect_at_most_once", "eventually_offered"});
  CHECK(s.stop_at_first_violation);
  // A weight per action class, in class order; the classes not named, and
  // claim, which is named with the default, weigh 1.
  const std::vector<std::string> classes = OutboxModel::ActionClassNames();
  REQUIRE(s.walk_weights.size() == classes.size());
  for (std::size_t c = 0; c < classes.size(); ++c) {
    INFO(classes[c]);
    CHECK(s.walk_weights[c] == (classes[c] == "crash_relay"  ? 4u
                                : classes[c] == "lose_write" ? 0u
                                                             : 1u));
  }
  REQUIRE(s.expect.has_value());
  CHECK(s.expect->verdict == Verdict::kViolated);
  CHECK(s.expect->violated == std::vector<std::string>{"effect_at_most_once"});
  CHECK(s.expect->trace_length == 7);
  CHECK(s.expect->states == 120u);
}

TEST_CASE("a pinned order keeps each step's action, text and position") {
  const Scenario s = Load(kPinned);
  REQUIRE(s.order.size() == 8);
  CHECK(s.order[3].action ==
        Action{.kind = ActionKind::kClaim, .relay = 1, .event = 0});
  CHECK(s.order[3].text == "claim(B,e1)");
  CHECK(s.order[3].position.line == 13);
  CHECK(s.order[3].position.column == 51);
  CHECK(s.order[5].action == Action{.kind = ActionKind::kConsume,
                                    .event = 0,
                                    .group = 0,
                                    .instance = 0});
  CHECK(s.order[5].position.line == 14);
  CHECK(s.order[5].position.column == 10);
  REQUIRE(s.expect.has_value());
  CHECK(s.expect->violated == std::vector<std::string>{"effect_at_most_once"});
}

TEST_CASE("expect.violated takes several invariants as an array") {
  const Scenario s = Load(R"toml(relays = 1
events = 1
[[groups]]
strategy = "notification.send_then_ledger"
[check]
invariants = ["notify_at_most_once", "notify_at_least_once"]
[expect]
verdict = "violated"
violated = ["notify_at_least_once", "notify_at_most_once"]
)toml");
  REQUIRE(s.expect.has_value());
  CHECK(s.expect->violated == std::vector<std::string>{"notify_at_least_once",
                                                       "notify_at_most_once"});
}

TEST_CASE("LoadScenario reads a file and names the scenario by its stem") {
  const std::string path = std::string(OC_TEST_TMPDIR) + "/lease-expiry.toml";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(kMinimal.data(), 1, kMinimal.size(), f);
  std::fclose(f);
  Result<Scenario> r = LoadScenario(path);
  std::remove(path.c_str());
  if (!r.ok()) FAIL(r.status().message());
  CHECK(r.value().path == path);
  CHECK(r.value().name == "lease-expiry");
}

// ---------------------------------------------------------------------------
// Printing

TEST_CASE("parse, print, parse gives the same scenario") {
  SUBCASE("minimal") { CheckRoundTrip(kMinimal); }
  SUBCASE("every key") { CheckRoundTrip(kFull); }
  SUBCASE("pinned order") { CheckRoundTrip(kPinned); }
  SUBCASE("strings that need escapes") {
    CheckRoundTrip(R"toml(name = "quote \" backslash \\ tab \t"
description = """
two lines, a control \u0001 and é"""
relays = ["r1", "B.2"]
events = 1
[check]
invariants = ["eventually_offered"]
[expect]
verdict = "holds"
)toml");
  }
}

TEST_CASE("the printed form is canonical") {
  CHECK(FormatScenario(Load(kFull)) == R"toml(name = "lease-expiry-after-send"
description = "A lease expires after the send; a second relay resends."
relays = ["A", "B"]

[[events]]
name = "e1"
type = "credit"
account = "acct-1"
amount = -10

[[events]]
name = "p1"
type = "projection"
key = "k1"
version = 2

[[groups]]
name = "billing"
strategy = "credit.naive"
instances = 2

[switches]
lease = true
fencing = false

[faults]
premature_expiries = 1
relay_crashes = 2
lost_publish_acks = 3
lost_consumer_acks = 4
consumer_crashes = 5
redeliveries = 6

[bounds]
claims = 3
max_depth = 40
max_states = 1000000

[check]
invariants = ["effect_at_most_once", "eventually_offered"]
stop_at_first_violation = true
must_fire = ["expire", "send_ack_lost"]
walk_weights = { crash_relay = 4, lose_write = 0 }

[expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 7
states = 120
)toml");
}

TEST_CASE("the printed form uses the count shorthands and one step a line") {
  CHECK(FormatScenario(Load(R"toml(name = "short"
relays = 2
events = [{}, {}]
[check]
invariants = ["eventually_offered"]
order = ["claim(r1,e2)"]
[expect]
verdict = "holds"
)toml")) == R"toml(name = "short"
relays = 2
events = 2

[switches]
lease = true
fencing = true

[faults]
premature_expiries = 0
relay_crashes = 0
lost_publish_acks = 0
lost_consumer_acks = 0
consumer_crashes = 0
redeliveries = 0

[check]
invariants = ["eventually_offered"]
stop_at_first_violation = false
order = [
  "claim(r1, e2)",
]

[expect]
verdict = "holds"
)toml");
}

// ---------------------------------------------------------------------------
// Errors: files and TOML

TEST_CASE("an unreadable file is reported with the system's reason") {
  const Result<Scenario> r = LoadScenario("no/such/file.toml");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() ==
        "no/such/file.toml: cannot read file: No such file or directory");
}

TEST_CASE("a directory is not a scenario file") {
  const Result<Scenario> r = LoadScenario(OC_TEST_TMPDIR);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() ==
        std::string(OC_TEST_TMPDIR) + ": cannot read file: Is a directory");
}

TEST_CASE("a TOML syntax error gives the parser's line and column") {
  CHECK(ErrorOf("relays = 1\nevents = \n") ==
        "scenarios/x.toml:2:10: invalid TOML: Error while parsing key-value "
        "pair: expected value, saw '\\n'");
}

TEST_CASE("a key given twice is a TOML error") {
  CHECK(ErrorOf("relays = 1\nrelays = 2\n") ==
        "scenarios/x.toml:2:10: invalid TOML: Error while parsing key-value "
        "pair: cannot redefine existing integer 'relays'");
}

// ---------------------------------------------------------------------------
// Errors: unknown keys

TEST_CASE("an unknown top-level key is rejected with a suggestion") {
  CHECK(ErrorOf("relays = 1\nevent = 1\n") ==
        "scenarios/x.toml:2:1: event: unknown key; did you mean 'events'?");
}

TEST_CASE("an unknown key far from any allowed one lists the allowed keys") {
  CHECK(ErrorOf("relays = 1\n[fault_budgets]\n") ==
        "scenarios/x.toml:2:2: fault_budgets: unknown key; allowed keys are "
        "name, description, relays, events, groups, relay, source, "
        "switches, faults, time, broker, bounds, check, expect, invariants, "
        "initial");
}

TEST_CASE("of several unknown keys the first in the file is reported") {
  CHECK(ErrorOf("zzz = 1\naaa = 2\n") ==
        "scenarios/x.toml:1:1: zzz: unknown key; allowed keys are name, "
        "description, relays, events, groups, relay, source, switches, "
        "faults, time, broker, bounds, check, expect, invariants, initial");
}

TEST_CASE("unknown keys in every table name their dotted path") {
  CHECK(ErrorOf("relays = 1\n[[events]]\nacount = \"a\"\n") ==
        "scenarios/x.toml:3:1: events[1].acount: unknown key; did you mean "
        "'account'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nstrategy = "
                "\"credit.inbox\"\n[[groups]]\ninstance = 2\n") ==
        "scenarios/x.toml:6:1: groups[2].instance: unknown key; did you mean "
        "'instances'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[switches]\nfence = false\n") ==
        "scenarios/x.toml:4:1: switches.fence: unknown key; allowed keys are "
        "lease, fencing");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nrelay_crash = 1\n") ==
        "scenarios/x.toml:4:1: faults.relay_crash: unknown key; did you mean "
        "'relay_crashes'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[bounds]\nmax_dept = 1\n") ==
        "scenarios/x.toml:4:1: bounds.max_dept: unknown key; did you mean "
        "'max_depth'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[check]\ninvariant = []\n") ==
        "scenarios/x.toml:4:1: check.invariant: unknown key; did you mean "
        "'invariants'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[check]\ninvariants = "
                "[\"eventually_offered\"]\n[expect]\nverdict = "
                "\"holds\"\nstate = 3\n") ==
        "scenarios/x.toml:7:1: expect.state: unknown key; did you mean "
        "'states'?");
}

// ---------------------------------------------------------------------------
// Errors: types

TEST_CASE("a value of the wrong type names the expected and the given type") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nrelay_crashes = 1.5\n") ==
        "scenarios/x.toml:4:17: faults.relay_crashes: expected an integer, "
        "got a floating-point number");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nrelay_crashes = 1.0\n") ==
        "scenarios/x.toml:4:17: faults.relay_crashes: expected an integer, "
        "got a floating-point number");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[switches]\nlease = 0\n") ==
        "scenarios/x.toml:4:9: switches.lease: expected a boolean, got an "
        "integer");
  CHECK(ErrorOf("name = 7\n") ==
        "scenarios/x.toml:1:8: name: expected a string, got an integer");
  CHECK(ErrorOf("description = [\"a\"]\n") ==
        "scenarios/x.toml:1:15: description: expected a string, got an "
        "array");
  CHECK(ErrorOf("relays = 1\n[[events]]\nversion = \"2\"\n") ==
        "scenarios/x.toml:3:11: events[1].version: expected an integer, got "
        "a string");
  CHECK(ErrorOf("relays = 1\n[[events]]\nkey = 1\n") ==
        "scenarios/x.toml:3:7: events[1].key: expected a string, got an "
        "integer");
}

TEST_CASE("relays must be a name array or a count") {
  CHECK(ErrorOf("relays = \"A\"\n") ==
        "scenarios/x.toml:1:10: relays: expected an array of relay names or "
        "a relay count, got a string");
  CHECK(ErrorOf("relays = [\"A\", 2]\n") ==
        "scenarios/x.toml:1:16: relays[2]: expected a string, got an "
        "integer");
}

TEST_CASE("events must be a count or an array of tables") {
  CHECK(ErrorOf("relays = 1\nevents = \"e1\"\n") ==
        "scenarios/x.toml:2:10: events: expected an event count or an array "
        "of tables, got a string");
  CHECK(ErrorOf("relays = 1\nevents = [{}, \"e2\"]\n") ==
        "scenarios/x.toml:2:15: events[2]: expected a table, got a string");
}

TEST_CASE("groups must be an array of tables") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[groups]\nstrategy = "
                "\"credit.naive\"\n") ==
        "scenarios/x.toml:3:1: groups: expected an array of tables, got a "
        "table");
  CHECK(ErrorOf("relays = 1\nevents = 1\ngroups = [1]\n") ==
        "scenarios/x.toml:3:11: groups[1]: expected a table, got an integer");
}

TEST_CASE("a section given as a plain value is rejected") {
  CHECK(ErrorOf("relays = 1\nevents = 1\nfaults = 1\n") ==
        "scenarios/x.toml:3:10: faults: expected a table, got an integer");
}

// ---------------------------------------------------------------------------
// Errors: ranges

TEST_CASE("out-of-range numbers say the allowed range") {
  CHECK(ErrorOf("relays = 0\n") ==
        "scenarios/x.toml:1:10: relays: 0 is out of range 1..16");
  CHECK(ErrorOf("relays = 1\nevents = 17\n") ==
        "scenarios/x.toml:2:10: events: 17 is out of range 1..16");
  CHECK(ErrorOf("relays = 1\n[[events]]\nversion = 65536\n") ==
        "scenarios/x.toml:3:11: events[1].version: 65536 is out of range "
        "0..65535");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nstrategy = "
                "\"credit.naive\"\ninstances = 0\n") ==
        "scenarios/x.toml:5:13: groups[1].instances: 0 is out of range 1..8");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nredeliveries = 16\n") ==
        "scenarios/x.toml:4:16: faults.redeliveries: 16 is out of range "
        "0..15");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nconsumer_crashes = -1\n") ==
        "scenarios/x.toml:4:20: faults.consumer_crashes: -1 is out of range "
        "0..15");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[bounds]\nclaims = 101\n") ==
        "scenarios/x.toml:4:10: bounds.claims: 101 is out of range 1..100");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[bounds]\nmax_depth = 0\n") ==
        "scenarios/x.toml:4:13: bounds.max_depth: 0 is out of range "
        "1..2147483647");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[bounds]\nmax_states = 0\n") ==
        "scenarios/x.toml:4:14: bounds.max_states: 0 is out of range; must "
        "be at least 1");
}

TEST_CASE("too many relays, events or groups are rejected by count") {
  CHECK(ErrorOf("relays = [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", "
                "\"8\", \"9\", \"10\", \"11\", \"12\", \"13\", \"14\", \"15\", "
                "\"16\", \"17\"]\nevents = 1\n") ==
        "scenarios/x.toml:1:10: relays: 17 relays; allowed 1..16");
  CHECK(ErrorOf("relays = []\nevents = 1\n") ==
        "scenarios/x.toml:1:10: relays: 0 relays; allowed 1..16");
  CHECK(ErrorOf("relays = 1\nevents = []\n") ==
        "scenarios/x.toml:2:10: events: 0 events; allowed 1..16");
  CHECK(ErrorOf("relays = 1\nevents = 1\ngroups = [{strategy = "
                "\"credit.naive\"}, {strategy = \"credit.naive\"}, {strategy "
                "= \"credit.naive\"}, {strategy = \"credit.naive\"}, "
                "{strategy = \"credit.naive\"}, {strategy = "
                "\"credit.naive\"}, {strategy = \"credit.naive\"}, {strategy "
                "= \"credit.naive\"}, {strategy = \"credit.naive\"}]\n") ==
        "scenarios/x.toml:3:10: groups: 9 groups; allowed 0..8");
}

// ---------------------------------------------------------------------------
// Errors: names and required keys

TEST_CASE("names must be valid and unique") {
  CHECK(ErrorOf("relays = [\"A\", \"A B\"]\nevents = 1\n") ==
        "scenarios/x.toml:1:16: relays[2]: 'A B' is not a valid name; "
        "use letters, digits, '_', '-' and '.'");
  CHECK(ErrorOf("relays = [\"A\", \"A\"]\nevents = 1\n") ==
        "scenarios/x.toml:1:16: relays[2]: 'A' is used twice");
  CHECK(ErrorOf("relays = 1\n[[events]]\n[[events]]\nname = \"e1\"\n") ==
        "scenarios/x.toml:4:8: events[2].name: 'e1' is used twice");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nname = "
                "\"\"\nstrategy = \"credit.naive\"\n") ==
        "scenarios/x.toml:4:8: groups[1].name: '' is not a valid name; use "
        "letters, digits, '_', '-' and '.'");
}

TEST_CASE("an empty scenario name is rejected") {
  CHECK(ErrorOf("name = \"\"\n") ==
        "scenarios/x.toml:1:8: name: empty; give a name, or leave the key "
        "out to use the file's stem");
}

TEST_CASE("relays and events are required") {
  CHECK(ErrorOf("events = 1\n") ==
        "scenarios/x.toml: relays: missing; expected an array of relay names "
        "or a relay count");
  CHECK(ErrorOf("relays = 1\n") ==
        "scenarios/x.toml: events: missing; expected an event count or "
        "[[events]] tables");
}

TEST_CASE("a group needs a known strategy") {
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nname = \"billing\"\n") ==
        "scenarios/x.toml:3:1: groups[1].strategy: missing; expected one of "
        "credit.naive, credit.inbox, credit.check_then_act, "
        "credit.effect_then_inbox, projection.lww, projection.monotonic, "
        "notification.ledger_then_send, notification.send_then_ledger, "
        "cache.invalidate");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nstrategy = "
                "\"credit.inbx\"\n") ==
        "scenarios/x.toml:4:12: groups[1].strategy: unknown strategy "
        "'credit.inbx'; did you mean 'credit.inbox'?");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nstrategy = "
                "\"saga\"\n") ==
        "scenarios/x.toml:4:12: groups[1].strategy: unknown strategy 'saga'; "
        "strategies are credit.naive, credit.inbox, credit.check_then_act, "
        "credit.effect_then_inbox, projection.lww, projection.monotonic, "
        "notification.ledger_then_send, notification.send_then_ledger, "
        "cache.invalidate");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[[groups]]\nstrategy = 3\n") ==
        "scenarios/x.toml:4:12: groups[1].strategy: expected a string or a "
        "table { file = \"...\" }, got an integer");
}

TEST_CASE("a projection group needs a key on every event") {
  CHECK(ErrorOf("relays = 1\n[[events]]\nkey = \"k\"\nversion = 1\n"
                "[[events]]\nversion = 2\n[[groups]]\nname = \"view\"\n"
                "strategy = \"projection.lww\"\n") ==
        "scenarios/x.toml:5:1: events[2].key: event 'e2' has no key, but "
        "group 'view' uses projection.lww, which needs a key on every event");
}

TEST_CASE("a fault budget is a number or \"any\"") {
  const Scenario any = Load(
      "relays = 1\nevents = 1\n[faults]\nrelay_crashes = \"any\"\n"
      "[check]\ninvariants = [\"eventually_offered\"]\n");
  CHECK(any.config.budgets.relay_crashes == kAnyBudget);
  CHECK(any.config.budgets.premature_expiries == 0);
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nrelay_crashes = \"1\"\n") ==
        "scenarios/x.toml:4:17: faults.relay_crashes: '1' is not a budget; "
        "write a number 0..15, or \"any\" for any number");
  CHECK(ErrorOf("relays = 1\nevents = 1\n[faults]\nrelay_crashes = -1\n") ==
        "scenarios/x.toml:4:17: faults.relay_crashes: -1 is out of range "
        "0..15");
}

TEST_CASE("without a lease no claim bound is needed: tokens are renumbered") {
  const Scenario s = Load(
      "relays = 2\nevents = 1\n[switches]\nlease = false\n"
      "[check]\ninvariants = [\"eventually_offered\"]\n");
  CHECK(s.config.claim_bound == 0);
  CHECK_FALSE(s.config.lease);
}

// ---------------------------------------------------------------------------
// Errors: [check]

constexpr std::string_view kHead = "relays = [\"A\"]\nevents = 1\n";

TEST_CASE("check.invariants is required and non-empty") {
  CHECK(ErrorOf(std::string(kHead)) ==
        "scenarios/x.toml: check.invariants: missing; expected a non-empty "
        "array of invariant names");
  CHECK(ErrorOf(std::string(kHead) + "[check]\n") ==
        "scenarios/x.toml:3:1: check.invariants: missing; expected a "
        "non-empty array of invariant names");
  CHECK(ErrorOf(std::string(kHead) + "[check]\ninvariants = []\n") ==
        "scenarios/x.toml:4:14: check.invariants: empty; name at least one "
        "invariant to check");
  CHECK(ErrorOf(std::string(kHead) +
                "[check]\ninvariants = \"eventually_offered\"\n") ==
        "scenarios/x.toml:4:14: check.invariants: expected an array of "
        "invariant names, got a string");
  CHECK(ErrorOf(std::string(kHead) + "[check]\ninvariants = [true]\n") ==
        "scenarios/x.toml:4:15: check.invariants[1]: expected a string, got "
        "a boolean");
}

TEST_CASE("an unknown invariant is rejected with a suggestion") {
  CHECK(ErrorOf(std::string(kHead) +
                "[[groups]]\nstrategy = \"credit.inbox\"\n[check]\n"
                "invariants = [\"eventually_offered\", "
                "\"efect_at_most_once\"]\n") ==
        "scenarios/x.toml:6:37: check.invariants[2]: unknown invariant "
        "'efect_at_most_once'; did you mean 'effect_at_most_once'?");
}

TEST_CASE("an invariant far from any known one lists the invariants") {
  CHECK(
      ErrorOf(std::string(kHead) + "[check]\ninvariants = [\"liveness\"]\n") ==
      "scenarios/x.toml:4:15: check.invariants[1]: unknown invariant "
      "'liveness'; invariants are effect_at_most_once, "
      "stale_completion_rejected, projection_monotonic, "
      "notify_at_most_once, offered_at_most_once, eventually_offered, "
      "eventually_consumed, "
      "projection_converges, notify_at_least_once, cache_consistent, "
      "applied_in_key_order, no_offset_skipped, committed_by_owner");
}

TEST_CASE("an invariant is listed at most once") {
  CHECK(ErrorOf(std::string(kHead) +
                "[check]\ninvariants = [\"eventually_offered\", "
                "\"eventually_offered\"]\n") ==
        "scenarios/x.toml:4:37: check.invariants[2]: 'eventually_offered' is "
        "listed twice");
}

TEST_CASE("an invariant about a kind of group the scenario lacks is rejected") {
  CHECK(ErrorOf(std::string(kHead) +
                "[check]\ninvariants = [\"eventually_consumed\"]\n") ==
        "scenarios/x.toml:4:15: check.invariants[1]: 'eventually_consumed' "
        "is about consumer groups; this scenario has none");
  CHECK(
      ErrorOf(
          std::string(kHead) +
          "[[groups]]\nstrategy = \"notification.ledger_then_send\"\n[check]\n"
          "invariants = [\"effect_at_most_once\"]\n") ==
      "scenarios/x.toml:6:15: check.invariants[1]: 'effect_at_most_once' "
      "is about credit groups; this scenario has none");
}

TEST_CASE("must_fire names action classes or kinds, each once") {
  const std::string check =
      std::string(kHead) + "[check]\ninvariants = [\"eventually_offered\"]\n";
  CHECK(ErrorOf(check + "must_fire = [\"expire\", \"expir\"]\n") ==
        "scenarios/x.toml:5:24: check.must_fire[2]: unknown action 'expir'; "
        "did you mean 'expire'?");
  CHECK(ErrorOf(check + "must_fire = [\"publish\"]\n") ==
        "scenarios/x.toml:5:14: check.must_fire[1]: unknown action "
        "'publish'; actions are complete, expire, claim, send, send_ack_lost, "
        "complete_published, complete_rejected, expire_orphaned, "
        "expire_premature, crash_relay, consume, step, acknowledge, ack_lost, "
        "crash_consumer, redeliver, send_deduplicated, tick, retry, redrive, "
        "dead_letter_expire, cleanup, consumer_outage, database_outage, "
        "source_commit, commit_fails, flush_offset, lose_write, rebalance, "
        "send_fails, retry_send, consume_fails, consume_retry");
  CHECK(ErrorOf(check + "must_fire = [\"send\", \"send\"]\n") ==
        "scenarios/x.toml:5:22: check.must_fire[2]: 'send' is listed twice");
  CHECK(ErrorOf(check + "must_fire = \"send\"\n") ==
        "scenarios/x.toml:5:13: check.must_fire: expected an array of action "
        "names, got a string");
}

TEST_CASE("walk_weights gives action classes whole weights 0..1000") {
  const std::string check =
      std::string(kHead) + "[check]\ninvariants = [\"eventually_offered\"]\n";
  CHECK(ErrorOf(check + "walk_weights = { crash_rely = 4 }\n") ==
        "scenarios/x.toml:5:18: check.walk_weights.crash_rely: unknown action "
        "class 'crash_rely'; did you mean 'crash_relay'?");
  CHECK(ErrorOf(check + "walk_weights = { publish = 4 }\n") ==
        "scenarios/x.toml:5:18: check.walk_weights.publish: unknown action "
        "class 'publish'; action classes are claim, send, send_ack_lost, "
        "complete_published, complete_rejected, expire_orphaned, "
        "expire_premature, crash_relay, consume, step, acknowledge, ack_lost, "
        "crash_consumer, redeliver, send_deduplicated, tick, retry, redrive, "
        "dead_letter_expire, cleanup, consumer_outage, database_outage, "
        "source_commit, commit_fails, flush_offset, lose_write, rebalance, "
        "send_fails, retry_send, consume_fails, consume_retry");
  CHECK(ErrorOf(check + "walk_weights = { expire = 4 }\n") ==
        "scenarios/x.toml:5:18: check.walk_weights.expire: 'expire' stands "
        "for 2 classes; give expire_orphaned and expire_premature weights of "
        "their own");
  // The first error in the file, not in key order.
  CHECK(ErrorOf(check + "walk_weights = { zzz = 1, claim = -1 }\n") ==
        "scenarios/x.toml:5:18: check.walk_weights.zzz: unknown action class "
        "'zzz'; action classes are claim, send, send_ack_lost, "
        "complete_published, complete_rejected, expire_orphaned, "
        "expire_premature, crash_relay, consume, step, acknowledge, ack_lost, "
        "crash_consumer, redeliver, send_deduplicated, tick, retry, redrive, "
        "dead_letter_expire, cleanup, consumer_outage, database_outage, "
        "source_commit, commit_fails, flush_offset, lose_write, rebalance, "
        "send_fails, retry_send, consume_fails, consume_retry");
  CHECK(ErrorOf(check + "walk_weights = { send = 2, claim = -1 }\n") ==
        "scenarios/x.toml:5:36: check.walk_weights.claim: -1 is out of range "
        "0..1000");
  CHECK(ErrorOf(check + "walk_weights = { claim = 1001 }\n") ==
        "scenarios/x.toml:5:26: check.walk_weights.claim: 1001 is out of "
        "range 0..1000");
  CHECK(ErrorOf(check + "walk_weights = { claim = 2.5 }\n") ==
        "scenarios/x.toml:5:26: check.walk_weights.claim: expected an "
        "integer, got a floating-point number");
  CHECK(ErrorOf(check + "walk_weights = { claim = \"4\" }\n") ==
        "scenarios/x.toml:5:26: check.walk_weights.claim: expected an "
        "integer, got a string");
  CHECK(ErrorOf(check + "walk_weights = {}\n") ==
        "scenarios/x.toml:5:16: check.walk_weights: empty; give at least one "
        "action class a weight, or leave the key out for walks that take "
        "every enabled action alike");
  CHECK(ErrorOf(check + "walk_weights = [\"claim\"]\n") ==
        "scenarios/x.toml:5:16: check.walk_weights: expected a table of "
        "weights by action class, such as { crash_relay = 4 }, got an array");
  // Every class at 0 leaves a walk nothing to prefer.
  std::string zeros;
  for (const std::string& c : OutboxModel::ActionClassNames()) {
    zeros += (zeros.empty() ? "" : ", ") + c + " = 0";
  }
  CHECK(ErrorOf(check + "walk_weights = { " + zeros + " }\n") ==
        "scenarios/x.toml:5:16: check.walk_weights: every action class "
        "weighs 0; a walk needs at least one class it may take");
  // One class above 0 is enough.
  CHECK(ErrorOf(check + "walk_weights = { " +
                zeros.substr(0, zeros.size() - 1) + "7 }\n") == "(loaded)");
}

TEST_CASE("walk_weights of 1 alone are the same as none") {
  const std::string check =
      std::string(kHead) + "[check]\ninvariants = [\"eventually_offered\"]\n";
  const Scenario ones =
      Load(check + "walk_weights = { claim = 1, crash_relay = 1 }\n");
  CHECK(ones.walk_weights.empty());
  CHECK(FormatScenario(ones).find("walk_weights") == std::string::npos);
  const Scenario some = Load(check + "walk_weights = { consume = 9 }\n");
  CHECK(FormatScenario(some).find("walk_weights = { consume = 9 }\n") !=
        std::string::npos);
  CheckRoundTrip(check + "walk_weights = { consume = 9, claim = 0 }\n");
}

TEST_CASE("stop_at_first_violation must be a boolean") {
  CHECK(ErrorOf(std::string(kHead) +
                "[check]\ninvariants = [\"eventually_offered\"]\n"
                "stop_at_first_violation = 1\n") ==
        "scenarios/x.toml:5:27: check.stop_at_first_violation: expected a "
        "boolean, got an integer");
}

TEST_CASE("a pinned step that does not parse is reported at its position") {
  const std::string check =
      std::string(kHead) + "[check]\ninvariants = [\"eventually_offered\"]\n";
  CHECK(ErrorOf(check + "order = [\"claim(A, e1)\", \"send(A)\",\n"
                        "  \"claim(XYZ, e1)\"]\n") ==
        "scenarios/x.toml:6:3: check.order[3]: unknown relay 'XYZ' in "
        "'claim(XYZ, e1)'; relays are A");
  CHECK(ErrorOf(check + "order = [\"claim(A, e1)\", 2]\n") ==
        "scenarios/x.toml:5:26: check.order[2]: expected a string, got an "
        "integer");
  CHECK(ErrorOf(check + "order = []\n") ==
        "scenarios/x.toml:5:9: check.order: empty; give at least one step, "
        "or leave the key out to search exhaustively");
  CHECK(ErrorOf(check + "order = \"send(A)\"\n") ==
        "scenarios/x.toml:5:9: check.order: expected an array of actions, "
        "got a string");
}

TEST_CASE("check.loop loads after an order, with the positions of its steps") {
  const Scenario s = Load(std::string(kHead) +
                          "[check]\ninvariants = [\"eventually_offered\"]\n"
                          "order = [\"claim(A, e1)\"]\n"
                          "loop = [\"send(A)\",\n  \"complete(A)\"]\n");
  REQUIRE(s.loop.size() == 2);
  CHECK(s.loop[0].text == "send(A)");
  CHECK(s.loop[1].text == "complete(A)");
  CHECK(s.loop[1].position.line == 7);
  CHECK(s.loop[1].position.column == 3);
  // Printed after the order, and read back the same.
  const std::string printed = FormatScenario(s);
  CHECK(printed.find("order = [\n  \"claim(A, e1)\",\n]\nloop = [\n  "
                     "\"send(A)\",\n  \"complete(A)\",\n]\n") !=
        std::string::npos);
  CheckSame(s, Load(printed));
}

TEST_CASE("a bad check.loop is reported at its position") {
  const std::string check =
      std::string(kHead) + "[check]\ninvariants = [\"eventually_offered\"]\n";
  CHECK(ErrorOf(check + "loop = [\"send(A)\"]\n") ==
        "scenarios/x.toml:5:8: check.loop: only allowed with check.order; a "
        "loop repeats after a pinned order");
  const std::string pinned = check + "order = [\"claim(A, e1)\"]\n";
  CHECK(ErrorOf(pinned + "loop = []\n") ==
        "scenarios/x.toml:6:8: check.loop: empty; give at least one step, or "
        "leave the key out for no loop");
  CHECK(ErrorOf(pinned + "loop = \"send(A)\"\n") ==
        "scenarios/x.toml:6:8: check.loop: expected an array of actions, got "
        "a string");
  CHECK(ErrorOf(pinned + "loop = [\"send(A)\", 2]\n") ==
        "scenarios/x.toml:6:20: check.loop[2]: expected a string, got an "
        "integer");
  CHECK(ErrorOf(pinned + "loop = [\"send(A)\",\n  \"send(XYZ)\"]\n") ==
        "scenarios/x.toml:7:3: check.loop[2]: unknown relay 'XYZ' in "
        "'send(XYZ)'; relays are A");
  CHECK(ErrorOf(pinned + "lop = [\"send(A)\"]\n") ==
        "scenarios/x.toml:6:1: check.lop: unknown key; did you mean 'loop'?");
}

// ---------------------------------------------------------------------------
// Errors: [expect]

constexpr std::string_view kChecked =
    "relays = [\"A\"]\nevents = 1\n[[groups]]\nstrategy = \"credit.naive\"\n"
    "[check]\ninvariants = [\"effect_at_most_once\", "
    "\"eventually_offered\"]\n";

TEST_CASE("a file without [expect] loads with no expectation") {
  const Result<Scenario> s = ParseScenario(kChecked, "scenarios/x.toml");
  REQUIRE(s.ok());
  CHECK_FALSE(s.value().expect.has_value());
}

TEST_CASE("a scenario without an expectation prints without [expect]") {
  const Result<Scenario> s = ParseScenario(kChecked, "scenarios/x.toml");
  REQUIRE(s.ok());
  const std::string text = FormatScenario(s.value());
  CHECK(text.find("[expect]") == std::string::npos);
  const Result<Scenario> again = ParseScenario(text, "scenarios/y.toml");
  REQUIRE(again.ok());
  CheckSame(s.value(), again.value());
}

TEST_CASE("an ignored [expect] table is left unread, whatever it says") {
  const std::string text =
      std::string(kChecked) + "[expect]\nverdict = \"hold\"\nsteps = 3\n";
  CHECK(ErrorOf(text) ==
        "scenarios/x.toml:9:1: expect.steps: unknown key; allowed keys are "
        "verdict, violated, trace_length, states");
  const Result<Scenario> s =
      ParseScenario(text, "scenarios/x.toml", ExpectTable::kIgnore);
  REQUIRE(s.ok());
  CHECK_FALSE(s.value().expect.has_value());
  const Result<Scenario> read =
      ParseScenario(std::string(kChecked) + "[expect]\nverdict = \"holds\"\n",
                    "scenarios/x.toml", ExpectTable::kIgnore);
  REQUIRE(read.ok());
  CHECK_FALSE(read.value().expect.has_value());
}

TEST_CASE("an [expect] table needs its verdict, holds or violated") {
  CHECK(ErrorOf(std::string(kChecked) + "[expect]\n") ==
        "scenarios/x.toml:7:1: expect.verdict: missing; expected 'holds' or "
        "'violated'");
  CHECK(ErrorOf(std::string(kChecked) + "[expect]\nverdict = \"hold\"\n") ==
        "scenarios/x.toml:8:11: expect.verdict: unknown verdict 'hold'; did "
        "you mean 'holds'?");
  CHECK(ErrorOf(std::string(kChecked) + "[expect]\nverdict = \"fails\"\n") ==
        "scenarios/x.toml:8:11: expect.verdict: unknown verdict 'fails'; "
        "expected 'holds' or 'violated'");
  CHECK(ErrorOf(std::string(kChecked) + "[expect]\nverdict = true\n") ==
        "scenarios/x.toml:8:11: expect.verdict: expected a string, got a "
        "boolean");
}

TEST_CASE("expect.violated is required exactly when the verdict is violated") {
  CHECK(ErrorOf(std::string(kChecked) + "[expect]\nverdict = \"violated\"\n") ==
        "scenarios/x.toml:7:1: expect.violated: missing; required when "
        "expect.verdict is 'violated'");
  CHECK(ErrorOf(std::string(kChecked) +
                "[expect]\nverdict = \"holds\"\n"
                "violated = \"effect_at_most_once\"\n") ==
        "scenarios/x.toml:9:12: expect.violated: not allowed when "
        "expect.verdict is 'holds'");
}

TEST_CASE("expect.violated names checked invariants, each once") {
  const std::string head =
      std::string(kChecked) + "[expect]\nverdict = \"violated\"\n";
  CHECK(ErrorOf(head + "violated = \"efect_at_most_once\"\n") ==
        "scenarios/x.toml:9:12: expect.violated: 'efect_at_most_once' is not "
        "in check.invariants; did you mean 'effect_at_most_once'?");
  CHECK(ErrorOf(head + "violated = [\"effect_at_most_once\", "
                       "\"cache_consistent\"]\n") ==
        "scenarios/x.toml:9:36: expect.violated[2]: 'cache_consistent' is "
        "not in check.invariants; check.invariants lists "
        "effect_at_most_once, eventually_offered");
  CHECK(ErrorOf(head + "violated = [\"effect_at_most_once\", "
                       "\"effect_at_most_once\"]\n") ==
        "scenarios/x.toml:9:36: expect.violated[2]: 'effect_at_most_once' is "
        "listed twice");
  CHECK(ErrorOf(head + "violated = []\n") ==
        "scenarios/x.toml:9:12: expect.violated: empty; name at least one "
        "invariant");
  CHECK(ErrorOf(head + "violated = 1\n") ==
        "scenarios/x.toml:9:12: expect.violated: expected a string or an "
        "array of strings, got an integer");
  CHECK(ErrorOf(head + "violated = [1]\n") ==
        "scenarios/x.toml:9:13: expect.violated[1]: expected a string, got "
        "an integer");
}

TEST_CASE("expect.trace_length comes only with a violation") {
  CHECK(ErrorOf(std::string(kChecked) +
                "[expect]\nverdict = \"holds\"\ntrace_length = 3\n") ==
        "scenarios/x.toml:9:16: expect.trace_length: not allowed when "
        "expect.verdict is 'holds'");
  CHECK(ErrorOf(std::string(kChecked) +
                "[expect]\nverdict = \"violated\"\n"
                "violated = \"effect_at_most_once\"\ntrace_length = -1\n") ==
        "scenarios/x.toml:10:16: expect.trace_length: -1 is out of range "
        "0..2147483647");
}

TEST_CASE("expect.states comes only with an exhaustive search") {
  CHECK(ErrorOf(std::string(kChecked) +
                "order = [\"claim(A, e1)\"]\n"
                "[expect]\nverdict = \"holds\"\nstates = 3\n") ==
        "scenarios/x.toml:10:10: expect.states: not allowed with "
        "check.order; only an exhaustive search counts states");
  CHECK(ErrorOf(std::string(kChecked) +
                "[expect]\nverdict = \"holds\"\nstates = 0\n") ==
        "scenarios/x.toml:9:10: expect.states: 0 is out of range; must be at "
        "least 1");
}

TEST_CASE(
    "the partitioned broker's keys are read, and bad values named "
    "by file, line and field") {
  const std::string head =
      "relays = 1\nevents = 1\n[[groups]]\nname = \"g\"\n"
      "strategy = \"credit.inbox\"\n";
  const Scenario s = Load(head +
                          "commit = \"before\"\non_failure = \"retry_topic\"\n"
                          "[broker]\ndelivery = \"partitioned\"\n"
                          "partitions = 2\ncommit_fencing = false\n"
                          "[faults]\nrebalances = 1\nhandler_failures = 1\n"
                          "[check]\ninvariants = [\"committed_by_owner\", "
                          "\"no_offset_skipped\"]\n");
  CHECK(s.config.broker.delivery == Delivery::kPartitioned);
  CHECK(s.config.broker.partitions == 2);
  CHECK_FALSE(s.config.broker.commit_fencing);
  CHECK(s.config.groups[0].commit_before);
  CHECK(s.config.groups[0].retry_topic);
  CHECK(s.config.budgets.rebalances == 1);
  CHECK(s.config.observed == (kObserveStaleCommit | kObserveProcessed));
  // Written back, the scenario reads as the same configuration.
  const Scenario again = Load(FormatScenario(s));
  CHECK(again.config == s.config);

  CHECK(ErrorOf(head + "on_failure = \"retry_later\"\n") ==
        "scenarios/x.toml:6:14: groups[1].on_failure: unknown value "
        "'retry_later'; expected one of retry_in_place, retry_topic");
  CHECK(ErrorOf(head + "[broker]\ndelivery = \"partitioned\"\n"
                       "partitions = 9\n") ==
        "scenarios/x.toml:8:14: broker.partitions: 9 is out of range 1..4");
  CHECK(ErrorOf(head + "[check]\ninvariants = [\"committed_by_owner\"]\n") ==
        "scenarios/x.toml:7:15: check.invariants[1]: 'committed_by_owner' is "
        "about a partitioned broker's offsets; this scenario's broker is a bag "
        "(set broker.delivery = \"partitioned\")");
  CHECK(ErrorOf(head + "[faults]\nrebalances = 1\n") ==
        "scenarios/x.toml:7:14: faults.rebalances: only a partitioned broker "
        "assigns partitions to instances; set broker.delivery = "
        "\"partitioned\"");
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

constexpr std::string_view kTimedTail =
    "[check]\ninvariants = [\"effect_at_most_once\"]\n"
    "[expect]\nverdict = \"holds\"\n";

std::string TimedError(std::string_view middle) {
  return ErrorOf(std::string("relays = [\"A\"]\nevents = 1\n") +
                 std::string(middle) + std::string(kTimedTail));
}

}  // namespace

TEST_CASE("time, broker and group durations load into the config") {
  const Scenario s = Load(
      "relays = [\"A\"]\nevents = 1\n"
      "[[groups]]\nname = \"billing\"\nstrategy = \"credit.inbox\"\n"
      "inbox_retention = \"1d\"\ninbox_cleanup_every = \"1h\"\n"
      "redelivery = [\"5m\", \"15m\"]\ndead_letter_redrive = \"3d\"\n"
      "dead_letter_retention = \"7d\"\n"
      "[time]\nlease = \"10m\"\npoll = \"5m\"\nhorizon = \"2d\"\n"
      "[broker]\ndedup = \"window\"\nwindow = \"5m\"\n" +
      std::string(kTimedTail));
  const Group& g = s.config.groups[0];
  CHECK(g.inbox_retention == 86400);
  CHECK(g.inbox_cleanup_every == 3600);
  CHECK(g.redelivery == std::vector<Seconds>{300, 900});
  CHECK(g.dead_letter_redrive == 3 * 86400);
  CHECK(g.dead_letter_retention == 7 * 86400);
  CHECK(s.config.time.lease == 600);
  CHECK(s.config.time.poll == 300);
  CHECK(s.config.time.horizon == 2 * 86400);
  CHECK(s.config.broker.dedup == Dedup::kWindow);
  CHECK(s.config.broker.window == 300);
  // The canonical form reads back to the same scenario.
  CHECK(Load(FormatScenario(s)).config == s.config);
}

TEST_CASE("bad time settings name their file, line, column and field") {
  CHECK(TimedError("[time]\nlease = 600\n") ==
        "scenarios/x.toml:4:9: time.lease: expected a duration string such "
        "as \"5m\", got an integer");
  CHECK(TimedError("[time]\nleas = \"5m\"\n") ==
        "scenarios/x.toml:4:1: time.leas: unknown key; did you mean "
        "'lease'?");
  CHECK(TimedError("[broker]\ndedup = \"windows\"\n") ==
        "scenarios/x.toml:4:9: broker.dedup: unknown value 'windows'; did "
        "you mean 'window'?");
  CHECK(TimedError("[broker]\ndedup = \"window\"\n") ==
        "scenarios/x.toml:3:1: broker.window: required with broker.dedup = "
        "\"window\"");
  CHECK(TimedError("[[groups]]\nstrategy = \"credit.naive\"\n"
                   "inbox_retention = \"1d\"\n")
            .find("scenarios/x.toml:5:19: groups[1].inbox_retention: group "
                  "'g1' uses credit.naive, which keeps no inbox") == 0);
  CHECK(TimedError("[[groups]]\nstrategy = \"credit.inbox\"\n"
                   "redelivery = []\n") ==
        "scenarios/x.toml:5:14: groups[1].redelivery: empty; leave the key "
        "out for no delayed redelivery");
  CHECK(TimedError("[[groups]]\nstrategy = \"credit.inbox\"\n"
                   "idempotency_key_window = \"1h\"\n")
            .find("groups[1].idempotency_key_window: group 'g1' makes no "
                  "call with an idempotency key") != std::string::npos);
  CHECK(TimedError("[[groups]]\nstrategy = \"credit.inbox\"\n"
                   "idempotency_key_window = \"soon\"\n")
            .find("scenarios/x.toml:5:26: groups[1].idempotency_key_window: "
                  "'soon' is not a duration") == 0);
  CHECK(TimedError("[faults]\nconsumer_outages = 1\n") ==
        "scenarios/x.toml:4:20: faults.consumer_outages: needs "
        "time.consumer_outage, the length of one outage");
  CHECK(TimedError("[time]\nlease = \"7d\"\npoll = \"1s\"\n")
            .find("scenarios/x.toml:4:9: time.lease: 7d is 604800 times the "
                  "time unit 1s") == 0);
  CHECK(TimedError("[time]\nclocks = \"plain\"\nlease = \"1m\"\n") ==
        "scenarios/x.toml:3:1: time.horizon: required with time.clocks = "
        "\"plain\" (plain clocks count up to the horizon)");
}

}  // namespace oc
