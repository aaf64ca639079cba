#include "reports/file_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>

namespace oc::reports {
namespace {

bool SafeByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// 64-bit FNV-1a folded to 32 bits: fixed, so a stem is the same on every
// machine and in every release that keeps this function.
std::uint32_t NameHash(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

// The key two stems collide under on a case-insensitive file system (stems
// are ASCII, so folding ASCII letters is enough).
std::string FoldCase(std::string_view stem) {
  std::string key(stem);
  for (char& c : key) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return key;
}

// `p` lexically normal, without a trailing separator, and "" for ".".
std::filesystem::path Normal(const std::filesystem::path& p) {
  std::filesystem::path n = p.lexically_normal();
  if (!n.has_filename() && n.has_relative_path()) n = n.parent_path();
  if (n == ".") n.clear();
  return n;
}

}  // namespace

std::string SafeFileStem(std::string_view name) {
  std::string stem(name);
  bool changed = name.empty();
  bool leading = true;  // still among the leading dots
  for (char& c : stem) {
    if (c != '.') leading = false;
    if (!SafeByte(c) || leading) {
      c = '_';
      changed = true;
    }
  }
  if (!changed && stem.size() <= kMaxStemBytes) return stem;
  const std::string suffix = fmt::format("-{:08x}", NameHash(name));
  stem.resize(std::min(stem.size(), kMaxStemBytes - suffix.size()));
  // An empty name gets "_" first: not a file name that starts with '-'.
  return fmt::format("{}{}", stem.empty() ? "_" : stem, suffix);
}

std::vector<std::string> UniqueFileStems(
    const std::vector<std::string>& stems,
    const std::vector<std::string>& reserved) {
  std::set<std::string> taken;
  for (const std::string& r : reserved) taken.insert(FoldCase(r));
  std::vector<std::string> unique(stems.size());
  std::vector<bool> done(stems.size(), false);
  for (std::size_t i = 0; i < stems.size(); ++i) {
    if (taken.insert(FoldCase(stems[i])).second) {
      unique[i] = stems[i];
      done[i] = true;
    }
  }
  for (std::size_t i = 0; i < stems.size(); ++i) {
    if (done[i]) continue;
    for (std::size_t n = 2;; ++n) {
      const std::string suffix = fmt::format("-{}", n);
      // Cut only what the suffix needs beyond the longer of the stem and
      // kMaxStemBytes.
      const std::size_t limit = std::max(stems[i].size(), kMaxStemBytes);
      std::string candidate =
          stems[i].substr(0, std::min(stems[i].size(), limit - suffix.size()));
      candidate += suffix;
      if (taken.insert(FoldCase(candidate)).second) {
        unique[i] = std::move(candidate);
        break;
      }
    }
  }
  return unique;
}

std::optional<std::filesystem::path> PathInFolder(
    const std::filesystem::path& folder, std::string_view file_name) {
  if (file_name.empty() || file_name == "." || file_name == ".." ||
      file_name.find('/') != std::string_view::npos ||
      file_name.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  const std::filesystem::path path = folder / std::string(file_name);
  if (Normal(path).parent_path() != Normal(folder)) return std::nullopt;
  return path;
}

}  // namespace oc::reports
