// Rewriting a scenario file's [expect] table as text: the table says the
// new expectation, everything else stays byte for byte.

#include "scenarios/expect_table_rewrite.h"

#include <doctest/doctest.h>

#include <string>

#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

// A scenario up to and including [check], with comments.
const std::string kHead = R"toml(# A naive consumer and a lost acknowledgement.
relays = ["A"]   # one relay
events = 1

[[groups]]
name = "billing"
strategy = "credit.naive"

[faults]
lost_consumer_acks = 1

[check]
invariants = ["effect_at_most_once", "eventually_offered"]
)toml";

Expectation Violated() {
  Expectation e;
  e.verdict = Verdict::kViolated;
  e.violated = {"effect_at_most_once"};
  e.trace_length = 5;
  e.states = 14;
  return e;
}

Expectation Holds(std::uint64_t states) {
  Expectation e;
  e.states = states;
  return e;
}

std::string Rewrite(const std::string& text, const Expectation& e) {
  const Result<std::string> out = RewriteExpectTable(text, "x.toml", e);
  REQUIRE_MESSAGE(out.ok(), out.status().message());
  // Whatever the edit, the result is a scenario with that expectation.
  const Result<Scenario> s = ParseScenario(out.value(), "x.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  REQUIRE(s.value().expect.has_value());
  CHECK(s.value().expect->verdict == e.verdict);
  CHECK(s.value().expect->trace_length == e.trace_length);
  CHECK(s.value().expect->states == e.states);
  return out.value();
}

TEST_CASE("without [expect], a table is appended after a blank line") {
  CHECK(Rewrite(kHead, Violated()) == kHead + R"toml(
[expect]
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 5
states = 14
)toml");
  // A file ending without a newline, or with a blank line, gets one blank
  // line before the table.
  std::string unterminated = kHead;
  unterminated.pop_back();
  CHECK(Rewrite(unterminated, Holds(14)) ==
        kHead + "\n[expect]\nverdict = \"holds\"\nstates = 14\n");
  CHECK(Rewrite(kHead + "\n", Holds(14)) ==
        kHead + "\n[expect]\nverdict = \"holds\"\nstates = 14\n");
}

TEST_CASE("a key that already says the same is kept as written") {
  const std::string text = kHead + R"toml(
[expect]
verdict = 'violated'   # as found in review
violated = [ "effect_at_most_once" ]
trace_length = 5
states = 14
)toml";
  CHECK(Rewrite(text, Violated()) == text);
}

TEST_CASE("a changed key keeps its indentation and trailing comment") {
  const std::string text = kHead + R"toml(
# What the author believed.
[expect]  # before the review
# The verdict:
  verdict = "holds"   # hopeful
  states = 3 # a guess

# Declared after the expectation.
[[invariants]]
name = "at_most_twice"
holds = "all(events, billing.effects[event] <= 2)"
)toml";
  Expectation e = Violated();
  CHECK(Rewrite(text, e) == kHead + R"toml(
# What the author believed.
[expect]  # before the review
# The verdict:
  verdict = "violated"   # hopeful
  violated = "effect_at_most_once"
  trace_length = 5
  states = 14 # a guess

# Declared after the expectation.
[[invariants]]
name = "at_most_twice"
holds = "all(events, billing.effects[event] <= 2)"
)toml");
}

TEST_CASE("a key the new table has no place for goes with its comments") {
  const std::string text = kHead + R"toml(
[expect]
verdict = "violated"
# Only the credit invariant breaks,
# the other holds.
violated = [
  "effect_at_most_once",
]
trace_length = 5  # shortest
states = 14
)toml";
  CHECK(Rewrite(text, Holds(12)) == kHead + R"toml(
[expect]
verdict = "holds"
states = 12
)toml");
}

TEST_CASE("several violated invariants are one array, any order kept") {
  Expectation e = Violated();
  e.violated = {"effect_at_most_once", "eventually_offered"};
  const std::string appended = Rewrite(kHead, e);
  CHECK(appended.find("violated = [\"effect_at_most_once\", "
                      "\"eventually_offered\"]\n") != std::string::npos);
  const std::string reversed = kHead + R"toml(
[expect]
verdict = "violated"
violated = ["eventually_offered", "effect_at_most_once"]
trace_length = 5
states = 14
)toml";
  CHECK(Rewrite(reversed, e) == reversed);
}

