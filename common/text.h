// Small text helpers that several layers need, each written once: counted
// nouns, quoting for JSON and TOML, escaping for HTML/SVG and XML, and
// checked integer parsing.
//
// Each escaper is for one format and one context; which to use is decided
// by where the text lands, never by what it contains.

#ifndef OUTBOX_CHECK_COMMON_TEXT_H_
#define OUTBOX_CHECK_COMMON_TEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace oc {

// "1 state", "2 states"; with `words`, the plural is that word instead
// ("2 relay crashes").
std::string Plural(std::uint64_t n, std::string_view word,
                   std::string_view words = {});

// A double-quoted JSON string: quote and backslash escaped, the usual
// two-character escapes, other control characters as \u00XX.
std::string QuoteJson(std::string_view text);
// A double-quoted TOML basic string: as JSON, and DEL escaped too (TOML
// forbids it raw), with upper-case \u00XX.
std::string QuoteToml(std::string_view text);

// For HTML and SVG, in text and in double- or single-quoted attributes:
// & < > " ' become character references.
std::string EscapeMarkup(std::string_view text);
// For XML 1.0 (JUnit): & < > as references; in an attribute also " and
// line breaks and tabs (which attribute normalisation would otherwise
// turn into spaces). Control characters XML 1.0 cannot carry become
// U+FFFD.
std::string EscapeXml(std::string_view text, bool attribute);

// The integer `text` spells, all of it, in decimal with an optional minus
// sign; nullopt for anything else (empty, spaces, a fraction, out of the
// 64-bit range).
std::optional<std::int64_t> ParseInteger(std::string_view text);

}  // namespace oc

#endif  // OUTBOX_CHECK_COMMON_TEXT_H_
