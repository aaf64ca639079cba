// The HTML report and index: structure and content on small fixed results.
// What the page does in a browser is tested by html_in_browser_test.sh.

#include "reports/html_report.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "common/text.h"
#include "model/fault_budgets.h"
#include "model/state_cells.h"
#include "reports/html_page.h"
#include "reports/sequence.h"
#include "reports/svg_sequence.h"
#include "reports/wording.h"
#include "scenarios/scenario_loader.h"

namespace oc::reports {
namespace {

// The lease-expiry-after-send configuration; `head` goes before it (name,
// description), `tail` after it ([check], [expect], ...).
const std::string kLeaseExpiry = R"x(relays = ["A", "B"]
[[events]]
name = "e1"
type = "credit"
account = "acct-1"
amount = 1000
[[groups]]
name = "billing"
strategy = "credit.naive"
instances = 1
[faults]
premature_expiries = 1
[check]
invariants = ["effect_at_most_once", "stale_completion_rejected"]
)x";

const std::string kExpectViolated = R"x([expect]
verdict = "violated"
violated = "effect_at_most_once"
)x";

ScenarioResult Check(const std::string& text) {
  const Result<Scenario> scenario = ParseScenario(text, "t.toml");
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const Result<ScenarioResult> result = CheckScenario(scenario.value());
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return result.value();
}

const ScenarioResult& LeaseExpiry() {
  static const ScenarioResult result =
      Check("name = \"lease-expiry\"\n" + kLeaseExpiry + kExpectViolated);
  return result;
}

const ReportOptions kNoWallClock{.wall_clock = false, .command_line = {}};

std::size_t Count(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

// The text from the first `open` at or after `from` to the next `close`,
// both included; empty when there is none.
std::string_view Slice(std::string_view text, std::string_view open,
                       std::string_view close, std::size_t from = 0) {
  const std::size_t start = text.find(open, from);
  if (start == std::string_view::npos) return {};
  const std::size_t end = text.find(close, start);
  if (end == std::string_view::npos) return {};
  return text.substr(start, end + close.size() - start);
}

// The <svg> of the trace section with id `id`.
std::string_view SvgOf(std::string_view html, std::string_view id) {
  const std::size_t section =
      html.find(fmt::format("<section class=\"trace\" id=\"{}\"", id));
  if (section == std::string_view::npos) return {};
  return Slice(html, "<svg", "</svg>", section);
}

std::string_view DataOf(std::string_view html) {
  return Slice(html, "<script type=\"application/json\" id=\"oc-data\">",
               "</script>");
}

TEST_CASE("the HTML fault budgets table lists every budget a scenario sets") {
  // No valid scenario sets all thirteen (premature expiries need the
  // lease_token relay, failed commits row_lock): they are set on a checked
  // result, whose configuration is all the table reads.
  ScenarioResult r = LeaseExpiry();
  int n = 0;
  for (const FaultBudget& budget : kFaultBudgets) {
    r.scenario.config.budgets.*budget.pool = ++n;
  }
  const std::string html = HtmlReport(r, kNoWallClock);
  const std::string_view table =
      Slice(html, "<h3>Fault budgets</h3>", "</tbody>");
  std::string expected = "<h3>Fault budgets</h3>\n<table>\n<tbody>\n";
  const char* const names[] = {"premature expiries",
                               "relay crashes",
                               "lost publish acknowledgements",
                               "lost consumer acknowledgements",
                               "consumer crashes",
                               "broker redeliveries",
                               "consumer outages",
                               "database outages",
                               "failed commits",
                               "lost broker writes",
                               "rebalances",
                               "transient send failures",
                               "handler failures"};
  for (int i = 0; i < 13; ++i) {
    expected += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>\n",
                            names[i], i + 1);
  }
  CHECK(table == expected + "</tbody>");
}

