// A SequenceDiagram (reports/sequence.h) drawn as inline SVG, for the HTML
// report. The drawing is ours: no script, font or image from elsewhere, and
// the same diagram and options always give the same bytes.
//
// Shape of the output, which the report's script and its tests rely on:
//   <svg class="sequence" ...>
//     <g class="participant">  one per participant: header box and lifeline
//     <g class="step ..." id="ID-step-K" data-step="K">  one per item, in
//        order, K the item's 1-based step; it holds a full-width background
//        rect (class "row-bg"), the step number, and exactly one of
//        <g class="message [dashed] [lost]"> (an arrow with its text) or
//        <g class="note"> (a box over a lifeline with its text).
//        A marked step adds the mark's class to the row and its label at the
//        right edge.
//     <g class="loop">  one per SvgLoop, after the rows: a dashed box
//        (<rect class="loop-box">, which takes no clicks) around the rows
//        of its steps, with its title; those rows also have class "in-loop".
// Text is measured with a fixed per-character estimate, so very long labels
// may overflow their lane a little; they never overlap another row.

#ifndef OUTBOX_CHECK_REPORTS_SVG_SEQUENCE_H_
#define OUTBOX_CHECK_REPORTS_SVG_SEQUENCE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "reports/sequence.h"

namespace oc::reports {

// A step singled out in the drawing: "point of no return", "breaks
// effect_at_most_once".
struct SvgMark {
  std::size_t step = 0;   // 1-based; a mark on a step the diagram lacks is
                          // ignored
  std::string css_class;  // added to the row, e.g. "ponr"; letters, digits
                          // and '-' only
  std::string label;      // shown at the row's right edge
};

// Steps drawn inside a box: a lasso's loop, a turn of a pinned loop.
struct SvgLoop {
  std::size_t first = 0;  // 1-based, inclusive; rows outside are not boxed
  std::size_t last = 0;
  std::string title;  // the box's tooltip (<title>): "loop, repeated for ever"
};

struct SvgOptions {
  // Prefix of the row ids ("ID-step-K"); unique within the page. Letters,
  // digits and '-' only. Default "seq".
  std::string id = "seq";
  // Accessible title of the drawing (<title>). Default empty: none.
  std::string title;
  std::vector<SvgMark> marks;
  std::vector<SvgLoop> loops;
};

// The diagram as one <svg> element, ready to embed in HTML5.
std::string SequenceSvg(const SequenceDiagram& diagram,
                        const SvgOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_SVG_SEQUENCE_H_
