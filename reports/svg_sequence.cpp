#include "reports/svg_sequence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "common/text.h"

namespace oc::reports {
namespace {

// Geometry, in CSS pixels. Widths of text are estimated, not measured: the
// report must not depend on the fonts of the machine that wrote it.
// 12px sans-serif averages about 6.5px a character (DejaVu Sans, which is
// wide); the estimate errs on the wide side, and counts bytes, so UTF-8
// text errs wider still.
constexpr int kCharWidthTimes2 = 13;
constexpr int kStepColumn = 44;    // step numbers, left of the first box
constexpr int kTop = 8;            // above the header boxes
constexpr int kHeaderHeight = 32;  // participant boxes
constexpr int kRowHeight = 36;
constexpr int kMinGap = 110;  // between two lifelines
constexpr int kLanePadding = 24;
constexpr int kArrowHead = 8;

int TextWidth(std::string_view text) {
  return (static_cast<int>(text.size()) * kCharWidthTimes2 + 1) / 2;
}

int BoxWidth(const std::string& name) { return TextWidth(name) + 24; }

// Distances between neighbouring lifelines, widened until every header box,
// message text and note box fits in its lane.
std::vector<int> Gaps(const SequenceDiagram& d) {
  const std::size_t n = d.participants.size();
  std::vector<int> gaps(n > 0 ? n - 1 : 0, kMinGap);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    gaps[i] = std::max(
        gaps[i],
        (BoxWidth(d.participants[i]) + BoxWidth(d.participants[i + 1])) / 2 +
            16);
  }
  // Short spans first, so that a wide message over many lanes spreads what
  // is still missing over lanes already widened for the narrow ones.
  std::vector<const SequenceItem*> messages;
  for (const SequenceItem& item : d.items) {
    if (item.kind == SequenceItem::Kind::kMessage && item.from != item.to) {
      messages.push_back(&item);
    } else {
      const int half = (TextWidth(item.text) + 20) / 2 + 12;
      if (item.from > 0)
        gaps[item.from - 1] = std::max(gaps[item.from - 1], half);
      if (static_cast<std::size_t>(item.from) + 1 < n) {
        gaps[item.from] = std::max(gaps[item.from], half);
      }
    }
  }
  auto span = [](const SequenceItem* m) { return std::abs(m->to - m->from); };
  std::stable_sort(messages.begin(), messages.end(),
                   [&](const SequenceItem* a, const SequenceItem* b) {
                     return span(a) < span(b);
                   });
  for (const SequenceItem* m : messages) {
    const int lo = std::min(m->from, m->to);
    const int hi = std::max(m->from, m->to);
    int have = 0;
    for (int i = lo; i < hi; ++i) have += gaps[i];
    const int need = TextWidth(m->text) + kLanePadding;
    if (have >= need) continue;
    const int lanes = hi - lo;
    const int extra = (need - have + lanes - 1) / lanes;
    for (int i = lo; i < hi; ++i) gaps[i] += extra;
  }
  return gaps;
}

void AppendText(std::string& out, int x, int y, std::string_view anchor,
                std::string_view css_class, std::string_view text) {
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" class=\"{}\">{}</text>", x, y,
      anchor, css_class, EscapeMarkup(text));
}

void AppendMessage(std::string& out, const SequenceItem& item, int x_from,
                   int x_to, int row_top) {
  const int y = row_top + 25;
  const int dir = x_to > x_from ? 1 : -1;
  out += fmt::format("<g class=\"message{}{}\">", item.dashed ? " dashed" : "",
                     item.lost ? " lost" : "");
  AppendText(out, (x_from + x_to) / 2, y - 6, "middle", "label", item.text);
  if (item.lost) {
    // Drawn as Mermaid's "-x": the line runs to the target and ends in a
    // cross instead of an arrowhead.
    out += fmt::format(
        "<line class=\"shaft\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        x_from, y, x_to - dir * 6, y);
    const int cx = x_to - dir * 6;
    out +=
        fmt::format("<path class=\"cross\" d=\"M{} {}L{} {}M{} {}L{} {}\"/>",
                    cx - 5, y - 5, cx + 5, y + 5, cx - 5, y + 5, cx + 5, y - 5);
  } else {
    const int tip = x_to - dir;
    out += fmt::format(
        "<line class=\"shaft\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        x_from, y, tip - dir * kArrowHead, y);
    out += fmt::format("<path class=\"head\" d=\"M{} {}L{} {}L{} {}Z\"/>", tip,
                       y, tip - dir * kArrowHead, y - 4, tip - dir * kArrowHead,
                       y + 4);
  }
  out += "</g>";
}

void AppendNote(std::string& out, const SequenceItem& item, int x,
                int row_top) {
  const int width = TextWidth(item.text) + 20;
  out += "<g class=\"note\">";
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\"/>",
      x - width / 2, row_top + 6, width, kRowHeight - 12);
  AppendText(out, x, row_top + 22, "middle", "label", item.text);
  out += "</g>";
}

}  // namespace