TEST_CASE(
    "the diagram has one arrow per message step and one note per note "
    "step") {
  const ScenarioResult& r = LeaseExpiry();
  REQUIRE(r.exploration.violations.size() == 1);
  const Trace& trace = r.exploration.violations[0].trace;
  const SequenceDiagram d = SequenceOf(*r.model, trace);
  std::size_t messages = 0;
  std::size_t notes = 0;
  for (const SequenceItem& item : d.items) {
    (item.kind == SequenceItem::Kind::kMessage ? messages : notes) += 1;
  }
  REQUIRE(messages == 7);  // claim, publish, claim, publish, deliver, ack,
  REQUIRE(notes == 1);     // deliver; the lease expiry is a note

  const std::string html = HtmlReport(r, kNoWallClock);
  const std::string_view svg = SvgOf(html, "t1");
  REQUIRE(!svg.empty());
  CHECK(Count(svg, "<g class=\"message") == messages);
  CHECK(Count(svg, "<g class=\"note\"") == notes);
  CHECK(Count(svg, "<g class=\"participant\"") == d.participants.size());
  CHECK(Count(svg, "<g class=\"step") == trace.length());
  for (std::size_t k = 1; k <= trace.length(); ++k) {
    CHECK(svg.find(fmt::format("id=\"t1-step-{0}\" data-step=\"{0}\"", k)) !=
          std::string_view::npos);
  }
  // Every message and note text is in the drawing, escaped.
  for (const SequenceItem& item : d.items) {
    CHECK(svg.find(">" + EscapeMarkup(item.text) + "</text>") !=
          std::string_view::npos);
  }
}

TEST_CASE("an acknowledgement is drawn dashed") {
  const std::string html = HtmlReport(LeaseExpiry(), kNoWallClock);
  const std::string_view svg = SvgOf(html, "t1");
  const std::string_view dashed =
      Slice(svg, "<g class=\"message dashed\">", "</g>");
  CHECK(dashed.find(">ack</text>") != std::string_view::npos);
  CHECK(Count(svg, "<g class=\"message dashed") == 1);
}

TEST_CASE("a lost acknowledgement ends in a cross instead of an arrowhead") {
  SequenceDiagram d;
  d.participants = {"relay A", "broker"};
  d.items.push_back(
      {SequenceItem::Kind::kMessage, 1, 0, 1, "publish", false, true});
  d.items.push_back(
      {SequenceItem::Kind::kMessage, 2, 0, 1, "publish", false, false});
  const std::string svg = SequenceSvg(d, SvgOptions{});
  const std::string_view lost =
      Slice(svg, "<g class=\"message lost\">", "</g>");
  REQUIRE(!lost.empty());
  CHECK(Count(lost, "class=\"cross\"") == 1);
  CHECK(Count(lost, "class=\"head\"") == 0);
  CHECK(Count(svg, "class=\"head\"") == 1);
}

TEST_CASE("the point-of-no-return row is marked and its text shown") {
  const ScenarioResult& r = LeaseExpiry();
  REQUIRE(r.points_of_no_return.size() == 1);
  REQUIRE(r.points_of_no_return[0].step.has_value());
  const std::size_t step = *r.points_of_no_return[0].step;
  REQUIRE(step == 4);  // claim(B, e1): a second copy is now unavoidable

  const std::string html = HtmlReport(r, kNoWallClock);
  const std::string_view svg = SvgOf(html, "t1");
  CHECK(Count(svg, "ponr") == 1);
  CHECK(svg.find(fmt::format("<g class=\"step ponr\" id=\"t1-step-{}\"",
                             step)) != std::string_view::npos);
  CHECK(svg.find(">point of no return</text>") != std::string_view::npos);
  // The last step, where the invariant broke, is marked too.
  CHECK(svg.find("<g class=\"step broke\" id=\"t1-step-8\"") !=
        std::string_view::npos);
  CHECK(html.find(EscapeMarkup(PointOfNoReturnText(r, 0))) !=
        std::string::npos);
}

