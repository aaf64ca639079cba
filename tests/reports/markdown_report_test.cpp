// The Markdown report: sections, the step table, the Mermaid diagram and
// escaping, on small fixed results.

#include "reports/markdown_report.h"

#include <doctest/doctest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/fault_budgets.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;

using testing::Holding;
using testing::Pinned;
using testing::PinnedTicks;
using testing::Violated;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The text between "```mermaid" line number `n` (0 for the first) and its
// closing fence.
std::vector<std::string> MermaidBlock(const std::string& report, int n = 0) {
  std::vector<std::string> block;
  int seen = -1;
  bool inside = false;
  for (const std::string& line : Lines(report)) {
    if (!inside && line == "```mermaid" && ++seen == n) {
      inside = true;
    } else if (inside && line == "```") {
      return block;
    } else if (inside) {
      block.push_back(line);
    }
  }
  return block;
}

// The step rows of the first step table: lines "| N | ...".
std::vector<std::string> StepRows(const std::string& report) {
  std::vector<std::string> rows;
  bool inside = false;
  for (const std::string& line : Lines(report)) {
    if (line.rfind("| Step | Action |", 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("|---", 0) == 0) {
      continue;
    } else if (inside && line.rfind("| ", 0) == 0) {
      rows.push_back(line);
    } else if (inside) {
      break;
    }
  }
  return rows;
}

int CountMatching(const std::vector<std::string>& lines, const std::regex& re) {
  int n = 0;
  for (const std::string& line : lines) n += std::regex_search(line, re);
  return n;
}

TEST_CASE(
    "the Markdown fault budgets table lists every budget a scenario sets") {
  // No valid scenario sets all thirteen (premature expiries need the
  // lease_token relay, failed commits row_lock): they are set on a checked
  // result, whose configuration is all the table reads.
  ScenarioResult r = Holding();
  int n = 0;
  for (const FaultBudget& budget : kFaultBudgets) {
    r.scenario.config.budgets.*budget.pool = ++n;
  }
  const std::string md =
      MarkdownReport(r, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md,
                 "| Fault | Budget |\n|---|---:|\n"
                 "| `premature_expiries` | 1 |\n| `relay_crashes` | 2 |\n"
                 "| `lost_publish_acks` | 3 |\n| `lost_consumer_acks` | 4 |\n"
                 "| `consumer_crashes` | 5 |\n| `redeliveries` | 6 |\n"
                 "| `consumer_outages` | 7 |\n| `database_outages` | 8 |\n"
                 "| `failed_commits` | 9 |\n| `lost_broker_writes` | 10 |\n"
                 "| `rebalances` | 11 |\n| `send_failures` | 12 |\n"
                 "| `handler_failures` | 13 |\n"
                 "\nScope of the verdict:"));
}

TEST_CASE("the Markdown report has a title, a summary and the configuration") {
  const std::string md =
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}});
  CHECK(md.rfind("# lease-expiry-after-send\n\nRelay A's lease expires", 0) ==
        0);
  CHECK(Contains(md, "| Verdict | violated: effect_at_most_once (8 steps) |"));
  CHECK(Contains(md, "| Outcome | **ok** |"));
  CHECK(Contains(md, "| Broke | `effect_at_most_once` |"));
  CHECK(Contains(md, "| Held | `stale_completion_rejected` |"));
  CHECK(Contains(md, "| `A` |\n| `B` |"));
  CHECK(Contains(md, "| Event | Type | Account | Amount |"));
  CHECK(Contains(md, "| `e1` | credit | acct-1 | 1000 |"));
  CHECK(Contains(md, "| `billing` | `credit.naive` | 1 |"));
  CHECK(Contains(md, "| lease | on |\n| fencing | on |"));
  CHECK(Contains(md, "| `premature_expiries` | 1 |"));
  CHECK(Contains(md,
                 "Scope of the verdict: exhaustive for at most 1 premature "
                 "expiry, 0 relay crashes"));
  CHECK(Contains(md, "| Distinct states | 95 |"));
  CHECK(Contains(md, "| Completeness | complete |"));
}

TEST_CASE("the coverage table flags action classes that never fired") {
  const std::string md =
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "| Action class | Transitions |"));
  CHECK(Contains(md, "| `claim` | 10 |"));
  CHECK(Contains(md, "| `crash_relay` | **0** (never fired) |"));
}

