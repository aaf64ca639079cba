#include "cli/bench_command.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include "cli/check_command.h"
#include "cli/progress.h"
#include "cli/scenario_paths.h"
#include "scenarios/scenario_check.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

// Peak resident memory of this process so far, in bytes.
std::uint64_t PeakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
}

}  // namespace

int RunBench(const BenchFlags& flags, std::FILE* out, std::FILE* err) {
  Result<std::vector<std::string>> files = ScenarioFiles(flags.paths);
  if (!files.ok()) {
    fmt::print(err, "outbox-check: {}\n", files.status().message());
    return kExitUsage;
  }
  std::vector<Scenario> scenarios;
  for (const std::string& file : files.value()) {
    Result<Scenario> s = LoadScenario(file);
    if (!s.ok()) {
      fmt::print(err, "{}\n", s.status().message());
      return kExitUsage;
    }
    if (!s.value().order.empty()) continue;  // nothing to search
    scenarios.push_back(std::move(s).value());
  }
  if (!flags.json) {
    fmt::print(out, "{:<16} {:>11} {:>12} {:>5} {:>9} {:>12} {:>11} {:>9}\n",
               "scenario", "states", "transitions", "depth", "seconds",
               "states/s", "bytes/state", "peak MiB");
  }
  bool limited = false;
  for (const Scenario& scenario : scenarios) {
    CheckOptions options;
    options.graph_limit = 0;  // measure the search, not the graph
    options.max_states = flags.max_states;
    options.max_store_bytes =
        flags.max_memory ? flags.max_memory : DefaultMemoryLimit();
    Result<ScenarioResult> result = CheckScenario(scenario, options);
    if (!result.ok()) {
      fmt::print(err, "{}\n", result.status().message());
      return kExitUsage;
    }
    const explorer::Stats& s = result.value().exploration.stats;
    limited = limited || !result.value().exploration.complete();
    const double rate =
        s.seconds > 0 ? static_cast<double>(s.states) / s.seconds : 0;
    const double per_state =
        s.states > 0 ? static_cast<double>(s.store_bytes) / s.states : 0;
    const std::uint64_t peak = PeakResidentBytes();
    if (flags.json) {
      fmt::print(out,
                 "{{\"scenario\": \"{}\", \"states\": {}, \"transitions\": {}, "
                 "\"depth\": {}, \"complete\": {}, \"seconds\": {:.3f}, "
                 "\"states_per_second\": {:.0f}, \"bytes_per_state\": {:.1f}, "
                 "\"peak_resident_bytes\": {}}}\n",
                 scenario.name, s.states, s.transitions, s.depth,
                 result.value().exploration.complete(), s.seconds, rate,
                 per_state, peak);
    } else {
      fmt::print(
          out,
          "{:<16} {:>11} {:>12} {:>5} {:>9.2f} {:>12.0f} {:>11.1f} {:>9}\n",
          scenario.name, s.states, s.transitions, s.depth, s.seconds, rate,
          per_state, peak >> 20);
    }
    std::fflush(out);
  }
  return limited ? 3 : 0;
}

}  // namespace oc
