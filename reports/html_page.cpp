#include "reports/html_page.h"

#include <fmt/format.h>

#include "common/text.h"
#include "reports/svg_sequence.h"

namespace oc::reports {
namespace {

// The page's style. Colours and sizes aim at a printout-like page for a
// design review: one column of sections, diagrams beside their state panel.
constexpr std::string_view kStyle = R"css(
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;
--ok:#1a7f37;--ok-bg:#dafbe1;--bad:#cf222e;--bad-bg:#ffebe9;--warn:#9a6700;
--warn-bg:#fff8c5;--ponr:#bc4c00;--ponr-bg:#fff1e5;--cur:#ddf4ff;--cur-line:#54aeff}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:#fff;
font:14px/1.5 system-ui,-apple-system,"Segoe UI","DejaVu Sans",sans-serif}
main{max-width:1880px;margin:0 auto;padding:20px 32px 48px}
h1{font-size:24px;margin:0}
h2{font-size:18px;margin:20px 0 8px;padding-bottom:2px;
border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
nav{margin:6px 0 0;color:var(--muted)}
nav a{color:#0969da;text-decoration:none;margin-right:14px}
code,.mono{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px}
.path{color:var(--muted)}
.description{max-width:100ch;margin:8px 0 0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-weight:600;
font-size:12px;line-height:20px;vertical-align:1px}
.ok{background:var(--ok-bg);color:var(--ok)}
.bad{background:var(--bad-bg);color:var(--bad)}
.warn{background:var(--warn-bg);color:var(--warn)}
table{border-collapse:collapse;margin:4px 0 8px}
th,td{border:1px solid var(--line);padding:3px 10px;text-align:left;
vertical-align:top}
thead th{background:var(--soft);font-weight:600}
table.kv th{background:var(--soft);font-weight:600;white-space:nowrap}
td.name{white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.never td{background:var(--warn-bg)}
ul.plain{margin:4px 0;padding-left:20px}
.columns{display:flex;flex-wrap:wrap;gap:8px 32px;align-items:flex-start}
.columns h3{margin-top:6px}
.summary table.kv td{max-width:62ch}
.note{color:var(--muted);max-width:100ch}
.callout{border-left:4px solid var(--ponr);background:var(--ponr-bg);
padding:6px 12px;margin:6px 0 12px;max-width:110ch}
.legend{color:var(--muted);font-size:12px;margin:0;padding:4px 12px 6px;
border-top:1px solid var(--line)}
.legend span{margin-right:14px;white-space:nowrap}
.legend .lost{color:var(--bad)}
.swatch{display:inline-block;width:14px;height:10px;margin-right:4px;
border:1px solid var(--line);vertical-align:-1px}
.swatch.note{background:#fff8c5;border-color:#d4a72c}
.swatch.ponr{background:var(--ponr-bg)}.swatch.broke{background:var(--bad-bg)}
.swatch.current{background:var(--cur);border-color:var(--cur-line)}
.hint{color:var(--muted);font-size:12px;margin:6px 0 0}
.trace-body{display:grid;grid-template-columns:minmax(0,max-content) minmax(320px,460px);
gap:20px;align-items:start}
.diagram{overflow-x:auto;border:1px solid var(--line);border-radius:6px;
min-width:0}
.stepper{border:1px solid var(--line);border-radius:6px;padding:10px 12px;
position:sticky;top:8px;max-height:calc(100vh - 16px);overflow-y:auto;
background:#fff}
@media (max-width:860px){.trace-body{grid-template-columns:minmax(0,1fr)}
.stepper{position:static;max-height:none}}
.only-changed{font-size:12px;color:var(--muted);margin-left:4px;white-space:nowrap}
table.cells.changed-only tbody tr:not(.changed){display:none}
.controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.controls button{font:inherit;font-size:13px;padding:2px 10px;border-radius:6px;
border:1px solid var(--line);background:var(--soft);cursor:pointer}
.controls button:disabled{opacity:.45;cursor:default}
.controls .pos{margin-left:auto;color:var(--muted);font-size:13px}
.action{margin:8px 0;font-weight:600;min-height:1.5em}
.action .detail{font-weight:400;color:var(--muted)}
table.cells{width:100%;font-size:12px}
table.cells td,table.cells th{padding:1px 8px}
table.cells td:first-child{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
table.cells tr.changed td{background:var(--warn-bg)}
table.cells tr.changed td:first-child{font-weight:700}
table.cells .was{display:block;color:var(--muted);font-weight:400;font-size:11px}
svg.sequence{display:block}
svg.sequence text{font:12px system-ui,"DejaVu Sans",sans-serif;fill:var(--fg)}
svg .participant rect{fill:#eef2f7;stroke:#8c959f}
svg.sequence .participant .name{font-weight:600}
svg .lifeline{stroke:#afb8c1;stroke-dasharray:4 4}
svg .row-bg{fill:transparent}
svg .step{cursor:pointer}
svg .step:hover .row-bg{fill:var(--soft)}
svg .step.ponr .row-bg{fill:var(--ponr-bg)}
svg .step.broke .row-bg{fill:var(--bad-bg)}
svg .step.current .row-bg{fill:var(--cur);stroke:var(--cur-line);
stroke-width:2}
svg .step.ponr.current .row-bg{fill:var(--ponr-bg)}
svg .step.broke.current .row-bg{fill:var(--bad-bg)}
svg .message .shaft{stroke:#24292f;stroke-width:1.4}
svg .message.dashed .shaft{stroke-dasharray:6 4}
svg .message .head{fill:#24292f}
svg .message .cross{stroke:var(--bad);stroke-width:2.2}
svg.sequence .message.lost .label{fill:var(--bad)}
svg .note rect{fill:#fff8c5;stroke:#d4a72c}
svg.sequence .step-no{fill:var(--muted)}
svg.sequence .step.ponr .step-no,svg.sequence .mark-label{fill:var(--ponr);
font-weight:700}
svg .loop-box{fill:none;stroke:#8250df;stroke-width:1.5;stroke-dasharray:6 3;
pointer-events:none}
svg.sequence .step.loop .mark-label{fill:#8250df;font-weight:700}
.swatch.loop{background:none;border:1.5px dashed #8250df}
svg.sequence .step.broke .step-no,svg.sequence .step.broke .mark-label{
fill:var(--bad);font-weight:700}
pre.errors{color:var(--bad)}
footer{margin-top:36px;color:var(--muted);font-size:12px}
)css";

// The step-through. Reads #oc-data (format in html_page.h), drives every
// section.trace, and with "#selftest" checks itself into #oc-selftest.
constexpr std::string_view kScript = R"js(
(function () {
  'use strict';
  var errors = [];
  function fail(message) {
    errors.push(message);
    var out = document.getElementById('oc-errors');
    out.textContent = errors.join('\n');
    out.hidden = false;
  }
  window.addEventListener('error', function (e) { fail('error: ' + e.message); });
  var viewers = [];
  var active = null;

  // Shows step k. At the last step of a run of ticks drawn as one row,
  // `over` shows the whole run: its action and what it changed since the
  // step before it.
  function show(v, k, over) {
    var steps = v.trace.steps;
    v.k = Math.max(0, Math.min(k, steps.length - 1));
    var s = steps[v.k];
    var prev = v.k > 0 ? steps[v.k - 1] : null;
    var label = String(s.step);
    if (over && s.over) {
      prev = steps[s.row[0] - 1];
      label = s.row[0] + '\u2013' + s.row[1];
      s = {step: s.step, kind: s.kind, action: s.over.action,
           detail: s.over.detail, values: s.values, changed: s.over.changed};
    }
    v.over = Boolean(over && steps[v.k].over);
    v.rows.forEach(function (row) {
      row.classList.toggle('current', Number(row.dataset.first) <= v.k &&
                           v.k <= Number(row.dataset.step));
    });
    var loop = v.trace.loop;
    v.pos.textContent = (v.over ? 'steps ' : 'step ') + (v.k === 0 ? 0 : label) +
        ' of ' + (steps.length - 1) + (loop && v.k >= loop[0] ? ', in the loop' : '');
    v.action.textContent = '';
    if (s.kind === 'start') {
      v.action.textContent = 'Initial state';
    } else {
      v.action.append(label + '. ' + s.action);
      if (s.detail) {
        var d = document.createElement('span');
        d.className = 'detail';
        d.textContent = '  [' + s.detail + ']';
        v.action.append(d);
      }
      if (s.changed.length === 0) v.action.append(' (no cell changed)');
    }
    var body = document.createElement('tbody');
    v.trace.names.forEach(function (name, i) {
      var tr = body.insertRow();
      tr.insertCell().textContent = name;
      var cell = tr.insertCell();
      cell.textContent = s.values[i];
      if (s.changed.indexOf(i) >= 0) {
        tr.className = 'changed';
        var was = document.createElement('span');
        was.className = 'was';
        was.textContent = 'was ' + prev.values[i];
        cell.append(was);
      }
    });
    v.table.replaceChild(body, v.table.tBodies[0]);
    v.table.classList.toggle('changed-only', v.onlyChanged.checked && v.k > 0);
    v.buttons.first.disabled = v.buttons.prev.disabled = v.k === 0;
    v.buttons.last.disabled = v.k === steps.length - 1;
    // A lasso's loop goes on for ever: next never runs out.
    v.buttons.next.disabled = v.k === steps.length - 1 && !loop;
    v.buttons.into.disabled = v.buttons.next.disabled;
  }

  // A user's move also goes into the URL ("#t1:4"), so that a link or a
  // reload opens the same step.
  function move(v, k, over) {
    active = v;
    show(v, k, over);
    try {
      history.replaceState(null, '', '#' + v.trace.id + ':' + v.k);
    } catch (e) {
      // Some browsers refuse history on file: URLs; the link is a nicety.
    }
  }

  function fromHash() {
    var m = /^#([A-Za-z0-9-]+):([0-9]+)$/.exec(location.hash);
    if (!m) return;
    viewers.forEach(function (v) {
      if (v.trace.id !== m[1]) return;
      active = v;
      show(v, Number(m[2]), true);
      var row = v.root.querySelector('svg .step.current') || v.root;
      row.scrollIntoView({block: 'nearest'});
    });
  }

  function setUp(root, trace) {
    var v = {root: root, trace: trace, k: 0, buttons: {}};
    v.rows = Array.prototype.slice.call(root.querySelectorAll('svg .step'));
    v.pos = root.querySelector('.pos');
    v.action = root.querySelector('.action');
    v.table = root.querySelector('table.cells');
    v.onlyChanged = root.querySelector('input.only-changed-box');
    v.onlyChanged.addEventListener('change', function () { show(v, v.k, v.over); });
    var moves = {
      first: function () { return 0; },
      prev: function () { return stepOver(v, -1); },
      next: function () { return forward(v, false); },
      into: function () { return forward(v, true); },
      last: function () { return trace.steps.length - 1; }
    };
    Object.keys(moves).forEach(function (name) {
      var b = root.querySelector('button[data-go="' + name + '"]');
      v.buttons[name] = b;
      b.addEventListener('click', function () {
        move(v, moves[name](), name !== 'into');
      });
    });
    v.rows.forEach(function (row) {
      row.addEventListener('click', function () {
        move(v, Number(row.dataset.step), true);
      });
    });
    root.addEventListener('focusin', function () { active = v; });
    show(v, 0);
    return v;
  }

  // The step after the cursor, one row on (or, `into`, one step on); from
  // the last step of a lasso's loop, the loop's first step again: the
  // state after its last step is the one before its first.
  function forward(v, into) {
    var loop = v.trace.loop;
    if (loop && v.k === loop[1]) return loop[0];
    return into ? v.k + 1 : stepOver(v, 1);
  }

  // The step one row on (dir 1) or back (dir -1): a run of ticks drawn
  // as one row is crossed in one move.
  function stepOver(v, dir) {
    var steps = v.trace.steps;
    if (dir > 0) {
      var next = steps[Math.min(v.k + 1, steps.length - 1)];
      return next.row[0] === v.k + 1 ? next.row[1] : v.k + 1;
    }
    var here = steps[v.k];
    return v.k > 0 && here.row[1] === v.k ? here.row[0] - 1 : v.k - 1;
  }

  function selfTest() {
    var lines = [];
    viewers.forEach(function (v) {
      var want = {message: 0, note: 0};
      v.trace.steps.forEach(function (s) {
        if (s.kind in want && s.row[1] === s.step) want[s.kind]++;
      });
      var arrows = v.root.querySelectorAll('svg .message').length;
      var notes = v.root.querySelectorAll('svg .note').length;
      lines.push('trace ' + v.trace.id + ': arrows ' + arrows + '/' + want.message +
                 ', notes ' + notes + '/' + want.note + ': ' +
                 (arrows === want.message && notes === want.note ? 'ok' : 'FAILED'));
    });
    if (viewers.length > 0) {
      var v = viewers[0];
      show(v, 0);
      var before = v.table.textContent;
      v.buttons.next.click();
      var after = v.table.textContent;
      lines.push('next changes the state panel: ' +
                 (v.k === 1 && before !== after ? 'ok' : 'FAILED'));
      active = v;
      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
      var current = v.root.querySelector('svg .step.current');
      lines.push('arrow key moves the highlighted row: ' +
                 (v.k === 2 && current && current.dataset.step === '2' ? 'ok' : 'FAILED'));
      history.replaceState(null, '', '#' + v.trace.id + ':3');
      fromHash();
      lines.push('a link to a step opens it: ' + (v.k === 3 ? 'ok' : 'FAILED'));
      // A run of ticks: next crosses it in one move, into enters it.
      viewers.forEach(function (w) {
        var run = w.trace.steps.filter(function (s) { return s.over; })[0];
        if (!run || run !== w.trace.steps[run.row[1]]) return;
        show(w, run.row[0] - 1);
        w.buttons.next.click();
        var crossed = w.k === run.row[1];
        show(w, run.row[0] - 1);
        w.buttons.into.click();
        var entered = w.k === run.row[0];
        var row = w.root.querySelector('svg .step.current');
        lines.push('trace ' + w.trace.id + ': next crosses a run of ticks, into enters it: ' +
                   (crossed && entered && row && row.dataset.step === String(run.row[1])
                        ? 'ok' : 'FAILED'));
      });
      // A lasso: next from the loop's last step goes back to its first.
      viewers.forEach(function (w) {
        var loop = w.trace.loop;
        if (!loop) return;
        show(w, loop[1]);
        var open = !w.buttons.next.disabled;
        w.buttons.next.click();
        var row = w.root.querySelector('svg .step.current');
        lines.push('trace ' + w.trace.id + ': next after the loop goes back to its first step: ' +
                   (open && w.k === loop[0] && row && row.classList.contains('in-loop')
                        ? 'ok' : 'FAILED'));
      });
      history.replaceState(null, '', '#selftest');
      show(v, 0);
    }
    viewers.forEach(function (w) {
      // The state panel sits beside the diagram, its top in view.
      var d = w.root.querySelector('.diagram').getBoundingClientRect();
      var p = w.root.querySelector('.stepper').getBoundingClientRect();
      var wide = window.innerWidth > 860;
      lines.push('trace ' + w.trace.id + ': state panel ' +
                 (wide ? 'beside' : 'below') + ' the diagram: ' +
                 ((wide ? p.left >= d.right - 1 && p.top < d.bottom
                        : p.top >= d.bottom - 1) ? 'ok' : 'FAILED'));
      // No label of the diagram runs past its right edge.
      var svg = w.root.querySelector('svg.sequence');
      var right = svg.width.baseVal.value;
      var cut = Array.prototype.filter.call(svg.querySelectorAll('text'), function (t) {
        var b = t.getBBox();
        return b.x + b.width > right + 0.5;
      });
      lines.push('trace ' + w.trace.id + ': no label cut off: ' +
                 (cut.length === 0 ? 'ok' : 'FAILED (' + cut[0].textContent + ')'));
      // The toggle hides the cells a step left alone.
      show(w, 1);
      w.onlyChanged.checked = true;
      show(w, 1);
      var shown = Array.prototype.filter.call(w.table.tBodies[0].rows, function (r) {
        return getComputedStyle(r).display !== 'none';
      }).length;
      w.onlyChanged.checked = false;
      show(w, 1);
      var all = w.table.tBodies[0].rows.length;
      lines.push('trace ' + w.trace.id + ': changed cells only: ' +
                 (shown === w.trace.steps[1].changed.length && all === w.trace.names.length
                      ? 'ok' : 'FAILED'));
      show(w, 0);
    });
    lines.push('script errors: ' + errors.length);
    document.getElementById('oc-selftest').textContent = lines.join('\n');
  }

  try {
    var data = JSON.parse(document.getElementById('oc-data').textContent);
    document.querySelectorAll('section.trace').forEach(function (root) {
      viewers.push(setUp(root, data.traces[Number(root.dataset.trace)]));
    });
    document.addEventListener('keydown', function (e) {
      var v = active || viewers[0];
      if (!v || e.altKey || e.ctrlKey || e.metaKey) return;
      var into = e.shiftKey;
      if (e.key === 'ArrowRight') {
        move(v, forward(v, into), !into);
        e.preventDefault();
      }
      if (e.key === 'ArrowLeft') {
        move(v, into ? v.k - 1 : stepOver(v, -1), !into);
        e.preventDefault();
      }
    });
    window.addEventListener('hashchange', fromHash);
    if (location.hash === '#selftest') {
      selfTest();
    } else {
      fromHash();
    }
  } catch (e) {
    fail('error: ' + e.message);
  }
})();
)js";

}  // namespace

std::string HtmlPage(std::string_view title, std::string_view body,
                     std::optional<std::string_view> data,
                     std::string_view written_by) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>{}</title>\n<style>{}</style>\n</head>\n"
      "<body>\n<main>\n",
      EscapeMarkup(title), kStyle);
  out += body;
  if (data) {
    out +=
        "<pre id=\"oc-errors\" class=\"errors\" hidden></pre>\n"
        "<pre id=\"oc-selftest\" hidden></pre>\n";
  }
  out += fmt::format("<footer>Written by {}.</footer>\n</main>\n",
                     EscapeMarkup(written_by));
  if (data) {
    out += fmt::format(
        "<script type=\"application/json\" id=\"oc-data\">{}</script>\n"
        "<script>{}</script>\n",
        *data, kScript);
  }
  return out + "</body>\n</html>\n";
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || c == '<' || c == '>' || c == '&') {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace oc::reports
