// The progress line's text: separators, durations, the estimate from level
// sizes, and what a narrow terminal leaves out.

#include "cli/progress.h"

#include <doctest/doctest.h>

#include <string>

namespace oc {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A search at depth 10, halfway through a level half the size of the one
// before.
explorer::Stats Running() {
  explorer::Stats s;
  s.depth = 10;
  s.previous_level_states = 400'000;
  s.level_states = 200'000;
  s.next_level_states = 50'000;
  s.stored_states = 1'250'000;  // 1,200,000 through this level
  s.expanded_states = 1'100'000;
  s.seconds = 12.5;
  s.peak_bytes = std::uint64_t{3} << 29;  // 1.5 GiB
  return s;
}

TEST_CASE("numbers get thousands separators") {
  CHECK(WithSeparators(0) == "0");
  CHECK(WithSeparators(999) == "999");
  CHECK(WithSeparators(1000) == "1,000");
  CHECK(WithSeparators(1234567) == "1,234,567");
  CHECK(WithSeparators(100000) == "100,000");
}

TEST_CASE("durations and sizes are said in the largest fitting unit") {
  CHECK(DurationText(0.34) == "0.3 s");
  CHECK(DurationText(42.7) == "42 s");
  CHECK(DurationText(185) == "3 min 05 s");
  CHECK(DurationText(7620) == "2 h 07 min");
  CHECK(BytesText(512 * 1024) == "512 KiB");
  CHECK(BytesText(std::uint64_t{3} << 29) == "1.5 GiB");
}

TEST_CASE("the estimate needs a level smaller than the one before") {
  explorer::Stats s = Running();
  // 1,200,000 through this level, then 200,000 * (1/2 + 1/4 + ...).
  CHECK(EstimatedStoredStates(s) == 1'400'000);
  s.level_states = s.previous_level_states;
  CHECK_FALSE(EstimatedStoredStates(s).has_value());
  s = Running();
  s.depth = 1;
  CHECK_FALSE(EstimatedStoredStates(s).has_value());
  s = Running();
  s.previous_level_states = 0;
  CHECK_FALSE(EstimatedStoredStates(s).has_value());
}

TEST_CASE("the progress line counts stored states, the unit of the limit") {
  const std::string line = ProgressText(
      "big", Running(), ProgressLimits{2'000'000, std::uint64_t{4} << 30}, 0);
  CHECK(line ==
        "big: 1,250,000 states stored (limit 2,000,000) in 12 s, about "
        "1,400,000 in all, 3.4 s left, memory 1.5 GiB of 4.0 GiB, "
        "100,000/s, depth 10, frontier 150,000");
}

TEST_CASE("without limits or an estimate, the line says so little") {
  explorer::Stats s = Running();
  s.level_states = s.previous_level_states;
  const std::string line = ProgressText("big", s, ProgressLimits{}, 0);
  CHECK(line.rfind("big: 1,250,000 states stored in 12 s, memory 1.5 GiB, ",
                   0) == 0);
  CHECK_FALSE(Contains(line, "limit"));
  CHECK_FALSE(Contains(line, "about"));
}

TEST_CASE("a narrow terminal loses the last parts whole") {
  const std::string full = ProgressText("big", Running(), ProgressLimits{}, 0);
  const std::string narrow =
      ProgressText("big", Running(), ProgressLimits{}, 60);
  CHECK(narrow.size() <= 60);
  CHECK(full.rfind(narrow, 0) == 0);
  CHECK(narrow.back() != ',');
  CHECK(Contains(narrow, "states stored"));
  CHECK_FALSE(Contains(narrow, "frontier"));
}

TEST_CASE(
    "a distributed search's line says how evenly the ranks share the "
    "states") {
  explorer::Stats s = Running();
  s.ranks = 4;
  s.rank_stored_min = 300'000;  // 24% of 1,250,000
  s.rank_stored_max = 325'000;  // 26%
  const std::string line = ProgressText("big", s, ProgressLimits{}, 0);
  CHECK(Contains(line, "memory 1.5 GiB, 4 ranks, 24.0-26.0% each, 100,000/s"));
  CHECK_FALSE(
      Contains(ProgressText("big", Running(), ProgressLimits{}, 0), "ranks"));
}

TEST_CASE("a simulation's progress counts walks and states seen") {
  explorer::Stats s;
  s.walks = 1'200;
  s.states = 34'567;
  s.transitions = 90'000;
  s.depth = 41;
  s.seconds = 3;
  s.peak_bytes = std::uint64_t{3} << 20;
  CHECK(ProgressText("target", s, ProgressLimits{}, 0) ==
        "target: 1,200 walks, 34,567 states seen in 3.0 s, memory 3.0 MiB, "
        "30,000 steps/s, longest walk 41");
  CHECK(ProgressText("target", s, ProgressLimits{}, 60) ==
        "target: 1,200 walks, 34,567 states seen in 3.0 s");
}

}  // namespace
}  // namespace oc