TEST_CASE(
    "the step table has one row per step and marks the point of no "
    "return") {
  const std::string md =
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "### 1. `effect_at_most_once` (safety), 8 steps"));
  CHECK(Contains(md,
                 "**Point of no return:** step 4, claim(B, e1): after "
                 "it, every continuation violates effect_at_most_once"));
  const std::vector<std::string> rows = StepRows(md);
  REQUIRE(rows.size() == 8);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].rfind("| " + std::to_string(i + 1) + " | ", 0) == 0);
  }
  CHECK(Contains(rows[3],
                 "`claim(B, e1)` (token 2)<br>**⛔ point of no "
                 "return**"));
  CHECK(CountMatching(rows, std::regex("point of no return")) == 1);
  CHECK(Contains(rows[7], "**✖ effect_at_most_once violated**"));
}

TEST_CASE(
    "a step row shows the changed cells and the whole state after it, "
    "changed cells bold") {
  const std::vector<std::string> rows = StepRows(
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}}));
  REQUIRE(rows.size() == 8);
  const std::string& claim = rows[0];
  CHECK(Contains(claim, "`outbox[e1].owner`: - → A"));
  CHECK(Contains(claim, "`relay[A]`: idle → claimed(e1, token 1)"));
  CHECK(Contains(claim, "<details><summary>"));
  CHECK(Contains(claim, "**`outbox[e1].owner` = A**"));
  CHECK(Contains(claim, "<br>`relay[B]` = idle<br>"));  // unchanged: plain
  // acknowledge changes only the instance.
  CHECK(Contains(rows[6], "| `instance[billing/1]`: holding(e1) → idle |"));
}

TEST_CASE("the Mermaid diagram has the participants and one line per step") {
  const std::string md =
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}});
  const std::vector<std::string> block = MermaidBlock(md);
  REQUIRE(!block.empty());
  CHECK(block[0] == "sequenceDiagram");
  CHECK(block[1] == "  participant P0 as outbox database");
  CHECK(block[2] == "  participant P1 as relay A");
  CHECK(block[3] == "  participant P2 as relay B");
  CHECK(block[4] == "  participant P3 as broker");
  CHECK(block[5] == "  participant P4 as billing/1");
  CHECK(CountMatching(block, std::regex("^ *participant ")) == 5);
  const std::regex step_line(
      R"(^ *(P\d+(->>|-->>|-x|--x)P\d+|Note over P\d+): \d+\. )");
  CHECK(CountMatching(block, step_line) == 8);
  CHECK(Contains(md, "  P1->>P0: 1. claim e1 (token 1)\n"));
  CHECK(Contains(md, "  Note over P0: 3. lease of e1 expires (premature)\n"));
  CHECK(Contains(md, "  P4-->>P3: 7. ack\n"));
}

TEST_CASE("the diagram shades the point of no return") {
  const std::vector<std::string> block = MermaidBlock(
      MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}}));
  const auto rect =
      std::find(block.begin(), block.end(), "  rect rgb(255, 228, 225)");
  REQUIRE(rect != block.end());
  REQUIRE(rect + 2 < block.end());
  CHECK(rect[1] == "    P2->>P0: 4. claim e1 (token 2) ⛔");
  CHECK(rect[2] == "  end");
  CHECK(CountMatching(block, std::regex("^ *rect ")) == 1);
}

// No ';' in the name: CTest would cut it there and run nothing.
TEST_CASE("Mermaid text has no semicolon or hash: they become entity codes") {
  const ScenarioResult pinned = Pinned();
  const std::string md =
      MarkdownReport(pinned, {.wall_clock = false, .command_line = {}});
  CHECK(
      Contains(md, "  P1->>P3: 2. publish e1 (token 1)#59; its ack is lost\n"));
  const std::regex entity("#[0-9]+;");
  for (int n = 0; n < 2; ++n) {  // the violation-free replay has one diagram
    for (const std::string& line : MermaidBlock(md, n)) {
      const std::string bare = std::regex_replace(line, entity, "");
      CHECK(bare.find_first_of(";#") == std::string::npos);
    }
  }
}

