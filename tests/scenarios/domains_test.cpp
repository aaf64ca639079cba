// Domains, tables indexed by any value of their domain, and starting
// values (scenarios/strategies/LANGUAGE.md, "Domains"; scenarios/FORMAT.md,
// `[initial]`): what the loaders accept and refuse, and what a step does
// to several rows of one table.

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "invariants/invariant_expression.h"
#include "model/handler_program.h"
#include "model/outbox_model.h"
#include "model/state.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"
#include "scenarios/strategy_loader.h"

namespace oc {
namespace {

const std::string kPath = "strategies/s.toml";

// A strategy file with the given steps and trailing sections.
std::string StrategyText(std::string_view steps, std::string_view rest) {
  return "name = \"s\"\nsteps = [\n" + std::string(steps) + "\n]\n" +
         std::string(rest);
}
std::string ErrorOf(std::string_view steps, std::string_view rest) {
  Result<HandlerProgram> p =
      ParseStrategyFile(StrategyText(steps, rest), kPath, kPath);
  return p.ok() ? "(loaded)" : p.status().message();
}
HandlerProgram Compile(std::string_view steps, std::string_view rest) {
  Result<HandlerProgram> p =
      ParseStrategyFile(StrategyText(steps, rest), kPath, kPath);
  REQUIRE_MESSAGE(p.ok(), p.status().message());
  return p.value();
}

// Runs step `step` of `p` over one table by a domain whose cells are
// `user` (the first at 0), for an event whose text attributes hold the
// value indices `values` and whose number attributes are `numbers`;
// returns the memo after it.
std::uint32_t RunOnAccounts(const HandlerProgram& p, int step,
                            std::vector<std::int16_t>& user,
                            const std::vector<std::int16_t>& values,
                            const std::vector<std::int32_t>& numbers,
                            std::uint32_t memo) {
  const std::uint16_t first[1] = {0};
  GroupEventCells c;
  GroupKeyCells k;
  RunHandlerStep(
      p, step,
      HandlerCells{&c, &k, user.data(), first, 0, values.data(), numbers.data(),
                   &memo, step + 1 == static_cast<int>(p.steps.size())});
  return memo;
}

constexpr std::string_view kAccounts =
    "[domains]\naccount = [\"from\", \"to\"]\n[tables]\nbalance = { kind = "
    "\"number\", by = \"account\" }\n";

TEST_CASE("two attributes of one domain index one table, in one step") {
  const HandlerProgram p = Compile(
      "  [\"balance[event.from] -= event.amount\", \"balance[event.to] += "
      "event.amount\"],",
      kAccounts);
  REQUIRE(p.domains == std::vector<std::string>{"account"});
  CHECK(p.text_attributes == std::vector<std::string>{"from", "to"});
  CHECK(p.text_domain == std::vector<std::int8_t>{0, 0});
  // Three accounts (cells 0..2); the event moves 7 from account 2 to 0.
  std::vector<std::int16_t> user = {10, 20, 30};
  RunOnAccounts(p, 0, user, {2, 0}, {7}, 0);
  CHECK(user == std::vector<std::int16_t>{17, 20, 23});
}

TEST_CASE("a local holds a value of a domain, across steps") {
  const HandlerProgram p = Compile(
      "  [\"payee = event.to\", \"if event.from == event.to: stop handler\", "
      "\"balance[event.from] -= 1\"],\n  [\"balance[payee] += 1\"],",
      kAccounts);
  REQUIRE(p.locals == std::vector<std::string>{"payee"});
  CHECK(p.local_domain == std::vector<std::int8_t>{0});
  CHECK(p.memo_bits == 8 + 1);  // the value, and the stop-handler bit
  std::vector<std::int16_t> user = {5, 5, 5};
  // Text attributes in order of first use: to, from. From account 0 to 2.
  REQUIRE(p.text_attributes == std::vector<std::string>{"to", "from"});
  std::uint32_t memo = RunOnAccounts(p, 0, user, {2, 0}, {}, 0);
  CHECK(user == std::vector<std::int16_t>{4, 5, 5});
  CHECK(MemoLocal(p, 0, memo) == 2);
  memo = RunOnAccounts(p, 1, user, {2, 0}, {}, memo);
  CHECK(user == std::vector<std::int16_t>{4, 5, 6});
  CHECK(memo == 0);
  // A transfer to oneself stops before it writes anything.
  RunOnAccounts(p, 0, user, {1, 1}, {}, 0);
  CHECK(user == std::vector<std::int16_t>{4, 5, 6});
}

TEST_CASE("the loader refuses domain slips with the position and a hint") {
  // An index of another domain, a number, or the event.
  CHECK(ErrorOf("  [\"balance[event.order] += 1\"],",
                std::string(kAccounts) +
                    "seen = { kind = \"row\", by = \"order\" }\n") ==
        "strategies/s.toml:3:13: steps[1][1]: table 'balance' has a cell per "
        "account; write balance[event.from], or another account "
        "(event.from, event.to or a local set to one)");
  CHECK(ErrorOf("  [\"balance[event] += 1\"],", kAccounts) ==
        "strategies/s.toml:3:13: steps[1][1]: table 'balance' has a cell per "
        "account; write balance[event.from], or another account "
        "(event.from, event.to or a local set to one)");
  // Values of different domains do not compare.
  CHECK(ErrorOf("  [\"if event.from == event.sku: stop\", \"balance[event.to] "
                "+= 1\"],",
                std::string(kAccounts) +
                    "held = { kind = \"number\", by = \"sku\" }\n") ==
        "strategies/s.toml:3:19: steps[1][1]: '==' compares values of one "
        "domain; these are values of two (a strategy's [domains] puts "
        "attributes in one domain)");
  // A local keeps its type.
  CHECK(ErrorOf("  [\"x = event.from\", \"x = 1\", \"balance[event.to] += "
                "1\"],",
                kAccounts) ==
        "strategies/s.toml:3:23: steps[1][2]: local 'x' was a value of "
        "account and is now set to an integer; a local keeps one type");
  // [domains] itself.
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                "[domains]\naccount = [\"from\", \"to\"]\npayer = "
                "[\"from\"]\n[tables]\nbalance = { kind = \"number\", by = "
                "\"account\" }\n") ==
        "strategies/s.toml:7:10: domains.payer[1]: 'from' is already in "
        "domain 'account'; an attribute holds values of one domain");
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                "[domains]\naccount = [\"key\"]\n[tables]\nbalance = { kind "
                "= \"number\", by = \"account\" }\n") ==
        "strategies/s.toml:6:12: domains.account[1]: 'key' holds values of "
        "its own domain; it cannot join another");
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                "[domains]\namount = [\"to\"]\n[tables]\nbalance = { kind = "
                "\"number\", by = \"amount\" }\n") ==
        "strategies/s.toml:6:1: domains.amount: 'amount' cannot be a domain: "
        "a domain is a kind of text value, such as account");
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                "[domains]\naccount = []\n[tables]\nbalance = { kind = "
                "\"number\", by = \"account\" }\n") ==
        "strategies/s.toml:6:11: domains.account: empty; list the attributes "
        "whose values are of this domain, such as [\"from\", \"to\"]");
  // A table by a member of a domain is by the domain.
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                "[domains]\naccount = [\"from\", \"to\"]\n[tables]\nbalance = "
                "{ kind = \"number\", by = \"from\" }\n") ==
        "strategies/s.toml:8:35: tables.balance.by: 'from' holds values of "
        "the domain 'account' ([domains]); write by = \"account\"");
}