TEST_CASE("missing keys go after the nearest key before them") {
  const std::string text = kHead + R"toml(
[expect]
states = 14
verdict = "holds"
)toml";
  CHECK(Rewrite(text, Violated()) == kHead + R"toml(
[expect]
states = 14
verdict = "violated"
violated = "effect_at_most_once"
trace_length = 5
)toml");
}

TEST_CASE("an unknown key in [expect] is removed") {
  const std::string text =
      kHead + "\n[expect]\nverdict = \"holds\"\nsteps = 3  # what?\n";
  CHECK(Rewrite(text, Holds(14)) ==
        kHead + "\n[expect]\nverdict = \"holds\"\nstates = 14\n");
}

TEST_CASE("dotted expect keys at the top are replaced by a table") {
  const std::string text =
      "expect.verdict = \"holds\"  # dotted\n" + kHead +
      "expect_not = 1\n";  // a key of [check], which stays (and is wrong)
  const Result<std::string> out = RewriteExpectTable(text, "x.toml", Holds(14));
  REQUIRE(out.ok());
  CHECK(out.value() == kHead + "expect_not = 1\n" +
                           "\n[expect]\nverdict = \"holds\"\nstates = 14\n");
}

TEST_CASE("an inline expect table is replaced by a table") {
  const std::string text =
      "relays = [\"A\"]\nevents = 1\nexpect = { verdict "
      "= \"holds\" }\n[check]\ninvariants = "
      "[\"eventually_offered\"]\n";
  CHECK(Rewrite(text, Holds(8)) ==
        "relays = [\"A\"]\nevents = 1\n[check]\ninvariants = "
        "[\"eventually_offered\"]\n\n[expect]\nverdict = \"holds\"\nstates = "
        "8\n");
}

TEST_CASE("new lines end as the file's lines do") {
  std::string crlf;
  for (char c : kHead) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const std::string text = crlf + "[expect]\r\nverdict = \"holds\"\r\n";
  CHECK(Rewrite(text, Violated()) ==
        crlf +
            "[expect]\r\nverdict = \"violated\"\r\nviolated = "
            "\"effect_at_most_once\"\r\ntrace_length = 5\r\nstates = 14\r\n");
}

TEST_CASE("columns after non-ASCII text are counted in code points") {
  const std::string text =
      kHead + "\n[expect]\nverdict = \"holds\" # \xc3\xa9t\xc3\xa9\n";
  CHECK(Rewrite(text, Violated())
            .find("verdict = \"violated\" # \xc3\xa9t\xc3\xa9\n") !=
        std::string::npos);
  const std::string quoted = kHead + "\n[expect]\n\"verdict\" = \"holds\"\n";
  CHECK(Rewrite(quoted, Holds(14)) ==
        kHead + "\n[expect]\n\"verdict\" = \"holds\"\nstates = 14\n");
}

TEST_CASE("a sub-table of [expect] is refused, at its key") {
  const std::string text =
      kHead + "\n[expect]\nverdict = \"holds\"\n" + "extra.note = \"x\"\n";
  const Result<std::string> out = RewriteExpectTable(text, "x.toml", Holds(14));
  REQUIRE_FALSE(out.ok());
  CHECK(out.status().message() ==
        "x.toml:17:1: expect.extra: --bless rewrites only an [expect] table "
        "of plain keys; remove this key (no scenario has it) and bless "
        "again");
}

TEST_CASE("text that is not TOML is refused with the parser's position") {
  const Result<std::string> out =
      RewriteExpectTable("relays = [\n", "x.toml", Holds(1));
  REQUIRE_FALSE(out.ok());
  CHECK(out.status().message().rfind("x.toml:", 0) == 0);
  CHECK(out.status().message().find("invalid TOML") != std::string::npos);
}

}  // namespace
}  // namespace oc
