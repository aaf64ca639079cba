#include "reports/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/text.h"
#include "model/fault_budgets.h"
#include "model/presentation.h"
#include "model/state_cells.h"
#include "reports/html_page.h"
#include "reports/sequence.h"
#include "reports/svg_sequence.h"
#include "reports/wording.h"

namespace oc::reports {
namespace {

std::string Esc(std::string_view text) { return EscapeMarkup(text); }

// The badge's colour follows the exit code: 0 ok, 1 bad, 3 warn.
std::string OutcomeBadge(Outcome outcome) {
  const int code = ExitCodeOf(outcome);
  const char* css = code == 0 ? "ok" : code == 1 ? "bad" : "warn";
  return fmt::format("<span class=\"badge {}\">{}</span>", css,
                     Esc(OutcomeText(outcome)));
}

std::string Row(std::string_view header, std::string_view html) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", header, html);
}

std::string Optional(const std::optional<std::string>& v) {
  return v ? Esc(*v) : "-";
}
template <class T>
std::string Optional(const std::optional<T>& v) {
  return v ? fmt::format("{}", *v) : "-";
}

// Description prose: blank lines separate paragraphs.
std::string Description(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find("\n\n", start);
    if (end == std::string::npos) end = text.size();
    const std::string_view para(text.data() + start, end - start);
    if (para.find_first_not_of(" \n\t") != std::string_view::npos) {
      out += fmt::format("<p class=\"description\">{}</p>\n", Esc(para));
    }
    start = end + 2;
  }
  return out;
}

std::string SummarySection(const ScenarioResult& r) {
  const Exploration& e = r.exploration;
  std::string out =
      "<h2 id=\"summary\">Summary</h2>\n<div class=\"columns summary\">\n"
      "<div><table class=\"kv\">\n";
  out += Row("verdict", Esc(VerdictText(r)));
  out += Row("expected", Esc(ExpectedText(r.scenario)));
  std::string outcome = OutcomeBadge(r.outcome);
  if (!r.scenario.expect && r.outcome != Outcome::kUnexpected &&
      r.outcome != Outcome::kInconclusive) {
    outcome += Esc(": " + FoundText(r));
  }
  if (!r.mismatches.empty()) {
    outcome += "<ul class=\"plain\">";
    for (const std::string& m : r.mismatches) {
      outcome += fmt::format("<li>{}</li>", Esc(m));
    }
    outcome += "</ul>";
  }
  out += Row("outcome", outcome);
  out += Row("bounds", Esc(BoundsText(r)));
  out += "</table>\n</div>\n";

  out +=
      "<div><table>\n<thead><tr><th>invariant</th>"
      "<th>result</th><th>how</th></tr></thead>\n<tbody>\n";
  for (const std::string& name : r.scenario.invariants) {
    auto v =
        std::find_if(e.violations.begin(), e.violations.end(),
                     [&](const Violation& x) { return x.property == name; });
    std::string result;
    std::string how;
    if (v != e.violations.end() && v->lasso()) {
      result = "<span class=\"badge bad\">broke</span>";
      how = r.replay ? fmt::format(
                           "leads-to; fails in every state of the "
                           "loop after step {} of the pinned order",
                           v->trace.length())
                     : "leads-to; " + LassoText(*v);
    } else if (v != e.violations.end()) {
      result = "<span class=\"badge bad\">broke</span>";
      how = fmt::format("{} property; {} {}", KindText(v->kind),
                        r.replay       ? "at step"
                        : r.simulation ? "trace of"
                                       : "shortest trace of",
                        v->trace.length());
      how += r.replay ? "" : v->trace.length() == 1 ? " step" : " steps";
    } else if (r.replay) {
      result = "<span class=\"badge ok\">held</span>";
      how = "along the pinned order";
    } else if (e.complete()) {
      result = "<span class=\"badge ok\">held</span>";
      how = "in every reachable state";
    } else {
      result = "<span class=\"badge warn\">not decided</span>";
      how = "no violation found, but the search is incomplete";
    }
    out +=
        fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                    Esc(name), result, Esc(how));
  }
  for (const std::string& name : r.scenario.unchecked) {
    out += fmt::format(
        "<tr><td><code>{}</code></td><td><span class=\"badge warn\">not "
        "checked</span></td><td>declared with check = false</td></tr>\n",
        Esc(name));
  }
  out += "</tbody>\n</table>\n</div>\n</div>\n";
  if (!r.time_assumptions.empty()) {
    out += "<h3>Timing assumptions</h3>\n<ul class=\"plain\">\n";
    for (const std::string& t : r.time_assumptions) {
      out += fmt::format("<li>{}</li>\n", Esc(t));
    }
    out += "</ul>\n";
  }
  if (!r.warnings.empty()) {
    out += "<h3>Warnings</h3>\n<ul class=\"plain\">\n";
    for (const std::string& w : r.warnings) {
      out += fmt::format("<li>{}</li>\n", Esc(w));
    }
    out += "</ul>\n";
  }
  return out;
}

