#include "scenarios/file_text.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace oc {

Result<std::string> ReadFileText(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::Error(
        fmt::format("{}: cannot read file: {}", path, std::strerror(errno)));
  }
  std::string text;
  char buffer[1 << 14];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    text.append(buffer, n);
  }
  const int error = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (error != 0) {
    return Status::Error(
        fmt::format("{}: cannot read file: {}", path, std::strerror(error)));
  }
  return text;
}

Result<toml::table> ParseTomlText(std::string_view text,
                                  const std::string& path) {
  try {
    return toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    return Status::Error(fmt::format("{}:{}:{}: invalid TOML: {}", path,
                                     e.source().begin.line,
                                     e.source().begin.column, e.description()));
  }
}

}  // namespace oc
