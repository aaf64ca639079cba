// `outbox-check export --promela SCENARIO [-o FILE]`: writes the Promela
// model of one exhaustive scenario (export/promela_export.h), to standard
// output or atomically to FILE, so that SPIN can count the same states.

#ifndef OUTBOX_CHECK_CLI_EXPORT_COMMAND_H_
#define OUTBOX_CHECK_CLI_EXPORT_COMMAND_H_

#include <cstdio>
#include <optional>
#include <string>

namespace oc {

// The flags of `export`; each default is the flag's default.
struct ExportFlags {
  bool promela = false;               // the one format so far; required
  std::string scenario;               // one scenario file
  std::optional<std::string> output;  // none: write to `out`
};

// Runs the command: 0 when the model was written; 2 (kExitUsage) for a
// missing format flag, a bad scenario file (the loader's message), a pinned
// order scenario, or an output file that cannot be written. Diagnostics go
// to `err`.
int RunExport(const ExportFlags& flags, std::FILE* out, std::FILE* err);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_EXPORT_COMMAND_H_
