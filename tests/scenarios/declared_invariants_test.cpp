// Which invariants a scenario checks: every invariant declared in
// [[invariants]] is checked whether check.invariants lists it or not,
// unless its block says `check = false`, and every output says which were
// not checked.

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "check/scenario_check.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/text_report.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

const std::string kPath = "scenarios/x.toml";

// A naive credit consumer behind two relays and one premature expiry: the
// lease-expiry-after-send order credits the event twice, which the
// declared `credited_once` sees.
const std::string kNaive =
    "relays = 2\nevents = 1\n"
    "[[groups]]\nname = \"billing\"\nstrategy = \"credit.naive\"\n"
    "[faults]\npremature_expiries = 1\n";

const std::string kCreditedOnce =
    "[[invariants]]\nname = \"credited_once\"\n"
    "holds = \"all(events, billing.effects[event] <= 1)\"\n";

Result<Scenario> Parse(std::string_view text) {
  return ParseScenario(text, kPath);
}

std::string ErrorOf(std::string_view text) {
  const Result<Scenario> r = Parse(text);
  return r.ok() ? std::string("(loaded)") : r.status().message();
}

ScenarioResult Check(std::string_view text) {
  Result<Scenario> s = Parse(text);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  CheckOptions options;
  options.threads = 1;
  Result<ScenarioResult> r = CheckScenario(s.value(), options);
  REQUIRE(r.ok());
  return std::move(r).value();
}

TEST_CASE(
    "a declared invariant that check.invariants does not list is "
    "still checked") {
  // The consumer is broken; before, an unlisted declaration was skipped
  // and this scenario passed with "holds".
  const ScenarioResult r =
      Check(kNaive + "[check]\ninvariants = [\"eventually_offered\"]\n" +
            "[expect]\nverdict = \"holds\"\n" + kCreditedOnce);
  CHECK(r.scenario.invariants ==
        std::vector<std::string>{"eventually_offered", "credited_once"});
  CHECK(r.ViolatedInvariants() == std::vector<std::string>{"credited_once"});
  CHECK(r.outcome == Outcome::kUnexpected);
}

TEST_CASE(
    "listed invariants keep their order and unlisted declared ones "
    "follow in declaration order") {
  const Scenario s =
      Parse(kNaive +
            "[check]\ninvariants = [\"second\", \"effect_at_most_once\"]\n" +
            "[expect]\nverdict = \"holds\"\n" + kCreditedOnce +
            "[[invariants]]\nname = \"second\"\nholds = \"true\"\n" +
            "[[invariants]]\nname = \"third\"\nholds = \"true\"\n")
          .value();
  CHECK(s.invariants == std::vector<std::string>{"second",
                                                 "effect_at_most_once",
                                                 "credited_once", "third"});
  CHECK(s.unchecked.empty());
}

TEST_CASE(
    "each checked invariant keeps the line that names it: its "
    "check.invariants element, else its [[invariants]] name") {
  // Lines: 1-7 kNaive, 8 [check], 9-11 the list, 12-13 [expect], 14-16 a
  // listed declaration, 17-20 an unlisted one, named on line 19.
  const Scenario s =
      Parse(kNaive + "[check]\ninvariants = [\n  \"second\",\n" +
            "  \"effect_at_most_once\"]\n" + "[expect]\nverdict = \"holds\"\n" +
            "[[invariants]]\nname = \"second\"\nholds = \"true\"\n" +
            "[[invariants]]\n\nname = \"third\"\nholds = \"true\"\n")
          .value();
  REQUIRE(s.invariants ==
          std::vector<std::string>{"second", "effect_at_most_once", "third"});
  REQUIRE(s.invariant_positions.size() == 3);
  CHECK(s.invariant_positions[0].line == 10);
  CHECK(s.invariant_positions[0].column == 3);
  CHECK(s.invariant_positions[1].line == 11);
  CHECK(s.invariant_positions[2].line == 19);
}

TEST_CASE(
    "[check] may be left out when declared invariants say what to "
    "check") {
  const ScenarioResult r = Check(kNaive +
                                 "[expect]\nverdict = \"violated\"\nviolated = "
                                 "\"credited_once\"\n" +
                                 kCreditedOnce);
  CHECK(r.scenario.invariants == std::vector<std::string>{"credited_once"});
  CHECK(r.outcome == Outcome::kAsExpected);
  CHECK(r.exploration.violations.front().trace.length() ==
        8);  // the lease-expiry-after-send order
}

