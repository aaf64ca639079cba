#include "cli/init_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/atomic_file.h"
#include "cli/check_command.h"
#include "cli/data_folder.h"
#include "common/closest_name.h"
#include "common/text.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

namespace fs = std::filesystem;

// A note for the first line of each part of a scenario a preset may have,
// keyed by how the line starts. Parts not here get no note; the format's
// reference is scenarios/FORMAT.md either way.
struct Note {
  std::string_view line_start;
  std::string_view note;
};
constexpr Note kNotes[] = {
    {"relays", "The relay workers, by name (or how many)."},
    {"events", "The committed outbox rows (a count, or [[events]] below)."},
    {"[[events]]",
     "One committed outbox row each: a name, a type and the attributes\n"
     "# its consumers read (account and amount for credit groups)."},
    {"[[groups]]",
     "Consumer groups, each with a strategy (`outbox-check list\n"
     "# strategies`) and optionally several instances."},
    {"[relay]", "How rows are relayed (`outbox-check list styles`)."},
    {"[source]", "When the transactions that insert outbox rows commit."},
    {"[switches]", "The seed relay's lease and fencing token, on or off."},
    {"[faults]",
     "How many faults of each kind a run may suffer (`outbox-check list\n"
     "# budgets`); every order of them is tried."},
    {"[time]", "Durations, such as \"10m\" or \"3d\" (model/TIME.md)."},
    {"[broker]", "What the broker deduplicates, and for how long."},
    {"[bounds]",
     "The claim bound, and search limits: a search a limit cuts is\n"
     "# incomplete and proves nothing holds."},
    {"[check]",
     "What to check (`outbox-check list invariants`), and actions that\n"
     "# must fire, so that a \"holds\" cannot come from a fault that never\n"
     "# happened."},
    {"[expect]",
     "What the check finds: `outbox-check check` exits 1 when the\n"
     "# verdict, the shortest trace's length or the state count differs.\n"
     "# After changing the scenario, check it and update this table."},
    {"[[invariants]]", "Invariants of your own, as expressions."},
};

// True when `line` begins with the table header `start` ("[check]"), or
// defines the key `start` ("relays = ...").
bool StartsWith(std::string_view line, std::string_view start) {
  if (line.substr(0, start.size()) != start) return false;
  if (start.front() == '[') return true;
  const std::string_view rest = line.substr(start.size());
  const std::size_t eq = rest.find_first_not_of(' ');
  return eq != std::string_view::npos && rest[eq] == '=';
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(fmt::format("{}: cannot read file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string InitScenarioText(const std::string& preset_text,
                             const std::string& preset, const std::string& name,
                             const std::string& file) {
  std::string out = fmt::format(
      "# A scenario for outbox-check, written by `outbox-check init` from the\n"
      "# preset {}. Check it with\n"
      "#\n"
      "#   outbox-check check {}\n"
      "#\n"
      "# which exits 0 as long as the [expect] table at the end says what the\n"
      "# search finds. Change the pipeline, check again, and make [expect] "
      "say\n"
      "# what you now expect. Every key is described in scenarios/FORMAT.md;\n"
      "# `outbox-check list` names the strategies, invariants, relay styles\n"
      "# and fault budgets a scenario can use.\n"
      "#\n"
      "# The preset's own notes follow.\n\n",
      preset, file);
  std::vector<bool> noted(std::size(kNotes), false);
  bool named = false;
  bool in_table = false;
  for (const std::string& line : Lines(preset_text)) {
    if (!line.empty() && line.front() == '[') in_table = true;
    for (std::size_t i = 0; i < std::size(kNotes); ++i) {
      const bool top_key = kNotes[i].line_start.front() != '[';
      if (!noted[i] && (!top_key || !in_table) &&
          StartsWith(line, kNotes[i].line_start)) {
        noted[i] = true;
        out += fmt::format("# {}\n", kNotes[i].note);
      }
    }
    if (!named && !in_table && StartsWith(line, "name")) {
      named = true;
      out += fmt::format("name = {}\n", QuoteToml(name));
      continue;
    }
    out += line + "\n";
  }
  if (!named) out = fmt::format("name = {}\n", QuoteToml(name)) + out;
  return out;
}

int RunInit(const InitFlags& flags, std::FILE* out, std::FILE* err) {
  const std::string preset = flags.from.value_or(kDefaultPreset);
  Result<std::string> folder = BundledPath("presets");
  if (!folder.ok()) {
    fmt::print(err, "outbox-check init: {}\n", folder.status().message());
    return kExitUsage;
  }
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(folder.value(), ec)) {
    if (entry.path().extension() == ".toml") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  if (std::find(names.begin(), names.end(), preset) == names.end()) {
    std::vector<std::string_view> candidates(names.begin(), names.end());
    std::string hint = DidYouMean(preset, candidates);
    if (hint.empty()) hint = "; `outbox-check list presets` names them all";
    fmt::print(err, "outbox-check init: --from: unknown preset '{}'{}\n",
               preset, hint);
    return kExitUsage;
  }
  const fs::path target(flags.file);
  if (fs::is_directory(target, ec)) {
    fmt::print(err,
               "outbox-check init: {} is a folder; give the scenario file to "
               "write, e.g. {}\n",
               flags.file, (target / "my-scenario.toml").string());
    return kExitUsage;
  }
  if (!flags.force && fs::exists(target, ec)) {
    fmt::print(err,
               "outbox-check init: {} already exists; --force replaces it\n",
               flags.file);
    return kExitUsage;
  }
  const std::string source =
      (fs::path(folder.value()) / (preset + ".toml")).string();
  Result<std::string> text = ReadText(source);
  if (!text.ok()) {
    fmt::print(err, "outbox-check init: {}\n", text.status().message());
    return kExitUsage;
  }
  const std::string written = InitScenarioText(
      text.value(), preset, target.stem().string(), flags.file);
  // What is written must load where it is written.
  if (Result<Scenario> loads = ParseScenario(written, flags.file);
      !loads.ok()) {
    fmt::print(err, "outbox-check init: the scenario would not load: {}\n",
               loads.status().message());
    return kExitUsage;
  }
  const Status s = flags.force ? WriteFileAtomically(flags.file, written)
                               : CreateFileAtomically(flags.file, written);
  if (!s.ok()) {
    const bool exists = !flags.force && fs::exists(target, ec);
    fmt::print(err, "outbox-check init: {}{}\n", s.message(),
               exists ? "; --force replaces it" : "");
    return kExitUsage;
  }
  fmt::print(out,
             "wrote {} from the preset {}; check it with: outbox-check "
             "check {}\n",
             flags.file, preset, flags.file);
  return 0;
}

}  // namespace oc
