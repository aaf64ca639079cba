// `outbox-check bench`: search benchmark scenarios exhaustively, under
// each setting (thread count, symmetry off or on), and print what the
// search cost: distinct states (unreduced), states stored (one per orbit
// under symmetry), transitions, depth, wall seconds, stored states per
// second, bytes per stored state (the visited store's size over its
// states) and the peak resident memory of the search.
//
// Verdicts are not judged here; `check` does that. Figures are measured on
// the machine that runs it, so they are not deterministic.

#ifndef OUTBOX_CHECK_CLI_BENCH_COMMAND_H_
#define OUTBOX_CHECK_CLI_BENCH_COMMAND_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace oc {

struct BenchFlags {
  // Scenario files or folders; empty: the bundled benchmarks (the
  // `scenarios/bench` of the data folder, cli/data_folder.h), wherever the
  // command runs from.
  std::vector<std::string> paths;
  bool json = false;                        // one JSON object per line
  std::optional<std::uint64_t> max_states;  // a limit for quick runs
  // Stop a search whose visited store reaches this many bytes; none:
  // DefaultMemoryLimit().
  std::optional<std::uint64_t> max_memory;
  // The settings measured, each scenario under each: thread counts (empty:
  // 1 and every hardware thread) and symmetry off/on (empty: both).
  std::vector<int> threads;
  std::vector<bool> symmetry;
  // Partial-order reduction off/on (empty: off only). On, it is used
  // wherever the model offers it, also for scenarios that pin a state count.
  std::vector<bool> partial_order;
  // Set: every built-in strategy is replaced by its definition in this
  // folder of strategy files (scenarios/strategies), to measure the
  // handler-language interpreter against the native strategies.
  std::optional<std::string> declared;
};

// Exit code 0, or 2 for bad input; 3 when a limit stopped a search.
int RunBench(const BenchFlags& flags, std::FILE* out, std::FILE* err);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_BENCH_COMMAND_H_
