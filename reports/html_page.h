// The document shared by the HTML report and index (html_report.h): an
// HTML5 page with our style inline and, for a scenario page, the
// step-through script and the data it reads. Nothing is loaded from
// elsewhere.
//
// The script drives every <section class="trace" data-trace="I"> of the
// body, I indexing the embedded data, which has the shape
//   {"traces": [{"id": "t1",
//                "names": [cell names, in Cells order],
//                "loop": [first, last],   (a lasso's only)
//                "steps": [{"step": K, "kind": "start" | "message" | "note",
//                           "action": "claim(A, e1)", "detail": "token 1",
//                           "row": [first, last],
//                           "over": {"action", "detail", "changed"},
//                           "values": [cell values after step K],
//                           "changed": [indices into names]}, ...]}]}
// with step 0 the initial state (kind "start", empty action, row [0, 0]).
// "row" gives the steps of the diagram row the step is drawn in: itself,
// or a run of ticks drawn as one row; the run's last step also has "over",
// the row's own action and the cells the whole run changed. "loop", for a
// lasso, gives the first and last step of its loop. A section
// holds the trace's <svg class="sequence"> (rows "ID-step-K", K the row's
// last step, see svg_sequence.h), buttons
// data-go="first|prev|next|into|last", a ".pos" and an
// ".action" element and a <table class="cells"> with one <tbody>, which the
// script fills with the cells of the current step, marking changed ones.
//
// Behaviour in the browser:
//   - The buttons, a click on a row and the Left/Right arrow keys (acting on
//     the trace last used, the first by default) move the cursor. Next,
//     Prev and the arrow keys step over a run of ticks in one move; Into
//     and Shift with an arrow key go one step at a time, into the run.
//     In a lasso, moving on from the loop's last step goes back to its
//     first, for ever.
//   - The URL fragment "#ID:K" opens trace ID at step K; moving the cursor
//     rewrites it, so a link names a step.
//   - Script errors are written into <pre id="oc-errors">.
//   - With the fragment "#selftest", the page checks itself (arrows and
//     notes of each diagram against the data, "next", the Right arrow key,
//     a "#ID:K" link, and "next" at a lasso's end) and writes one line per
//     check, "...: ok" or
//     "...: FAILED", into <pre id="oc-selftest">.

#ifndef OUTBOX_CHECK_REPORTS_HTML_PAGE_H_
#define OUTBOX_CHECK_REPORTS_HTML_PAGE_H_

#include <optional>
#include <string>
#include <string_view>

namespace oc::reports {

// A complete HTML5 document titled `title` (text, escaped here) around
// `body` (HTML), with a footer saying `written_by` (text, escaped here).
// With `data`, the page also carries the step-through: the data as
// <script type="application/json" id="oc-data">, the script, and the
// elements it writes into.
// REQUIRES: `data`, when set, is JSON of the shape above whose strings were
// written by JsonString (so that it cannot close its <script> element).
std::string HtmlPage(std::string_view title, std::string_view body,
                     std::optional<std::string_view> data,
                     std::string_view written_by);

// `text` as a JSON string literal that is also safe inside a <script>
// element: '<', '>' and '&' are written as \u escapes, so no "</script>" or
// "<!--" can form.
std::string JsonString(std::string_view text);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_HTML_PAGE_H_