TEST_CASE("the embedded data has every cell of every state of the trace") {
  const ScenarioResult& r = LeaseExpiry();
  const Trace& trace = r.exploration.violations[0].trace;
  const std::string html = HtmlReport(r, kNoWallClock);
  const std::string_view data = DataOf(html);
  REQUIRE(!data.empty());
  CHECK(Count(data, "{\"step\":") == trace.states.size());
  CHECK(Count(data, "\"kind\":\"start\"") == 1);
  CHECK(Count(data, "\"kind\":\"note\"") == 1);
  CHECK(Count(data, "\"kind\":\"message\"") == 7);
  CHECK(data.find("\"action\":\"claim(B, e1)\",\"detail\":\"token 2\"") !=
        std::string_view::npos);

  // Step 1 (claim(A, e1)) changes the cells ChangedCells names, as indices
  // into the Cells order.
  const std::vector<Cell> cells = Cells(*r.model, trace.states[1]);
  std::string changed;
  for (const CellChange& c :
       ChangedCells(*r.model, trace.states[0], trace.states[1])) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].name == c.name) {
        changed += fmt::format("{}{}", changed.empty() ? "" : ",", i);
      }
    }
  }
  CHECK(Count(changed, ",") == 3);  // owner, token, lease, relay[A]
  CHECK(data.find("\"step\":1,") != std::string_view::npos);
  const std::string_view step1 = Slice(data, "{\"step\":1,", "]}");
  CHECK(step1.find("\"changed\":[" + changed + "]") != std::string_view::npos);
}

TEST_CASE("text from the scenario file is escaped, in markup and in data") {
  const ScenarioResult r = Check(R"x(name = "a<b>&'c'"
description = "<script>alert(1)</script> \"quoted\""
relays = ["A"]
[[events]]
name = "e1"
type = "<img src=x>"
key = "</script><script>alert(2)</script>"
version = 1
[[groups]]
name = "view"
strategy = "projection.lww"
[check]
invariants = ["eventually_offered"]
[expect]
verdict = "holds"
)x");
  const std::string html = HtmlReport(r, kNoWallClock);
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;") !=
        std::string::npos);
  CHECK(html.find("<h1>a&lt;b&gt;&amp;&#39;c&#39;") != std::string::npos);
  CHECK(html.find("<title>a&lt;b&gt;&amp;&#39;c&#39; - outbox-check</title>") !=
        std::string::npos);
  // The key reaches a cell name (view.version[KEY]); only the data and the
  // script itself end in </script>.
  CHECK(Count(html, "</script>") == 2);
}

TEST_CASE("the page references nothing outside itself") {
  const std::string html = HtmlReport(LeaseExpiry(), kNoWallClock);
  CHECK(html.rfind("<!DOCTYPE html>\n", 0) == 0);
  CHECK(html.ends_with("</html>\n"));
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(Count(html, "<svg") == Count(html, "</svg>"));
  CHECK(Count(html, "<g ") + Count(html, "<g>") == Count(html, "</g>"));
}

TEST_CASE("the summary, configuration, statistics and coverage are shown") {
  const ScenarioResult& r = LeaseExpiry();
  const std::string html = HtmlReport(r, kNoWallClock);
  CHECK(html.find(EscapeMarkup(VerdictText(r))) != std::string::npos);
  CHECK(html.find(EscapeMarkup(BoundsText(r))) != std::string::npos);
  CHECK(html.find("<td><code>billing</code></td><td><code>credit.naive</code>"
                  "</td><td class=\"num\">1</td>") != std::string::npos);
  CHECK(html.find("<td>acct-1</td><td class=\"num\">1000</td>") !=
        std::string::npos);
  CHECK(html.find(fmt::format("<th>distinct states</th><td class=\"num\">{}<",
                              r.exploration.stats.states)) !=
        std::string::npos);
  // One row per action class; those that never fired are highlighted.
  const Exploration& e = r.exploration;
  std::size_t never = 0;
  for (const std::uint64_t n : e.action_counts) never += n == 0 ? 1 : 0;
  REQUIRE(never > 0);
  CHECK(Count(html, "<tr class=\"never\">") == never);
  for (const std::string& c : e.action_classes) {
    CHECK(html.find(fmt::format("<td><code>{}</code></td><td class=\"num\">",
                                c)) != std::string::npos);
  }
  // effect_at_most_once broke; stale_completion_rejected held.
  CHECK(html.find("<code>effect_at_most_once</code></td><td><span "
                  "class=\"badge bad\">broke</span>") != std::string::npos);
  CHECK(html.find("<code>stale_completion_rejected</code></td><td><span "
                  "class=\"badge ok\">held</span>") != std::string::npos);
}

