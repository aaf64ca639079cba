// Symmetry sees through what nothing reads: events that differ only in
// attributes no rule of the model and no checked invariant reads are
// swapped, while an attribute an invariant reads, or an event it names,
// tells events apart. Each reduced search is held against the unreduced one.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "check/scenario_check.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

// Two relays, a credit consumer with an inbox behind two instances, a
// premature expiry and a lost acknowledgement; EVENTS is replaced.
const std::string kPipeline =
    "relays = 2\n"
    "EVENTS"
    "[[groups]]\nname = \"billing\"\nstrategy = \"credit.naive\"\n"
    "instances = 2\n"
    "[faults]\npremature_expiries = 1\nlost_consumer_acks = 1\n";

const std::string kAlike =
    "[[events]]\nname = \"p1\"\n"
    "[[events]]\nname = \"p2\"\n";

const std::string kDistinct =
    "[[events]]\nname = \"p1\"\ntype = \"payment\"\naccount = \"acct-1\"\n"
    "amount = 10\nmerchant = \"m-1\"\n"
    "[[events]]\nname = \"p2\"\ntype = \"refund\"\naccount = \"acct-2\"\n"
    "amount = 25\nmerchant = \"m-2\"\n";

std::string With(const std::string& events, const std::string& rest) {
  std::string text = kPipeline;
  text.replace(text.find("EVENTS"), 6, events);
  return text + rest;
}

ScenarioResult Check(const std::string& text, bool symmetry) {
  Result<Scenario> s = ParseScenario(text, "scenarios/x.toml");
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  CheckOptions options;
  options.threads = 1;
  options.symmetry = symmetry;
  Result<ScenarioResult> r = CheckScenario(s.value(), options);
  REQUIRE(r.ok());
  return std::move(r).value();
}

int ShortestLength(const ScenarioResult& r) {
  REQUIRE(!r.exploration.violations.empty());
  return static_cast<int>(r.exploration.violations.front().trace.length());
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

const std::string kHolds =
    "[check]\ninvariants = [\"effect_at_most_once\", \"eventually_consumed\"]\n"
    "[expect]\nverdict = \"violated\"\n"
    "violated = [\"effect_at_most_once\"]\n";

TEST_CASE(
    "events that differ only in unread attributes store as many states as "
    "alike events, with the same counts and traces") {
  const ScenarioResult alike = Check(With(kAlike, kHolds), true);
  const ScenarioResult distinct = Check(With(kDistinct, kHolds), true);
  const ScenarioResult unreduced = Check(With(kDistinct, kHolds), false);
  CHECK(distinct.exploration.stats.stored_states ==
        alike.exploration.stats.stored_states);
  CHECK(distinct.exploration.stats.states == alike.exploration.stats.states);
  CHECK(distinct.exploration.stats.states ==
        unreduced.exploration.stats.states);
  CHECK(distinct.exploration.stats.transitions ==
        unreduced.exploration.stats.transitions);
  CHECK(distinct.exploration.stats.stored_states * 2 <
        unreduced.exploration.stats.stored_states);
  CHECK(distinct.ViolatedInvariants() == unreduced.ViolatedInvariants());
  CHECK(ShortestLength(distinct) == ShortestLength(unreduced));
  CHECK(ShortestLength(distinct) == ShortestLength(alike));
  // The report says what it set aside and why.
  CHECK(Contains(distinct.exploration.reduction, "events p1 p2 (2!)"));
  CHECK(Contains(distinct.exploration.reduction,
                 "event attributes type, account, amount, merchant ignored, "
                 "since nothing checked reads them"));
  CHECK_FALSE(Contains(alike.exploration.reduction, "ignored"));
}

TEST_CASE("an attribute a checked invariant reads tells events apart") {
  // Each account is credited at most its own events' amount.
  const std::string reads_account =
      "[check]\ninvariants = [\"bounded\"]\n"
      "[expect]\nverdict = \"holds\"\n"
      "[[invariants]]\nname = \"bounded\"\n"
      "holds = \"all(accounts, sum(events where event.account == account, "
      "billing.effects[event]) <= 2)\"\n";
  const ScenarioResult reduced = Check(With(kDistinct, reads_account), true);
  const ScenarioResult unreduced = Check(With(kDistinct, reads_account), false);
  CHECK_FALSE(Contains(reduced.exploration.reduction, "events p1 p2"));
  CHECK(Contains(reduced.exploration.reduction,
                 "event attributes type, amount, merchant ignored, since "
                 "nothing checked reads them (account read)"));
  CHECK(reduced.exploration.stats.states == unreduced.exploration.stats.states);
  CHECK(reduced.ViolatedInvariants() == unreduced.ViolatedInvariants());
}

TEST_CASE(
    "an invariant that names an event keeps it apart, in either order of "
    "the names") {
  // Violated only when one named event is consumed before the other: a
  // search that swapped p1 and p2 would find the mirror image, or a longer
  // trace, or nothing.
  for (const auto& names : {std::pair{"p1", "p2"}, std::pair{"p2", "p1"}}) {
    const std::string first = names.first, second = names.second;
    CAPTURE(first);
    const std::string names_one = fmt::format(
        "[check]\ninvariants = [\"order\"]\n"
        "[expect]\nverdict = \"violated\"\nviolated = [\"order\"]\n"
        "[[invariants]]\nname = \"order\"\n"
        "holds = \"billing.effects[\\\"{}\\\"] == 0 or "
        "billing.effects[\\\"{}\\\"] >= 1\"\n",
        second, first);
    const ScenarioResult reduced = Check(With(kAlike, names_one), true);
    const ScenarioResult unreduced = Check(With(kAlike, names_one), false);
    CHECK_FALSE(Contains(reduced.exploration.reduction, "events p1 p2"));
    CHECK(reduced.ViolatedInvariants() == std::vector<std::string>{"order"});
    CHECK(ShortestLength(reduced) == ShortestLength(unreduced));
    CHECK(reduced.exploration.stats.states ==
          unreduced.exploration.stats.states);
    CHECK(reduced.exploration.violations.front().trace.actions ==
          unreduced.exploration.violations.front().trace.actions);
  }
}

}  // namespace
}  // namespace oc
