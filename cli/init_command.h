// `outbox-check init FILE [--from PRESET] [--force]`: writes a scenario to
// start from, copied from a bundled preset (scenarios/presets/, `outbox-check
// list presets`), with notes on how to check it and on each of its
// sections. The copy is named after FILE's stem and is otherwise the
// preset itself, so its [expect] still says what `check` finds: checking
// the new file exits 0.

#ifndef OUTBOX_CHECK_CLI_INIT_COMMAND_H_
#define OUTBOX_CHECK_CLI_INIT_COMMAND_H_

#include <cstdio>
#include <optional>
#include <string>

namespace oc {

// The preset `init` copies when --from is not given: small (17 states),
// one relay, one group, one fault, an [expect] that holds.
inline constexpr const char* kDefaultPreset = "kafka-idempotent-producer.retry";

struct InitFlags {
  std::string file;                 // the scenario file to write
  std::optional<std::string> from;  // a preset's name; none: kDefaultPreset
  bool force = false;               // replace FILE if it exists
};

// Exit code 0 when FILE was written (atomically: whole or not at all);
// 2 for an unknown preset (with a did-you-mean), a FILE that exists
// without --force, a FILE that is a folder or cannot be written, or
// bundled data that cannot be found. Says what it wrote on `out`, errors
// on `err`.
int RunInit(const InitFlags& flags, std::FILE* out, std::FILE* err);

// The text `init` writes: `preset_text` (the file of preset `preset`)
// named `name`, under a header that says how to check `file`, with a note
// above the first line of each section. Pure, for tests.
std::string InitScenarioText(const std::string& preset_text,
                             const std::string& preset, const std::string& name,
                             const std::string& file);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_INIT_COMMAND_H_