std::string ConfigurationSection(const ScenarioResult& r) {
  const Scenario& s = r.scenario;
  const Config& c = s.config;
  std::string relays;
  for (const std::string& name : c.relays) {
    relays += (relays.empty() ? "" : ", ") +
              fmt::format("<code>{}</code>", Esc(name));
  }
  std::string out =
      "<h2 id=\"configuration\">Configuration</h2>\n<div class=\"columns\">\n"
      "<div><h3>Outbox and relays</h3>\n<table class=\"kv\">\n";
  out += Row("relays", relays);
  out += Row("lease", c.lease ? "on" : "off");
  out += Row("fencing token", c.fencing ? "on" : "off");
  out += Row("claim bound", c.claim_bound > 0
                                ? fmt::format("{} per event", c.claim_bound)
                                : std::string("none"));
  if (s.limits.max_depth)
    out += Row("depth limit", fmt::format("{}", *s.limits.max_depth));
  if (s.limits.max_states)
    out += Row("state limit", fmt::format("{}", *s.limits.max_states));
  out += "</table>\n</div>\n";

  out += "<div><h3>Fault budgets</h3>\n<table>\n<tbody>\n";
  for (const FaultBudget& budget : kFaultBudgets) {
    if (!Shown(c, budget)) continue;
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>\n",
                       budget.plural, BudgetText(Pool(c, budget)));
  }
  out += "</tbody>\n</table>\n</div>\n</div>\n";
  out += fmt::format("<p class=\"note\">Bounds of the verdict: {}.</p>\n",
                     Esc(BoundsText(r)));

  // A column for attributes of the events' own only when some event has.
  const bool own =
      std::any_of(c.events.begin(), c.events.end(),
                  [](const Event& e) { return !e.attributes.empty(); });
  out += fmt::format(
      "<div class=\"columns\">\n<div><h3>Events</h3>\n<table>\n<thead><tr>"
      "<th>event</th><th>type</th><th>key</th><th>version</th>"
      "<th>account</th><th>amount</th>{}</tr></thead>\n<tbody>\n",
      own ? "<th>other</th>" : "");
  for (const Event& ev : c.events) {
    out += fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>{}"
        "</tr>\n",
        Esc(ev.name), ev.type.empty() ? "-" : Esc(ev.type), Optional(ev.key),
        Optional(ev.version), Optional(ev.account), Optional(ev.amount),
        own ? fmt::format("<td>{}</td>", Esc(OwnAttributesText(ev)))
            : std::string());
  }
  out += "</tbody>\n</table>\n</div>\n<div><h3>Consumer groups</h3>\n";
  if (c.groups.empty()) {
    out += "<p class=\"note\">None.</p>\n";
  } else {
    out +=
        "<table>\n<thead><tr><th>group</th><th>strategy</th>"
        "<th>instances</th></tr></thead>\n<tbody>\n";
    for (const Group& g : c.groups) {
      out += fmt::format(
          "<tr><td><code>{}</code></td><td><code>{}</code></td>"
          "<td class=\"num\">{}</td></tr>\n",
          Esc(g.name), Esc(StrategyLabel(g)), g.instances);
    }
    out += "</tbody>\n</table>\n";
  }
  out += "</div>\n</div>\n";
  if (!s.must_fire.empty()) {
    std::string names;
    for (const std::string& m : s.must_fire) {
      names +=
          (names.empty() ? "" : ", ") + fmt::format("<code>{}</code>", Esc(m));
    }
    out += fmt::format("<p class=\"note\">Must fire at least once: {}.</p>\n",
                       names);
  }
  return out;
}