TEST_CASE(
    "a pinned scenario shows the replayed order as a table and a "
    "diagram") {
  const std::string md =
      MarkdownReport(Pinned(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md,
                 "## Pinned order, replayed\n\nEvery checked invariant "
                 "held along it."));
  CHECK(Contains(md,
                 "| Held along the pinned order | `eventually_offered`, "
                 "`effect_at_most_once` |"));
  CHECK(Contains(md, "| Search | pinned order of 8 steps; it ends at rest"));
  CHECK(StepRows(md).size() == 8);
  const std::regex step_line(R"(^ *(P\d+\S+P\d+|Note over P\d+): \d+\. )");
  CHECK(CountMatching(MermaidBlock(md), step_line) == 8);
}

TEST_CASE(
    "a pinned violation points to the replayed order instead of "
    "repeating it") {
  const std::string md = MarkdownReport(
      testing::PinnedViolated(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md,
                 "### 1. `effect_at_most_once` (safety), 8 steps\n\n"
                 "**Point of no return:** unknown: a pinned order explores "
                 "no graph.\n\nIts trace is the pinned order up to step "
                 "8: see [the replayed order](#pinned-order-replayed)."));
  CHECK(Contains(md, "- `effect_at_most_once` (safety) broke at step 8."));
  CHECK(MermaidBlock(md, 1).empty());  // one diagram: the replay's
  const std::vector<std::string> rows = StepRows(md);
  REQUIRE(rows.size() == 9);
  CHECK(Contains(rows[7], "**✖ effect_at_most_once violated**"));
  CHECK(CountMatching(rows, std::regex("✖")) == 1);
}

TEST_CASE("a scenario that holds has no step table or diagram") {
  const std::string md =
      MarkdownReport(Holding(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "| Broke | none |"));
  CHECK(Contains(md, "## Violations\n\nNone: every checked invariant held."));
  CHECK(!Contains(md, "```mermaid"));
  CHECK(!Contains(md, "| Step |"));
}

TEST_CASE("seconds appear in the Markdown report only with timing") {
  const ScenarioResult r = Violated();
  CHECK(!Contains(MarkdownReport(r, {.wall_clock = false, .command_line = {}}),
                  "Seconds"));
  CHECK(Contains(MarkdownReport(r, {.wall_clock = true, .command_line = {}}),
                 "| Seconds | "));
}

TEST_CASE("the Markdown report is a pure function of the result") {
  const ScenarioResult r = Violated();
  CHECK(MarkdownReport(r, {.wall_clock = false, .command_line = {}}) ==
        MarkdownReport(Violated(), {.wall_clock = false, .command_line = {}}));
}

TEST_CASE("Markdown escaping keeps markup characters literal") {
  CHECK(MarkdownText("a*b_ [x] <b> & `c` #1 $x$") ==
        "a\\*b\\_ \\[x\\] &lt;b> &amp; \\`c\\` \\#1 \\$x\\$");
  CHECK(MarkdownText("effect_at_most_once") == "effect_at_most_once");
  CHECK(MarkdownText("_lead") == "\\_lead");
  CHECK(MarkdownCode("a|b") == "`a|b`");
  CHECK(MarkdownCode("a`b") == "`` a`b ``");
  CHECK(MarkdownCell("`a|b`\nc") == "`a\\|b` c");
}

TEST_CASE("a description cannot open a heading, list or code block") {
  ScenarioResult r = Holding();
  r.scenario.description = "# not a heading\n- not a list\n    1. nor this\n";
  const std::string md =
      MarkdownReport(r, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "\n\n\\# not a heading\n\\- not a list\n1\\. nor this\n"));
}

TEST_CASE(
    "a run of ticks is one row of the step table and one note of the "
    "diagram, numbered with the steps it spans") {
  const std::string md =
      MarkdownReport(PinnedTicks(), {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "| 5–9 | `5 ticks` (+5m, to 5m since the start) |"));
  CHECK_FALSE(Contains(md, "| 6 |"));
  CHECK(Contains(md, "| 10 | `consume(g1, 1, e1)`"));
  const std::vector<std::string> diagram = MermaidBlock(md);
  CHECK(std::count_if(diagram.begin(), diagram.end(), [](const std::string& l) {
          return l.find("time passes") != std::string::npos;
        }) == 1);
  CHECK(std::find(diagram.begin(), diagram.end(),
                  "  Note over P0: 5–9. time passes 5m in 5 ticks, to 5m "
                  "since the start") != diagram.end());
}

}  // namespace
}  // namespace oc::reports
