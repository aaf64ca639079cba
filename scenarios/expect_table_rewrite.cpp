#include "scenarios/expect_table_rewrite.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <map>
#include <vector>

#include "scenarios/file_text.h"
#include "scenarios/scenario_writer.h"
#include "scenarios/toml_words.h"

namespace oc {
namespace {

// One line of the text: its content and its terminator ("\n", "\r\n", or
// empty for a last line without one).
struct Line {
  std::string content;
  std::string end;
};

std::vector<Line> SplitLines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back({std::string(text.substr(start)), ""});
      break;
    }
    std::size_t content_end = nl;
    if (content_end > start && text[content_end - 1] == '\r') --content_end;
    lines.push_back(
        {std::string(text.substr(start, content_end - start)),
         std::string(text.substr(content_end, nl + 1 - content_end))});
    start = nl + 1;
  }
  return lines;
}

// Joins lines; a line without a terminator that is not the last gets `eol`.
std::string JoinLines(const std::vector<Line>& lines, std::string_view eol) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i].content;
    out += lines[i].end.empty() && i + 1 < lines.size() ? std::string(eol)
                                                        : lines[i].end;
  }
  return out;
}

// The byte offset of 1-based code-point `column` in `line` (toml++ counts
// columns in code points).
std::size_t ByteOffset(std::string_view line, std::uint32_t column) {
  std::size_t byte = 0;
  for (std::uint32_t c = 1; c < column && byte < line.size(); ++c) {
    ++byte;
    while (byte < line.size() &&
           (static_cast<unsigned char>(line[byte]) & 0xC0) == 0x80) {
      ++byte;
    }
  }
  return byte;
}

bool IsComment(std::string_view line) {
  const std::size_t at = line.find_first_not_of(" \t");
  return at != std::string_view::npos && line[at] == '#';
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string_view Indentation(std::string_view line) {
  return line.substr(0, std::min(line.size(), line.find_first_not_of(" \t")));
}

// A key of the [expect] table where the text writes it: from the key's
// first character on line `first` to just past its value on line `last`
// (0-based lines, byte offsets).
struct Entry {
  std::string name;
  const toml::node* value = nullptr;
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t key_byte = 0;
  std::size_t end_byte = 0;
};

// Whether `value`, the text's value of `name`, already says what `expect`
// does.
bool SaysTheSame(std::string_view name, const toml::node& value,
                 const Expectation& expect) {
  if (name == "verdict") {
    const std::string_view wanted =
        expect.verdict == Verdict::kHolds ? "holds" : "violated";
    return value.is_string() && value.as_string()->get() == wanted;
  }
  if (name == "violated") {
    std::vector<std::string> written;
    if (value.is_string()) {
      written.push_back(value.as_string()->get());
    } else if (const toml::array* a = value.as_array()) {
      for (const toml::node& item : *a) {
        if (!item.is_string()) return false;
        written.push_back(item.as_string()->get());
      }
    } else {
      return false;
    }
    std::vector<std::string> wanted = expect.violated;
    std::sort(written.begin(), written.end());
    std::sort(wanted.begin(), wanted.end());
    return written == wanted;
  }
  const std::optional<std::int64_t> number = value.value<std::int64_t>();
  if (!value.is_integer() || !number) return false;
  if (name == "trace_length") {
    return expect.trace_length && *number == *expect.trace_length;
  }
  if (name == "states") {
    return expect.states &&
           *number == static_cast<std::int64_t>(*expect.states);
  }
  return false;
}

// The keys of the [expect] table `table`, in file order. A key whose value
// is a table or an array of tables is an error.
Result<std::vector<Entry>> EntriesOf(const toml::table& table,
                                     const std::vector<Line>& lines,
                                     const std::string& path) {
  std::vector<Entry> entries;
  for (const auto& [key, value] : table) {
    if (value.is_table() || value.is_array_of_tables()) {
      return Status::Error(ErrorAt(
          path, key.source(), fmt::format("expect.{}", key.str()),
          "--bless rewrites only an [expect] table of plain keys; remove "
          "this key (no scenario has it) and bless again"));
    }
    Entry e;
    e.name = std::string(key.str());
    e.value = &value;
    e.first = key.source().begin.line - 1;
    e.last = value.source().end.line - 1;
    e.key_byte = ByteOffset(lines[e.first].content, key.source().begin.column);
    e.end_byte = ByteOffset(lines[e.last].content, value.source().end.column);
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.first < b.first; });
  return entries;
}

