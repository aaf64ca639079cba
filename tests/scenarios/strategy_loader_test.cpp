// The handler language: parsing, type checking and their messages (with the
// strategy file's line and column), the semantics of each operation, and
// strategy files named by scenarios.

#include "scenarios/strategy_loader.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "model/outbox_model.h"
#include "model/state.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

const std::string kPath = "strategies/s.toml";

std::string StrategyText(std::string_view steps) {
  return "name = \"s\"\nsteps = [\n" + std::string(steps) + "\n]\n";
}

// The error of a strategy whose `steps` array holds `steps` (line 3 on).
std::string ErrorOf(std::string_view steps) {
  Result<HandlerProgram> p =
      ParseStrategyFile(StrategyText(steps), kPath, kPath);
  if (p.ok()) return "(loaded)";
  return p.status().message();
}

HandlerProgram Compile(std::string_view steps) {
  Result<HandlerProgram> p =
      ParseStrategyFile(StrategyText(steps), kPath, kPath);
  REQUIRE_MESSAGE(p.ok(), p.status().message());
  return p.value();
}

TEST_CASE("a misspelt table is reported at its column with a hint") {
  CHECK(ErrorOf("  [\"inbx[event] += 1\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: unknown table 'inbx'; did you "
        "mean 'inbox'?");
  CHECK(ErrorOf("  [\"if not inbox[event]: points[event] += 1\"],") ==
        "strategies/s.toml:3:26: steps[1][1]: unknown table 'points'; tables "
        "are effects, inbox, ledger, sent, version, cache");
}

TEST_CASE("a step that reads a local no earlier step set is an error") {
  CHECK(ErrorOf("  [\"effects[event] += 1\"],\n  [\"if seen: stop\"],") ==
        "strategies/s.toml:4:8: steps[2][1]: local 'seen' is read, but no "
        "earlier statement sets it; set it first (in this step or in step "
        "1)");
  // Set later in the same step is not earlier.
  CHECK(ErrorOf("  [\"if new: sent[event] += 1\", \"new = insert "
                "ledger[event]\"],") ==
        "strategies/s.toml:3:8: steps[1][1]: local 'new' is read, but no "
        "earlier statement sets it; set it first (in this step or in step "
        "1)");
  CHECK(ErrorOf("  [\"seen = inbox[event]\"],\n  [\"if sen: stop\", "
                "\"effects[event] += 1\"],") ==
        "strategies/s.toml:4:8: steps[2][1]: local 'sen' is read, but no "
        "earlier statement sets it; set it first (in this step or in step "
        "1); did you mean 'seen'?");
}

TEST_CASE("type errors name the operator, the side and the types") {
  CHECK(ErrorOf("  [\"if effects[event] + inbox[event] > 0: stop\", "
                "\"effects[event] += 1\"],") ==
        "strategies/s.toml:3:23: steps[1][1]: '+' needs integers on both "
        "sides; its right side is a boolean");
  CHECK(ErrorOf("  [\"if effects[event]: stop\", \"effects[event] += 1\"],") ==
        "strategies/s.toml:3:8: steps[1][1]: a guard must be a boolean, got "
        "an integer; compare it, e.g. 'if effects[event] == 0:'");
  CHECK(ErrorOf("  [\"n = effects[event]\", \"effects[event] += 1\"],") ==
        "strategies/s.toml:3:9: steps[1][1]: local 'n' must be a boolean, "
        "got an integer; locals hold yes/no facts such as 'seen = "
        "inbox[event]'");
  CHECK(
      ErrorOf("  [\"if inbox[event] == 1: stop\", \"insert inbox[event]\"],") ==
      "strategies/s.toml:3:21: steps[1][1]: '==' needs integers on both "
      "sides; its left side is a boolean");
}

TEST_CASE("operations are checked against the kind of table they write") {
  CHECK(ErrorOf("  [\"inbox[event] += 1\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: '+=' adds to a count table "
        "(effects, sent); 'inbox' is not one: use 'insert inbox[...]'");
  CHECK(ErrorOf("  [\"insert effects[event]\"],") ==
        "strategies/s.toml:3:12: steps[1][1]: 'insert' applies to row tables "
        "(inbox, ledger, cache); 'effects' is not one");
  CHECK(ErrorOf("  [\"effects[event] += 20\"],") ==
        "strategies/s.toml:3:23: steps[1][1]: '+=' adds a constant from 1 to "
        "15, got '20'");
  CHECK(ErrorOf("  [\"version[event] = event.version\"],") ==
        "strategies/s.toml:3:13: steps[1][1]: table 'version' is indexed by "
        "the event's key; write version[key]");
  CHECK(ErrorOf("  [\"insert inbox[event]\", \"sent[event] += 1\"],") ==
        "strategies/s.toml:3:28: steps[1][2]: table 'sent' belongs to "
        "notification handlers, but this handler already uses 'inbox', a "
        "credit table; a handler works on the tables of one kind (credit: "
        "effects, inbox; notification: ledger, sent; projection: version; "
        "cache: cache)");
  CHECK(ErrorOf("  [\"effects[event] += 1 1\"],") ==
        "strategies/s.toml:3:25: steps[1][1]: unexpected '1' after the "
        "statement; write one statement per string");
  CHECK(ErrorOf("  [\"ok = true\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: the handler names no table; a "
        "handler writes the tables of one kind (credit: effects, inbox; "
        "notification: ledger, sent; projection: version; cache: cache)");
}

TEST_CASE("the strategy file's own keys and shape are checked") {
  CHECK(ErrorOf("  [\"effects[event] += 1\"],\n  [\"effects[event] += 1\"],\n"
                "  [\"effects[event] += 1\"],") ==
        "strategies/s.toml:2:9: steps: 3 steps; a handler has 1 or 2 steps "
        "(transactions), as in MODEL.md section 4");
  CHECK(ErrorOf("  [],") ==
        "strategies/s.toml:3:3: steps[1]: empty; a step holds at least one "
        "statement");
  const Result<HandlerProgram> typo = ParseStrategyFile(
      "name = \"s\"\nstep = [[\"effects[event] += 1\"]]\n", kPath, kPath);
  REQUIRE_FALSE(typo.ok());
  CHECK(typo.status().message() ==
        "strategies/s.toml:2:1: step: unknown key; did you mean 'steps'?");
}

// Runs step `step` of `p` on the given cells; returns the memo after it.
std::uint8_t Run(const HandlerProgram& p, int step, GroupEventCells& cells,
                 GroupKeyCells& key, int version, std::uint8_t memo) {
  RunHandlerStep(p, step,
                 HandlerCells{&cells, &key, version, &memo,
                              step + 1 == static_cast<int>(p.steps.size())});
  return memo;
}

TEST_CASE("insert knows whether it inserted, and guards read what it knew") {
  const HandlerProgram p = Compile(
      "  [\"inserted = insert inbox[event]\", \"if inserted: effects[event] "
      "+= 1\"],");
  GroupEventCells c;
  GroupKeyCells k;
  CHECK(Run(p, 0, c, k, 0, 0) == 0);
  CHECK(c.inbox == 1);
  CHECK(c.effects == 1);
  Run(p, 0, c, k, 0, 0);  // a duplicate: the row exists, no effect
  CHECK(c.inbox == 1);
  CHECK(c.effects == 1);
}

TEST_CASE("a local set in step 1 and read in step 2 lives in the memo") {
  const HandlerProgram p = Compile(
      "  [\"seen = inbox[event]\", \"other = not seen\"],\n"
      "  [\"if seen: stop\", \"effects[event] += 2\", \"insert "
      "inbox[event]\"],");
  CHECK(p.memo_bits == 1);  // `other` is not read in step 2
  GroupEventCells c;
  GroupKeyCells k;
  const std::uint8_t memo = Run(p, 0, c, k, 0, 0);
  CHECK(memo == 0);  // read no row
  c.inbox = 1;       // another instance finished meanwhile
  CHECK(Run(p, 1, c, k, 0, memo) == 0);
  CHECK(c.effects == 2);  // acted on what it read: the race
  GroupEventCells d;
  d.inbox = 1;
  CHECK(Run(p, 0, d, k, 0, 0) == 1);
  CHECK(Run(p, 1, d, k, 0, 1) == 0);  // stop; the memo is zeroed when done
  CHECK(d.effects == 0);
}

TEST_CASE("an outside-world call with a key is deduplicated by the provider") {
  const HandlerProgram plain = Compile("  [\"call sent[event]\"],");
  const HandlerProgram keyed = Compile("  [\"call sent[event] with_key\"],");
  CHECK(plain.adds[static_cast<std::size_t>(HandlerTable::kSent)] == 1);
  GroupEventCells a, b;
  GroupKeyCells k;
  Run(plain, 0, a, k, 0, 0);
  Run(plain, 0, a, k, 0, 0);
  CHECK(a.sent == 2);
  Run(keyed, 0, b, k, 0, 0);
  Run(keyed, 0, b, k, 0, 0);
  CHECK(b.sent == 1);
  CHECK(ErrorOf("  [\"call ledger[event]\"],") ==
        "strategies/s.toml:3:10: steps[1][1]: 'call' records a call in the "
        "outside world's record, sent[event]; 'ledger' is a table of the "
        "group");
}

TEST_CASE("version is set, or set only if greater, from the event") {
  const HandlerProgram lww = Compile("  [\"version[key] = event.version\"],");
  const HandlerProgram mono =
      Compile("  [\"version[key] max = event.version\"],");
  CHECK(mono.reads_version);
  CHECK(mono.uses_key);
  GroupEventCells c;
  GroupKeyCells k;
  k.version = 5;
  Run(lww, 0, c, k, 3, 0);
  CHECK(k.version == 3);
  Run(mono, 0, c, k, 2, 0);
  CHECK(k.version == 3);
  Run(mono, 0, c, k, 7, 0);
  CHECK(k.version == 7);
}

TEST_CASE("arithmetic, comparison and boolean operators evaluate") {
  const HandlerProgram p = Compile(
      "  [\"big = sent[event] * 2 + 1 - 1 >= 4 and not (ledger[event] or "
      "false)\", \"if big: insert ledger[event]\", \"sent[event] += 3\"],");
  GroupEventCells c;
  GroupKeyCells k;
  c.sent = 1;
  Run(p, 0, c, k, 0, 0);
  CHECK(c.ledger == 0);  // 1 * 2 is below 4
  CHECK(c.sent == 4);
  Run(p, 0, c, k, 0, 0);
  CHECK(c.ledger == 1);
  CHECK(c.sent == 7);
}

TEST_CASE("a scenario names a strategy file relative to its own folder") {
  const std::string dir = OC_TEST_TMPDIR;
  const std::string strategy = dir + "/loyalty.inbox.toml";
  std::FILE* f = std::fopen(strategy.c_str(), "wb");
  REQUIRE(f != nullptr);
  const std::string text = StrategyText(
      "  [\"new = insert inbox[event]\", \"if new: effects[event] += 1\"],");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  const std::string scenario_text =
      "relays = 1\nevents = 1\n[[groups]]\nname = \"loyalty\"\nstrategy = { "
      "file = \"loyalty.inbox.toml\" }\n[check]\ninvariants = "
      "[\"effect_at_most_once\"]\n[expect]\nverdict = \"holds\"\n";
  const Result<Scenario> s = ParseScenario(scenario_text, dir + "/x.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  const Group& g = s.value().config.groups[0];
  REQUIRE(g.declared);
  CHECK(g.strategy == Strategy::kDeclared);
  CHECK(g.declared->file == "loyalty.inbox.toml");
  CHECK(FamilyOf(g) == StrategyFamily::kCredit);
  CHECK(HasInbox(g));
  CHECK(StrategyLabel(g) == "s (loyalty.inbox.toml)");
  // The canonical form names the file as written, and reads back equal.
  const std::string printed = FormatScenario(s.value());
  CHECK(printed.find("strategy = { file = \"loyalty.inbox.toml\" }") !=
        std::string::npos);
  const Result<Scenario> again = ParseScenario(printed, dir + "/x.toml");
  REQUIRE(again.ok());
  CHECK(again.value().config == s.value().config);

  const Result<Scenario> missing = ParseScenario(
      "relays = 1\nevents = 1\n[[groups]]\nstrategy = { file = \"nope.toml\" "
      "}\n[check]\ninvariants = [\"effect_at_most_once\"]\n[expect]\nverdict "
      "= \"holds\"\n",
      dir + "/x.toml");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() ==
        dir + "/nope.toml: cannot read file: No such file or directory");
  std::remove(strategy.c_str());
}

}  // namespace
}  // namespace oc