// The action classes with how often each fired; those that never did are
// highlighted (a verdict says nothing about them).
std::string CoverageTable(const Exploration& e) {
  std::size_t fired = 0;
  for (const std::uint64_t n : e.action_counts) fired += n > 0 ? 1 : 0;
  std::string out = fmt::format(
      "<h3 id=\"coverage\">Coverage</h3>\n<p class=\"note\">{} of {} action "
      "classes fired; the verdict says nothing about the highlighted ones, "
      "which never did.</p>\n<table>\n<thead><tr><th>action "
      "class</th><th>transitions</th>"
      "</tr></thead>\n<tbody>\n",
      fired, e.action_classes.size());
  for (std::size_t i = 0; i < e.action_classes.size(); ++i) {
    const std::uint64_t n = i < e.action_counts.size() ? e.action_counts[i] : 0;
    out += fmt::format(
        "<tr{}><td><code>{}</code></td><td class=\"num\">{}</td></tr>\n",
        n == 0 ? " class=\"never\"" : "", Esc(e.action_classes[i]),
        n == 0 ? std::string("0 (never fired)") : fmt::format("{}", n));
  }
  return out + "</tbody>\n</table>\n";
}

std::string StatisticsSection(const ScenarioResult& r,
                              const ReportOptions& options) {
  const explorer::Stats& st = r.exploration.stats;
  std::string out = "<h2 id=\"statistics\">Search and coverage</h2>\n";
  if (r.replay) {
    out += fmt::format(
        "<p class=\"note\">A pinned order of {} steps, replayed as a search "
        "of one path. It {}.</p>\n",
        r.replay->length(),
        r.replay_ends_at_rest
            ? "ends at rest, so at-rest invariants were checked on its last "
              "state"
            : "does not end at rest, so at-rest invariants were not checked");
  }
  out +=
      "<div class=\"columns\">\n<div><h3>Statistics</h3>\n"
      "<table class=\"kv\">\n";
  out += Row("search", Esc(StopText(r.exploration.stop)));
  const std::pair<const char*, std::uint64_t> numbers[] = {
      {r.exploration.partial_order ? "states stored" : "distinct states",
       r.exploration.partial_order ? st.stored_states : st.states},
      {"transitions", st.transitions},
      {"terminal states", st.terminal_states},
      {"bounded dead ends", st.bounded_dead_ends},
      {"depth", static_cast<std::uint64_t>(st.depth)}};
  for (const auto& [name, n] : numbers) {
    out +=
        fmt::format("<tr><th>{}</th><td class=\"num\">{}</td></tr>\n", name, n);
  }
  if (!r.replay) {
    out += Row("reduction", Esc(ReductionText(r.exploration)));
    if (r.abstraction) out += Row("abstraction", Esc(*r.abstraction));
    if (r.liveness) out += Row("liveness", Esc(*r.liveness));
    if (const auto por = PartialOrderText(r)) {
      out += Row("partial-order reduction", Esc(*por));
    }
  }
  if (options.wall_clock) {
    out += fmt::format(
        "<tr><th>seconds</th><td class=\"num\">{:.2f}</td></tr>\n", st.seconds);
  }
  out += "</table>\n</div>\n<div>";
  out += CoverageTable(r.exploration);
  return out + "</div>\n</div>\n";
}

// The steps the marks of `svg` fall on, which keep rows of their own.
std::vector<std::size_t> MarkedSteps(const SvgOptions& svg) {
  std::vector<std::size_t> steps;
  for (const SvgMark& m : svg.marks) steps.push_back(m.step);
  return steps;
}

// The indices in `cells` of the cells `changed` names, comma-separated.
std::string ChangedIndices(const std::vector<Cell>& cells,
                           const std::vector<CellChange>& changed) {
  std::string out;
  for (const CellChange& c : changed) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].name != c.name) continue;
      out += (out.empty() ? "" : ",") + fmt::format("{}", i);
    }
  }
  return out;
}

