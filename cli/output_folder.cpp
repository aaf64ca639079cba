#include "cli/output_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "cli/atomic_file.h"
#include "cli/interrupt.h"
#include "reports/file_names.h"

namespace oc {
namespace {

namespace fs = std::filesystem;

// Writes all of `content` to a new file `path` and flushes it to disk.
Status WriteNewFile(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return Status::Error(std::strerror(errno));
  return WriteSyncAndClose(fd, content);
}

// Removes a folder of our own and what is in it, whatever happens.
class TempFolder {
 public:
  explicit TempFolder(fs::path path) : path_(std::move(path)) {}
  ~TempFolder() { Remove(); }
  void Remove() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

bool Raised(const std::atomic<bool>* interrupted) {
  return interrupted != nullptr && interrupted->load();
}

}  // namespace

Status PrepareOutputFolder(std::string_view flag, const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    return Status::Error(fmt::format("{}: {}: cannot create folder: {}", flag,
                                     folder, ec.message()));
  }
  if (!fs::is_directory(folder, ec)) {
    return Status::Error(fmt::format("{}: {}: not a folder", flag, folder));
  }
  std::string probe = (fs::path(folder) /
                       fmt::format(".outbox-check-probe-{}-XXXXXX", getpid()))
                          .string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    return Status::Error(fmt::format("{}: {}: cannot write in folder: {}", flag,
                                     folder, std::strerror(errno)));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return Status::Ok();
}

Status PrepareOutputFile(std::string_view flag, const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return Status::Error(
        fmt::format("{}: {}: is a folder; give a file name", flag, path));
  }
  const fs::path parent = fs::path(path).parent_path();
  return PrepareOutputFolder(flag, parent.empty() ? "." : parent.string());
}

Status WriteFileSet(std::string_view flag, const std::string& folder,
                    const std::vector<OutputFile>& files,
                    const std::atomic<bool>* interrupted) {
  const auto interrupted_error = [&] {
    return Status::Error(
        fmt::format("{}: interrupted; no file of this set was written to {}",
                    flag, folder));
  };
  std::vector<fs::path> targets;
  for (const OutputFile& file : files) {
    std::optional<fs::path> target = reports::PathInFolder(folder, file.name);
    std::error_code ec;
    if (!target) {
      return Status::Error(
          fmt::format("{}: {}: '{}' is not a file name within it", flag, folder,
                      file.name));
    }
    if (fs::is_directory(*target, ec)) {
      return Status::Error(
          fmt::format("{}: {}: is a folder; nothing of this set was written",
                      flag, target->string()));
    }
    targets.push_back(std::move(*target));
  }
  std::string temp_name =
      (fs::path(folder) / fmt::format(".outbox-check-tmp-{}-XXXXXX", getpid()))
          .string();
  if (::mkdtemp(temp_name.data()) == nullptr) {
    return Status::Error(fmt::format("{}: {}: cannot create a folder in it: {}",
                                     flag, folder, std::strerror(errno)));
  }
  TempFolder temp(temp_name);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (Raised(interrupted)) return interrupted_error();
    if (Status s = WriteNewFile(temp.path() / files[i].name, files[i].content);
        !s.ok()) {
      return Status::Error(fmt::format("{}: {}: cannot write: {}", flag,
                                       targets[i].string(), s.message()));
    }
  }
  const SignalBlock block;
  if (Raised(interrupted)) return interrupted_error();
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path from = temp.path() / files[i].name;
    if (::rename(from.c_str(), targets[i].c_str()) != 0) {
      return Status::Error(fmt::format(
          "{}: {}: cannot move into place: {}; the files before it in the "
          "set were written",
          flag, targets[i].string(), std::strerror(errno)));
    }
  }
  temp.Remove();  // still blocked: a signal cannot leave it behind
  // Make the renames durable too.
  if (const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY); fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  return Status::Ok();
}

}  // namespace oc
