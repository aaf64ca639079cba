// outbox-check: the command-line entry point. Parses flags, loads every
// scenario first (bad input stops everything with exit code 2 before any
// search), checks them in order, prints results, and returns the exit code.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/atomic_file.h"
#include "cli/bench_command.h"
#include "cli/check_command.h"
#include "cli/conform_command.h"
#include "cli/export_command.h"
#include "cli/huge_pages.h"
#include "cli/init_command.h"
#include "cli/list_command.h"
#include "cli/man_page.h"
#include "cli/terminal.h"
#include "cli/usage_hints.h"

namespace {

// Each command's --help lists its own exit codes; the program's lists the
// two every command shares.
constexpr const char* kProgramExitCodes =
    "Exit codes: 0 success, 2 bad input or usage; each command's --help "
    "lists its own.";

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  every scenario as expected (without an expectation: every checked "
    "invariant holds)\n"
    "  1  a verdict, trace length or state count differs from what a "
    "scenario expects, or an invariant of a scenario without an "
    "expectation is violated\n"
    "  2  bad input or usage (a scenario file, a flag, a path), or --bless "
    "refused to write (a search that proved nothing)\n"
    "  3  a limit stopped a search, so a \"holds\" was not proved (a "
    "simulation that found no violation proves nothing either), or "
    "SIGINT or SIGTERM interrupted the run (no incomplete set of files is "
    "written)";

constexpr const char* kBenchExitCodes =
    "Exit codes:\n"
    "  0  every search completed\n"
    "  2  bad input or usage (a scenario file, a flag, a path, bundled "
    "benchmarks that cannot be found)\n"
    "  3  a limit (--max-states, --max-memory) stopped a search";

constexpr const char* kExportExitCodes =
    "Exit codes:\n"
    "  0  the model was written\n"
    "  2  bad input or usage (a scenario file, a flag, a scenario the "
    "export does not cover, a file that cannot be written)";

constexpr const char* kListExitCodes =
    "Exit codes:\n"
    "  0  listed\n"
    "  2  an unknown section, or bundled data that cannot be found or read";

constexpr const char* kInitExitCodes =
    "Exit codes:\n"
    "  0  the scenario file was written\n"
    "  2  an unknown preset, a file that exists (without --force), a file "
    "that cannot be written, or bundled presets that cannot be found";

// A validator for a whole number of `what`, at least `least`, in decimal
// digits only (CLI11 would read "-1" as a huge unsigned number).
CLI::Validator WholeNumber(std::string what, std::uint64_t least) {
  return CLI::Validator(
      [what, least](std::string& text) -> std::string {
        std::uint64_t n = 0;
        const auto [end, ec] =
            std::from_chars(text.data(), text.data() + text.size(), n);
        if (text.empty() || ec != std::errc() ||
            end != text.data() + text.size() || n < least) {
          return fmt::format("'{}' is not {}: a whole number from {} to {}",
                             text, what, least, UINT64_MAX);
        }
        return "";
      },
      "", "");
}

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
  // cli/huge_pages.h; returns if it did not start the program again.
  if (argc > 1 && oc::SearchesWithHugePages(argv[1])) {
    oc::RestartWithHugePages(argv);
    oc::AllocateFromOneArena();
  }
  CLI::App app{
      "outbox-check: an explicit-state model checker for the transactional "
      "outbox pipeline (outbox table, relays under a lease with a fencing "
      "token, broker, consumers with an inbox)."};
  app.name("outbox-check");
  app.footer(kProgramExitCodes);
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
                   "Stop once the search has stored this many states: one "
                   "per symmetry orbit, or every distinct state with "
                   "--no-symmetry; the progress line counts the same "
                   "(overrides bounds.max_states)")
      ->check(CLI::PositiveNumber);
  check
      ->add_option("--max-memory", flags.max_memory,
                   "Stop a search before it holds more than this size: its "
                   "visited store, its buffers and its graph (e.g. 4GB; "
                   "default: three quarters of the available memory); the "
                   "search is then incomplete (exit code 3)")
      ->transform(CLI::AsSizeValue(false))
      ->option_text("SIZE");
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
  check->add_flag(
      "--distributed", flags.distributed,
      "Spread each search over the processes `mpirun -np N` started: each "
      "state is stored by one rank, chosen by its hash; counts, verdicts, "
      "traces and reports are those of a one-process search, and rank 0 "
      "alone prints and writes (one thread per rank; --max-memory is per "
      "rank)");
  check->add_flag("--no-symmetry", flags.no_symmetry,
                  "Store every state instead of one per symmetry orbit "
                  "(same verdicts, counts and trace lengths; slower)");
  using PartialOrderUse = oc::CheckOptions::PartialOrderUse;
  oc::Choices(
      check->add_option(
          "--partial-order", flags.partial_order,
          "Partial-order reduction (stubborn sets): auto (for searches "
          "that can prove \"holds\": the scenario expects it or nothing, "
          "and pins no state count or must_fire), on (also when a "
          "violation is expected), off. Verdicts do not change; a reduced "
          "search reports states stored, not distinct states, and one that "
          "finds a violation is followed by the unreduced search for the "
          "shortest traces"),
      std::map<std::string, PartialOrderUse>{{"auto", PartialOrderUse::kAuto},
                                             {"on", PartialOrderUse::kOn},
                                             {"off", PartialOrderUse::kOff}},
      {"auto", "on", "off"});
  check->add_flag("--partial-order-check", flags.partial_order_check,
                  "Also search each scenario with and without partial-order "
                  "reduction and compare the violated invariants, terminal "
                  "states and traces; a difference fails the scenario");
  oc::Choices(
      check->add_option("--traces", flags.traces,
                        "Print traces: auto (one scenario, or an "
                        "unexpected outcome), always, never"),
      std::map<std::string, oc::TraceMode>{{"auto", oc::TraceMode::kAuto},
                                           {"always", oc::TraceMode::kAlways},
                                           {"never", oc::TraceMode::kNever}},
      {"auto", "always", "never"});
  check->add_flag("--no-time", flags.no_time,
                  "Leave wall-clock seconds and the command line out of the "
                  "output and reports, so they are byte-identical across "
                  "runs");
  oc::Choices(
      check->add_option("--format", flags.format,
                        "What standard output carries: text (for people), or "
                        "json (one JSON document with every scenario's report; "
                        "everything else goes to standard error)"),
      std::map<std::string, oc::OutputFormat>{
          {"text", oc::OutputFormat::kText}, {"json", oc::OutputFormat::kJson}},
      {"text", "json"});
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
      ->transform(CLI::AsSizeValue(false))
      ->option_text("SIZE");

