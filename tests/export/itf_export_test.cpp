// The ITF export of a counterexample: its layout, the states of the trace
// as cells, integers as {"#bigint": ...}. That every file of a run parses
// and matches the JSON report is tests/cli/itf_output.sh.

#include "export/itf_export.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/reports/writer_fixtures.h"

namespace oc::exports {
namespace {

using reports::testing::Contains;
using reports::testing::Count;
using reports::testing::Lasso;
using reports::testing::PinnedViolated;
using reports::testing::Violated;

TEST_CASE("an ITF trace has the initial state and one state per step") {
  const ScenarioResult r = Violated();
  REQUIRE(r.exploration.violations.size() == 1);
  const std::string itf = ItfTrace(r, 0);
  CHECK(itf.rfind("{\n  \"#meta\": {\n    \"format\": \"ITF\",\n", 0) == 0);
  CHECK(Contains(itf, "\"invariant\": \"effect_at_most_once\""));
  CHECK(Contains(itf, "\"search\": \"exhaustive\""));
  CHECK(Contains(itf, "\"length\": 8\n"));
  CHECK(Count(itf, "\"index\": ") == 9);
  CHECK(Contains(itf, "\"index\": 8,\n"));
  CHECK(Count(itf, "\"action\": ") == 8);
  CHECK(Contains(itf,
                 "\"action\": \"claim(A, e1)\",\n"
                 "        \"detail\": \"token 1\",\n"
                 "        \"step\": \"claim e1 (token 1)\"\n"));
  // One name per variable in `vars`, then once in each of the 9 states.
  CHECK(Count(itf, "\"outbox[e1].owner\"") == 10);
  // An integer cell in every state is an ITF integer; any other a string.
  CHECK(
      Contains(itf, "\"billing.effects[e1]\": {\n        \"#bigint\": \"2\""));
  CHECK(Contains(itf, "\"outbox[e1].owner\": \"-\""));
  CHECK(Contains(itf, "\"relay[A]\": \"claimed(e1, token 1)\""));
}

TEST_CASE("a pinned order's violation is an ITF trace up to where it broke") {
  const ScenarioResult r = PinnedViolated();
  REQUIRE(!r.exploration.violations.empty());
  const std::string itf = ItfTrace(r, 0);
  CHECK(Contains(itf, "\"search\": \"pinned\""));
  CHECK(Count(itf, "\"index\": ") ==
        static_cast<int>(r.exploration.violations[0].trace.length()) + 1);
}

TEST_CASE("a lasso is an ITF trace with a loop index") {
  // Stem of 4 steps, loop of 6: the initial state, 4 stem states and the
  // loop's states but its last (which returns to state 4): 10 states.
  const ScenarioResult r = Lasso();
  REQUIRE(r.exploration.violations.size() == 1);
  REQUIRE(r.exploration.violations[0].lasso());
  const std::string itf = ItfTrace(r, 0);
  CHECK(Count(itf, "\"index\": ") == 10);
  CHECK(Contains(itf, "\"length\": 4,\n"));
  CHECK(Contains(itf, "\"loop_length\": 6,\n"));
  CHECK(Contains(itf, "\"loop_closing_action\": \"send(B)\"\n"));
  CHECK(Contains(itf, "\n  \"loop\": 4\n}"));
}

TEST_CASE("the ITF trace is a pure function of the result") {
  CHECK(ItfTrace(Violated(), 0) == ItfTrace(Violated(), 0));
}

}  // namespace
}  // namespace oc::exports