// The JSON of one trace for the step-through (format in html_page.h).
// `loop`, for a lasso: the first and last step of its loop, which the
// step-through repeats.
std::string TraceJson(
    const OutboxModel& model, const Trace& trace, std::string_view id,
    const std::vector<StepRow>& rows,
    std::optional<std::pair<std::size_t, std::size_t>> loop = std::nullopt) {
  std::string out = fmt::format("{{\"id\":{},\"names\":[", JsonString(id));
  const std::vector<Cell> first = Cells(model, trace.states[0]);
  for (std::size_t i = 0; i < first.size(); ++i) {
    out += (i ? "," : "") + JsonString(first[i].name);
  }
  out += "],";
  if (loop) out += fmt::format("\"loop\":[{},{}],", loop->first, loop->second);
  out += "\"steps\":[";
  const std::vector<StepPresentation> steps =
      PresentSteps(model, trace.actions, trace.states);
  std::size_t r = 0;  // the row of step k
  for (std::size_t k = 0; k < trace.states.size(); ++k) {
    const std::vector<Cell> cells = Cells(model, trace.states[k]);
    std::string kind = "start", action, detail, changed, row = "0,0", over;
    if (k > 0) {
      while (rows[r].last + 1 < k) ++r;
      const StepPresentation& step = steps[k - 1];
      kind = step.shape == StepShape::kNote ? "note" : "message";
      action = step.action;
      detail = step.detail;
      changed = ChangedIndices(cells, step.changed);
      row = fmt::format("{},{}", rows[r].first + 1, rows[r].last + 1);
      if (rows[r].grouped() && rows[r].last + 1 == k) {
        over = fmt::format(
            ",\"over\":{{\"action\":{},\"detail\":{},\"changed\":[{}]}}",
            JsonString(rows[r].step.action), JsonString(rows[r].step.detail),
            ChangedIndices(cells, rows[r].step.changed));
      }
    }
    out += fmt::format(
        "{}{{\"step\":{},\"kind\":{},\"action\":{},\"detail\":{},"
        "\"row\":[{}]{},\"values\":[",
        k ? "," : "", k, JsonString(kind), JsonString(action),
        JsonString(detail), row, over);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out += (i ? "," : "") + JsonString(cells[i].value);
    }
    out += fmt::format("],\"changed\":[{}]}}", changed);
  }
  return out + "]}";
}

// Under a diagram: how to read what it draws.
std::string Legend(const SequenceDiagram& d, const SvgOptions& svg) {
  bool request = false, dashed = false, lost = false, note = false;
  for (const SequenceItem& item : d.items) {
    const bool message = item.kind == SequenceItem::Kind::kMessage;
    request |= message && !item.dashed;
    dashed |= message && item.dashed;
    lost |= item.lost;
    note |= !message;
  }
  auto marked = [&](std::string_view css) {
    return std::any_of(svg.marks.begin(), svg.marks.end(),
                       [&](const SvgMark& m) { return m.css_class == css; });
  };
  std::string out = "<p class=\"legend\">";
  if (request) out += "<span>&#x2192; request</span>";
  if (dashed) out += "<span>&#x21E0; reply or acknowledgement</span>";
  if (lost) out += "<span><b class=\"lost\">&#xD7;</b> lost</span>";
  if (note) {
    out += "<span><i class=\"swatch note\"></i>event at one participant</span>";
  }
  if (marked("ponr")) {
    out += "<span><i class=\"swatch ponr\"></i>point of no return</span>";
  }
  if (marked("broke")) {
    out += "<span><i class=\"swatch broke\"></i>invariant broken</span>";
  }
  if (!svg.loops.empty()) {
    out += "<span><i class=\"swatch loop\"></i>loop</span>";
  }
  return out + "<span><i class=\"swatch current\"></i>current step</span></p>";
}

// One trace section: heading, diagram and step-through. `index` is the
// trace's position in the JSON's "traces".
std::string TraceSection(const ScenarioResult& r,
                         const std::vector<StepRow>& rows, std::size_t index,
                         std::string_view id, std::string_view heading,
                         std::string_view callout, const SvgOptions& svg) {
  std::string out = fmt::format(
      "<section class=\"trace\" id=\"{}\" data-trace=\"{}\">\n<h3>{}</h3>\n",
      Esc(id), index, Esc(heading));
  if (!callout.empty())
    out += fmt::format("<p class=\"callout\">{}</p>\n", callout);
  out += "<div class=\"trace-body\">\n<div class=\"diagram\">";
  const SequenceDiagram diagram = SequenceOf(*r.model, rows);
  out += SequenceSvg(diagram, svg);
  out += Legend(diagram, svg);
  out +=
      "</div>\n<div class=\"stepper\">\n<div class=\"controls\">"
      "<button type=\"button\" data-go=\"first\">&#xAB; First</button>"
      "<button type=\"button\" data-go=\"prev\">&#x2039; Prev</button>"
      "<button type=\"button\" data-go=\"next\">Next &#x203A;</button>"
      "<button type=\"button\" data-go=\"into\" title=\"One step at a "
      "time, into a run of ticks (Shift+&#x2192;)\">Into</button>"
      "<button type=\"button\" data-go=\"last\">Last &#xBB;</button>"
      "<label class=\"only-changed\"><input type=\"checkbox\" "
      "class=\"only-changed-box\"> changed cells only</label>"
      "<span class=\"pos\"></span></div>\n<div class=\"action\"></div>\n"
      "<table class=\"cells\"><thead><tr><th>cell</th><th>value</th></tr>"
      "</thead><tbody></tbody></table>\n<p class=\"hint\">Every cell of "
      "durable state after the step; those it changed are highlighted. Click "
      "a row of the diagram, use the buttons or the &#x2190; &#x2192; keys."
      "</p>\n<noscript><p class=\"note\">The "
      "step-through needs JavaScript.</p></noscript>\n</div>\n</div>\n"
      "</section>\n";
  return out;
}

