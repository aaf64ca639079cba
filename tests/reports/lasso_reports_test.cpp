// A lasso (a fair cycle that puts an at-rest invariant off for ever) in
// every report format: the loop is shown as a loop, never passed off as a
// violation at the stem's end. The JSON report's keys are tested in
// json_report_test.cpp, with its parser.

#include <doctest/doctest.h>

#include <string>

#include "reports/html_report.h"
#include "reports/index_report.h"
#include "reports/markdown_report.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;
using testing::Count;
using testing::Lasso;
using testing::PinnedLasso;

const ReportOptions kNoTime{.wall_clock = false, .command_line = {}};

TEST_CASE("the no-lease scenario is violated by a lasso of 4 and 6 steps") {
  const ScenarioResult r = Lasso();
  REQUIRE(r.exploration.violations.size() == 1);
  const Violation& v = r.exploration.violations.front();
  CHECK(v.property == "eventually_offered");
  CHECK(v.lasso());
  CHECK(v.trace.length() == 4);
  CHECK(v.loop.length() == 6);
  CHECK(r.liveness.has_value());
}

TEST_CASE("the verdict of a lasso says it is a fair cycle, in every format") {
  const ScenarioResult r = Lasso();
  const std::string verdict =
      "violated: eventually_offered (a fair cycle: stem 4 steps, loop 6 "
      "steps)";
  CHECK(VerdictText(r) == verdict);
  CHECK(Contains(MarkdownIndex({r}, {"no-lease"}, kNoTime), verdict));
  CHECK(Contains(HtmlIndex({r}, {"no-lease"}, kNoTime), verdict));
  CHECK(Contains(FoundText(r),
                 "eventually_offered violated by a fair cycle (stem 4 "
                 "steps, loop 6 steps)"));
  const std::string junit = JunitXml({r}, {"no-lease"}, kNoTime);
  CHECK(Contains(junit, "eventually_offered violated by a fair cycle"));
  CHECK(Contains(junit, "loop, for ever:"));
  CHECK(Contains(FormatSummary({r}, {.wall_clock = false}),
                 "  1 violated, fair cycle  "));
}

TEST_CASE(
    "the Markdown report draws the loop in a Mermaid loop block and gives "
    "it a table of its own") {
  const std::string md = MarkdownReport(Lasso(), kNoTime);
  CHECK(Contains(md,
                 "### 1. `eventually_offered` (leads-to), violated by a fair "
                 "cycle: stem 4 steps, loop 6 steps\n"));
  CHECK(Contains(md,
                 "**Loop, repeated for ever** (steps 5–10; after step "
                 "10 the run is back in the state before step 5, up to "
                 "the abstraction of the search):\n"));
  CHECK(Count(md, "| Step | Action | Changed cells |") == 2);
  // The stem outside the block, the loop's six steps inside it.
  CHECK(Contains(md,
                 "  P2->>P3: 4. publish e1 (token 2)\n"
                 "  loop for ever\n"
                 "    P1->>P0: 5. complete e1 (token 1): 0 rows, rejected\n"));
  CHECK(Contains(md, "    P2->>P3: 10. publish e1 (token 4) ↺\n  end\n```"));
  CHECK(Contains(md, "↺ step 10: then step 5 again."));
  // No step of the stem is marked as the violation.
  CHECK_FALSE(Contains(md, "✖"));
  CHECK(Contains(md,
                 "| Liveness | leads-to under weak fairness (and no run "
                 "taking more copies than were added), over the whole graph "
                 "of 53 states"));
}

TEST_CASE("the HTML report boxes the loop and steps back into it") {
  const std::string html = HtmlReport(Lasso(), kNoTime);
  CHECK(Count(html, "<rect class=\"loop-box\"") == 1);
  // The six loop rows, and the marks on the first and last.
  CHECK(Count(html, "<g class=\"step in-loop") == 6);
  CHECK(Contains(html, ">loop, for ever</text>"));
  CHECK(Contains(html, ">back to step 5</text>"));
  // The step-through's data says where the loop is.
  CHECK(Contains(html, "\"loop\":[5,10],\"steps\":["));
  CHECK(Contains(html, "<th>liveness</th><td>leads-to under weak fairness"));
  CHECK_FALSE(Contains(html, "class=\"step broke"));
}

TEST_CASE("the SARIF log calls a lasso a fair cycle and flows through it") {
  const std::string log = SarifReport({Lasso()}, "1");
  CHECK(Contains(log,
                 "eventually_offered (at rest) is violated by a fair cycle: "
                 "stem 4 steps, loop 6 steps. The scenario has no "
                 "expectation."));
  CHECK(Contains(log, "\"loopLength\": 6"));
  CHECK(Contains(log,
                 "the stem, 4 steps, then a loop of 6 steps repeated "
                 "for ever"));
  CHECK(Contains(log, "Step 10 of 10:"));
}

TEST_CASE(
    "a pinned lasso replays its order, then two turns of its loop, and is "
    "violated by the lasso") {
  const ScenarioResult r = PinnedLasso();
  CHECK(r.outcome == Outcome::kAsExpected);
  REQUIRE(r.replay.has_value());
  CHECK(r.replay->length() == 16);
  CHECK(r.replay_order_steps == 4);
  CHECK(r.replay_loop_steps == 6);
  REQUIRE(r.exploration.violations.size() == 1);
  const Violation& v = r.exploration.violations.front();
  CHECK(v.lasso());
  CHECK(v.trace.length() == 4);
  CHECK(v.loop.length() == 6);
  CHECK(BoundsText(r) ==
        "along one pinned order of 4 steps, then two turns of a loop of 6 "
        "steps");
  const std::string text = FormatResult(r, {.traces = true});
  CHECK(Contains(text, "  check.loop, turn 1:\n     5. complete(A)"));
  CHECK(Contains(text, "  check.loop, turn 2:\n    11. complete(A)"));
  CHECK(Contains(text,
                 "eventually_offered (leads-to) violated by the loop: it "
                 "fails in every state of both turns, a fair cycle after "
                 "step 4"));
  const std::string md = MarkdownReport(r, kNoTime);
  CHECK(Contains(md, "  loop check.loop, turn 1\n"));
  CHECK(Contains(md, "  loop check.loop, turn 2\n"));
  CHECK(Contains(md, "**`check.loop`, turn 2** (steps 11–16):"));
  const std::string html = HtmlReport(r, kNoTime);
  CHECK(Count(html, "<rect class=\"loop-box\"") == 3);  // lasso, two turns
  CHECK(Contains(html, "two turns of check.loop (6 steps each)"));
}

}  // namespace
}  // namespace oc::reports