TEST_CASE(
    "check = false keeps a declaration unchecked, and the text report "
    "says so") {
  const ScenarioResult r = Check(
      kNaive + "[check]\ninvariants = [\"eventually_offered\"]\n" +
      "[expect]\nverdict = \"holds\"\n" + kCreditedOnce + "check = false\n");
  CHECK(r.scenario.invariants ==
        std::vector<std::string>{"eventually_offered"});
  CHECK(r.scenario.unchecked == std::vector<std::string>{"credited_once"});
  CHECK(r.outcome == Outcome::kAsExpected);
  const std::string text = reports::FormatResult(r, {});
  CHECK(text.find("  checked:   eventually_offered\n") != std::string::npos);
  CHECK(text.find("  unchecked: credited_once (check = false)\n") !=
        std::string::npos);
  // The other formats say it too.
  CHECK(reports::MarkdownReport(r, {}).find(
            "| Not checked (check = false) | `credited_once` |") !=
        std::string::npos);
  CHECK(reports::HtmlReport(r, {}).find(
            "<tr><td><code>credited_once</code></td><td><span class=\"badge "
            "warn\">not checked</span>") != std::string::npos);
  CHECK(reports::JsonReport(r, {}).find(
            "\"unchecked\": [\n      \"credited_once\"\n    ]") !=
        std::string::npos);
}

TEST_CASE("check = false survives the round trip through the writer") {
  const Scenario s =
      Parse(kNaive + "[check]\ninvariants = [\"eventually_offered\"]\n" +
            "[expect]\nverdict = \"holds\"\n" + kCreditedOnce +
            "check = false\n")
          .value();
  const Scenario again = Parse(FormatScenario(s)).value();
  CHECK(again.invariants == s.invariants);
  CHECK(again.unchecked == s.unchecked);
  CHECK(FormatScenario(again) == FormatScenario(s));
}

TEST_CASE("errors about checked and unchecked declared invariants") {
  const std::string expect = "[expect]\nverdict = \"holds\"\n";
  // Listed and switched off at once.
  CHECK(ErrorOf(kNaive + "[check]\ninvariants = [\"credited_once\"]\n" +
                expect + kCreditedOnce + "check = false\n") ==
        "scenarios/x.toml:9:15: check.invariants[1]: 'credited_once' is "
        "listed, but its [[invariants]] block says check = false; remove one "
        "of the two");
  // Nothing left to check.
  CHECK(ErrorOf(kNaive + expect + kCreditedOnce + "check = false\n") ==
        "scenarios/x.toml: check.invariants: missing; expected a non-empty "
        "array of invariant names");
  // Expected violated, but not checked.
  CHECK(ErrorOf(kNaive + "[check]\ninvariants = [\"eventually_offered\"]\n" +
                "[expect]\nverdict = \"violated\"\nviolated = "
                "\"credited_once\"\n" +
                kCreditedOnce + "check = false\n") ==
        "scenarios/x.toml:12:12: expect.violated: 'credited_once' is declared "
        "with check = false, so it is not checked");
  // Not a boolean.
  CHECK(ErrorOf(kNaive + expect + kCreditedOnce + "check = \"no\"\n") ==
        "scenarios/x.toml:13:9: invariants[1].check: expected a boolean, got "
        "a string");
}

TEST_CASE("an unknown invariant's hint includes the scenario's own") {
  CHECK(ErrorOf(kNaive + "[check]\ninvariants = [\"credited_onse\"]\n" +
                "[expect]\nverdict = \"holds\"\n" + kCreditedOnce) ==
        "scenarios/x.toml:9:15: check.invariants[1]: unknown invariant "
        "'credited_onse'; did you mean 'credited_once'?");
  const std::string far =
      ErrorOf(kNaive + "[check]\ninvariants = [\"zzz\"]\n" +
              "[expect]\nverdict = \"holds\"\n" + kCreditedOnce);
  CHECK(far.find("unknown invariant 'zzz'; invariants are ") !=
        std::string::npos);
  CHECK(far.find(", credited_once") != std::string::npos);
}

TEST_CASE(
    "an unknown invariant's message offers and lists every declared one, "
    "however late in the file it is declared") {
  // Both declarations come after [check] and [expect].
  const std::string declared =
      kCreditedOnce +
      "[[invariants]]\nname = \"credited_at_least_once\"\nkind = "
      "\"at_rest\"\nholds = \"all(events, billing.effects[event] >= 1)\"\n";
  const std::string head = kNaive + "[check]\ninvariants = [";
  const std::string tail = "]\n[expect]\nverdict = \"holds\"\n" + declared;
  CHECK(ErrorOf(head + "\"credited_at_lest_once\"" + tail) ==
        "scenarios/x.toml:9:15: check.invariants[1]: unknown invariant "
        "'credited_at_lest_once'; did you mean 'credited_at_least_once'?");
  CHECK(ErrorOf(head + "\"liveness\"" + tail) ==
        "scenarios/x.toml:9:15: check.invariants[1]: unknown invariant "
        "'liveness'; invariants are effect_at_most_once, "
        "stale_completion_rejected, projection_monotonic, "
        "notify_at_most_once, offered_at_most_once, eventually_offered, "
        "eventually_consumed, projection_converges, notify_at_least_once, "
        "cache_consistent, applied_in_key_order, no_offset_skipped, "
        "committed_by_owner, credited_once, credited_at_least_once");
}

}  // namespace
}  // namespace oc