TEST_CASE("a strategy's domains and text attributes are bounded") {
  // Seventeen declared domains: one too many.
  std::string domains = "[domains]\n";
  for (int d = 1; d <= kMaxHandlerDomains + 1; ++d) {
    domains += fmt::format("d{} = [\"a{}\"]\n", d, d);
  }
  CHECK(ErrorOf("  [\"balance[event.to] += 1\"],",
                domains + "[tables]\nbalance = { kind = \"number\", by = "
                          "\"d1\" }\n")
            .find("too many domains; a strategy declares at most 16") !=
        std::string::npos);
  // Thirty-three attributes of one domain, each compared: one too many.
  std::string members;
  std::string guard;
  for (int a = 1; a <= kMaxTextAttributes + 1; ++a) {
    members += fmt::format("{}\"a{}\"", a > 1 ? ", " : "", a);
    guard += fmt::format("{}event.a{} == event.a1", a > 1 ? " and " : "", a);
  }
  CHECK(ErrorOf("  [\"if " + guard + ": balance[event.a1] += 1\"],",
                "[domains]\naccount = [" + members +
                    "]\n[tables]\nbalance = { kind = \"number\", by = "
                    "\"account\" }\n")
            .find("too many attributes; a handler reads at most 32 text "
                  "attributes") != std::string::npos);
}