  check->add_flag("--simulate", flags.simulate,
                  "Random walks instead of an exhaustive search, for state "
                  "spaces too large to search: each walk takes enabled "
                  "actions at random up to --max-depth steps (default: "
                  "bounds.max_depth, else 200); a violation found is "
                  "shortened and saved as any other; never proves \"holds\" "
                  "(exit code 3 when nothing is found)");
  check
      ->add_option("--walks", flags.walks,
                   "With --simulate: run this many walks (default 1000, or "
                   "as many as --time allows)")
      ->check(WholeNumber("a number of walks", 1));
  check
      ->add_option("--time", flags.time,
                   "With --simulate: start no walk after this long (e.g. "
                   "60s, 2m, 500ms; a bare number is seconds)")
      ->option_text("DURATION");
  check
      ->add_option("--seed", flags.seed,
                   "With --simulate: the seed of the walks (default 1); the "
                   "same seed gives the same walks on any platform and "
                   "thread count")
      ->check(WholeNumber("a seed", 0))
      ->each([&flags](const std::string&) { flags.seed_given = true; });
  check->add_flag("--swarm", flags.swarm,
                  "With --simulate: each walk also draws its own fault "
                  "budgets (0 to the scenario's) and a weight per action "
                  "class, so that rare combinations are tried");

  oc::BenchFlags bench_flags;
  CLI::App* bench = app.add_subcommand(
      "bench",
      "Search benchmark scenarios (default: the bundled ones) under each "
      "setting (threads, symmetry) and print states, states stored, "
      "transitions, depth, seconds, stored states per second, bytes per "
      "stored state and peak memory");
  bench->footer(kBenchExitCodes);
  bench->add_option("paths", bench_flags.paths,
                    "Scenario files or folders (default: the benchmarks "
                    "installed with outbox-check, found from where the "
                    "binary is, not the working folder)");
  bench
      ->add_option("--max-memory", bench_flags.max_memory,
                   "Stop a search before it holds more than this size")
      ->transform(CLI::AsSizeValue(false))
      ->option_text("SIZE");
  bench->add_flag("--json", bench_flags.json,
                  "One JSON object per scenario and line, to compare across "
                  "commits");
  bench
      ->add_option("--max-states", bench_flags.max_states,
                   "Stop each search once it has stored this many states "
                   "(one per symmetry orbit with symmetry on)")
      ->check(CLI::PositiveNumber);
  bench
      ->add_option("--threads", bench_flags.threads,
                   "Thread counts to measure (default: 1 and every hardware "
                   "thread)")
      ->check(CLI::Range(1, 1024))
      ->delimiter(',');
  oc::Choices(bench->add_option("--symmetry", bench_flags.symmetry,
                                "Symmetry settings to measure, separated by "
                                "commas: off, on (default: both)"),
              std::map<std::string, bool>{{"off", false}, {"on", true}},
              {"off", "on"})
      ->delimiter(',');
  oc::Choices(bench->add_option("--partial-order", bench_flags.partial_order,
                                "Partial-order reduction settings to measure, "
                                "separated by commas: off, on (default: off)"),
              std::map<std::string, bool>{{"off", false}, {"on", true}},
              {"off", "on"})
      ->delimiter(',');
  bench->add_option("--declared", bench_flags.declared,
                    "Run the built-in strategies as declared in this folder of "
                    "strategy files (scenarios/strategies), to measure the "
                    "handler language's interpreter");