// The section of violation `i`, a lasso: its stem and one turn of its
// loop, boxed, which the step-through repeats. Appends its data to `json`.
std::string LassoSection(const ScenarioResult& r, const Violation& v,
                         std::size_t index, std::size_t i,
                         std::vector<std::string>& json) {
  const std::size_t n = v.trace.length();
  const std::size_t m = v.loop.length();
  SvgOptions svg;
  svg.id = fmt::format("t{}", i + 1);
  svg.title = fmt::format(
      "Sequence diagram: {} put off for ever by a fair cycle", v.property);
  svg.loops.push_back({n + 1, n + m, "loop, repeated for ever"});
  svg.marks.push_back({n + 1, "loop", "loop, for ever"});
  svg.marks.push_back({n + m, "loop", fmt::format("back to step {}", n + 1)});
  const Trace trace = LassoTrace(v);
  const std::vector<StepRow> rows =
      PresentRows(*r.model, trace.actions, trace.states, MarkedSteps(svg));
  const std::string heading =
      r.replay ? fmt::format(
                     "{} (leads-to) violated by the pinned order and "
                     "check.loop: {}",
                     v.property, LassoText(v))
               : fmt::format("{} (leads-to) violated by {}", v.property,
                             LassoText(v));
  const std::string callout = fmt::format(
      "<strong>A fair cycle:</strong> a fair run takes {} once, then the "
      "loop (steps {} to {}) for ever; <code>{}</code> fails in every state "
      "of the loop, so it never comes to hold. Stepping on from the loop's "
      "last step goes back to its first.",
      n == 0 ? std::string("no stem")
             : fmt::format("the stem (steps 1 to {})", n),
      n + 1, n + m, Esc(v.property));
  std::string out = TraceSection(r, rows, index, svg.id, heading, callout, svg);
  json.push_back(
      TraceJson(*r.model, trace, svg.id, rows, std::pair{n + 1, n + m}));
  return out;
}

}  // namespace

