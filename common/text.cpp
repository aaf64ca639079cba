#include "common/text.h"

#include <fmt/format.h>

#include <charconv>

namespace oc {
namespace {

// The escapes JSON and TOML basic strings share; `toml` adds DEL and
// writes the hex digits upper-case.
std::string QuoteC(std::string_view text, bool toml) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || (toml && u == 0x7f)) {
          out +=
              toml ? fmt::format("\\u{:04X}", u) : fmt::format("\\u{:04x}", u);
        } else {
          out += c;
        }
      }
    }
  }
  out += '"';
  return out;
}

// The three markup contexts. HTML (and SVG, which the HTML pages embed)
// escapes both quotes everywhere, so one escaper serves text and attributes
// of either quoting; JUnit's XML keeps text as close to the original as
// XML 1.0 allows, and escapes in attributes what their normalisation would
// otherwise change.
enum class Markup { kHtml, kXmlText, kXmlAttribute };

std::string EscapeFor(std::string_view text, Markup m) {
  const bool html = m == Markup::kHtml;
  const bool attribute = m == Markup::kXmlAttribute;
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += html || attribute ? "&quot;" : "\"";
        break;
      case '\'':
        out += html ? "&#39;" : "'";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += html ? "\r" : "&#13;";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        if (!html && static_cast<unsigned char>(c) < 0x20) {
          out += "\xEF\xBF\xBD";  // U+FFFD: XML 1.0 cannot carry it
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace

std::string Plural(std::uint64_t n, std::string_view word,
                   std::string_view words) {
  if (n == 1) return fmt::format("1 {}", word);
  if (words.empty()) return fmt::format("{} {}s", n, word);
  return fmt::format("{} {}", n, words);
}

std::string QuoteJson(std::string_view text) { return QuoteC(text, false); }

std::string QuoteToml(std::string_view text) { return QuoteC(text, true); }

std::string EscapeMarkup(std::string_view text) {
  return EscapeFor(text, Markup::kHtml);
}

std::string EscapeXml(std::string_view text, bool attribute) {
  return EscapeFor(text, attribute ? Markup::kXmlAttribute : Markup::kXmlText);
}

std::optional<std::int64_t> ParseInteger(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

}  // namespace oc
