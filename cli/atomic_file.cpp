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

namespace {

// Writes `content` to a new temporary file beside `path` (creating missing
// parent folders) and puts it in place with `place` (rename or link),
// removing the temporary file whatever happens. `place` returns 0 or sets
// errno, as the system calls do.
template <class Place>
Status WriteBeside(const std::string& path, std::string_view content,
                   Place place) {
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
  if (place(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    if (error == EEXIST) {
      return Status::Error(fmt::format("{}: already exists", path));
    }
    return Status::Error(
        fmt::format("{}: cannot write: {}", path, std::strerror(error)));
  }
  return Status::Ok();
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view content) {
  return WriteBeside(path, content, [](const char* temp, const char* target) {
    return ::rename(temp, target);
  });
}

Status CreateFileAtomically(const std::string& path, std::string_view content) {
  return WriteBeside(path, content, [](const char* temp, const char* target) {
    // link(2) fails with EEXIST instead of replacing; the temporary name
    // is then removed, leaving the one link at `target`. A file system
    // without hard links gets a check and a rename (a file appearing in
    // between would be replaced).
    if (::link(temp, target) == 0) {
      ::unlink(temp);
      return 0;
    }
    if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS) return -1;
    if (::access(target, F_OK) == 0) {
      errno = EEXIST;
      return -1;
    }
    return ::rename(temp, target);
  });
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