// Edits the [expect] table that has its own header, on line `header`.
std::vector<Line> EditInPlace(const std::vector<Line>& lines,
                              std::size_t header,
                              const std::vector<Entry>& entries,
                              const Expectation& expect,
                              const std::string& eol) {
  const std::vector<TomlKey> keys = ExpectTableKeys(expect);
  auto wanted = [&](std::string_view name) {
    return std::find_if(keys.begin(), keys.end(),
                        [&](const TomlKey& k) { return k.name == name; });
  };
  // Each missing key goes after the nearest key before it in canonical
  // order that the text has (-1: right after the header).
  std::map<int, std::vector<const TomlKey*>> inserted_after;
  int anchor = -1;
  for (const TomlKey& key : keys) {
    const auto present =
        std::find_if(entries.begin(), entries.end(),
                     [&](const Entry& e) { return e.name == key.name; });
    if (present != entries.end()) {
      anchor = static_cast<int>(present - entries.begin());
    } else {
      inserted_after[anchor].push_back(&key);
    }
  }
  std::vector<Line> out(
      lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(header) + 1);
  auto insert = [&](int after, std::string_view indent) {
    for (const TomlKey* key : inserted_after[after]) {
      out.push_back(
          {fmt::format("{}{} = {}", indent, key->name, key->value), eol});
    }
  };
  auto copy = [&](std::size_t from, std::size_t to) {  // [from, to)
    for (std::size_t i = from; i < to; ++i) out.push_back(lines[i]);
  };
  insert(-1, "");
  std::size_t next = header + 1;  // the first line not yet copied
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const auto key = wanted(e.name);
    if (key == keys.end()) {
      // Gone, with the comment lines right above it that describe it.
      std::size_t start = e.first;
      while (start > next && IsComment(lines[start - 1].content)) --start;
      copy(next, start);
    } else {
      copy(next, e.first);
      if (SaysTheSame(e.name, *e.value, expect)) {
        copy(e.first, e.last + 1);
      } else {
        const std::string& first = lines[e.first].content;
        const std::string& last = lines[e.last].content;
        out.push_back({first.substr(0, e.key_byte) +
                           fmt::format("{} = {}", key->name, key->value) +
                           last.substr(e.end_byte),
                       lines[e.last].end});
      }
      insert(static_cast<int>(i), Indentation(lines[e.first].content));
    }
    next = e.last + 1;
  }
  copy(next, lines.size());
  return out;
}

// Removes lines [first, last] of `lines` for every range in `ranges`.
std::vector<Line> RemoveLines(
    const std::vector<Line>& lines,
    const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
  std::vector<bool> gone(lines.size(), false);
  for (const auto& [first, last] : ranges) {
    for (std::size_t i = first; i <= last && i < lines.size(); ++i) {
      gone[i] = true;
    }
  }
  std::vector<Line> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!gone[i]) out.push_back(lines[i]);
  }
  return out;
}

// Appends an [expect] table saying `expect`, after a blank line.
void AppendTable(std::vector<Line>& lines, const Expectation& expect,
                 const std::string& eol) {
  if (!lines.empty() && lines.back().end.empty()) lines.back().end = eol;
  if (!lines.empty() && !IsBlank(lines.back().content)) {
    lines.push_back({"", eol});
  }
  lines.push_back({"[expect]", eol});
  for (const TomlKey& key : ExpectTableKeys(expect)) {
    lines.push_back({fmt::format("{} = {}", key.name, key.value), eol});
  }
}

}  // namespace

Result<std::string> RewriteExpectTable(std::string_view text,
                                       const std::string& path,
                                       const Expectation& expect) {
  Result<toml::table> parsed = ParseTomlText(text, path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = parsed.value();
  std::vector<Line> lines = SplitLines(text);
  const std::string eol =
      !lines.empty() && lines.front().end == "\r\n" ? "\r\n" : "\n";

  const auto found = root.find("expect");
  if (found == root.end()) {
    AppendTable(lines, expect, eol);
    return JoinLines(lines, eol);
  }
  const toml::key& key = found->first;
  const toml::node& node = found->second;
  const toml::table* table = node.as_table();
  if (table == nullptr || table->is_inline()) {
    // `expect = { ... }` or a value that is no table: its lines go.
    lines = RemoveLines(
        lines, {{key.source().begin.line - 1, node.source().end.line - 1}});
    AppendTable(lines, expect, eol);
    return JoinLines(lines, eol);
  }
  Result<std::vector<Entry>> entries = EntriesOf(*table, lines, path);
  if (!entries.ok()) return entries.status();
  const std::size_t header = node.source().begin.line - 1;
  const std::size_t at =
      ByteOffset(lines[header].content, node.source().begin.column);
  if (at < lines[header].content.size() && lines[header].content[at] == '[') {
    return JoinLines(EditInPlace(lines, header, entries.value(), expect, eol),
                     eol);
  }
  // Dotted keys at the top (`expect.verdict = ...`): each on lines of its
  // own, which go.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const Entry& e : entries.value()) ranges.emplace_back(e.first, e.last);
  lines = RemoveLines(lines, ranges);
  AppendTable(lines, expect, eol);
  return JoinLines(lines, eol);
}

}  // namespace oc
