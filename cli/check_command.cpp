#include "cli/check_command.h"

#include <fmt/format.h>
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

#include "check/regression_scenario.h"
#include "check/scenario_check.h"
#include "cli/atomic_file.h"
#include "cli/bless.h"
#include "cli/interrupt.h"
#include "cli/output_folder.h"
#include "cli/progress.h"
#include "cli/scenario_paths.h"
#include "common/closest_name.h"
#include "common/text.h"
#include "explorer/transport.h"
#ifdef OC_HAVE_MPI
#include "explorer/mpi_transport.h"
#endif
#include "export/itf_export.h"
#include "reports/graphviz_report.h"
#include "reports/json_report.h"
#include "reports/report_set.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"
#include "reports/wording.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

// GitHub Actions workflow commands: "%", CR and LF must be escaped in the
// message, and also "," and ":" in properties.
std::string EscapeAnnotation(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if (property && c == ':') {
      out += "%3A";
    } else if (property && c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

void Annotate(const ScenarioResult& r, std::FILE* out) {
  // Without an expectation, the annotation says what was found, on the
  // file's first line.
  std::string message =
      r.scenario.expect
          ? fmt::format("{}: {} (expected {})", reports::OutcomeText(r.outcome),
                        reports::VerdictText(r),
                        reports::ExpectedText(r.scenario))
          : reports::OutcomeSentence(r);
  for (const std::string& why : r.mismatches) message += "\n- " + why;
  const int line =
      std::max(1, r.scenario.expect ? r.scenario.expect->position.line : 1);
  fmt::print(out, "::error file={},line={},title={}::{}\n",
             EscapeAnnotation(r.scenario.path, true), line,
             EscapeAnnotation("outbox-check " + r.scenario.name, true),
             EscapeAnnotation(message, false));
}

// The pinned-order scenario of each counterexample, named for --save-traces
// and written to be saved in `folder`; false (and a message) when one cannot
// be written as a scenario.
bool TraceFiles(const std::vector<ScenarioResult>& results,
                const std::string& folder, std::vector<OutputFile>& files,
                std::FILE* err) {
  for (const reports::TraceFileName& file : reports::TraceFileNames(results)) {
    Result<Scenario> scenario =
        RegressionScenario(results[file.result], file.violation, folder);
    if (!scenario.ok()) {
      fmt::print(err, "outbox-check: --save-traces: {}\n",
                 scenario.status().message());
      return false;
    }
    files.push_back({file.name, FormatScenario(scenario.value())});
  }
  return true;
}

// The scenarios whose name matches one of `patterns` (all when there are
// none), in their order; nullopt, after saying so, when that is none.
std::optional<std::vector<Scenario>> PickScenarios(
    std::vector<Scenario> scenarios, const std::vector<std::string>& patterns,
    std::FILE* err) {
  if (patterns.empty()) return scenarios;
  std::vector<Scenario> picked;
  for (Scenario& s : scenarios) {
    for (const std::string& pattern : patterns) {
      if (fnmatch(pattern.c_str(), s.name.c_str(), 0) == 0) {
        picked.push_back(std::move(s));
        break;
      }
    }
  }
  if (!picked.empty()) return picked;
  std::vector<std::string_view> names;
  for (const Scenario& s : scenarios) names.push_back(s.name);
  std::vector<std::string> quoted;
  for (const std::string& p : patterns) quoted.push_back("'" + p + "'");
  fmt::print(err,
             "outbox-check: --only {} matches none of the {} loaded (a "
             "pattern matches a scenario's whole name, its `name` or its "
             "file's stem, with * and ? as wildcards){}\n",
             fmt::join(quoted, ", "), Plural(scenarios.size(), "scenario"),
             patterns.size() == 1 ? DidYouMean(patterns.front(), names) : "");
  return std::nullopt;
}

// How a distributed search spread, for the person who ran it (standard
// error; reports leave it out): "distributed over 4 ranks: stored
// 24.1%-26.0% of the states each, peak memory 21.3 MiB-22.0 MiB; 74.9% of
// the successors went to another rank, 38.2 bytes sent per state".
std::string DistributionText(const explorer::Distribution& d,
                             const explorer::Stats& stats) {
  const auto [stored_min, stored_max] =
      std::minmax_element(d.rank_stored.begin(), d.rank_stored.end());
  const auto [peak_min, peak_max] =
      std::minmax_element(d.rank_peak_bytes.begin(), d.rank_peak_bytes.end());
  const double stored =
      static_cast<double>(std::max<std::uint64_t>(1, stats.stored_states));
  return fmt::format(
      "distributed over {} rank{}: stored {:.1f}%-{:.1f}% of the states "
      "each, peak memory {}-{}; {:.1f}% of the successors went to another "
      "rank, {:.1f} bytes sent per state stored",
      d.ranks, d.ranks == 1 ? "" : "s",
      100.0 * static_cast<double>(*stored_min) / stored,
      100.0 * static_cast<double>(*stored_max) / stored, BytesText(*peak_min),
      BytesText(*peak_max),
      100.0 * static_cast<double>(d.crossing) /
          static_cast<double>(std::max<std::uint64_t>(1, d.candidates)),
      static_cast<double>(d.bytes_sent) / stored);
}

// The final line `text`, coloured as exit code `code` when `colour`.
void PrintFinalLine(const std::string& text, int code, bool colour,
                    std::FILE* out) {
  if (!colour) {
    fmt::print(out, "{}\n", text);
    return;
  }
  fmt::print(out, "{}{}\033[0m\n",
             code == 0   ? "\033[32m"
             : code == 1 ? "\033[1;31m"
                         : "\033[33m",
             text);
}

// The exit code of an interrupted run, after saying so.
int Interrupted(const InterruptFlag& interrupt, std::FILE* out) {
  fmt::print(out,
             "interrupted by {}: not proved; files already complete were "
             "kept, nothing else was written\n",
             interrupt.SignalName());
  return kExitLimit;
}

// Writes each expectation into its result's file, saying so on `err`; exit
// code 0 when all were written, 2 at the first that could not be, 3 when a
// signal came first (files before it stay blessed, the others untouched).
int Bless(const std::vector<ScenarioResult>& results,
          const std::vector<Expectation>& expectations,
          const InterruptFlag& interrupt, std::FILE* out, std::FILE* err) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (interrupt.raised()) return Interrupted(interrupt, out);
    const std::string& path = results[i].scenario.path;
    Result<bool> changed = BlessFile(results[i], expectations[i]);
    if (!changed.ok()) {
      fmt::print(err, "outbox-check: --bless: {}\n",
                 changed.status().message());
      return kExitUsage;
    }
    std::vector<std::string> keys;
    for (const TomlKey& key : ExpectTableKeys(expectations[i])) {
      keys.push_back(fmt::format("{} = {}", key.name, key.value));
    }
    fmt::print(err, "{} {}: {}\n",
               changed.value() ? "blessed" : "already blessed", path,
               fmt::join(keys, ", "));
  }
  return 0;
}

