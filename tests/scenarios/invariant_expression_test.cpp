// Invariants written as expressions ([[invariants]]): their messages, their
// semantics on hand-built states, and, on every bundled scenario, the same
// verdicts and shortest traces as the built-in invariants they restate.

#include "invariants/invariant_expression.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "scenarios/scenario_check.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

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

// The built-in invariants restated as expressions, per group of their kind
// (G stands for the group's name); projection_converges and
// eventually_consumed are not restated.
struct Restated {
  std::string_view name;
  InvariantKind kind;
  std::optional<StrategyFamily> family;  // nullopt: about the outbox
  std::string_view holds;
};
constexpr Restated kRestated[] = {
    {"effect_at_most_once", InvariantKind::kSafety, StrategyFamily::kCredit,
     "all(events, G.effects[event] <= 1)"},
    {"stale_completion_rejected", InvariantKind::kSafety, std::nullopt,
     "all(events, not published[event] or completed_token[event] == "
     "token[event])"},
    {"projection_monotonic", InvariantKind::kTransition,
     StrategyFamily::kProjection,
     "all(keys, old(G.version[key]) <= G.version[key])"},
    {"notify_at_most_once", InvariantKind::kSafety,
     StrategyFamily::kNotification, "all(events, G.sent[event] <= 1)"},
    {"eventually_offered", InvariantKind::kAtRest, std::nullopt,
     "all(events, published[event] and offered[event] >= 1)"},
    {"notify_at_least_once", InvariantKind::kAtRest,
     StrategyFamily::kNotification, "all(events, G.sent[event] >= 1)"},
    {"cache_consistent", InvariantKind::kAtRest, StrategyFamily::kCache,
     "all(keys, G.cache[key])"},
};

TEST_CASE(
    "built-in invariants restated as expressions give the same verdicts and "
    "shortest traces on every bundled scenario") {
  std::vector<std::string> files;
  for (const char* folder : {"/scenarios/seed", "/scenarios/examples"}) {
    for (const auto& entry : std::filesystem::directory_iterator(
             std::string(OC_SOURCE_DIR) + folder)) {
      if (entry.path().extension() == ".toml") {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  int restated = 0;
  for (const std::string& file : files) {
    CAPTURE(file);
    const Result<Scenario> native = LoadScenario(file);
    REQUIRE(native.ok());
    Scenario declared = native.value();
    std::map<std::string, std::string> renamed;
    for (std::string& name : declared.invariants) {
      const auto r =
          std::find_if(std::begin(kRestated), std::end(kRestated),
                       [&](const Restated& x) { return x.name == name; });
      if (r == std::end(kRestated)) continue;
      std::string holds;
      if (!r->family) {
        holds = std::string(r->holds);
      } else {
        for (const Group& g : declared.config.groups) {
          if (FamilyOf(g) != *r->family) continue;
          std::string one(r->holds);
          for (std::size_t at; (at = one.find("G.")) != std::string::npos;) {
            one.replace(at, 1, g.name);
          }
          holds += (holds.empty() ? "(" : " and (") + one + ")";
        }
      }
      InvariantExpression x;
      x.name = "restated_" + name;
      x.kind = r->kind;
      x.text = holds;
      ExpressionError error;
      REQUIRE_MESSAGE(CompileInvariantExpression(declared.config, x, error),
                      error.message);
      renamed[name] = x.name;
      name = x.name;
      declared.expressions.push_back(std::move(x));
      ++restated;
    }
    for (std::string& v : declared.expect.violated) {
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
  CHECK(restated >= 40);
}

}  // namespace
}  // namespace oc
