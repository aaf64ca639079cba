// The Markdown report of one scenario, for reading on GitHub or GitLab (or
// in a design review): what was checked, what was found, and every
// violation as a step table and a Mermaid sequence diagram.
//
// Sections, in order: title and description; Summary (verdict, expected,
// outcome and its mismatches, the invariants that broke and those that
// held, the scope of the verdict, warnings); Configuration (relays, events,
// consumer groups, switches, fault budgets); Search (statistics and why it
// stopped); Coverage (transitions per action class, classes that never
// fired flagged); one section per violation; and, for a pinned scenario,
// the replayed order.
//
// A step table has one row per step: the step number, the action with its
// detail (ActionDetail), the cells the step changed ("before → after"), and
// the whole durable state after the step in a collapsible <details> in
// which the changed cells are bold. The point of no return is marked "⛔"
// and the step that breaks the invariant "✖", in the action column and in
// the diagram, where the point of no return also sits in a shaded `rect`.
//
// A lasso (a fair cycle that puts an at-rest invariant off for ever) is
// shown as its stem and one turn of its loop, numbered on: the loop's steps
// get a table of their own under "Loop, repeated for ever", sit in a
// Mermaid `loop for ever` block, and the last is marked "↺". A pinned
// scenario's check.loop shows its two turns likewise, each in a `loop`
// block of its own. The Search section also gives the leads-to check's
// sentence (ScenarioResult::liveness) beside the abstraction.
//
// Determinism: a pure function of `result` and `options`; the same input
// gives the same bytes. Wall-clock seconds appear only with
// `options.wall_clock`.

#ifndef OUTBOX_CHECK_REPORTS_MARKDOWN_REPORT_H_
#define OUTBOX_CHECK_REPORTS_MARKDOWN_REPORT_H_

#include <string>
#include <string_view>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

// REQUIRES: `result` came from CheckScenario (its model is set, and there is
// one point of no return per violation).
std::string MarkdownReport(const ScenarioResult& result,
                           const ReportOptions& options);

// Escaping shared by the Markdown writers (this report and the index).

// `text` as inline Markdown that renders as the same characters: markup
// characters are backslash-escaped and `<`, `&` become entities. Line breaks
// are kept; '|' is left to MarkdownCell.
std::string MarkdownText(std::string_view text);

// `text` as a code span, with a fence longer than any run of backticks in
// it.
std::string MarkdownCode(std::string_view text);
// A report's closing lines: a rule, then "Written by outbox-check 0.1.0,
// by the command `...`." (the command only when the options carry it).
std::string MarkdownWrittenBy(const ReportOptions& options);

// `cell`, already Markdown, made safe as one table cell: '|' escaped (GFM
// honours that even inside code spans) and line breaks turned into spaces.
std::string MarkdownCell(std::string_view cell);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_MARKDOWN_REPORT_H_