  oc::ExportFlags export_flags;
  CLI::App* export_cmd = app.add_subcommand(
      "export", "Write the model of one exhaustive scenario for another tool");
  export_cmd->footer(kExportExitCodes);
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

  // check: which scenarios it checks, and how much it prints meanwhile.
  check
      ->add_option("--only", flags.only,
                   "Check only the scenarios whose name matches this shell "
                   "pattern (* and ? as wildcards; may be repeated); one "
                   "that matches none is an error")
      ->allow_extra_args(false)
      ->option_text("PATTERN");
  check->add_flag("-q,--quiet", flags.quiet,
                  "Print only errors (one line per scenario whose outcome "
                  "fails the run) and the final line");
  oc::Choices(
      check->add_option("--progress", flags.progress,
                        "Show a long search's progress on standard error: auto "
                        "(only when it is a terminal), always, never; --quiet "
                        "turns it off"),
      std::map<std::string, oc::ProgressMode>{
          {"auto", oc::ProgressMode::kAuto},
          {"always", oc::ProgressMode::kAlways},
          {"never", oc::ProgressMode::kNever}},
      {"auto", "always", "never"});

  oc::ListFlags list_flags;
  CLI::App* list_cmd = app.add_subcommand(
      "list",
      "List what a scenario can name, one line each: strategies, "
      "invariants, relay styles, fault budgets, presets, and the bundled "
      "scenarios (catalogue); without a section, all of them");
  list_cmd->footer(kListExitCodes);
  list_cmd
      ->add_option("section", list_flags.section,
                   "One section: " + oc::ListSectionChoices())
      ->option_text(oc::ListSectionChoices());

  oc::InitFlags init_flags;
  CLI::App* init_cmd = app.add_subcommand(
      "init",
      "Write a commented scenario file to start from, copied from a preset, "
      "whose [expect] says what check finds");
  init_cmd->footer(kInitExitCodes);
  init_cmd->add_option("file", init_flags.file, "The scenario file to write")
      ->required();
  init_cmd->add_option("--from", init_flags.from,
                       std::string("The preset to copy (`outbox-check list "
                                   "presets`; default: ") +
                           oc::kDefaultPreset + ")");
  init_cmd->add_flag("--force", init_flags.force,
                     "Replace the file if it exists");

  // Hidden (no group): the build writes the manual page with it.
  std::string man_file;
  CLI::App* man_cmd = app.add_subcommand(
      "man-page", "Write the manual page, outbox-check(1), as roff");
  man_cmd->group("");
  man_cmd->add_option("file", man_file, "The file to write")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A misspelt command or flag gets a did-you-mean; anything else,
    // CLI11's own message.
    if (std::optional<std::string> hint =
            oc::UsageHint(app, std::vector<std::string>(argv + 1, argv + argc));
        hint) {
      fmt::print(stderr, "outbox-check: {}\n", *hint);
      return oc::kExitUsage;
    }
    app.exit(e);
    return oc::kExitUsage;
  }
  if (man_cmd->parsed()) {
    if (oc::Status written = oc::WriteFileAtomically(
            man_file, oc::ManPage(app, oc::InstalledManPageFacts()));
        !written.ok()) {
      fmt::print(stderr, "outbox-check: man-page: {}\n", written.message());
      return oc::kExitUsage;
    }
    return 0;
  }
  if (list_cmd->parsed()) {
    list_flags.width = oc::TerminalWidth(stdout);
    return oc::RunList(list_flags, stdout, stderr);
  }
  if (init_cmd->parsed()) return oc::RunInit(init_flags, stdout, stderr);
  if (bench->parsed()) return oc::RunBench(bench_flags, stdout, stderr);
  if (conform_cmd->parsed()) {
    return oc::RunConform(conform_flags, stdout, stderr);
  }
  if (export_cmd->parsed()) {
    return oc::RunExport(export_flags, stdout, stderr);
  }
  flags.github_annotations = std::getenv("GITHUB_ACTIONS") != nullptr;
  flags.command_line = CommandLine(argc, argv);
  // With --format json the text for people goes to standard error.
  flags.colour = oc::ColourWanted(
      flags.format == oc::OutputFormat::kJson ? stderr : stdout);
  return oc::RunCheck(flags, stdout, stderr);
}
