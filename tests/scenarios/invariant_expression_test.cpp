// Invariants written as expressions ([[invariants]]): their messages, their
// semantics on hand-built states, and, on every bundled scenario, the same
// verdicts and shortest traces as the built-in invariants they restate.

#include "invariants/invariant_expression.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"
#include "scenarios/strategy_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

const std::string kHead =
    "relays = 1\n"
    "[[events]]\nkey = \"k1\"\nversion = 2\n"
    "[[events]]\nkey = \"k1\"\nversion = 3\n"
    "[[groups]]\nname = \"billing\"\nstrategy = \"credit.inbox\"\n"
    "[[groups]]\nname = \"view\"\nstrategy = \"projection.monotonic\"\n";

std::string ErrorOf(std::string_view kind, std::string_view holds) {
  const std::string text = kHead +
                           "[check]\ninvariants = [\"mine\"]\n[expect]\n"
                           "verdict = \"holds\"\n[[invariants]]\nname = "
                           "\"mine\"\nkind = \"" +
                           std::string(kind) + "\"\nholds = \"" +
                           std::string(holds) + "\"\n";
  const Result<Scenario> s = ParseScenario(text, "scenarios/x.toml");
  return s.ok() ? "(loaded)" : s.status().message();
}

TEST_CASE("expression errors name the field, line and column, with a hint") {
  // `holds = "` is 9 characters: the expression starts at column 10 of
  // line 21.
  CHECK(ErrorOf("safety", "all(events, billing.efects[event] <= 1)") ==
        "scenarios/x.toml:21:22: invariants[1].holds: unknown table 'efects' "
        "of group 'billing'; did you mean 'effects'?");
  CHECK(ErrorOf("safety", "all(events, biling.effects[event] <= 1)") ==
        "scenarios/x.toml:21:22: invariants[1].holds: unknown group "
        "'biling'; did you mean 'billing'?");
  CHECK(ErrorOf("safety", "count(events) + 'x' > 0") ==
        "scenarios/x.toml:21:24: invariants[1].holds: '+' needs integers on "
        "both sides; its right side is a string");
  CHECK(ErrorOf("safety", "billing.effects[event] <= 1") ==
        "scenarios/x.toml:21:26: invariants[1].holds: 'effects' is indexed by "
        "an event: write [event] inside an aggregate over events, such as "
        "all(events, ...), got 'event'");
  CHECK(ErrorOf("safety", "sum(events, billing.effects[event])") ==
        "scenarios/x.toml:21:10: invariants[1].holds: an invariant must be a "
        "boolean, got an integer; compare it, e.g. '... <= 1'");
  CHECK(ErrorOf("safety", "all(keys, old(view.version[key]) <= 1)") ==
        "scenarios/x.toml:21:20: invariants[1].holds: old(...) is only for "
        "kind = \"transition\", which compares the state before a step with "
        "the state after");
  CHECK(ErrorOf("always", "true") ==
        "scenarios/x.toml:20:8: invariants[1].kind: unknown kind 'always'; "
        "kinds are safety, transition, at_rest");
}

