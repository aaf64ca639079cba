#include "common/json_writer.h"

#include "common/text.h"

namespace oc {

JsonWriter& JsonWriter::Key(std::string_view key) {
  Separate();
  out_ += QuoteJson(key) + ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  return Scalar(QuoteJson(value));
}

JsonWriter& JsonWriter::Strings(const std::vector<std::string>& values) {
  BeginArray();
  for (const std::string& v : values) String(v);
  return EndArray();
}

JsonWriter& JsonWriter::Scalar(std::string_view text) {
  Separate();
  out_ += text;
  return *this;
}

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) out_ += ',';
  out_ += '\n';
  out_.append(2 * counts_.size(), ' ');
}

JsonWriter& JsonWriter::Open(char bracket) {
  Separate();
  out_ += bracket;
  counts_.push_back(0);
  return *this;
}

JsonWriter& JsonWriter::Close(char bracket) {
  const int count = counts_.back();
  counts_.pop_back();
  if (count > 0) {
    out_ += '\n';
    out_.append(2 * counts_.size(), ' ');
  }
  out_ += bracket;
  return *this;
}

}  // namespace oc