std::string SequenceSvg(const SequenceDiagram& d, const SvgOptions& options) {
  const std::size_t n = d.participants.size();
  const std::vector<int> gaps = Gaps(d);

  // The first lifeline sits far enough right for its header box and for a
  // note over it; the right margin holds the last box, notes and marks.
  int left_half = n > 0 ? BoxWidth(d.participants[0]) / 2 : 0;
  int right_half = n > 0 ? BoxWidth(d.participants[n - 1]) / 2 : 0;
  for (const SequenceItem& item : d.items) {
    if (item.kind != SequenceItem::Kind::kNote) continue;
    const int half = (TextWidth(item.text) + 20) / 2;
    if (item.from == 0) left_half = std::max(left_half, half);
    if (static_cast<std::size_t>(item.from) + 1 == n) {
      right_half = std::max(right_half, half);
    }
  }
  std::vector<int> xs(n);
  int x = kStepColumn + left_half + 8;
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = x;
    if (i < gaps.size()) x += gaps[i];
  }
  // Per row: the classes and labels of its marks.
  std::vector<std::string> row_classes(d.items.size(), "step");
  std::vector<std::string> row_labels(d.items.size());
  int mark_width = 0;
  for (std::size_t r = 0; r < d.items.size(); ++r) {
    for (const SvgLoop& l : options.loops) {
      if (l.first <= d.items[r].step && d.items[r].last() <= l.last) {
        row_classes[r] += " in-loop";
      }
    }
    for (const SvgMark& m : options.marks) {
      if (m.step < d.items[r].step || m.step > d.items[r].last()) continue;
      row_classes[r] += " " + m.css_class;
      if (!row_labels[r].empty()) row_labels[r] += "; ";
      row_labels[r] += m.label;
    }
    if (!row_labels[r].empty()) {
      // Mark labels are bold, about a fifth wider than plain text.
      mark_width = std::max(mark_width, TextWidth(row_labels[r]) * 6 / 5 + 24);
    }
  }
  const int width =
      (n > 0 ? xs[n - 1] : kStepColumn) + right_half + 12 + mark_width;
  const int rows_top = kTop + kHeaderHeight + 8;
  const int height =
      rows_top + static_cast<int>(d.items.size()) * kRowHeight + 12;

  std::string out = fmt::format(
      "<svg class=\"sequence\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" role=\"img\">",
      width, height);
  if (!options.title.empty()) {
    out += fmt::format("<title>{}</title>", EscapeMarkup(options.title));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int box = BoxWidth(d.participants[i]);
    out += "<g class=\"participant\">";
    out += fmt::format(
        "<line class=\"lifeline\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" "
        "y2=\"{2}\"/>",
        xs[i], kTop + kHeaderHeight, height - 4);
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
        xs[i] - box / 2, kTop, box, kHeaderHeight);
    AppendText(out, xs[i], kTop + 21, "middle", "name", d.participants[i]);
    out += "</g>";
  }
  for (std::size_t r = 0; r < d.items.size(); ++r) {
    const SequenceItem& item = d.items[r];
    const int top = rows_top + static_cast<int>(r) * kRowHeight;
    // A row that spans steps (a run of ticks) is named by its last step,
    // the state it leads to, and says its first.
    out += fmt::format(
        "<g class=\"{}\" id=\"{}-step-{}\" data-step=\"{}\" "
        "data-first=\"{}\">",
        EscapeMarkup(row_classes[r]), EscapeMarkup(options.id), item.last(),
        item.last(), item.step);
    out += fmt::format(
        "<rect class=\"row-bg\" x=\"0\" y=\"{}\" width=\"{}\" "
        "height=\"{}\"/>",
        top, width, kRowHeight);
    AppendText(out, kStepColumn / 2, top + 23, "middle", "step-no",
               item.last() == item.step
                   ? fmt::format("{}", item.step)
                   : fmt::format("{}–{}", item.step, item.last()));
    if (item.kind == SequenceItem::Kind::kMessage && item.from != item.to) {
      AppendMessage(out, item, xs[item.from], xs[item.to], top);
    } else {
      AppendNote(out, item, xs[item.from], top);
    }
    if (!row_labels[r].empty()) {
      AppendText(out, width - mark_width + 10, top + 23, "start", "mark-label",
                 row_labels[r]);
    }
    out += "</g>";
  }
  for (const SvgLoop& l : options.loops) {
    // The rows it covers, which are consecutive.
    std::size_t first_row = d.items.size(), rows = 0;
    for (std::size_t r = 0; r < d.items.size(); ++r) {
      if (l.first <= d.items[r].step && d.items[r].last() <= l.last) {
        first_row = std::min(first_row, r);
        ++rows;
      }
    }
    if (rows == 0) continue;
    out += fmt::format(
        "<g class=\"loop\"><rect class=\"loop-box\" x=\"2\" y=\"{}\" "
        "width=\"{}\" height=\"{}\" rx=\"6\"><title>{}</title></rect></g>",
        rows_top + static_cast<int>(first_row) * kRowHeight + 1, width - 4,
        static_cast<int>(rows) * kRowHeight - 2, EscapeMarkup(l.title));
  }
  out += "</svg>";
  return out;
}

}  // namespace oc::reports