std::string HtmlReport(const ScenarioResult& result,
                       const ReportOptions& options) {
  assert(result.model != nullptr);
  assert(result.points_of_no_return.size() ==
         result.exploration.violations.size());
  const Scenario& s = result.scenario;
  const Exploration& e = result.exploration;
  std::string body = fmt::format(
      "<header>\n<h1>{} {}</h1>\n<div class=\"path mono\">{}</div>\n{}"
      "<nav><a href=\"#summary\">Summary</a>{}<a href=\"#configuration\">"
      "Configuration</a><a href=\"#statistics\">Search and coverage</a>"
      "</nav>\n</header>\n",
      Esc(s.name), OutcomeBadge(result.outcome), Esc(s.path),
      Description(s.description),
      e.violations.empty() && !result.replay
          ? ""
          : "<a href=\"#traces\">Traces</a>");
  body += SummarySection(result);

  std::string traces;
  std::vector<std::string> json;
  for (std::size_t i = 0; i < e.violations.size(); ++i) {
    const Violation& v = e.violations[i];
    if (v.lasso()) {
      traces += LassoSection(result, v, json.size(), i, json);
      continue;
    }
    const PointOfNoReturn& p = result.points_of_no_return[i];
    SvgOptions svg;
    svg.id = fmt::format("t{}", i + 1);
    svg.title = fmt::format("Sequence diagram: {} violated", v.property);
    if (p.step && *p.step > 0) {
      svg.marks.push_back({*p.step, "ponr", "point of no return"});
    }
    svg.marks.push_back({v.trace.length(), "broke", "violated"});
    const std::string heading =
        result.replay
            ? fmt::format("{} ({}) broke at step {} of the pinned order",
                          v.property, KindText(v.kind), v.trace.length())
            : fmt::format("{} ({}) violated: {}, {} step{}", v.property,
                          KindText(v.kind), TraceKindText(result),
                          v.trace.length(), v.trace.length() == 1 ? "" : "s");
    const std::string callout = "<strong>Point of no return:</strong> " +
                                Esc(PointOfNoReturnText(result, i));
    const std::vector<StepRow> rows = PresentRows(
        *result.model, v.trace.actions, v.trace.states, MarkedSteps(svg));
    traces +=
        TraceSection(result, rows, json.size(), svg.id, heading, callout, svg);
    json.push_back(TraceJson(*result.model, v.trace, svg.id, rows));
  }
  if (result.replay) {
    SvgOptions svg;
    svg.id = "replay";
    svg.title = "Sequence diagram: the pinned order, replayed";
    for (const Violation& v : e.violations) {
      if (v.lasso()) continue;  // a lasso breaks nothing at one step
      svg.marks.push_back({v.trace.length(), "broke", "breaks " + v.property});
    }
    const std::size_t n = result.replay_order_steps;
    const std::size_t m = result.replay_loop_steps;
    for (std::size_t turn = 0; m > 0 && turn < 2; ++turn) {
      const std::string label = fmt::format("check.loop, turn {}", turn + 1);
      svg.loops.push_back({n + turn * m + 1, n + (turn + 1) * m, label});
      svg.marks.push_back({n + turn * m + 1, "loop", label});
    }
    const std::vector<StepRow> rows =
        PresentRows(*result.model, result.replay->actions,
                    result.replay->states, MarkedSteps(svg));
    traces += TraceSection(
        result, rows, json.size(), svg.id,
        m > 0 ? fmt::format("The pinned order, replayed ({} steps), then two "
                            "turns of check.loop ({} steps each)",
                            n, m)
              : fmt::format("The pinned order, replayed ({} steps)",
                            result.replay->length()),
        "", svg);
    json.push_back(TraceJson(*result.model, *result.replay, svg.id, rows));
  }
  if (!traces.empty()) {
    body += "<h2 id=\"traces\">Traces</h2>\n";
    body += traces;
  }
  body += ConfigurationSection(result);
  body += StatisticsSection(result, options);
  std::string data = "{\"traces\":[";
  for (std::size_t i = 0; i < json.size(); ++i)
    data += (i ? "," : "") + json[i];
  data += "]}";
  return HtmlPage(s.name + " - outbox-check", body, data, WrittenBy(options));
}

std::string HtmlIndex(const std::vector<ScenarioResult>& results,
                      const std::vector<std::string>& stems,
                      const ReportOptions& options) {
  assert(stems.size() == results.size());
  std::size_t as_expected = 0;
  std::size_t without = 0;
  for (const ScenarioResult& r : results) {
    as_expected += r.outcome == Outcome::kAsExpected ? 1 : 0;
    without += r.scenario.expect ? 0 : 1;
  }
  // The tally names scenarios without an expectation only when there are.
  const std::string without_text =
      without == 0 ? std::string()
                   : fmt::format(", {} without an expectation", without);
  std::string body = fmt::format(
      "<header>\n<h1>outbox-check</h1>\n<p class=\"note\">{} scenario{}, {} "
      "as expected{}.</p>\n</header>\n<table>\n<thead><tr><th>scenario</th>"
      "<th>verdict</th><th>expected</th><th>outcome</th><th>states</th>"
      "<th>transitions</th>{}</tr></thead>\n<tbody>\n",
      results.size(), results.size() == 1 ? "" : "s", as_expected, without_text,
      options.wall_clock ? "<th>seconds</th>" : "");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    const explorer::Stats& st = r.exploration.stats;
    body += fmt::format(
        "<tr><td class=\"name\"><a href=\"{}.html\">{}</a></td><td>{}</td>"
        "<td>{}</td>"
        "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
        Esc(stems[i]), Esc(r.scenario.name), Esc(VerdictText(r)),
        Esc(ExpectedText(r.scenario)), OutcomeBadge(r.outcome), st.states,
        st.transitions);
    if (options.wall_clock) {
      body += fmt::format("<td class=\"num\">{:.2f}</td>", st.seconds);
    }
    body += "</tr>\n";
  }
  body += "</tbody>\n</table>\n";
  return HtmlPage("outbox-check report", body, std::nullopt,
                  WrittenBy(options));
}

}  // namespace oc::reports
