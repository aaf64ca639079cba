// Where the bundled data is: the `scenarios/` folder with the benchmarks,
// the presets, the other bundled scenarios and the built-in strategies and
// invariants restated as definition files. Found from the binary's own
// location, never from the working folder, so that `bench`, `list` and
// `init` behave the same wherever they are run from.

#ifndef OUTBOX_CHECK_CLI_DATA_FOLDER_H_
#define OUTBOX_CHECK_CLI_DATA_FOLDER_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace oc {

// Where a binary looks, in this order:
// 1. `installed`, relative to the binary's folder: what `cmake --install`
//    lays out (bin/outbox-check and share/outbox-check/scenarios);
// 2. `source`, the checkout a binary was built from, but only for a binary
//    still in its build folder `build` (so that an installed copy never
//    reads a checkout that has moved on).
// A place counts when it holds `scenarios/presets`.
struct DataPlaces {
  std::string installed;  // relative to the binary's folder
  std::string source;     // absolute; "" for none
  std::string build;      // absolute; "" for none
};

// The data folder of the binary at `binary` (the folder that holds
// `scenarios/`), or an error naming the places looked in.
Result<std::string> FindDataFolder(const std::string& binary,
                                   const DataPlaces& places);

// FindDataFolder for this process's own binary (/proc/self/exe) and the
// places this build was configured with.
Result<std::string> DataFolder();

// DataFolder() / "scenarios" / `relative`.
Result<std::string> BundledPath(std::string_view relative);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_DATA_FOLDER_H_
