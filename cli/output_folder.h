// The folders and files a run writes into (--report-dir, --save-traces,
// --graph): checked before any search, so that a bad one costs no search,
// and filled with one whole set of files or none.

#ifndef OUTBOX_CHECK_CLI_OUTPUT_FOLDER_H_
#define OUTBOX_CHECK_CLI_OUTPUT_FOLDER_H_

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace oc {

// Makes sure `folder` is a folder this process can create files in:
// creates it and its missing parents, then creates and removes a probe
// file in it. The error names `flag` and the path: "--report-dir: a/b:
// cannot create folder: Not a directory".
Status PrepareOutputFolder(std::string_view flag, const std::string& folder);

// For an output file: `path` is not a folder, and its parent folder passes
// PrepareOutputFolder.
Status PrepareOutputFile(std::string_view flag, const std::string& path);

struct OutputFile {
  std::string name;  // one plain file name (see reports::PathInFolder)
  std::string content;
};

// Writes `files` into `folder` as one set: all of them first into a fresh
// hidden folder inside `folder` (".outbox-check-tmp-PID-XXXXXX"), each
// flushed, then each renamed into place with SIGINT and SIGTERM blocked,
// then the hidden folder is removed. Once `interrupted` (optional) reads
// true before the renames start, the hidden folder is removed, no file is
// written, and the error says "interrupted". A name that is not a plain
// file name in `folder`, or that is a folder there, fails the whole set
// before anything is moved. Nothing temporary outlives the call, except
// if the process is killed (SIGKILL) or a rename fails midway, which one
// file system does not do for these paths; the error then names the file.
Status WriteFileSet(std::string_view flag, const std::string& folder,
                    const std::vector<OutputFile>& files,
                    const std::atomic<bool>* interrupted);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_OUTPUT_FOLDER_H_
