// The limits of the expression language: how long, how deep and how
// nested an expression may be, and the 64-bit range every value is proved
// to stay within. A file past a limit is refused with its line and column;
// nothing is truncated or wrapped.

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "check/scenario_check.h"
#include "model/expression.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/strategy_loader.h"

namespace oc {
namespace {

const std::string kPath = "scenarios/x.toml";

// Two events with the given amounts, one consumer, and the declared
// invariant `mine` (line 10 of the file; its text starts at column 10).
std::string ScenarioWith(std::string_view amount1, std::string_view amount2,
                         std::string_view holds) {
  return "relays = 1\n"
         "[[events]]\nkey = \"k1\"\namount = " +
         std::string(amount1) +
         "\n"
         "[[events]]\nkey = \"k2\"\namount = " +
         std::string(amount2) +
         "\n"
         "[[invariants]]\nname = \"mine\"\nholds = \"" +
         std::string(holds) + "\"\n[expect]\nverdict = \"holds\"\n";
}

Result<Scenario> Parse(std::string_view text) {
  return ParseScenario(text, kPath);
}

std::string ErrorOf(std::string_view holds) {
  const Result<Scenario> s = Parse(ScenarioWith("1", "2", holds));
  return s.ok() ? "(loaded)" : s.status().message();
}

// The violated invariants of a complete search of `text`.
std::vector<std::string> Violated(std::string_view text) {
  const Result<Scenario> s = Parse(text);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  const Result<ScenarioResult> r = CheckScenario(s.value(), CheckOptions{});
  REQUIRE(r.ok());
  REQUIRE(r.value().exploration.complete());
  return r.value().ViolatedInvariants();
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST_CASE("a chain deeper than the evaluator may recurse is refused") {
  // 40,000 terms once overflowed a 16-bit node index.
  const std::string sum = "1" + Repeat(" + 1", 40'000) + " > 0";
  const std::string e = ErrorOf(sum);
  CHECK(e.find("scenarios/x.toml:10:") == 0);
  CHECK(e.find("more than 500 operations deep") != std::string::npos);
  // Up to the limit, a chain is fine and evaluates right.
  CHECK(
      Violated(ScenarioWith("1", "2", "1" + Repeat(" + 1", 400) + " == 401")) ==
      std::vector<std::string>{});
}

TEST_CASE("an expression of more nodes than the limit is refused") {
  // Twenty-five groups of 400 terms: shallow enough, too many nodes.
  std::string big = "0";
  for (int g = 0; g < 25; ++g) big += " + (1" + Repeat(" + 1", 399) + ")";
  const std::string e = ErrorOf(big + " > 0");
  CHECK(e.find("scenarios/x.toml:10:") == 0);
  CHECK(e.find("longer than 10000 operations and values") != std::string::npos);
}

// The unfenced stale-completion scenario (scenarios/seed/
// 2-stale-completion.unfenced.toml) checking `mutant`: the expression of
// the bundled stale_completion_rejected or-ed with itself `copies` times,
// as a balanced tree (so that it is shallow), declared as a transition
// invariant so that the point of no return evaluates it on every edge.
std::string StaleCompletionMutant(int copies) {
  const std::string once =
      "all(events, not published[event] or "
      "completed_token[event] == token[event])";
  struct Tree {
    const std::string& leaf;
    std::string Of(int n) const {
      if (n == 1) return leaf;
      return "(" + Of(n / 2) + ") or (" + Of(n - n / 2) + ")";
    }
  };
  return "relays = [\"A\", \"B\"]\nevents = 1\n"
         "[switches]\nfencing = false\n"
         "[faults]\npremature_expiries = 1\n"
         "[check]\ninvariants = [\"mutant\"]\n"
         "[[invariants]]\nname = \"mutant\"\nkind = \"transition\"\n"
         "holds = \"" +
         Tree{once}.Of(copies) +
         "\"\n"
         "[expect]\nverdict = \"violated\"\nviolated = \"mutant\"\n";
}

TEST_CASE(
    "a mutated stale_completion_rejected past the node limit is refused, "
    "and under it gives the point of no return of the unmutated one") {
  // 3,960 copies are 43,559 nodes. With 16-bit child indices the parser
  // once wrapped every index past 32,767 to a negative one (-21,979 for
  // one of these), and the evaluator took a "node" from far before the
  // node array: a wrong verdict, a crash, or, where that memory was a
  // buffer the search had freed before the point of no return evaluated
  // the invariant again, a heap use after free under AddressSanitizer.
  const Result<Scenario> big = Parse(StaleCompletionMutant(3'960));
  if (big.ok()) {
    // Not refused: check it anyway, so that a sanitizer build shows what
    // evaluating it does.
    CheckOptions options;
    options.threads = 1;
    (void)CheckScenario(big.value(), options);
  }
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().message().find("longer than 10000 operations and "
                                    "values") != std::string::npos);

  // Under the limit the copies change nothing: the same violation, trace
  // and point of no return (the stale completion, step 5) as one copy.
  auto check = [](int copies) {
    const Result<Scenario> s = Parse(StaleCompletionMutant(copies));
    REQUIRE_MESSAGE(s.ok(), s.status().message());
    CheckOptions options;
    options.threads = 1;
    Result<ScenarioResult> r = CheckScenario(s.value(), options);
    REQUIRE(r.ok());
    return std::move(r).value();
  };
  const ScenarioResult one = check(1);
  const ScenarioResult many = check(800);
  REQUIRE(one.exploration.violations.size() == 1);
  REQUIRE(many.exploration.violations.size() == 1);
  CHECK(many.exploration.violations[0].trace.actions ==
        one.exploration.violations[0].trace.actions);
  REQUIRE(one.points_of_no_return.size() == 1);
  REQUIRE(many.points_of_no_return.size() == 1);
  CHECK(one.points_of_no_return[0].step == std::size_t{5});
  CHECK(many.points_of_no_return[0].step == one.points_of_no_return[0].step);
  CHECK(many.points_of_no_return[0].safe_alternatives ==
        one.points_of_no_return[0].safe_alternatives);
}

TEST_CASE("nesting past the limit is an error, not a stack overflow") {
  for (const std::string& text :
       {Repeat("(", 100'000) + "true" + Repeat(")", 100'000),
        Repeat("not ", 100'000) + "true", Repeat("- ", 100'000) + "1 > 0",
        "all(events, " + Repeat("(", 100'000) + "true" +
            Repeat(")", 100'001)}) {
    const std::string e = ErrorOf(text);
    CAPTURE(e.substr(0, 200));
    CHECK(e.find("scenarios/x.toml:10:") == 0);
    CHECK(e.find("nested more than 100 levels deep") != std::string::npos);
  }
  // 100 levels are allowed.
  CHECK(ErrorOf(Repeat("(", 99) + "true" + Repeat(")", 99)) == "(loaded)");
}

TEST_CASE("arithmetic is 64-bit and can never overflow") {
  // Once computed in 32 bits: 10^12 wrapped.
  CHECK(Violated(ScenarioWith("1", "2", "1000000 * 1000000 > 0")) ==
        std::vector<std::string>{});
  CHECK(Violated(ScenarioWith("1", "2", "1000000 * 1000000 < 0")) ==
        std::vector<std::string>{"mine"});
  // Past 64 bits: refused where the operator is.
  CHECK(ErrorOf("1000000 * 1000000 * 1000000 * 1000000 > 0") ==
        "scenarios/x.toml:10:38: invariants[1].holds: '*' here can reach "
        "1000000000000000000000000, beyond the 64-bit integers expressions "
        "compute with");
  CHECK(ErrorOf("-1000000 * 1000000 * 1000000 * 1000000 < 0") ==
        "scenarios/x.toml:10:39: invariants[1].holds: '*' here can reach "
        "-1000000000000000000000000, beyond the 64-bit integers expressions "
        "compute with");
}

TEST_CASE("event amounts are read whole, and sums of them checked") {
  // 2 * 2,000,000,000 once wrapped to a negative sum.
  CHECK(Violated(ScenarioWith("2000000000", "2000000000",
                              "sum(events, event.amount) == "
                              "4000 * 1000000")) == std::vector<std::string>{});
  // 4294967297 once read as 1.
  CHECK(Violated(ScenarioWith("4294967297", "1",
                              "any(events, event.amount > 1000000)")) ==
        std::vector<std::string>{});
  // Amounts near the 64-bit limit: reading one is fine, summing two could
  // overflow, so the file is refused at the aggregate.
  const std::string big = "9223372036854775807";
  CHECK(
      Violated(ScenarioWith(big, "1", "any(events, event.amount > 1000000)")) ==
      std::vector<std::string>{});
  const Result<Scenario> s =
      Parse(ScenarioWith(big, "1", "sum(events, event.amount) > 0"));
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().message() ==
        "scenarios/x.toml:10:10: invariants[1].holds: 'sum' here can reach "
        "18446744073709551614 over 2 members, beyond the 64-bit integers "
        "expressions compute with");
}

TEST_CASE("a strategy's integer local holds 16 bits, proved at load") {
  const auto error_of = [](std::string_view steps) {
    const std::string text =
        "name = \"s\"\nsteps = [\n" + std::string(steps) +
        "\n]\n[tables]\npoints = { kind = \"number\", by = \"event\" }\n";
    Result<HandlerProgram> p =
        ParseStrategyFile(text, "strategies/s.toml", "strategies/s.toml");
    return p.ok() ? std::string("(loaded)") : p.status().message();
  };
  CHECK(error_of("  [\"n = event.amount * 3\", \"points[event] += 1\"],") ==
        "(loaded)");
  const std::string e = error_of(
      "  [\"n = event.amount * event.amount\", \"points[event] += "
      "1\"],");
  CAPTURE(e);
  CHECK(e.find("local 'n' could be set to -100000000; an integer local "
               "holds -32768..32767") != std::string::npos);
  CHECK(e.find("strategies/s.toml:3:") == 0);
  // A statement nests no deeper than an invariant.
  const std::string nested =
      error_of("  [\"if " + Repeat("(", 100'000) + "true" +
               Repeat(")", 100'000) + ": points[event] += 1\"],");
  CHECK(nested.find("nested more than 100 levels deep") != std::string::npos);
}

}  // namespace
}  // namespace oc
