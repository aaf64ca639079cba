// Writing JSON text: the one serializer behind every JSON file the tool
// writes (the per-scenario report, the run document of `check --format
// json`, SARIF, ITF traces), so that they all quote, indent and order keys
// the same way.
//
// Layout: two-space indentation, one value or key per line, an empty object
// or array written "{}" or "[]". Keys and values appear in call order, so
// the caller fixes the key order; nothing is sorted and nothing is checked
// for repeats. Strings are quoted by QuoteJson (common/text.h): UTF-8 passes
// through, quote, backslash and control characters are escaped.
//
// Not thread-safe; one writer builds one document.

#ifndef OUTBOX_CHECK_COMMON_JSON_WRITER_H_
#define OUTBOX_CHECK_COMMON_JSON_WRITER_H_

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oc {

class JsonWriter {
 public:
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }

  // REQUIRES: inside an object; a value follows.
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Number(std::uint64_t value) {
    return Scalar(fmt::format("{}", value));
  }
  JsonWriter& Number(int value) { return Scalar(fmt::format("{}", value)); }
  // Six digits after the point: "0.012345".
  JsonWriter& Seconds(double value) {
    return Scalar(fmt::format("{:.6f}", value));
  }
  JsonWriter& Bool(bool value) { return Scalar(value ? "true" : "false"); }
  JsonWriter& Null() { return Scalar("null"); }
  JsonWriter& OptionalString(const std::optional<std::string>& value) {
    return value ? String(*value) : Null();
  }
  template <class T>
  JsonWriter& OptionalNumber(const std::optional<T>& value) {
    return value ? Scalar(fmt::format("{}", *value)) : Null();
  }
  JsonWriter& Strings(const std::vector<std::string>& values);

  // The text written, with a final newline.
  // REQUIRES: every object and array opened was closed.
  std::string Finish() { return out_ + "\n"; }

 private:
  JsonWriter& Scalar(std::string_view text);
  // Before a value or key: the comma and line break that separate it from
  // its predecessor, unless it is the value of the key just written.
  void Separate();
  JsonWriter& Open(char bracket);
  JsonWriter& Close(char bracket);

  std::string out_;
  std::vector<int> counts_;  // values written so far at each open level
  bool after_key_ = false;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_COMMON_JSON_WRITER_H_
