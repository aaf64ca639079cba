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
        "are effects, inbox, ledger, sent, version, cache (declare your own "
        "under [tables])");
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
  CHECK(ErrorOf("  [\"n = effects[event]\", \"if n and inbox[event]: "
                "stop\", \"effects[event] += 1\"],") ==
        "strategies/s.toml:3:32: steps[1][2]: 'and' needs booleans on both "
        "sides; its left side is an integer");
  CHECK(
      ErrorOf("  [\"if inbox[event] == 1: stop\", \"insert inbox[event]\"],") ==
      "strategies/s.toml:3:21: steps[1][1]: '==' needs integers on both "
      "sides; its left side is a boolean");
}

TEST_CASE("operations are checked against the kind of table they write") {
  CHECK(ErrorOf("  [\"inbox[event] += 1\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: '+=' changes a count table "
        "(effects, sent) or a declared number; 'inbox' is not one: use "
        "'insert inbox[...]'");
  CHECK(ErrorOf("  [\"insert effects[event]\"],") ==
        "strategies/s.toml:3:12: steps[1][1]: 'insert' applies to row tables "
        "(inbox, ledger, cache, and declared rows); 'effects' is not one");
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
        "cache: cache), besides its own");
  CHECK(ErrorOf("  [\"effects[event] += 1 1\"],") ==
        "strategies/s.toml:3:25: steps[1][1]: unexpected '1' after the "
        "statement; write one statement per string");
  CHECK(ErrorOf("  [\"ok = true\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: the handler names no table; a "
        "handler writes the tables of one kind (credit: effects, inbox; "
        "notification: ledger, sent; projection: version; cache: cache) or "
        "tables it declares");
}

TEST_CASE("the strategy file's own keys and shape are checked") {
  CHECK(ErrorOf("  [\"effects[event] += 1\"],\n  [\"effects[event] += 1\"],\n"
                "  [\"effects[event] += 1\"],\n  [\"effects[event] += 1\"],\n"
                "  [\"effects[event] += 1\"],") ==
        "strategies/s.toml:2:9: steps: 5 steps; a handler has 1 to 4 steps "
        "(transactions): consume runs the first, each step action the next "
        "(docs/SEMANTICS.md section 4)");
  CHECK(ErrorOf("  [],") ==
        "strategies/s.toml:3:3: steps[1]: empty; a step holds at least one "
        "statement");
  const Result<HandlerProgram> typo = ParseStrategyFile(
      "name = \"s\"\nstep = [[\"effects[event] += 1\"]]\n", kPath, kPath);
  REQUIRE_FALSE(typo.ok());
  CHECK(typo.status().message() ==
        "strategies/s.toml:2:1: step: unknown key; did you mean 'steps'?");
}

// Runs step `step` of `p` on the given cells (an event whose number
// attributes are all `version`, with no declared tables); returns the memo
// after it.
std::uint32_t Run(const HandlerProgram& p, int step, GroupEventCells& cells,
                  GroupKeyCells& key, int version, std::uint32_t memo) {
  const std::vector<std::int32_t> numbers(p.number_attributes.size() + 1,
                                          version);
  RunHandlerStep(
      p, step,
      HandlerCells{&cells, &key, nullptr, nullptr, 0, nullptr, numbers.data(),
                   &memo, step + 1 == static_cast<int>(p.steps.size())});
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
  // With a key window of 3 units, the provider forgets the key once the
  // last call it let through is 3 units old.
  GroupEventCells w;
  auto call = [&] {
    std::uint32_t memo = 0;
    const std::int32_t numbers[1] = {0};
    RunHandlerStep(keyed, 0,
                   HandlerCells{&w, &k, nullptr, nullptr, 0, nullptr, numbers,
                                &memo, true, 3});
  };
  call();
  CHECK(w.sent == 1);
  w.key_age = 2;  // still inside the window
  call();
  CHECK(w.sent == 1);
  w.key_age = 3;  // the window has passed
  call();
  CHECK(w.sent == 2);
  CHECK(w.key_age == 0);  // a new window starts
  CHECK(ErrorOf("  [\"call ledger[event]\"],") ==
        "strategies/s.toml:3:10: steps[1][1]: 'call' records a call in the "
        "outside world's record, sent[event]; 'ledger' is a table of the "
        "group");
}

TEST_CASE("version is set, or set only if greater, from the event") {
  const HandlerProgram lww = Compile("  [\"version[key] = event.version\"],");
  const HandlerProgram mono =
      Compile("  [\"version[key] max = event.version\"],");
  CHECK(mono.number_attributes == std::vector<std::string>{"version"});
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

// A strategy file with [tables] and the given steps.
HandlerProgram CompileWithTables(std::string_view tables,
                                 std::string_view steps) {
  const std::string text = "name = \"s\"\nsteps = [\n" + std::string(steps) +
                           "\n]\n[tables]\n" + std::string(tables);
  Result<HandlerProgram> p = ParseStrategyFile(text, kPath, kPath);
  REQUIRE_MESSAGE(p.ok(), p.status().message());
  return p.value();
}

std::string TablesErrorOf(std::string_view tables, std::string_view steps) {
  const std::string text = "name = \"s\"\nsteps = [\n" + std::string(steps) +
                           "\n]\n[tables]\n" + std::string(tables);
  Result<HandlerProgram> p = ParseStrategyFile(text, kPath, kPath);
  return p.ok() ? "(loaded)" : p.status().message();
}

// Runs a step with declared tables: `user` holds the cells, `slots` the
// event's cell per table (given as the table's first cell, with the event
// and its values at index 0), `numbers` its number attributes.
std::uint32_t RunUser(const HandlerProgram& p, int step, GroupEventCells& c,
                      std::vector<std::int16_t>& user,
                      const std::vector<std::uint16_t>& slots,
                      const std::vector<std::int32_t>& numbers,
                      std::uint32_t memo) {
  GroupKeyCells k;
  const std::vector<std::int16_t> values(p.text_attributes.size() + 1, 0);
  RunHandlerStep(p, step,
                 HandlerCells{&c, &k, user.data(), slots.data(), 0,
                              values.data(), numbers.data(), &memo,
                              step + 1 == static_cast<int>(p.steps.size())});
  return memo;
}

TEST_CASE("declared tables: rows per event and numbers per attribute value") {
  const HandlerProgram p = CompileWithTables(
      "awarded = { kind = \"row\", by = \"event\" }\n"
      "points = { kind = \"number\", by = \"account\" }\n",
      "  [\"new = insert awarded[event]\", \"if new: points[event.account] "
      "+= event.amount\"],");
  REQUIRE(p.tables.size() == 2);
  CHECK(p.tables[0].name == "awarded");
  CHECK(p.tables[0].row);
  CHECK(p.tables[0].by == -1);
  CHECK(p.tables[1].name == "points");
  CHECK_FALSE(p.tables[1].row);
  CHECK(p.text_attributes == std::vector<std::string>{"account"});
  CHECK(p.number_attributes == std::vector<std::string>{"amount"});
  CHECK(static_cast<StrategyFamily>(p.family) == StrategyFamily::kCustom);
  // Two events of one account: cells 0, 1 (awarded), 2 (the account).
  std::vector<std::int16_t> user(3, 0);
  GroupEventCells c;
  RunUser(p, 0, c, user, {0, 2}, {10}, 0);
  CHECK(user == std::vector<std::int16_t>{1, 0, 10});
  RunUser(p, 0, c, user, {0, 2}, {10}, 0);  // a duplicate: no new row
  CHECK(user == std::vector<std::int16_t>{1, 0, 10});
  RunUser(p, 0, c, user, {1, 2}, {5}, 0);  // the other event, same account
  CHECK(user == std::vector<std::int16_t>{1, 1, 15});
}

TEST_CASE("declared numbers are set, set if greater and subtracted") {
  const HandlerProgram p = CompileWithTables(
      "last = { kind = \"number\", by = \"order\" }\n"
      "top = { kind = \"number\", by = \"order\" }\n"
      "left = { kind = \"number\", by = \"sku\" }\n",
      "  [\"last[event.order] = event.seq\", \"top[event.order] max = "
      "event.seq\", \"left[event.sku] -= 2\", \"left[event.sku] += -1\"],");
  REQUIRE(p.number_attributes == std::vector<std::string>{"seq"});
  // Tables in name order: last (cell 0), left (cell 1), top (cell 2).
  std::vector<std::int16_t> user(3, 0);
  GroupEventCells c;
  RunUser(p, 0, c, user, {0, 1, 2}, {5}, 0);
  CHECK(user == std::vector<std::int16_t>{5, -3, 5});
  RunUser(p, 0, c, user, {0, 1, 2}, {3}, 0);  // an older event arrives late
  CHECK(user == std::vector<std::int16_t>{3, -6, 5});
}

TEST_CASE("integer locals carry a column's value from step 1 to step 2") {
  const HandlerProgram p = CompileWithTables(
      "stock = { kind = \"number\", by = \"sku\" }\n",
      "  [\"left = stock[event.sku]\"],\n"
      "  [\"if left >= event.qty: stock[event.sku] -= event.qty\"],");
  REQUIRE(p.memo_bits == 16);
  std::vector<std::int16_t> user{3};
  GroupEventCells c;
  const std::uint32_t memo = RunUser(p, 0, c, user, {0}, {2}, 0);
  CHECK(MemoLocal(p, 0, memo) == 3);
  user[0] = 1;  // another delivery took stock in between
  CHECK(RunUser(p, 1, c, user, {0}, {2}, memo) == 0);
  CHECK(user[0] == -1);  // it acted on what it read: stock went negative
  // Negative values survive the memo too.
  user[0] = -4;
  CHECK(MemoLocal(p, 0, RunUser(p, 0, c, user, {0}, {2}, 0)) == -4);
}

TEST_CASE("stop handler skips the rest of the step and the next step") {
  const HandlerProgram p = Compile(
      "  [\"if inbox[event]: stop handler\", \"effects[event] += 1\"],\n"
      "  [\"insert inbox[event]\", \"effects[event] += 2\"],");
  CHECK(p.stop_bit == 0);
  GroupEventCells c;
  GroupKeyCells k;
  std::uint32_t memo = Run(p, 0, c, k, 0, 0);
  CHECK(memo == 0);
  Run(p, 1, c, k, 0, memo);
  CHECK(c.effects == 3);
  CHECK(c.inbox == 1);
  memo = Run(p, 0, c, k, 0, 0);  // a redelivery finds the row
  CHECK(memo == 1);
  CHECK(Run(p, 1, c, k, 0, memo) == 0);
  CHECK(c.effects == 3);
  // `stop` alone ends only its step.
  const HandlerProgram q = Compile(
      "  [\"if inbox[event]: stop\", \"effects[event] += 1\"],\n"
      "  [\"insert inbox[event]\", \"effects[event] += 2\"],");
  CHECK(q.stop_bit == -1);
  GroupEventCells d;
  d.inbox = 1;
  Run(q, 1, d, k, 0, Run(q, 0, d, k, 0, 0));
  CHECK(d.effects == 2);
}

TEST_CASE(
    "a handler of three steps carries locals and stop handler across "
    "the steps in between") {
  const HandlerProgram p = Compile(
      "  [\"seen = ledger[event]\", \"if seen: stop handler\"],\n"
      "  [\"call sent[event]\"],\n"
      "  [\"if not seen: insert ledger[event]\"],");
  REQUIRE(p.steps.size() == 3);
  CHECK(p.memo_bit[0] == 0);  // `seen`, read by step 3
  CHECK(p.stop_bit == 1);
  GroupEventCells c;
  GroupKeyCells k;
  std::uint32_t memo = Run(p, 0, c, k, 0, 0);
  CHECK(memo == 0);
  memo = Run(p, 1, c, k, 0, memo);  // the local survives step 2
  CHECK(memo == 0);
  CHECK(c.sent == 1);
  CHECK(Run(p, 2, c, k, 0, memo) == 0);
  CHECK(c.ledger == 1);
  // Again: step 1 sees the row and stops the handler; steps 2 and 3 do
  // nothing, and the stop is carried through step 2.
  memo = Run(p, 0, c, k, 0, 0);
  CHECK(memo == 0b11);
  memo = Run(p, 1, c, k, 0, memo);
  CHECK(memo == 0b11);
  CHECK(c.sent == 1);
  CHECK(Run(p, 2, c, k, 0, memo) == 0);
}

TEST_CASE("declared tables: errors name the table, its index and the fix") {
  const std::string tables =
      "points = { kind = \"number\", by = \"account\" }\n";
  CHECK(TablesErrorOf(tables, "  [\"points[event] += 1\"],") ==
        "strategies/s.toml:3:12: steps[1][1]: table 'points' has a cell per "
        "account; write points[event.account]");
  CHECK(TablesErrorOf(tables, "  [\"pionts[event.account] += 1\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: unknown table 'pionts'; did you "
        "mean 'points'?");
  CHECK(TablesErrorOf(tables, "  [\"insert points[event.account]\"],") ==
        "strategies/s.toml:3:12: steps[1][1]: 'insert' applies to row tables "
        "(inbox, ledger, cache, and declared rows); 'points' is not one");
  CHECK(TablesErrorOf(tables,
                      "  [\"points[event.account] += event.account\"],") ==
        "strategies/s.toml:3:30: steps[1][1]: event.account is text; a "
        "handler uses text attributes to index a table "
        "(points[event.account]), and reads numbers such as event.version or "
        "event.amount");
  CHECK(TablesErrorOf(tables, "  [\"effects[event] -= 1\"],") ==
        "strategies/s.toml:3:5: steps[1][1]: '-=' does not apply to "
        "'effects': a count of effects only grows");
  CHECK(TablesErrorOf("inbox = { kind = \"row\", by = \"event\" }\n",
                      "  [\"insert inbox[event]\"],") ==
        "strategies/s.toml:6:1: tables.inbox: 'inbox' is a built-in table or "
        "a keyword; choose another name");
  CHECK(TablesErrorOf("seen = { kind = \"flag\", by = \"event\" }\n",
                      "  [\"insert seen[event]\"],") ==
        "strategies/s.toml:6:17: tables.seen.kind: expected \"row\" (present "
        "or not) or \"number\"");
  CHECK(TablesErrorOf("seen = { kind = \"row\", by = \"amount\" }\n",
                      "  [\"insert seen[event.amount]\"],") ==
        "strategies/s.toml:6:29: tables.seen.by: 'amount' is not a text "
        "attribute; tables are indexed by the event or by text such as "
        "account, key or order");
}

TEST_CASE("a strategy's attributes must be on every event of the scenario") {
  const std::string dir = OC_TEST_TMPDIR;
  const std::string strategy = dir + "/points.toml";
  std::FILE* f = std::fopen(strategy.c_str(), "wb");
  REQUIRE(f != nullptr);
  const std::string text =
      "name = \"points\"\nsteps = [[\"points[event.account] += "
      "event.amount\"]]\n[tables]\npoints = { kind = \"number\", by = "
      "\"account\" }\n";
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  const std::string head =
      "relays = 1\n[[groups]]\nname = \"loyalty\"\nstrategy = { file = "
      "\"points.toml\" }\n[check]\ninvariants = "
      "[\"eventually_offered\"]\n[expect]\nverdict = \"holds\"\n";
  const Result<Scenario> ok = ParseScenario(
      head +
          "[[events]]\naccount = \"a\"\namount = 10\nsku = \"w\"\n"
          "[[events]]\naccount = \"a\"\namount = 5\n",
      dir + "/x.toml");
  REQUIRE_MESSAGE(ok.ok(), ok.status().message());
  const std::vector<UserTableLayout> layout =
      UserTableLayouts(ok.value().config);
  REQUIRE(layout.size() == 1);
  CHECK(layout[0].size == 1);  // one account
  CHECK(layout[0].names == std::vector<std::string>{"a"});
  CHECK(ok.value().config.events[0].attributes ==
        std::vector<EventAttribute>{{"sku", "w", std::nullopt}});
  // The custom attribute round-trips through the canonical form.
  const Result<Scenario> again =
      ParseScenario(FormatScenario(ok.value()), dir + "/x.toml");
  REQUIRE(again.ok());
  CHECK(again.value().config == ok.value().config);

  const Result<Scenario> missing = ParseScenario(
      head +
          "[[events]]\naccount = \"a\"\namount = 10\n[[events]]\namount = "
          "5\n",
      dir + "/x.toml");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find(
            "events[2].account: event 'e2' has no account, but group "
            "'loyalty' uses points (points.toml), which indexes a table by "
            "event.account") != std::string::npos);
  const Result<Scenario> typo = ParseScenario(
      head + "[[events]]\nacount = \"a\"\namount = 10\n", dir + "/x.toml");
  REQUIRE_FALSE(typo.ok());
  CHECK(typo.status().message().find(
            "events[1].acount: unknown key; did you mean 'account'?") !=
        std::string::npos);
  std::remove(strategy.c_str());
}

}  // namespace
}  // namespace oc
