// The model's fast paths against its plain ones, on the states a
// breadth-first search reaches first in every bundled scenario and
// benchmark:
//  - Successors passes over a candidate action by one byte of the state
//    before it asks the action's guard; what it offers is exactly the
//    candidates whose guard enables them, in the candidates' order;
//  - Encode packs runs of one-byte fields a word at a time; its bytes are
//    those of EncodeRenamed by the identity, which packs a field at a
//    time, and Decode gives the state back.

#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/outbox_model.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

// Up to `limit` states of `model`, breadth first, each once.
std::vector<State> FirstStates(const OutboxModel& model, std::size_t limit) {
  std::vector<State> states = model.InitialStates();
  std::set<std::vector<std::uint8_t>> seen;
  auto key = [&](const State& s) {
    std::vector<std::uint8_t> k(model.EncodedSize());
    model.Encode(s, k.data());
    return k;
  };
  for (const State& s : states) seen.insert(key(s));
  std::vector<std::pair<Action, State>> next;
  for (std::size_t i = 0; i < states.size() && states.size() < limit; ++i) {
    next.clear();
    model.Successors(states[i], next);
    for (auto& [action, state] : next) {
      if (seen.insert(key(state)).second) states.push_back(state);
    }
  }
  return states;
}

void CheckOffers(const std::string& file) {
  CAPTURE(file);
  Result<Scenario> scenario = LoadScenario(file);
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const OutboxModel model(scenario.value().config);
  std::size_t offered = 0;
  for (const State& s : FirstStates(model, 600)) {
    std::vector<Action> expected;
    for (const Action& a : model.Candidates()) {
      if (!model.WhyDisabled(s, a)) expected.push_back(a);
    }
    std::vector<std::pair<Action, State>> next;
    model.Successors(s, next);
    // With abstracted counts one action may lead to two states, one for
    // each side of the cap (docs/SEMANTICS.md section 14): those repeat
    // the action.
    std::vector<Action> actual;
    for (const auto& [action, state] : next) {
      if (action.kind == ActionKind::kTick) continue;
      if (!actual.empty() && actual.back() == action) continue;
      actual.push_back(action);
    }
    CHECK(actual == expected);
    offered += actual.size();
  }
  CHECK(offered > 0);
}

void CheckEncodings(const std::string& file) {
  CAPTURE(file);
  Result<Scenario> scenario = LoadScenario(file);
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const OutboxModel model(scenario.value().config);
  const Renaming identity = Renaming::Identity();
  for (const State& s : FirstStates(model, 600)) {
    std::vector<std::uint8_t> packed(model.EncodedSize()),
        one_by_one(model.EncodedSize());
    model.Encode(s, packed.data());
    model.EncodeRenamed(s, identity, one_by_one.data());
    CHECK(packed == one_by_one);
    CHECK(model.Decode(packed.data()) == s);
  }
}

std::vector<std::string> ScenarioAndBenchFiles() {
  std::vector<std::string> files = testing::BundledScenarioFiles();
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(OC_SOURCE_DIR) + "/scenarios/bench")) {
    if (entry.path().extension() == ".toml") {
      files.push_back(entry.path().string());
    }
  }
  return files;
}

TEST_CASE("Successors offers exactly the enabled candidates, in order") {
  const std::vector<std::string> files = ScenarioAndBenchFiles();
  REQUIRE(files.size() > 20);
  for (const std::string& file : files) CheckOffers(file);
}

TEST_CASE("Encode a word at a time agrees with a field at a time") {
  const std::vector<std::string> files = ScenarioAndBenchFiles();
  REQUIRE(files.size() > 20);
  for (const std::string& file : files) CheckEncodings(file);
}

}  // namespace
}  // namespace oc