// Writes `files` into `folder` as one set (see WriteFileSet), then says
// "<verb> PATH" for each unless --quiet. 0 when written; otherwise the exit
// code, the error said on `err`.
int WriteSet(std::string_view flag, const std::string& folder,
             const std::vector<OutputFile>& files, std::string_view verb,
             const CheckFlags& flags, const InterruptFlag& interrupt,
             std::FILE* out, std::FILE* err) {
  if (Status s =
          WriteFileSet(std::string(flag), folder, files, interrupt.flag());
      !s.ok()) {
    if (interrupt.raised()) return Interrupted(interrupt, out);
    fmt::print(err, "outbox-check: {}\n", s.message());
    return kExitUsage;
  }
  for (const OutputFile& f : files) {
    if (flags.quiet) break;
    fmt::print(out, "{} {}\n", verb,
               (std::filesystem::path(folder) / f.name).string());
  }
  return 0;
}

// The duration `text` spells: a whole number and a unit (ms, s, m, h; a
// bare number is seconds).
std::optional<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  const std::optional<std::int64_t> n = ParseInteger(text.substr(0, digits));
  if (!n || *n <= 0) return std::nullopt;
  const std::string_view unit = text.substr(digits);
  const std::int64_t scale = unit == "ms"                  ? 1
                             : unit == "s" || unit.empty() ? 1000
                             : unit == "m"                 ? 60'000
                             : unit == "h"                 ? 3'600'000
                                                           : 0;
  if (scale == 0 || *n > INT64_MAX / scale) return std::nullopt;
  return std::chrono::milliseconds(*n * scale);
}

