#include "cli/bench_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "check/scenario_check.h"
#include "cli/check_command.h"
#include "cli/data_folder.h"
#include "cli/progress.h"
#include "cli/scenario_paths.h"
#include "scenarios/strategy_loader.h"

namespace oc {
int RunBench(const BenchFlags& flags, std::FILE* out, std::FILE* err) {
  std::vector<std::string> paths = flags.paths;
  if (paths.empty()) {
    Result<std::string> bundled = BundledPath("bench");
    if (!bundled.ok()) {
      fmt::print(err, "outbox-check bench: {}\n", bundled.status().message());
      return kExitUsage;
    }
    paths.push_back(bundled.value());
  }
  std::optional<std::vector<Scenario>> loaded =
      LoadScenarios(paths, "outbox-check", err);
  if (!loaded) return kExitUsage;
  std::vector<Scenario> scenarios;
  for (Scenario& s : *loaded) {
    if (s.order.empty()) scenarios.push_back(std::move(s));  // searches only
  }
  if (flags.declared) {
    for (Scenario& s : scenarios) {
      if (Status st = UseBuiltinDefinitions(s.config, *flags.declared);
          !st.ok()) {
        fmt::print(err, "outbox-check bench: --declared: {}\n", st.message());
        return kExitUsage;
      }
    }
  }
  std::vector<int> thread_counts = flags.threads;
  if (thread_counts.empty()) {
    const int all =
        std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    thread_counts = all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
  }
  std::vector<bool> symmetries = flags.symmetry;
  if (symmetries.empty()) symmetries = {false, true};
  std::vector<bool> orders = flags.partial_order;
  if (orders.empty()) orders = {false};
  if (!flags.json) {
    fmt::print(out,
               "{:<16} {:>8} {:>5} {:>7} {:>11} {:>11} {:>12} {:>5} {:>8} "
               "{:>10} {:>8} {:>8}\n",
               "scenario", "symmetry", "por", "threads", "states", "stored",
               "transitions", "depth", "seconds", "stored/s", "B/stored",
               "peak MiB");
  }
  bool limited = false;
  for (const Scenario& scenario : scenarios) {
    for (bool symmetry : symmetries) {
      for (bool order : orders) {
        for (int threads : thread_counts) {
          CheckOptions options;
          options.graph_limit = 0;  // measure the search, not the graph
          options.max_states = flags.max_states;
          options.max_bytes =
              flags.max_memory ? flags.max_memory : DefaultMemoryLimit();
          options.threads = threads;
          options.symmetry = symmetry;
          options.partial_order = order ? CheckOptions::PartialOrderUse::kOn
                                        : CheckOptions::PartialOrderUse::kOff;
          ResetPeakResident();
          Result<ScenarioResult> result = CheckScenario(scenario, options);
          if (!result.ok()) {
            fmt::print(err, "{}\n", result.status().message());
            return kExitUsage;
          }
          const explorer::Exploration<OutboxModel>& e =
              result.value().exploration;
          const explorer::Stats& s = e.stats;
          limited = limited || !e.complete();
          const double rate =
              s.seconds > 0 ? static_cast<double>(s.stored_states) / s.seconds
                            : 0;
          const double per_state =
              s.stored_states > 0
                  ? static_cast<double>(s.store_bytes) / s.stored_states
                  : 0;
          const std::uint64_t peak = PeakResidentBytes();
          const char* setting = e.reduction == "none" ? "off" : "on";
          // A reduced search that found a violation is followed by the
          // unreduced one: both are measured, the reduced one's stored
          // states apart.
          const char* por = e.partial_order                      ? "on"
                            : result.value().partial_order_rerun ? "on+rerun"
                                                                 : "off";
          const std::uint64_t reduced_stored =
              e.partial_order ? s.stored_states
                              : result.value().partial_order_stored;
          // Under partial-order reduction distinct states are not counted.
          const std::string states =
              e.partial_order ? "null" : fmt::format("{}", s.states);
          if (flags.json) {
            fmt::print(
                out,
                "{{\"scenario\": \"{}\", \"symmetry\": \"{}\", "
                "\"reduction\": \"{}\", \"partial_order\": \"{}\", "
                "\"threads\": {}, \"states\": {}, "
                "\"stored_states\": {}, \"transitions\": {}, \"depth\": {}, "
                "\"complete\": {}, \"seconds\": {:.3f}, "
                "\"stored_states_per_second\": {:.0f}, "
                "\"bytes_per_stored_state\": {:.1f}, "
                "\"peak_resident_bytes\": {}, "
                "\"partial_order_stored_states\": {}, "
                "\"liveness_seconds\": {:.3f}, "
                "\"phase_seconds\": {{\"generate\": {:.3f}, "
                "\"deduplicate\": {:.3f}, \"commit\": {:.3f}, "
                "\"store\": {:.3f}, \"renumber\": {:.3f}}}}}\n",
                scenario.name, symmetry ? "on" : "off", e.reduction, por,
                e.threads, states, s.stored_states, s.transitions, s.depth,
                e.complete(), s.seconds, rate, per_state, peak, reduced_stored,
                result.value().liveness_seconds, s.phases.generate,
                s.phases.deduplicate, s.phases.commit, s.phases.store,
                s.phases.renumber);
          } else {
            fmt::print(out,
                       "{:<16} {:>8} {:>5} {:>7} {:>11} {:>11} {:>12} {:>5} "
                       "{:>8.2f} {:>10.0f} {:>8.1f} {:>8}\n",
                       scenario.name, symmetry ? setting : "off", por,
                       e.threads, e.partial_order ? "-" : states,
                       s.stored_states, s.transitions, s.depth, s.seconds, rate,
                       per_state, peak >> 20);
          }
          std::fflush(out);
        }
      }
    }
  }
  return limited ? 3 : 0;
}

}  // namespace oc
