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
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string EscapeXml(std::string_view text, bool attribute) {
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
        out += attribute ? "&quot;" : "\"";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::optional<std::int64_t> ParseInteger(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

}  // namespace oc
