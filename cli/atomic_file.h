// Writing files so that a reader never sees half of one.

#ifndef OUTBOX_CHECK_CLI_ATOMIC_FILE_H_
#define OUTBOX_CHECK_CLI_ATOMIC_FILE_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace oc {

// Writes `content` to a temporary file beside `path`, flushes it, and
// renames it over `path`: afterwards `path` holds either its old content or
// all of the new. A file already at `path` keeps its permission bits; a new
// one gets 0644 (less the umask). Creates missing parent folders. The error
// names the path and the system's reason. SIGINT and SIGTERM are blocked
// meanwhile, so that neither leaves the temporary file behind.
Status WriteFileAtomically(const std::string& path, std::string_view content);

// As WriteFileAtomically, but never replaces a file: fails with "PATH:
// already exists" when `path` exists, also when it appears while this
// writes (the new file is linked into place, which fails rather than
// replace).
Status CreateFileAtomically(const std::string& path, std::string_view content);

// Writes all of `content` to the open file `fd` (retrying interrupted
// writes), flushes it to disk and closes it, whatever happens. The error is
// the system's reason alone, for the caller to prefix with the path.
Status WriteSyncAndClose(int fd, std::string_view content);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_ATOMIC_FILE_H_