// Writes `text` to `path` whole: CTest runs this file's cases as separate
// processes at once, so each writes a file of its own and renames it into
// place, and no reader sees half a file.
void WriteWhole(const std::string& path, const std::string& text) {
  const std::string part = fmt::format("{}.{}", path, ::getpid());
  std::FILE* f = std::fopen(part.c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  REQUIRE(std::rename(part.c_str(), path.c_str()) == 0);
}

// The transfer strategy, in the test folder, which it returns.
std::string WriteTransferStrategy() {
  const std::string dir = OC_TEST_TMPDIR;
  const std::string text = StrategyText(
      "  [\"new = insert applied[event]\", \"if not new: stop\", "
      "\"balance[event.from] -= event.amount\", \"balance[event.to] += "
      "event.amount\"],",
      std::string(kAccounts) +
          "applied = { kind = \"row\", by = \"event\" }\n");
  WriteWhole(dir + "/transfer.toml", text);
  return dir;
}

// A scenario of transfers between accounts, with the given extra text.

Result<Scenario> Transfer(std::string_view extra) {
  const std::string dir = WriteTransferStrategy();
  return ParseScenario(
      "relays = 1\n[[events]]\nname = \"t-1\"\nfrom = \"alice\"\nto = "
      "\"bob\"\namount = 60\n[[events]]\nname = \"t-2\"\nfrom = \"bob\"\nto = "
      "\"carol\"\namount = 10\n[[groups]]\nname = \"bank\"\nstrategy = { file "
      "= \"transfer.toml\" }\n" +
          std::string(extra) +
          "[[invariants]]\nname = \"total\"\nholds = \"sum(accounts, "
          "bank.balance[account]) == 150\"\n",
      dir + "/x.toml");
}

TEST_CASE("starting values: read, placed in the first state, written back") {
  const Result<Scenario> s = Transfer(
      "[initial.bank]\nbalance = { alice = 100, bob = 50 }\napplied = { t-2 "
      "= true }\n");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  const Config& c = s.value().config;
  CHECK(DomainValues(c, "account") ==
        std::vector<std::string>{"alice", "bob", "carol"});
  const OutboxModel m(c);
  const State first = m.InitialStates().front();
  // Tables in name order: applied (t-1, t-2), balance (alice, bob, carol).
  CHECK(std::vector<std::int16_t>(first.user.begin(), first.user.end()) ==
        std::vector<std::int16_t>{0, 1, 100, 50, 0});
  // The invariant reads every account, whichever attribute named it.
  InvariantExpression x;
  x.name = "total";
  x.text =
      "sum(accounts, bank.balance[account]) == 150 and "
      "all(events, bank.balance[event.to] >= 0)";
  ExpressionError error;
  REQUIRE_MESSAGE(CompileInvariantExpression(c, x, error), error.message);
  CHECK(x.Holds(m, first));
  State poorer = first;
  poorer.user[2] = 99;
  CHECK_FALSE(x.Holds(m, poorer));
  poorer.user[2] = 100;
  poorer.user[3] = 51;
  poorer.user[4] = -1;  // carol, the second event's `to`
  CHECK_FALSE(x.Holds(m, poorer));
  // The canonical form keeps them.
  const Result<Scenario> again =
      ParseScenario(FormatScenario(s.value()), OC_TEST_TMPDIR "/x.toml");
  REQUIRE_MESSAGE(again.ok(), again.status().message());
  CHECK(again.value().config == c);
}

TEST_CASE("starting values the tables cannot hold are refused where written") {
  CHECK(Transfer("[initial.bank]\nbalance = { alise = 1 }\n")
            .status()
            .message() ==
        std::string(OC_TEST_TMPDIR) +
            "/x.toml:16:21: initial.bank.balance.alise: no event has the "
            "account 'alise'; did you mean 'alice'?");
  CHECK(Transfer("[initial.bank]\nbalanse = { alice = 1 }\n")
            .status()
            .message() ==
        std::string(OC_TEST_TMPDIR) +
            "/x.toml:16:11: initial.bank.balanse: group 'bank' has no "
            "declared table 'balanse'; did you mean 'balance'?");
  CHECK(
      Transfer("[initial.bank]\napplied = { t-1 = 2 }\n").status().message() ==
      std::string(OC_TEST_TMPDIR) +
          "/x.toml:16:19: initial.bank.applied.t-1: 2 is out of range; a "
          "row starts present (true) or not (false)");
  CHECK(Transfer("[initial.bank]\nbalance = { alice = 40000 }\n")
            .status()
            .message() ==
        std::string(OC_TEST_TMPDIR) +
            "/x.toml:16:21: initial.bank.balance.alice: 40000 is out of "
            "range; a number cell holds -32768..32767");
  CHECK(Transfer("[initial.bnak]\nbalance = { alice = 1 }\n")
            .status()
            .message() ==
        std::string(OC_TEST_TMPDIR) +
            "/x.toml:15:10: initial.bnak: no group is named 'bnak'; groups "
            "are bank");
  CHECK(Transfer("[initial.bank]\nbalance = { alice = \"x\" }\n")
            .status()
            .message()
            .find("initial.bank.balance.alice: expected an integer (a "
                  "number) or a boolean (a row)") != std::string::npos);
  // The cell bound counts the starting value.
  CHECK(Transfer("[initial.bank]\nbalance = { alice = 32700 }\n")
            .status()
            .message()
            .find("could reach") != std::string::npos);
}

TEST_CASE("invariants over domains: what they range over and their slips") {
  const Result<Scenario> s =
      Transfer("[initial.bank]\nbalance = { alice = 100, bob = 50 }\n");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  const Config& c = s.value().config;
  const auto error = [&](std::string text) {
    InvariantExpression x;
    x.name = "x";
    x.text = std::move(text);
    ExpressionError e;
    return CompileInvariantExpression(c, x, e) ? std::string("(compiled)")
                                               : e.message;
  };
  CHECK(error("all(accounts, bank.balance[account] >= 0)") == "(compiled)");
  CHECK(error("all(events, event.from != event.to)") == "(compiled)");
  CHECK(error("bank.balance[\"carol\"] == 0") == "(compiled)");
  // An attribute of a domain is not a domain of its own.
  CHECK(error("all(froms, true)") ==
        "'all' ranges over events, keys, accounts, got 'froms'");
  CHECK(error("bank.balance[\"carl\"] == 0") ==
        "no event has account \"carl\"; did you mean 'carol'?");
  CHECK(error("all(events, bank.balance[event] == 0)") ==
        "'balance' is indexed by account: write [account] inside "
        "all(accounts, ...), [event.from or event.to] inside all(events, "
        "...), or a value in quotes");
}

TEST_CASE("one attribute holds values of one domain across the scenario") {
  const std::string dir = WriteTransferStrategy();
  // A second group's strategy reads `from` as a domain of its own.
  WriteWhole(dir + "/senders.toml",
             StrategyText("  [\"insert seen[event.from]\"],",
                          "[tables]\nseen = { kind = \"row\", by = "
                          "\"from\" }\n"));
  const Result<Scenario> s = ParseScenario(
      "relays = 1\n[[events]]\nfrom = \"a\"\nto = \"b\"\namount = "
      "1\n[[groups]]\nname = \"bank\"\nstrategy = { file = "
      "\"transfer.toml\" }\n[[groups]]\nname = \"audit\"\nstrategy = { "
      "file = \"senders.toml\" }\n[check]\ninvariants = "
      "[\"eventually_offered\"]\n",
      dir + "/x.toml");
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().message().find(
            "groups[2].strategy: s (senders.toml) reads event.from as a value "
            "of 'from', but another strategy of the scenario places 'from' in "
            "the domain 'account'") != std::string::npos);
}

}  // namespace
}  // namespace oc
