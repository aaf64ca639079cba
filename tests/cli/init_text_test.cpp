// The scenario `init` writes: the preset renamed, with notes, still the
// same scenario.

#include <doctest/doctest.h>

#include <string>

#include "cli/init_command.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

constexpr const char* kPreset = R"x(# Source: somewhere.
name = "some-preset"
description = "A preset."
relays = ["A"]
events = 1

[[groups]]
name = "billing"
strategy = "credit.inbox"

[check]
invariants = ["effect_at_most_once"]

[expect]
verdict = "holds"
states = 9
)x";

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("init renames the preset after the file and keeps the rest") {
  const std::string text =
      InitScenarioText(kPreset, "some-preset", "mine", "dir/mine.toml");
  const Result<Scenario> written = ParseScenario(text, "dir/mine.toml");
  REQUIRE_MESSAGE(written.ok(), written.status().message());
  const Result<Scenario> preset = ParseScenario(kPreset, "some-preset.toml");
  REQUIRE(preset.ok());
  CHECK(written.value().name == "mine");
  CHECK(written.value().description == preset.value().description);
  CHECK(written.value().config == preset.value().config);
  CHECK(written.value().invariants == preset.value().invariants);
  REQUIRE(written.value().expect.has_value());
  CHECK(written.value().expect->states == preset.value().expect->states);
  // The group's own `name` is not the scenario's.
  CHECK(written.value().config.groups.at(0).name == "billing");
}

TEST_CASE("init's file says how to check it and notes each section") {
  const std::string text =
      InitScenarioText(kPreset, "some-preset", "mine", "dir/mine.toml");
  CHECK(Contains(text, "from the\n# preset some-preset."));
  CHECK(Contains(text, "#   outbox-check check dir/mine.toml\n"));
  CHECK(Contains(text, "# Source: somewhere.\n"));
  CHECK(Contains(text, "(or how many).\nrelays = [\"A\"]\n"));
  CHECK(Contains(text, "instances.\n[[groups]]\n"));
  CHECK(Contains(text, "update this table.\n[expect]\n"));
  CHECK_FALSE(Contains(text, "some-preset\"\n"));
}

TEST_CASE("a name that needs quoting is quoted") {
  const std::string text =
      InitScenarioText(kPreset, "some-preset", "my \"x\"", "my \"x\".toml");
  const Result<Scenario> written = ParseScenario(text, "my \"x\".toml");
  REQUIRE_MESSAGE(written.ok(), written.status().message());
  CHECK(written.value().name == "my \"x\"");
}

}  // namespace
}  // namespace oc