// The simulation --simulate and its flags ask for (nullopt without it), or
// why they do not go together.
Result<std::optional<SimulationOptions>> SimulationFlags(
    const CheckFlags& flags) {
  if (!flags.simulate) {
    for (const auto& [given, name] :
         {std::pair{flags.walks.has_value(), "--walks"},
          std::pair{flags.time.has_value(), "--time"},
          std::pair{flags.seed_given, "--seed"},
          std::pair{flags.swarm, "--swarm"}}) {
      if (given) {
        return Status::Error(fmt::format(
            "{} sets up random walks; add --simulate to run them", name));
      }
    }
    return std::optional<SimulationOptions>();
  }
  for (const auto& [given, name] :
       {std::pair{flags.bless, "--bless"},
        std::pair{flags.graph.has_value(), "--graph"},
        std::pair{flags.partial_order_check, "--partial-order-check"}}) {
    if (given) {
      return Status::Error(fmt::format(
          "--simulate samples paths and proves no \"holds\"; {} needs the "
          "exhaustive search",
          name));
    }
  }
  SimulationOptions simulation;
  simulation.seed = flags.seed;
  simulation.walks = flags.walks;
  simulation.swarm = flags.swarm;
  if (flags.time) {
    simulation.time = ParseDuration(*flags.time);
    if (!simulation.time) {
      return Status::Error(fmt::format(
          "--time '{}' is not a duration: a positive whole number and a "
          "unit, ms, s, m or h (60s, 2m; a bare number is seconds)",
          *flags.time));
    }
  }
  return std::optional<SimulationOptions>(simulation);
}

// What every report of this run says about it: seconds and the command
// line, unless --no-time asks for byte-identical output.
reports::ReportOptions ReportOptionsFor(const CheckFlags& flags) {
  reports::ReportOptions options;
  options.wall_clock = !flags.no_time;
  if (!flags.no_time) options.command_line = flags.command_line;
  return options;
}

