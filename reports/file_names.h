// File names built from names a scenario chooses (its name, an invariant's
// name): every file the command line writes into an output folder gets its
// name from here, so that no name can reach outside that folder, overwrite
// a file of the same run, or collide on a case-insensitive file system.
//
// Pure functions; deterministic; no file system access.

#ifndef OUTBOX_CHECK_REPORTS_FILE_NAMES_H_
#define OUTBOX_CHECK_REPORTS_FILE_NAMES_H_

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oc::reports {

// Longest stem SafeFileStem returns, in bytes.
inline constexpr std::size_t kMaxStemBytes = 80;

// A file name stem for `name`: its bytes with every one other than ASCII
// letters, digits, '.', '_' and '-' replaced by '_', and leading dots
// replaced by '_' (so never ".", ".." or a hidden file). When that changed
// anything, or the stem would be longer than kMaxStemBytes, or `name` is
// empty, the stem is cut to fit and ends in '-' and eight hex digits of a
// fixed hash of the whole original `name`: names that differ only in the
// replaced or cut bytes still get different stems, and the same name always
// gets the same stem. A name that is already safe and short is unchanged.
std::string SafeFileStem(std::string_view name);

// Makes `stems` (each already a SafeFileStem) unique, ignoring ASCII case,
// and different from every one of `reserved` (also ignoring case). First,
// every stem not yet taken keeps its value, in order; then each remaining
// repeat gets the first of "-2", "-3", ... that makes it unique among
// everything taken so far (cutting the stem so the result is no longer
// than the stem or kMaxStemBytes, whichever is longer). So a scenario really
// named "x-2" keeps its name even after two scenarios named "x". Deterministic
// in the order of `stems`.
std::vector<std::string> UniqueFileStems(
    const std::vector<std::string>& stems,
    const std::vector<std::string>& reserved);

// `folder / file_name` when `file_name` is one plain component (no '/', not
// "." or "..", not empty) and the lexically normal result sits directly in
// the lexically normal `folder`; nullopt otherwise. A last check before a
// file is written, behind SafeFileStem.
std::optional<std::filesystem::path> PathInFolder(
    const std::filesystem::path& folder, std::string_view file_name);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_FILE_NAMES_H_
