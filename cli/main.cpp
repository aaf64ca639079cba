// outbox-check: the command-line entry point. Parses flags, loads every
// scenario first (bad input stops everything with exit code 2 before any
// search), checks them in order, prints results, and returns the exit code.

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/progress.h"
#include "cli/scenario_paths.h"
#include "reports/text_report.h"
#include "scenarios/scenario_check.h"
#include "scenarios/scenario_loader.h"

namespace {

constexpr int kExitUsage = 2;

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  every scenario as expected\n"
    "  1  a verdict, trace length or state count differs from what a "
    "scenario expects\n"
    "  2  bad input or usage (a scenario file, a flag, a path)\n"
    "  3  a limit stopped a search, so a \"holds\" was not proved";

enum class TraceMode { kAuto, kAlways, kNever };

struct CheckFlags {
  std::vector<std::string> paths;
  std::optional<int> max_depth;
  std::optional<std::uint64_t> max_states;
  bool stop_at_first = false;
  TraceMode traces = TraceMode::kAuto;
  bool no_time = false;
};

int RunCheck(const CheckFlags& flags) {
  oc::Result<std::vector<std::string>> files = oc::ScenarioFiles(flags.paths);
  if (!files.ok()) {
    fmt::print(stderr, "outbox-check: {}\n", files.status().message());
    return kExitUsage;
  }
  std::vector<oc::Scenario> scenarios;
  bool bad_input = false;
  for (const std::string& file : files.value()) {
    oc::Result<oc::Scenario> scenario = oc::LoadScenario(file);
    if (!scenario.ok()) {
      fmt::print(stderr, "{}\n", scenario.status().message());
      bad_input = true;
      continue;
    }
    scenarios.push_back(std::move(scenario).value());
  }
  if (bad_input) return kExitUsage;

  oc::reports::TextOptions text;
  text.show_time = !flags.no_time;
  const bool progress_enabled = isatty(fileno(stderr)) != 0;
  std::vector<oc::ScenarioResult> results;
  std::vector<oc::Outcome> outcomes;
  for (const oc::Scenario& scenario : scenarios) {
    oc::CheckOptions options;
    options.max_depth = flags.max_depth;
    options.max_states = flags.max_states;
    if (flags.stop_at_first) options.stop_at_first_violation = true;
    oc::Result<oc::ScenarioResult> result = [&] {
      // The progress line is gone before anything else is printed.
      oc::ProgressLine progress(stderr, progress_enabled, scenario.name);
      options.on_progress = [&](const oc::explorer::Stats& s) {
        progress.Update(s);
      };
      return oc::CheckScenario(scenario, options);
    }();
    if (!result.ok()) {
      fmt::print(stderr, "{}\n", result.status().message());
      return kExitUsage;
    }
    const oc::ScenarioResult& r = result.value();
    text.traces =
        flags.traces == TraceMode::kAlways ||
        (flags.traces == TraceMode::kAuto &&
         (scenarios.size() == 1 || r.outcome != oc::Outcome::kAsExpected));
    // Many scenarios: one line each, and the full block only when it matters.
    if (scenarios.size() == 1 || text.traces) {
      fmt::print("{}\n", oc::reports::FormatResult(r, text));
    }
    outcomes.push_back(r.outcome);
    results.push_back(std::move(result).value());
  }
  if (results.size() > 1 || flags.traces == TraceMode::kNever) {
    fmt::print("{}", oc::reports::FormatSummary(results, text));
  }
  const int code = oc::ExitCodeFor(outcomes);
  fmt::print("{}\n", code == 0 ? "all scenarios as expected"
                     : code == 1
                         ? "some scenario differs from its expectation"
                         : "some search stopped at a limit; not proved");
  return code;
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

  CheckFlags flags;
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
  check->add_flag("--stop-at-first", flags.stop_at_first,
                  "Stop at the shortest violation of any invariant");
  check
      ->add_option("--traces", flags.traces,
                   "Print traces: auto (one scenario, or an unexpected "
                   "outcome), always, never")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, TraceMode>{{"auto", TraceMode::kAuto},
                                           {"always", TraceMode::kAlways},
                                           {"never", TraceMode::kNever}},
          CLI::ignore_case));
  check->add_flag("--no-time", flags.no_time,
                  "Leave wall-clock seconds out, so output is byte-identical "
                  "across runs");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return RunCheck(flags);
}
