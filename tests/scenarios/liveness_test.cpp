// Liveness and unbounded budgets on the bundled scenarios: bounded budgets
// leave no cycle (so checking at-rest invariants in terminal states is the
// whole liveness check there), and raising a scenario's budgets to "any"
// agrees with the bounded verdicts once those have stabilised, except where
// docs/SEMANTICS.md section 15 says why not.

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "check/symmetry_quotient.h"
#include "explorer/breadth_first_search.h"
#include "explorer/fair_cycles.h"
#include "explorer/state_graph.h"
#include "model/fault_budgets.h"
#include "scenarios/scenario_loader.h"
#include "tests/scenarios/bundled_files.h"

namespace oc {
namespace {

TEST_CASE("bounded budgets leave no cycle in any bundled scenario") {
  int searched = 0;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    const Result<Scenario> scenario = LoadScenario(file);
    REQUIRE_MESSAGE(scenario.ok(), file);
    if (CountsAbstracted(scenario.value().config)) continue;
    const OutboxModel model(scenario.value().config);
    // Small enough to build here; the bigger presets are the same rules.
    const auto graph =
        explorer::BuildStateGraph(model, std::uint64_t{64} << 20);
    if (!graph) continue;
    ++searched;
    INFO(file);
    CHECK_FALSE(explorer::HasNonFaultCycle(*graph, [](std::size_t) {
      return false;  // any cycle at all
    }));
  }
  CHECK(searched >= 40);
}

// The verdicts of `scenario` with every budget it sets raised to `pool`
// (a number or kAnyBudget); nullopt when the search could not finish.
std::optional<std::set<std::string>> VerdictsWith(Scenario scenario, int pool) {
  for (const FaultBudget& budget : kFaultBudgets) {
    int& p = scenario.config.budgets.*budget.pool;
    if (p != 0) p = pool;
  }
  if (!Validate(scenario.config).ok()) return std::nullopt;
  scenario.expect.reset();
  scenario.must_fire.clear();
  CheckOptions options;
  options.max_states = 400'000;
  options.threads = 1;
  const Result<ScenarioResult> result = CheckScenario(scenario, options);
  if (!result.ok()) return std::nullopt;
  const ScenarioResult& r = result.value();
  if (!r.exploration.complete() || !r.unconfirmed.empty() ||
      r.outcome == Outcome::kInconclusive) {
    return std::nullopt;
  }
  const std::vector<std::string> names = r.ViolatedInvariants();
  return std::set<std::string>(names.begin(), names.end());
}

// What the check of `scenario` found, as text: each violation's property
// and length, and a lasso's stem and loop; and its liveness line. Empty when
// the search could not finish within `max_states`.
struct Found {
  std::vector<std::string> violations;
  std::string liveness;
};
std::optional<Found> FoundWith(const Scenario& scenario, bool symmetry,
                               std::uint64_t max_states) {
  CheckOptions options;
  options.max_states = max_states;
  options.threads = 1;
  options.symmetry = symmetry;
  options.graph_limit = 0;  // so that the leads-to check builds its own
  const Result<ScenarioResult> result = CheckScenario(scenario, options);
  if (!result.ok() || !result.value().exploration.complete()) {
    return std::nullopt;
  }
  const ScenarioResult& r = result.value();
  Found found;
  found.liveness = r.liveness.value_or("");
  for (const auto& v : r.exploration.violations) {
    // Symmetry keeps a safety trace's length, not which of the shortest
    // traces is shown (docs/GUARANTEES.md); a lasso is the same.
    std::string text = v.property + ": " + std::to_string(v.trace.length());
    if (v.lasso()) {
      text += " steps:";
      for (const Action& a : v.trace.actions) {
        text += " " + FormatAction(scenario.config, a);
      }
      text += " | loop:";
      for (const Action& a : v.loop.actions) {
        text += " " + FormatAction(scenario.config, a);
      }
    }
    found.violations.push_back(text);
  }
  for (const auto& u : r.unconfirmed) found.violations.push_back(u.first);
  return found;
}

// Checks that both found the same, and returns how many lassos.
int Compare(const Found& quotient, const Found& whole) {
  std::string a, b;
  for (const std::string& v : quotient.violations) a += v + "\n";
  for (const std::string& v : whole.violations) b += v + "\n";
  CHECK(a == b);
  return static_cast<int>(std::count_if(
      whole.violations.begin(), whole.violations.end(),
      [](const std::string& v) { return v.find("| loop:") != v.npos; }));
}

TEST_CASE(
    "the leads-to check on the symmetry quotient finds what the whole "
    "graph shows" *
    doctest::timeout(1200)) {
  // Every bundled scenario whose counts are abstracted (budgets "any", or
  // the lease off), and every other one that sets a budget with its
  // budgets raised to "any": the same violations, trace lengths and lassos
  // with symmetry as without.
  int compared = 0, settled = 0, lassos = 0;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    const Result<Scenario> loaded = LoadScenario(file);
    REQUIRE(loaded.ok());
    Scenario s = loaded.value();
    if (!s.order.empty()) continue;
    if (!CountsAbstracted(s.config)) {
      for (const FaultBudget& budget : kFaultBudgets) {
        int& p = s.config.budgets.*budget.pool;
        if (p != 0) p = kAnyBudget;
      }
      if (!CountsAbstracted(s.config) || !Validate(s.config).ok()) continue;
    }
    if (!OutboxModel(s.config).HasSymmetry()) continue;
    s.expect.reset();
    s.must_fire.clear();
    const auto whole = FoundWith(s, false, 1'000'000);
    if (!whole) continue;
    const auto quotient = FoundWith(s, true, 1'000'000);
    REQUIRE(quotient.has_value());
    INFO(file);
    lassos += Compare(*quotient, *whole);
    ++compared;
    if (quotient->liveness.find("symmetry quotient") != std::string::npos) {
      ++settled;
    }
  }
  MESSAGE("compared " << compared << " scenarios, " << settled
                      << " checked on the quotient, " << lassos << " lassos");
  CHECK(compared >= 15);
  CHECK(settled >= 10);
  CHECK(lassos >= 1);
}

