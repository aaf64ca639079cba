// outbox-check: the command-line entry point. Parses flags, loads every
// scenario first (bad input stops everything with exit code 2 before any
// search), checks them in order, prints results, and returns the exit code.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/bench_command.h"
#include "cli/check_command.h"
#include "cli/conform_command.h"
#include "cli/export_command.h"

namespace {

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  every scenario as expected (without an expectation: every checked "
    "invariant holds)\n"
    "  1  a verdict, trace length or state count differs from what a "
    "scenario expects, or an invariant of a scenario without an "
    "expectation is violated\n"
    "  2  bad input or usage (a scenario file, a flag, a path), or --bless "
    "refused to write (a search that proved nothing)\n"
    "  3  a limit stopped a search, so a \"holds\" was not proved, or "
    "SIGINT or SIGTERM interrupted the run (no incomplete set of files is "
    "written)";

// The command as typed, each argument quoted for a POSIX shell when it
// holds anything but letters, digits and -_./=:,+@%.
std::string CommandLine(int argc, char** argv) {
  std::string out = "outbox-check";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool plain =
        !arg.empty() &&
        arg.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
            "0123456789-_./=:,+@%") == std::string_view::npos;
    out += ' ';
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (char c : arg) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "outbox-check: an explicit-state model checker for the transactional "
      "outbox pipeline (outbox table, relays under a lease with a fencing "
      "token, broker, consumers with an inbox)."};
  app.name("outbox-check");
  app.footer(kExitCodes);
  app.set_version_flag("--version",
                       std::string("outbox-check ") + OUTBOX_CHECK_VERSION);
  app.require_subcommand(1);