TEST_CASE("an expression invariant is listed by name and printed back") {
  const std::string text =
      kHead +
      "[check]\ninvariants = [\"mine\"]\n[expect]\nverdict = \"holds\"\n"
      "[[invariants]]\nname = \"mine\"\nkind = \"transition\"\nholds = "
      "\"all(keys, old(view.version[key]) <= view.version[key])\"\n";
  const Result<Scenario> s = ParseScenario(text, "scenarios/x.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  REQUIRE(s.value().expressions.size() == 1);
  CHECK(s.value().expressions[0].kind == InvariantKind::kTransition);
  const Result<Scenario> again =
      ParseScenario(FormatScenario(s.value()), "scenarios/x.toml");
  REQUIRE_MESSAGE(again.ok(), again.status().message());
  CHECK(again.value().expressions == s.value().expressions);
  CHECK(again.value().invariants == s.value().invariants);
}

TEST_CASE("aggregates, cells and old() evaluate on hand-built states") {
  const Result<Scenario> s = ParseScenario(
      kHead +
          "[check]\ninvariants = [\"eventually_offered\"]\n[expect]\n"
          "verdict = \"holds\"\n",
      "scenarios/x.toml");
  REQUIRE(s.ok());
  const OutboxModel model(s.value().config);
  State a = model.InitialStates().front();
  a.group_events[0].effects = 2;  // billing, e1
  a.group_events[1].effects = 1;  // billing, e2
  a.group_events[1].inbox = 1;
  a.events[1].published = 1;
  a.group_keys[1].version = 3;  // view, k1
  State b = a;
  b.group_keys[1].version = 2;
  auto eval = [&](InvariantKind kind, std::string text) {
    InvariantExpression x;
    x.kind = kind;
    x.text = std::move(text);
    ExpressionError error;
    REQUIRE_MESSAGE(CompileInvariantExpression(model.config(), x, error),
                    error.message);
    return kind == InvariantKind::kTransition ? x.HoldsOn(model, a, b)
                                              : x.Holds(model, a);
  };
  const InvariantKind safety = InvariantKind::kSafety;
  CHECK(eval(safety, "sum(events, billing.effects[event]) == 3"));
  CHECK(eval(safety, "max(events, billing.effects[event]) == 2"));
  CHECK(eval(safety, "count(events, billing.inbox[event]) == 1"));
  CHECK(eval(safety, "count(events) == 2 and count(keys) == 1"));
  CHECK(eval(safety, "any(events, published[event])"));
  CHECK_FALSE(eval(safety, "all(events, published[event])"));
  CHECK_FALSE(eval(safety, "all(events, billing.effects[event] <= 1)"));
  CHECK(eval(safety, "all(events, view.version[event.key] >= event.version)"));
  CHECK(eval(safety, "all(keys, view.version[key] * 2 - 1 == 5)"));
  CHECK_FALSE(eval(InvariantKind::kTransition,
                   "all(keys, old(view.version[key]) <= view.version[key])"));
}

// A config with a loyalty group whose declared strategy keeps `awarded`
// (a row per event) and `points` (a number per account), and three events
// of two accounts.
Config LoyaltyConfig() {
  const Result<Scenario> s = ParseScenario(
      "relays = 1\n"
      "[[events]]\nname = \"o1\"\naccount = \"acct-1\"\namount = 10\n"
      "[[events]]\nname = \"o2\"\naccount = \"acct-1\"\namount = 10\n"
      "[[events]]\nname = \"o3\"\naccount = \"acct-2\"\namount = 5\n"
      "[[groups]]\nname = \"billing\"\nstrategy = \"credit.inbox\"\n"
      "[[groups]]\nname = \"loyalty\"\nstrategy = \"credit.naive\"\n"
      "[check]\ninvariants = [\"eventually_offered\"]\n[expect]\n"
      "verdict = \"holds\"\n",
      "scenarios/x.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  Config config = s.value().config;
  const Result<HandlerProgram> p = ParseStrategyFile(
      "name = \"loyalty\"\nsteps = [[\"new = insert awarded[event]\", \"if "
      "new: points[event.account] += event.amount\"]]\n[tables]\nawarded = { "
      "kind = \"row\", by = \"event\" }\npoints = { kind = \"number\", by = "
      "\"account\" }\n",
      "loyalty.toml", "loyalty.toml");
  REQUIRE_MESSAGE(p.ok(), p.status().message());
  config.groups[1].strategy = Strategy::kDeclared;
  config.groups[1].declared = p.value();
  REQUIRE(Validate(config).ok());
  return config;
}

TEST_CASE(
    "declared tables, attribute domains, filters, quoted values and "
    "per-group checks evaluate on hand-built states") {
  const OutboxModel model(LoyaltyConfig());
  // Cells of State::user: awarded o1 o2 o3, then points acct-1 acct-2.
  State a = model.InitialStates().front();
  REQUIRE(a.user.size() == 5);
  a.user[0] = a.user[1] = 1;  // o1 and o2 awarded
  a.user[3] = 20;             // acct-1
  a.events[0].published = 1;
  auto eval = [&](std::string text, std::vector<std::string> groups = {}) {
    InvariantExpression x;
    x.text = std::move(text);
    x.groups = std::move(groups);
    ExpressionError error;
    REQUIRE_MESSAGE(CompileInvariantExpression(model.config(), x, error),
                    error.message);
    return x.Holds(model, a);
  };
  CHECK(
      eval("all(accounts, loyalty.points[account] == 10 * count(events "
           "where event.account == account and loyalty.awarded[event]))"));
  CHECK(
      eval("loyalty.points[\"acct-1\"] == 20 and "
           "loyalty.points['acct-2'] == 0"));
  CHECK(eval("published[\"o1\"] and not published[\"o2\"]"));
  CHECK(
      eval("sum(events where event.account == \"acct-1\", event.amount) == "
           "20"));
  CHECK(eval("count(events where not loyalty.awarded[event]) == 1"));
  CHECK(
      eval("max(events where event.account == 'acct-2', event.amount) == "
           "5"));
  CHECK(eval("all(events, loyalty.points[event.account] >= 0)"));
  CHECK_FALSE(
      eval("all(accounts, loyalty.points[account] == sum(events where "
           "event.account == account, event.amount))"));  // o3 not yet
  // Per group: unqualified tables are the group's, group facts its kind.
  CHECK(eval("all(accounts, points[account] <= 20)", {"custom"}));
  CHECK(eval("group.custom and not group.inbox", {"loyalty"}));
  CHECK(eval("group.credit and group.inbox", {"billing"}));
  CHECK_FALSE(eval("group.credit", {"all"}));  // loyalty is custom
  CHECK(eval("all(events, effects[event] == 0)", {"credit"}));
}

std::string CompileError(std::string text, std::vector<std::string> groups) {
  const Config config = LoyaltyConfig();
  InvariantExpression x;
  x.text = std::move(text);
  x.groups = std::move(groups);
  ExpressionError error;
  if (CompileInvariantExpression(config, x, error)) return "(compiled)";
  return fmt::format("{}: {}", error.offset, error.message);
}

TEST_CASE("declared tables and domains: errors with their position") {
  CHECK(CompileError("all(acounts, true)", {}) ==
        "4: 'all' ranges over events, keys, accounts, got 'acounts'");
  CHECK(CompileError("loyalty.points[\"acct-9\"] == 0", {}) ==
        "15: no event has account \"acct-9\"; did you mean 'acct-1'?");
  CHECK(CompileError("all(events, loyalty.points[event] == 0)", {}) ==
        "27: 'points' is indexed by account: write [account] inside "
        "all(accounts, ...), [event.account] inside all(events, ...), or a "
        "value in quotes");
  CHECK(CompileError("all(events, loyalty.pionts[event.account] == 0)", {}) ==
        "12: unknown table 'pionts' of group 'loyalty'; did you mean "
        "'points'?");
  CHECK(CompileError("all(events, event.acount == event.account)", {}) ==
        "12: no event has the attribute 'acount'; events carry key, account, "
        "version, amount and attributes of their own");
  CHECK(CompileError("group.inbox", {}) ==
        "0: 'group.inbox' is about the group an invariant is checked for; "
        "set groups = \"all\" (or a kind, or names) to check it per group");
  CHECK(CompileError("true", {"credt"}) ==
        "-1: 'credt' is neither a group of this scenario nor a kind of "
        "group; did you mean 'credit'?");
  CHECK(CompileError("all(accounts, all(events, event.account == account or "
                     "event.amount == account))",
                     {}) ==
        "67: '==' needs integers on both sides; its right side is a string");
}

// The built-in invariants as the bundled definitions in scenarios/invariants/
// state them: on every bundled scenario, checking the definitions instead of
// the native invariants gives the same outcome, state counts, violated
// properties and shortest traces.
TEST_CASE(
    "the bundled definitions of the built-in invariants give the native "
    "verdicts and shortest traces on every bundled scenario") {
  int restated = 0;
  std::set<std::string> names;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    CAPTURE(file);
    const Result<Scenario> native = LoadScenario(file);
    REQUIRE(native.ok());
    Scenario declared = native.value();
    std::map<std::string, std::string> renamed;
    for (std::string& name : declared.invariants) {
      if (FindInvariant(name) == nullptr) continue;  // already an expression
      Result<InvariantExpression> x =
          LoadInvariantDefinition(std::string(OC_SOURCE_DIR) +
                                      "/scenarios/invariants/" + name + ".toml",
                                  declared.config);
      REQUIRE_MESSAGE(x.ok(), x.status().message());
      names.insert(name);
      x.value().name = "declared_" + name;
      renamed[name] = x.value().name;
      name = x.value().name;
      declared.expressions.push_back(std::move(x).value());
      ++restated;
    }
    for (std::string& v : declared.expect->violated) {
      if (renamed.count(v)) v = renamed[v];
    }
    CheckOptions options;
    options.threads = 2;
    const Result<ScenarioResult> a = CheckScenario(native.value(), options);
    const Result<ScenarioResult> b = CheckScenario(declared, options);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(b.value().outcome == a.value().outcome);
    const Exploration& x = a.value().exploration;
    const Exploration& y = b.value().exploration;
    CHECK(x.stats.states == y.stats.states);
    REQUIRE(x.violations.size() == y.violations.size());
    for (std::size_t i = 0; i < x.violations.size(); ++i) {
      const std::string& p = x.violations[i].property;
      CHECK((renamed.count(p) ? renamed[p] : p) == y.violations[i].property);
      CHECK(x.violations[i].trace.actions == y.violations[i].trace.actions);
    }
  }
  CHECK(restated >= 100);
  // Every built-in has a definition, and the bundled scenarios use each.
  for (const Invariant& inv : AllInvariants()) {
    CAPTURE(inv.name);
    CHECK(names.count(std::string(inv.name)) == 1);
  }
}

}  // namespace
}  // namespace oc
