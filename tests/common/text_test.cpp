// The shared text helpers: counted nouns, quoting, escaping and checked
// integer parsing.

#include "common/text.h"

#include <doctest/doctest.h>

#include <string>

namespace oc {
namespace {

TEST_CASE("plural forms count with the right noun") {
  CHECK(Plural(0, "state") == "0 states");
  CHECK(Plural(1, "state") == "1 state");
  CHECK(Plural(2, "relay crash", "relay crashes") == "2 relay crashes");
  CHECK(Plural(1, "relay crash", "relay crashes") == "1 relay crash");
}

TEST_CASE("JSON and TOML quoting escape what each format must") {
  const std::string text = std::string("a\"b\\c\n\t") + '\x01' + '\x7f' + "é";
  CHECK(QuoteJson(text) == "\"a\\\"b\\\\c\\n\\t\\u0001\x7f\xC3\xA9\"");
  CHECK(QuoteToml(text) == "\"a\\\"b\\\\c\\n\\t\\u0001\\u007F\xC3\xA9\"");
  CHECK(QuoteJson("") == "\"\"");
}

TEST_CASE("markup escaping leaves no tag or attribute break") {
  CHECK(EscapeMarkup("<script>alert('x')</script> & \"y\"") ==
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;");
  CHECK(EscapeXml("a\"b\nc", false) == "a\"b\nc");
  CHECK(EscapeXml("a\"b\nc\td", true) == "a&quot;b&#10;c&#9;d");
  CHECK(EscapeXml("it's\r", false) == "it's&#13;");
  CHECK(EscapeMarkup("a\r\nb") == "a\r\nb");
  // XML 1.0 cannot carry most control characters.
  CHECK(EscapeXml(std::string("x") + '\x02', false) == "x\xEF\xBF\xBD");
}

TEST_CASE("integers parse only when the whole text is one in range") {
  CHECK(ParseInteger("0") == 0);
  CHECK(ParseInteger("-42") == -42);
  CHECK(ParseInteger("9223372036854775807") == INT64_MAX);
  CHECK_FALSE(ParseInteger("9223372036854775808"));
  CHECK_FALSE(ParseInteger(""));
  CHECK_FALSE(ParseInteger(" 1"));
  CHECK_FALSE(ParseInteger("1 "));
  CHECK_FALSE(ParseInteger("1.5"));
  CHECK_FALSE(ParseInteger("+1"));
  CHECK_FALSE(ParseInteger("12abc"));
}

}  // namespace
}  // namespace oc