  oc::CheckFlags flags;
  CLI::App* check = app.add_subcommand(
      "check", "Check scenario files, or every *.toml file under folders");
  check->footer(kExitCodes);
  check->add_option("paths", flags.paths, "Scenario files or folders")
      ->required();
  check
      ->add_option("--max-depth", flags.max_depth,
                   "Do not expand states at this depth (overrides "
                   "bounds.max_depth)")
      ->check(CLI::PositiveNumber);
  check
      ->add_option("--max-states", flags.max_states,
                   "Stop after this many distinct states (overrides "
                   "bounds.max_states)")
      ->check(CLI::PositiveNumber);
  check
      ->add_option("--max-memory", flags.max_memory,
                   "Stop a search before it holds more than this size: its "
                   "visited store, its buffers and its graph (e.g. 4GB; "
                   "default: three quarters of the available memory); the "
                   "search is then incomplete (exit code 3)")
      ->transform(CLI::AsSizeValue(false));
  check->add_flag("--explore", flags.explore,
                  "Ignore every file's [expect] table and report what the "
                  "check finds: exit code 0 when every checked invariant "
                  "holds, 1 when one is violated");
  check->add_flag("--bless", flags.bless,
                  "Check as --explore does, then write the verdict, the "
                  "violated invariants, the shortest trace length and (for a "
                  "whole state space) the state count into each file's "
                  "[expect] table, keeping the rest of the file; refused "
                  "(exit code 2, no file changed) when a limit stopped a "
                  "search");
  check->add_flag("--stop-at-first", flags.stop_at_first,
                  "Stop at the shortest violation of any invariant");
  check
      ->add_option("--threads", flags.threads,
                   "Search on this many threads (default: every hardware "
                   "thread); results do not depend on it")
      ->check(CLI::Range(1, 1024));
  check->add_flag("--no-symmetry", flags.no_symmetry,
                  "Store every state instead of one per symmetry orbit "
                  "(same verdicts, counts and trace lengths; slower)");
  check
      ->add_option("--traces", flags.traces,
                   "Print traces: auto (one scenario, or an unexpected "
                   "outcome), always, never")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, oc::TraceMode>{
              {"auto", oc::TraceMode::kAuto},
              {"always", oc::TraceMode::kAlways},
              {"never", oc::TraceMode::kNever}},
          CLI::ignore_case));
  check->add_flag("--no-time", flags.no_time,
                  "Leave wall-clock seconds and the command line out of the "
                  "output and reports, so they are byte-identical across "
                  "runs");
  check
      ->add_option("--format", flags.format,
                   "What standard output carries: text (for people), or "
                   "json (one JSON document with every scenario's report; "
                   "everything else goes to standard error)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, oc::OutputFormat>{
              {"text", oc::OutputFormat::kText},
              {"json", oc::OutputFormat::kJson}},
          CLI::ignore_case));
  check->add_option("--report-dir", flags.report_dir,
                    "Write NAME.md, NAME.html, NAME.json per scenario, and "
                    "index.md, index.html, junit.xml, into this folder");
  check->add_option("--save-traces", flags.save_traces,
                    "Write each counterexample as a pinned-order scenario "
                    "file into this folder (a regression test to check)");
  check->add_option("--sarif", flags.sarif,
                    "Write the run's violations and unexpected outcomes as a "
                    "SARIF 2.1.0 log to this file, located in the scenario "
                    "files, each counterexample as a code flow");
  check->add_option("--itf", flags.itf,
                    "Write each counterexample as an ITF trace (the JSON "
                    "trace format of Apalache and Quint) into this folder");
  check->add_option("--graph", flags.graph,
                    "Write the state graph of the one scenario given to this "
                    "Graphviz DOT file");
  check
      ->add_option("--graph-limit", flags.graph_limit,
                   "Largest graph --graph draws, in states")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  check
      ->add_option("--graph-memory", flags.graph_memory,
                   "Keep the state graph (for the point of no return and "
                   "--graph) only if it fits in this size (default 256MiB; "
                   "0: never keep it)")
      ->transform(CLI::AsSizeValue(false));

  oc::BenchFlags bench_flags;
  CLI::App* bench = app.add_subcommand(
      "bench",
      "Search benchmark scenarios (default: scenarios/bench) under each "
      "setting (threads, symmetry) and print states, states stored, "
      "transitions, depth, seconds, stored states per second, bytes per "
      "stored state and peak memory");
  bench->add_option("paths", bench_flags.paths, "Scenario files or folders")
      ->capture_default_str();
  bench
      ->add_option("--max-memory", bench_flags.max_memory,
                   "Stop a search before it holds more than this size")
      ->transform(CLI::AsSizeValue(false));
  bench->add_flag("--json", bench_flags.json,
                  "One JSON object per scenario and line, to compare across "
                  "commits");
  bench
      ->add_option("--max-states", bench_flags.max_states,
                   "Stop each search after this many distinct states")
      ->check(CLI::PositiveNumber);
  bench
      ->add_option("--threads", bench_flags.threads,
                   "Thread counts to measure (default: 1 and every hardware "
                   "thread)")
      ->check(CLI::Range(1, 1024))
      ->delimiter(',');
  bench
      ->add_option("--symmetry", bench_flags.symmetry,
                   "Symmetry settings to measure: off, on (default: both)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, bool>{{"off", false}, {"on", true}},
          CLI::ignore_case))
      ->delimiter(',');
  bench->add_option("--declared", bench_flags.declared,
                    "Run the built-in strategies as declared in this folder of "
                    "strategy files (scenarios/strategies), to measure the "
                    "handler language's interpreter");

  oc::ExportFlags export_flags;
  CLI::App* export_cmd = app.add_subcommand(
      "export", "Write the model of one exhaustive scenario for another tool");
  export_cmd->footer(kExitCodes);
  export_cmd
      ->add_flag("--promela", export_flags.promela,
                 "As a Promela model for SPIN (the same state count)")
      ->required();
  export_cmd->add_option("scenario", export_flags.scenario, "Scenario file")
      ->required();
  export_cmd->add_option("-o,--output", export_flags.output,
                         "Write to this file (default: standard output)");

  oc::ConformFlags conform_flags;
  CLI::App* conform_cmd = app.add_subcommand(
      "conform",
      "Replay each scenario's pinned order, counterexamples and further "
      "explored paths against a real PostgreSQL, comparing the durable rows "
      "with the model's state after every step");
  conform_cmd->footer(
      "Exit codes:\n"
      "  0  every step of every path agrees with the database\n"
      "  1  a divergence: the first one of each scenario is reported\n"
      "  2  bad input or usage (a scenario file, a flag, a database that "
      "cannot be reached, a role without the right to create a schema, a "
      "schema in the way, or one that objects outside it depend on)\n"
      "  3  interrupted by SIGINT or SIGTERM: the run stopped before its "
      "next path, after dropping the schema of the current one");
  conform_cmd
      ->add_option("--postgres", conform_flags.postgres,
                   "libpq connection string or URI, e.g. \"host=localhost "
                   "dbname=scratch user=me\"")
      ->required();
  conform_cmd
      ->add_option("--paths", conform_flags.further_paths,
                   "Explored paths per scenario, beyond its counterexamples, "
                   "chosen to cover every action class")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  conform_cmd
      ->add_option("--schema", conform_flags.schema,
                   "Schema to create, work in and drop for each path; it "
                   "must not exist")
      ->capture_default_str();
  conform_cmd
      ->add_option("paths", conform_flags.paths, "Scenario files or folders")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return oc::kExitUsage;
  }
  if (bench->parsed()) return oc::RunBench(bench_flags, stdout, stderr);
  if (conform_cmd->parsed()) {
    return oc::RunConform(conform_flags, stdout, stderr);
  }
  if (export_cmd->parsed()) {
    return oc::RunExport(export_flags, stdout, stderr);
  }
  flags.github_annotations = std::getenv("GITHUB_ACTIONS") != nullptr;
  flags.command_line = CommandLine(argc, argv);
  return oc::RunCheck(flags, stdout, stderr);
}