// Checks and writes what `flags` ask for, printing for people to `out`;
// `results` receives every result as it comes. SIGINT and SIGTERM, raised
// on `interrupt`, stop the run before its next search, or a search at its
// next batch, and leave no partial output.
//
// With `net`, each search is spread over its ranks, and only rank 0 writes
// files (the others go through the same steps, so that every rank makes
// the same collective calls).
int CheckAndWrite(const CheckFlags& flags, const InterruptFlag& interrupt,
                  std::vector<ScenarioResult>& results, std::FILE* out,
                  std::FILE* err, explorer::Transport* net = nullptr) {
  const bool writes = net == nullptr || net->rank() == 0;
  if (flags.bless && flags.stop_at_first) {
    fmt::print(err,
               "outbox-check: --bless records what each file's own search "
               "finds; --stop-at-first would record its shortest violation "
               "only\n");
    return kExitUsage;
  }
  const Result<std::optional<SimulationOptions>> simulate =
      SimulationFlags(flags);
  if (!simulate.ok()) {
    fmt::print(err, "outbox-check: {}\n", simulate.status().message());
    return kExitUsage;
  }
  if (flags.graph && flags.paths.size() != 1) {
    fmt::print(err,
               "outbox-check: --graph draws one scenario; give one file\n");
    return kExitUsage;
  }
  std::optional<std::vector<Scenario>> scenarios = LoadScenarios(
      flags.paths, "outbox-check", err,
      flags.explore || flags.bless ? ExpectTable::kIgnore : ExpectTable::kRead);
  if (!scenarios) return kExitUsage;
  scenarios = PickScenarios(std::move(*scenarios), flags.only, err);
  if (!scenarios) return kExitUsage;
  if (flags.graph && scenarios->size() != 1) {
    fmt::print(err,
               "outbox-check: --graph draws one scenario; give one file\n");
    return kExitUsage;
  }
  // Where the output goes is checked before any search, so that a bad
  // folder costs none.
  for (Status s :
       {flags.report_dir
            ? PrepareOutputFolder("--report-dir", *flags.report_dir)
            : Status::Ok(),
        flags.save_traces
            ? PrepareOutputFolder("--save-traces", *flags.save_traces)
            : Status::Ok(),
        flags.graph ? PrepareOutputFile("--graph", *flags.graph) : Status::Ok(),
        flags.sarif ? PrepareOutputFile("--sarif", *flags.sarif) : Status::Ok(),
        flags.itf ? PrepareOutputFolder("--itf", *flags.itf) : Status::Ok()}) {
    if (!s.ok()) {
      fmt::print(err, "outbox-check: {}\n", s.message());
      return kExitUsage;
    }
  }

  reports::TextOptions text;
  text.wall_clock = !flags.no_time;
  text.colour = flags.colour;
  // Ranks must agree on whether the search reports progress (it sums
  // every rank's figures to do it), so a distributed run shows it only
  // when asked: under mpirun standard error is never a terminal anyway.
  const bool progress_enabled =
      !flags.quiet && (flags.progress == ProgressMode::kAlways ||
                       (flags.progress == ProgressMode::kAuto &&
                        net == nullptr && isatty(fileno(err)) != 0));
  std::vector<Outcome> outcomes;
  for (const Scenario& scenario : *scenarios) {
    // Ranks agree on an interruption through the search (below), not on
    // when each saw the signal.
    if (net == nullptr && interrupt.raised()) break;
    CheckOptions options;
    options.max_depth = flags.max_depth;
    options.max_states = flags.max_states;
    options.max_bytes =
        flags.max_memory ? flags.max_memory : DefaultMemoryLimit();
    if (flags.graph_memory) options.graph_bytes_limit = *flags.graph_memory;
    if (flags.stop_at_first) options.stop_at_first_violation = true;
    options.threads = flags.threads;
    options.symmetry = !flags.no_symmetry;
    // --bless pins a state count and --graph draws the whole graph: both
    // need the unreduced search.
    options.partial_order = flags.bless || flags.graph
                                ? CheckOptions::PartialOrderUse::kOff
                                : flags.partial_order;
    options.partial_order_check = flags.partial_order_check;
    options.graph_limit = std::max(options.graph_limit, flags.graph_limit);
    options.cancel = interrupt.flag();
    options.simulate = simulate.value();
    options.distributed = net;
    Result<ScenarioResult> result = [&] {
      // The progress line is gone before anything else is printed.
      ProgressLine progress(
          err, progress_enabled, scenario.name,
          ProgressLimits{options.max_states ? options.max_states
                                            : scenario.limits.max_states,
                         options.max_bytes});
      if (progress_enabled) {
        options.on_progress = [&](const explorer::Stats& s) {
          progress.Update(s);
        };
      }
      return CheckScenario(scenario, options);
    }();
    if (!result.ok()) {
      fmt::print(err, "{}\n", result.status().message());
      return kExitUsage;
    }
    const ScenarioResult& r = result.value();
    text.traces = flags.traces == TraceMode::kAlways ||
                  (flags.traces == TraceMode::kAuto &&
                   (scenarios->size() == 1 || ExitCodeOf(r.outcome) != 0));
    // Many scenarios: one line each, and the full block only when it
    // matters; an interrupted search always shows how far it got.
    if (flags.quiet) {
      if (ExitCodeOf(r.outcome) != 0) {
        fmt::print(err, "{} ({}): {}: {}; expected {}\n", r.scenario.name,
                   r.scenario.path, reports::OutcomeText(r.outcome),
                   reports::VerdictText(r), reports::ExpectedText(r.scenario));
      }
    } else if (scenarios->size() == 1 || text.traces || interrupt.raised()) {
      fmt::print(out, "{}\n", reports::FormatResult(r, text));
    }
    if (flags.github_annotations && !flags.bless &&
        ExitCodeOf(r.outcome) != 0) {
      Annotate(r, out);
    }
    if (net != nullptr && !flags.quiet && r.exploration.distribution) {
      fmt::print(
          err, "{}\n",
          DistributionText(*r.exploration.distribution, r.exploration.stats));
    }
    outcomes.push_back(r.outcome);
    const bool stopped = r.exploration.stop == explorer::Stop::kInterrupted;
    results.push_back(std::move(result).value());
    if (net != nullptr && stopped) break;
  }
  if (!flags.quiet &&
      (results.size() > 1 || flags.traces == TraceMode::kNever)) {
    fmt::print(out, "{}", reports::FormatSummary(results, text));
  }
  if (interrupt.raised()) return Interrupted(interrupt, out);
  // Blessing needs every search proved; when one is not, nothing is
  // written at all.
  std::optional<std::vector<Expectation>> blessed;
  if (flags.bless) {
    blessed = ExpectationsToBless(results, err);
    if (!blessed) {
      fmt::print(err, "outbox-check: --bless: no file was changed\n");
      return kExitUsage;
    }
  }

  // Each set of files is written whole or not at all.
  if (flags.save_traces && writes) {
    std::vector<OutputFile> files;
    if (!TraceFiles(results, *flags.save_traces, files, err)) {
      return kExitUsage;
    }
    if (const int code = WriteSet("--save-traces", *flags.save_traces, files,
                                  "saved", flags, interrupt, out, err)) {
      return code;
    }
  }
  if (flags.itf && writes) {
    std::vector<OutputFile> files;
    for (const reports::TraceFileName& file :
         reports::CounterexampleFileNames(results, ".itf.json")) {
      files.push_back(
          {file.name, exports::ItfTrace(results[file.result], file.violation)});
    }
    if (const int code =
            WriteSet("--itf", *flags.itf, files, "ITF trace written to", flags,
                     interrupt, out, err)) {
      return code;
    }
  }
  if (flags.graph && writes) {
    Result<std::string> dot =
        reports::GraphvizReport(results.front(), flags.graph_limit);
    if (!dot.ok()) {
      fmt::print(err, "outbox-check: --graph: {}; no file written\n",
                 dot.status().message());
    } else if (interrupt.raised()) {
      return Interrupted(interrupt, out);
    } else if (Status s = WriteFileAtomically(*flags.graph, dot.value());
               !s.ok()) {
      fmt::print(err, "outbox-check: --graph: {}\n", s.message());
      return kExitUsage;
    }
  }
  if (flags.report_dir && writes) {
    const reports::ReportOptions report = ReportOptionsFor(flags);
    std::vector<OutputFile> files;
    for (reports::ReportFile& f : reports::ReportFiles(results, report)) {
      files.push_back({std::move(f.name), std::move(f.content)});
    }
    if (Status s = WriteFileSet("--report-dir", *flags.report_dir, files,
                                interrupt.flag());
        !s.ok()) {
      if (interrupt.raised()) return Interrupted(interrupt, out);
      fmt::print(err, "outbox-check: {}\n", s.message());
      return kExitUsage;
    }
    if (!flags.quiet) {
      fmt::print(out, "reports written to {}\n", *flags.report_dir);
    }
  }
  if (flags.sarif && writes) {
    if (interrupt.raised()) return Interrupted(interrupt, out);
    if (Status s = WriteFileAtomically(
            *flags.sarif, reports::SarifReport(results, OUTBOX_CHECK_VERSION));
        !s.ok()) {
      fmt::print(err, "outbox-check: --sarif: {}\n", s.message());
      return kExitUsage;
    }
    if (!flags.quiet) {
      fmt::print(out, "SARIF log written to {}\n", *flags.sarif);
    }
  }

  const int code = ExitCodeFor(outcomes);
  PrintFinalLine(reports::RunOutcomeText(results), code, flags.colour, out);
  if (blessed && writes) {
    std::fflush(out);  // what was found comes before what was blessed
    return Bless(results, *blessed, interrupt, out, err);
  }
  return code;
}