TEST_CASE("seconds appear only with the wall clock on") {
  const ScenarioResult& r = LeaseExpiry();
  CHECK(HtmlReport(r, kNoWallClock).find("seconds") == std::string::npos);
  CHECK(HtmlReport(r, ReportOptions{.wall_clock = true, .command_line = {}})
            .find("<th>seconds</th>") != std::string::npos);
  const std::vector<ScenarioResult> all = {r};
  CHECK(HtmlIndex(all, {"x"}, kNoWallClock).find("seconds") ==
        std::string::npos);
  CHECK(HtmlIndex(all, {"x"}, ReportOptions{}).find("<th>seconds</th>") !=
        std::string::npos);
}

TEST_CASE("the same result gives the same bytes") {
  const std::string text =
      "name = \"lease-expiry\"\n" + kLeaseExpiry + kExpectViolated;
  CHECK(HtmlReport(Check(text), kNoWallClock) ==
        HtmlReport(Check(text), kNoWallClock));
}

TEST_CASE(
    "a pinned scenario shows its replayed order even when nothing "
    "broke") {
  const ScenarioResult r = Check(R"x(relays = ["A", "B"]
events = 1
[faults]
premature_expiries = 1
[check]
invariants = ["stale_completion_rejected"]
order = [
  "claim(A, e1)", "expire(e1)", "claim(B, e1)", "send(A)", "complete(A)",
  "send(B)", "complete(B)",
]
[expect]
verdict = "holds"
)x");
  REQUIRE(r.replay.has_value());
  REQUIRE(r.exploration.violations.empty());
  const std::string html = HtmlReport(r, kNoWallClock);
  const std::string_view svg = SvgOf(html, "replay");
  REQUIRE(!svg.empty());
  CHECK(Count(svg, "<g class=\"step") == 7);
  CHECK(Count(svg, "<g class=\"message") + Count(svg, "<g class=\"note\"") ==
        7);
  CHECK(Count(DataOf(html), "{\"step\":") == 8);
  CHECK(html.find("along the pinned order") != std::string::npos);
}

TEST_CASE("a scenario that holds has no trace section and no data") {
  const ScenarioResult holds = Check(R"x(relays = ["A"]
events = 1
[check]
invariants = ["eventually_offered"]
[expect]
verdict = "holds"
)x");
  REQUIRE(holds.exploration.violations.empty());
  const std::string html = HtmlReport(holds, kNoWallClock);
  CHECK(html.find("<section class=\"trace\"") == std::string::npos);
  CHECK(html.find("id=\"traces\"") == std::string::npos);
  CHECK(DataOf(html).find("{\"traces\":[]}") != std::string_view::npos);
}

TEST_CASE("the index links each scenario to its page, in order") {
  const ScenarioResult& r = LeaseExpiry();
  ScenarioResult odd = r;
  odd.scenario.name = "x<y>";
  const std::string html =
      HtmlIndex({r, odd}, {"lease-expiry", "x-y-"}, kNoWallClock);
  const std::size_t first = html.find(
      "<a href=\"lease-expiry.html\">"
      "lease-expiry</a>");
  const std::size_t second = html.find("<a href=\"x-y-.html\">x&lt;y&gt;</a>");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
  CHECK(Count(html, EscapeMarkup(VerdictText(r))) >= 2);
  CHECK(html.find("2 scenarios, 2 as expected.") != std::string::npos);
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
}

TEST_CASE("JSON strings escape quotes, controls and what could end a script") {
  CHECK(JsonString("a\"b\\c\n</script>&x") ==
        "\"a\\\"b\\\\c\\u000a\\u003c/script\\u003e\\u0026x\"");
  CHECK(JsonString("") == "\"\"");
}

TEST_CASE("markup escaping covers the five special characters") {
  CHECK(EscapeMarkup("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f");
  CHECK(EscapeMarkup("plain text, é") == "plain text, é");
}

}  // namespace
}  // namespace oc::reports
