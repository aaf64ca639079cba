#include "check/observed_expectation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

namespace oc {
namespace {

// Why a search that `stop` ended proves nothing, or empty when it does.
std::string Unproved(explorer::Stop stop) {
  switch (stop) {
    case explorer::Stop::kComplete:
    case explorer::Stop::kFirstViolation:
      return "";
    case explorer::Stop::kMaxDepth:
      return "the search stopped at the depth limit (bounds.max_depth or "
             "--max-depth)";
    case explorer::Stop::kMaxStates:
      return "the search stopped at the state limit (bounds.max_states or "
             "--max-states)";
    case explorer::Stop::kMaxMemory:
      return "the search stopped at the memory limit (--max-memory)";
    case explorer::Stop::kInterrupted:
      return "the search was interrupted";
    case explorer::Stop::kSampled:
      return "the search was a simulation (random walks)";
  }
  return "the search did not finish";
}

}  // namespace

Result<Expectation> ObservedExpectation(const ScenarioResult& result) {
  assert(!result.scenario.expect);
  const Exploration& e = result.exploration;
  if (const std::string why = Unproved(e.stop); !why.empty()) {
    return Status::Error(fmt::format(
        "{}, so nothing was proved and there is nothing to expect; raise the "
        "limit",
        why));
  }
  if (result.outcome != Outcome::kNoExpectationHolds &&
      result.outcome != Outcome::kNoExpectationViolated) {
    return Status::Error(fmt::format("it fails whatever its [expect] says: {}",
                                     fmt::join(result.mismatches, "; ")));
  }
  Expectation expect;
  if (!e.violations.empty()) {
    expect.verdict = Verdict::kViolated;
    const std::vector<std::string> violated = result.ViolatedInvariants();
    for (const std::string& name : result.scenario.invariants) {
      if (std::find(violated.begin(), violated.end(), name) != violated.end()) {
        expect.violated.push_back(name);
      }
    }
    expect.trace_length = static_cast<int>(e.violations.front().trace.length());
  }
  if (!result.replay && e.stop == explorer::Stop::kComplete) {
    expect.states = e.stats.states;
  }
  return expect;
}

}  // namespace oc