// RunCheck on this process, or on each rank of `net`.
int RunCheckOn(const CheckFlags& flags, std::FILE* out, std::FILE* err,
               explorer::Transport* net) {
  const InterruptFlag interrupt;
  std::vector<ScenarioResult> results;
  if (flags.format == OutputFormat::kText) {
    return CheckAndWrite(flags, interrupt, results, out, err, net);
  }
  // Standard output carries the document alone.
  const int code = CheckAndWrite(flags, interrupt, results, err, err, net);
  if (code == kExitUsage) return code;
  const reports::ReportOptions options = ReportOptionsFor(flags);
  const reports::JsonRun run{.tool_version = OUTBOX_CHECK_VERSION,
                             .exit_code = code,
                             .interrupted = interrupt.raised()};
  fmt::print(out, "{}", reports::JsonRunReport(results, run, options));
  std::fflush(out);
  return code;
}

// --distributed: every rank runs the check; rank 0 prints and writes, the
// others print nothing. A rank that must stop early (bad input, a file it
// cannot write) stops every rank, so that none waits for it.
int RunDistributed(const CheckFlags& flags, std::FILE* out, std::FILE* err) {
  if (flags.simulate) {
    fmt::print(err,
               "outbox-check: --distributed spreads an exhaustive search over "
               "MPI ranks; --simulate runs independent walks (use --threads "
               "for those)\n");
    return kExitUsage;
  }
#ifdef OC_HAVE_MPI
  explorer::MpiTransport net;
  std::FILE* quiet = nullptr;
  if (net.rank() != 0) {
    quiet = std::fopen("/dev/null", "w");
    if (quiet == nullptr) net.Abort(kExitUsage);
    out = err = quiet;
  }
  // Open MPI gives a rank's standard output a terminal of its own, whatever
  // mpirun's is: colour would reach logs and pipes.
  CheckFlags mine = flags;
  mine.colour = false;
  // The default memory limit is shared by the ranks of one machine.
  if (!mine.max_memory) {
    if (const std::optional<std::uint64_t> all = DefaultMemoryLimit()) {
      mine.max_memory = *all / static_cast<std::uint64_t>(net.ranks_here());
    }
  }
  const int code = RunCheckOn(mine, out, err, &net);
  std::fflush(out);
  std::fflush(err);
  if (code == kExitUsage) {
    // At once, before any collective call the other ranks may not make:
    // rank 0 says why; the others give it time to, before they end the
    // run (and rank 0, if it is waiting for them in a search).
    if (net.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));
    net.Abort(kExitUsage);
  }
  // Each rank's peak resident memory, said by rank 0.
  const std::uint64_t rss = PeakResidentBytes();
  std::vector<std::uint8_t> mine_rss(sizeof rss);
  std::memcpy(mine_rss.data(), &rss, sizeof rss);
  std::vector<std::string> by_rank;
  for (const auto& bytes : net.GatherAll(mine_rss)) {
    std::uint64_t r = 0;
    std::memcpy(&r, bytes.data(), std::min(bytes.size(), sizeof r));
    by_rank.push_back(BytesText(r));
  }
  if (!flags.quiet) {
    fmt::print(err, "peak resident memory by rank: {}\n",
               fmt::join(by_rank, ", "));
  }
  if (quiet != nullptr) std::fclose(quiet);
  return code;
#else
  (void)out;
  fmt::print(err,
             "outbox-check: --distributed needs MPI, and this build has "
             "none: install Open MPI (./setup.sh does) and build again\n");
  return kExitUsage;
#endif
}

}  // namespace

int RunCheck(const CheckFlags& flags, std::FILE* out, std::FILE* err) {
  if (flags.distributed) return RunDistributed(flags, out, err);
  return RunCheckOn(flags, out, err, nullptr);
}

}  // namespace oc
