// `outbox-check check`: load scenarios, check them, print and write what
// the flags ask for, and return the exit code.

#ifndef OUTBOX_CHECK_CLI_CHECK_COMMAND_H_
#define OUTBOX_CHECK_CLI_CHECK_COMMAND_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "check/scenario_check.h"

namespace oc {

inline constexpr int kExitUsage = 2;
inline constexpr int kExitLimit = 3;  // also: interrupted by a signal

enum class TraceMode { kAuto, kAlways, kNever };
// When to show a long search's progress on `err`: kAuto when it is a
// terminal, kAlways even when it is not (a pipe, a file), kNever not at all.
enum class ProgressMode { kAuto, kAlways, kNever };

// What `check` prints on standard output: the text for people, or one JSON
// document (reports/json_report.h JsonRunReport) and nothing else.
enum class OutputFormat { kText, kJson };

// The flags of `check`; each default is the flag's default.
struct CheckFlags {
  std::vector<std::string> paths;
  // The command as typed, quoted for a POSIX shell, which reports state
  // (unless no_time asks for byte-identical output).
  std::string command_line;
  std::optional<int> max_depth;             // none: the scenario's own
  std::optional<std::uint64_t> max_states;  // none: the scenario's own
  // Stop a search before it holds more than this many bytes (store,
  // buffers, graph); none: DefaultMemoryLimit().
  std::optional<std::uint64_t> max_memory;
  bool stop_at_first = false;
  int threads = 0;           // 0: every hardware thread
  bool no_symmetry = false;  // store every state, not one per orbit
  CheckOptions::PartialOrderUse partial_order =
      CheckOptions::PartialOrderUse::kAuto;
  bool partial_order_check = false;  // compare with and without it
  TraceMode traces = TraceMode::kAuto;
  bool no_time = false;                    // leave wall-clock seconds out
  std::optional<std::string> report_dir;   // write reports there
  std::optional<std::string> save_traces;  // write regression scenarios
  std::optional<std::string> graph;        // write the state graph (DOT)
  std::optional<std::string> sarif;        // write a SARIF 2.1.0 log
  std::optional<std::string> itf;          // write ITF traces there
  std::uint64_t graph_limit = 5000;        // largest graph --graph draws
  // Keep the state graph only if it fits in this many bytes; none:
  // CheckOptions' default (256 MiB).
  std::optional<std::uint64_t> graph_memory;
  // kJson: `out` gets the run document alone, printed last (none after a
  // usage or input error, exit code 2); what kText prints there goes to
  // `err` instead.
  OutputFormat format = OutputFormat::kText;
  // Leave every file's [expect] table unread, so that each scenario is
  // checked without an expectation: its outcome is what was found.
  bool explore = false;
  // Check as with `explore`, then write what was found into each file's
  // [expect] table (cli/bless.h). Refused, with no file changed, when a
  // search was incomplete or a scenario fails whatever [expect] says.
  bool bless = false;
  // Print `::error` annotations for unexpected outcomes (set when the
  // GITHUB_ACTIONS environment variable is).
  bool github_annotations = false;

  // Simulate (random walks) instead of searching exhaustively; the other
  // four need it. `time` is as typed ("60s", "2m"), checked by RunCheck.
  bool simulate = false;
  std::optional<std::uint64_t> walks;  // none: 1000, unless `time` is set
  std::optional<std::string> time;     // none: no time limit
  std::uint64_t seed = 1;
  bool seed_given = false;
  bool swarm = false;

  // Spread each exhaustive search over the processes mpirun started
  // (explorer/distributed_search.h): every rank checks, rank 0 alone
  // prints and writes. Not with `simulate`.
  bool distributed = false;

  // Check only the scenarios whose name matches one of these shell
  // patterns (`*`, `?`, `[...]`, as fnmatch); empty: every scenario. A
  // pattern that picks none of the loaded scenarios is a usage error.
  std::vector<std::string> only;
  // Print only errors (on `err`: bad input, and one line per scenario
  // whose outcome fails the run) and the final line; no progress.
  bool quiet = false;
  ProgressMode progress = ProgressMode::kAuto;
  // Colour outcomes in `out` (set by main: a terminal, and NO_COLOR
  // unset; never in a pipe or a CI log).
  bool colour = false;
};

// Runs the command. Results go to `out` (with OutputFormat::kJson, only the
// run document; the text goes to `err`), diagnostics and progress to
// `err`; progress as `flags.progress` says. Output folders and files
// are checked (created, probed) before any search. SIGINT and SIGTERM stop
// the search at its next batch: the statistics so far are printed, no
// incomplete set of files is written, and the exit code is 3.
//
// With `bless`: `stop_at_first` is a usage error (it would record the
// shortest violation only); a result that cannot be blessed stops the run
// with exit code 2 before any file is written; otherwise the other outputs
// are written, then each scenario file, and `err` says which files were
// blessed; the exit code is 0 when all were (a signal stops before the
// next file: 3).
int RunCheck(const CheckFlags& flags, std::FILE* out, std::FILE* err);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_CHECK_COMMAND_H_
