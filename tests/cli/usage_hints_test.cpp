// Did-you-mean for misspelt commands and flags, and choices in --help.

#include "cli/usage_hints.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace oc {
namespace {

enum class Mode { kAuto, kAlways, kNever };

struct Fixture {
  CLI::App app{"test"};
  int threads = 0;
  Mode mode = Mode::kAuto;
  std::vector<std::string> paths;
  Fixture() {
    app.require_subcommand(1);
    CLI::App* check = app.add_subcommand("check", "Check");
    check->add_option("--threads", threads, "Threads");
    Choices(check->add_option("--mode", mode, "Mode"),
            std::map<std::string, Mode>{{"auto", Mode::kAuto},
                                        {"always", Mode::kAlways},
                                        {"never", Mode::kNever}},
            {"auto", "always", "never"});
    check->add_option("paths", paths, "Paths");
    app.add_subcommand("bench", "Bench");
  }
  std::optional<std::string> Hint(std::vector<std::string> args) {
    return UsageHint(app, args);
  }
};

TEST_CASE("a misspelt command gets the closest one") {
  Fixture f;
  CHECK(f.Hint({"chek", "x"}) ==
        "unknown command 'chek'; did you mean 'check'?");
  CHECK(f.Hint({"frobnicate"}) ==
        "unknown command 'frobnicate'; the commands are check and bench");
}

TEST_CASE("a hidden command is neither suggested nor listed") {
  Fixture f;
  f.app.add_subcommand("man-page", "Hidden")->group("");
  CHECK(f.Hint({"man"}) ==
        "unknown command 'man'; the commands are check and bench");
}

TEST_CASE("a misspelt flag gets the closest flag of its command") {
  Fixture f;
  CHECK(f.Hint({"check", "--treads", "2", "x"}) ==
        "check: unknown flag '--treads'; did you mean '--threads'?");
  CHECK(f.Hint({"check", "x", "--mdoe=auto"}) ==
        "check: unknown flag '--mdoe'; did you mean '--mode'?");
  CHECK(f.Hint({"check", "--frobnicate", "x"}) ==
        "check: unknown flag '--frobnicate'; `outbox-check check --help` "
        "lists them");
}

TEST_CASE("known flags, numbers and words after -- get no hint") {
  Fixture f;
  CHECK_FALSE(f.Hint({"check", "--threads", "-1", "x"}).has_value());
  CHECK_FALSE(f.Hint({"check", "x", "--", "--treads"}).has_value());
}

TEST_CASE("choices show as a|b|c, and parse whatever their case") {
  Fixture f;
  CLI::App* check = f.app.get_subcommand("check");
  const std::string help = check->help();
  CHECK(help.find("--mode auto|always|never") != std::string::npos);
  CHECK(help.find("->") == std::string::npos);
  CHECK(help.find('{') == std::string::npos);
  f.app.parse("check --mode ALWAYS x", false);
  CHECK(f.mode == Mode::kAlways);
  Fixture g;
  CHECK_THROWS_AS(g.app.parse("check --mode sometimes x", false),
                  CLI::ValidationError);
}

}  // namespace
}  // namespace oc
