#include "cli/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cli/interrupt.h"

namespace oc {

Status WriteFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      return Status::Error(fmt::format("{}: cannot create folder: {}",
                                       target.parent_path().string(),
                                       ec.message()));
    }
  }
  // A signal between creating the temporary file and renaming it would
  // leave it behind.
  const SignalBlock block;
  const std::string temp = fmt::format("{}.tmp-{}", path, getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return Status::Error(
        fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  // Replacing a file must not change who may read or write it.
  if (struct stat old; ::stat(path.c_str(), &old) == 0 &&
                       ::fchmod(fd, old.st_mode & 07777) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return Status::Error(
        fmt::format("{}: cannot write: {}", path, std::strerror(error)));
  }
  if (Status s = WriteSyncAndClose(fd, content); !s.ok()) {
    ::unlink(temp.c_str());
    return Status::Error(
        fmt::format("{}: cannot write: {}", path, s.message()));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    return Status::Error(
        fmt::format("{}: cannot write: {}", path, std::strerror(error)));
  }
  return Status::Ok();
}

Status WriteSyncAndClose(int fd, std::string_view content) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n =
        ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return Status::Error(std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    return Status::Error(std::strerror(error));
  }
  if (::close(fd) != 0) return Status::Error(std::strerror(errno));
  return Status::Ok();
}

}  // namespace oc