TEST_CASE(
    "the symmetry quotient and the whole graph agree on random "
    "scenarios with any number of faults" *
    doctest::timeout(1200)) {
  // Two or three interchangeable relays, one or two events, one or two
  // instances; the lease and fencing on or off; each fault "any" or none;
  // a credit strategy. Every one is checked with and without symmetry.
  std::mt19937 rng(1205);
  auto pick = [&](int n) {
    return static_cast<int>(rng() % static_cast<unsigned>(n));
  };
  const char* strategies[] = {"credit.naive", "credit.inbox",
                              "credit.check_then_act",
                              "credit.effect_then_inbox"};
  const char* faults[] = {"premature_expiries", "relay_crashes",
                          "lost_publish_acks",  "lost_consumer_acks",
                          "consumer_crashes",   "redeliveries"};
  int compared = 0, lassos = 0, quotient_only = 0;
  for (int round = 0; compared < 40 && round < 400; ++round) {
    std::string text =
        "relays = " +
        std::string(pick(2) ? "[\"A\", \"B\"]" : "[\"A\", \"B\", \"C\"]") +
        "\nevents = " + std::to_string(1 + pick(2)) + "\n";
    text += "[[groups]]\nname = \"billing\"\nstrategy = \"" +
            std::string(strategies[pick(4)]) +
            "\"\ninstances = " + std::to_string(1 + pick(2)) + "\n";
    text += "[switches]\nlease = " + std::string(pick(3) ? "true" : "false") +
            "\nfencing = " + std::string(pick(3) ? "true" : "false") + "\n";
    text += "[faults]\n";
    for (const char* fault : faults) {
      if (pick(3) == 0) text += std::string(fault) + " = \"any\"\n";
    }
    text +=
        "[check]\ninvariants = [\"effect_at_most_once\", "
        "\"eventually_offered\", \"eventually_consumed\"]\n";
    const Result<Scenario> parsed =
        ParseScenario(text, "random-" + std::to_string(round) + ".toml");
    if (!parsed.ok() || !CountsAbstracted(parsed.value().config)) continue;
    const auto whole = FoundWith(parsed.value(), false, 100'000);
    if (!whole) continue;
    const auto quotient = FoundWith(parsed.value(), true, 100'000);
    REQUIRE(quotient.has_value());
    INFO(text);
    lassos += Compare(*quotient, *whole);
    ++compared;
    if (quotient->liveness.find("symmetry quotient") != std::string::npos &&
        quotient->liveness.find("whole graph") == std::string::npos) {
      ++quotient_only;
    }
  }
  MESSAGE("compared " << compared << " random scenarios, " << lassos
                      << " lassos, " << quotient_only
                      << " settled on the quotient alone");
  CHECK(compared >= 40);
  CHECK(lassos >= 5);
  CHECK(quotient_only >= 10);
}

TEST_CASE("\"any\" agrees with bounded verdicts that have stabilised" *
          doctest::timeout(1200)) {
  // Scenario name -> the properties "any" decides differently, each for a
  // reason docs/SEMANTICS.md section 15 gives.
  std::map<std::string, std::set<std::string>> differ;
  int compared = 0;
  for (const std::string& file : testing::BundledScenarioFiles()) {
    const Result<Scenario> loaded = LoadScenario(file);
    REQUIRE(loaded.ok());
    const Scenario& s = loaded.value();
    if (!s.order.empty() || AnyUnboundedBudget(s.config)) continue;
    bool sets_budget = false;
    for (const FaultBudget& budget : kFaultBudgets) {
      sets_budget = sets_budget || Pool(s.config, budget) != 0;
    }
    if (!sets_budget) continue;
    const auto two = VerdictsWith(s, 2);
    const auto three = VerdictsWith(s, 3);
    if (!two || !three || *two != *three) continue;  // not stabilised
    const auto any = VerdictsWith(s, kAnyBudget);
    if (!any) continue;
    ++compared;
    std::set<std::string> diff;
    for (const std::string& p : *any) {
      if (!three->count(p)) diff.insert(p);
    }
    for (const std::string& p : *three) {
      if (!any->count(p)) diff.insert(p);
    }
    if (!diff.empty()) differ[s.name] = diff;
  }
  MESSAGE("compared " << compared << " scenarios");
  for (const auto& [name, props] : differ) {
    std::string list;
    for (const std::string& p : props) list += " " + p;
    MESSAGE(name << ":" << list);
  }
  CHECK(compared >= 10);
  const std::map<std::string, std::set<std::string>> expected = {};
  CHECK(differ == expected);
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

Scenario Bundled(const std::string& file) {
  const Result<Scenario> s =
      LoadScenario(std::string(OC_SOURCE_DIR) + "/scenarios/" + file);
  REQUIRE_MESSAGE(s.ok(), file);
  return s.value();
}

TEST_CASE("declared number tables are refused where counts are abstracted") {
  // Their own counts are not abstracted: with "any", or without a lease
  // and a claim bound, they could grow for ever.
  Scenario transfer = Bundled("consumers/transfer.naive.toml");
  transfer.config.budgets.relay_crashes = kAnyBudget;
  const Status any = Validate(transfer.config);
  REQUIRE_FALSE(any.ok());
  CHECK(any.message().find("faults.relay_crashes") != std::string::npos);
  transfer.config.budgets.relay_crashes = 0;
  transfer.config.lease = false;
  transfer.config.claim_bound = 0;
  const Status unbounded = Validate(transfer.config);
  REQUIRE_FALSE(unbounded.ok());
  CHECK(unbounded.message().find("bounds.claims") != std::string::npos);
  transfer.config.claim_bound = 3;
  CHECK(Validate(transfer.config).ok());
}

TEST_CASE("outages may be \"any\" too") {
  Scenario down = Bundled("presets/wolverine.inbox-5m.consumer-down-3h.toml");
  down.config.budgets.consumer_outages = kAnyBudget;
  REQUIRE(Validate(down.config).ok());
  CHECK(CountsAbstracted(down.config));
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

TEST_CASE(
    "a symmetry quotient too big for the memory cap stops the leads-to "
    "check, inconclusive") {
  Scenario s = Bundled("bench/8-unbounded.toml");
  CheckOptions options;
  options.threads = 1;
  options.graph_limit = 0;
  // The search fits in 4 MiB; the quotient of its 35,904 orbits and about
  // 300,000 transitions does not.
  options.max_bytes = std::uint64_t{4} << 20;
  const Result<ScenarioResult> result = CheckScenario(s, options);
  REQUIRE(result.ok());
  const ScenarioResult& r = result.value();
  CHECK(r.exploration.complete());
  CHECK(r.outcome == Outcome::kInconclusive);
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].find("symmetry quotient of 35904 orbits") !=
        std::string::npos);
  // With room, the same check clears every property on the quotient.
  options.max_bytes.reset();
  const Result<ScenarioResult> roomy = CheckScenario(s, options);
  REQUIRE(roomy.ok());
  CHECK(roomy.value().outcome == Outcome::kAsExpected);
  CHECK(roomy.value().liveness.value_or("").find(
            "over the symmetry quotient of 35904 orbits") != std::string::npos);
}

TEST_CASE(
    "the search records the symmetry quotient that would be built after it") {
  const Scenario s = Bundled("bench/8-unbounded.toml");
  const OutboxModel model(s.config);
  REQUIRE(model.Abstracted());
  REQUIRE(model.HasSymmetry());
  const bool counts = !model.AbstractionExact();
  RenamingGroup built_group(model);
  QuotientKeying built_keying(model, built_group, counts);
  const auto built = explorer::BuildKeyedGraph(
      model, built_keying, ~std::uint64_t{0}, 0, 0, /*threads=*/1);
  REQUIRE(built.has_value());
  const std::vector<explorer::Property<State>> none;
  explorer::Options options;
  options.graph_limit = 0;
  const Exploration plain = explorer::Explore(model, none, options);
  // Two threads: batches of many chunks, states first met in one chunk
  // and met again in a later one.
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    options.threads = threads;
    RenamingGroup group(model);
    QuotientKeying keying(model, group, counts);
    const Exploration e = explorer::ExploreRecording(model, none, options,
                                                     keying, ~std::uint64_t{0});
    CHECK(e.stats.states == plain.stats.states);
    CHECK(e.stats.transitions == plain.stats.transitions);
    REQUIRE(e.recorded.has_value());
    const auto& g = *e.recorded;
    const auto& b = *built;
    REQUIRE(g.num_vertices() == b.num_vertices());
    REQUIRE(g.num_edges() == b.num_edges());
    CHECK(g.num_vertices() == e.stats.stored_states);
    int differ = 0;
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v) {
      differ += !std::equal(g.encoding(v), g.encoding(v) + model.EncodedSize(),
                            b.encoding(v)) ||
                g.terminal(v) != b.terminal(v) ||
                g.bounded_dead_end(v) != b.bounded_dead_end(v) ||
                g.out_begin(v) != b.out_begin(v);
    }
    for (std::size_t edge = 0; edge < g.num_edges(); ++edge) {
      differ += g.target(edge) != b.target(edge) ||
                !(g.action(edge) == b.action(edge)) ||
                g.label(edge) != b.label(edge);
    }
    CHECK(differ == 0);
    CHECK(keying.edges().size() == built_keying.edges().size());
  }
  // Too little room for the graph: the search goes on without it.
  RenamingGroup group(model);
  QuotientKeying keying(model, group, counts);
  const Exploration cramped = explorer::ExploreRecording(
      model, none, options, keying, std::uint64_t{1} << 20);
  CHECK(cramped.complete());
  CHECK(!cramped.recorded.has_value());
  CHECK(cramped.stats.states == plain.stats.states);
  CHECK(cramped.stats.stored_states == plain.stats.stored_states);
}

}  // namespace
}  // namespace oc
