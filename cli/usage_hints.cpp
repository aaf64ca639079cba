#include "cli/usage_hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "common/closest_name.h"

namespace oc {
namespace {

// The flags `app` takes, as written on a command line: "--threads", "-o".
std::vector<std::string> FlagsOf(const CLI::App& app) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      flags.push_back("--" + name);
    }
    for (const std::string& name : option->get_snames()) {
      flags.push_back("-" + name);
    }
  }
  return flags;
}

// "a, b and c".
std::string Listed(const std::vector<std::string>& names) {
  if (names.size() < 2) return fmt::format("{}", fmt::join(names, ""));
  return fmt::format("{} and {}",
                     fmt::join(names.begin(), names.end() - 1, ", "),
                     names.back());
}

bool IsNumber(std::string_view word) {
  return word.size() >= 2 && word[0] == '-' && word[1] >= '0' && word[1] <= '9';
}

}  // namespace

std::optional<std::string> UsageHint(CLI::App& app,
                                     const std::vector<std::string>& args) {
  // The commands to suggest: not the hidden ones (no group).
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (!sub->get_group().empty()) commands.push_back(sub->get_name());
  }
  const CLI::App* command = nullptr;
  std::size_t first = 0;
  for (; first < args.size(); ++first) {
    if (!args[first].empty() && args[first][0] == '-') continue;
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == args[first]) command = sub;
    }
    if (command == nullptr) {
      std::vector<std::string_view> names(commands.begin(), commands.end());
      const std::string hint = DidYouMean(args[first], names);
      if (!hint.empty()) {
        return fmt::format("unknown command '{}'{}", args[first], hint);
      }
      return fmt::format("unknown command '{}'; the commands are {}",
                         args[first], Listed(commands));
    }
    break;
  }
  const CLI::App& scope = command != nullptr ? *command : app;
  const std::vector<std::string> flags = FlagsOf(scope);
  const std::string where =
      command != nullptr ? fmt::format("{}: ", command->get_name()) : "";
  for (std::size_t i = command != nullptr ? first + 1 : 0; i < args.size();
       ++i) {
    const std::string& word = args[i];
    if (word == "--") break;
    if (word.size() < 2 || word[0] != '-' || IsNumber(word)) continue;
    const std::string flag = word.substr(0, word.find('='));
    if (std::find(flags.begin(), flags.end(), flag) != flags.end()) continue;
    std::vector<std::string_view> names(flags.begin(), flags.end());
    std::string hint = DidYouMean(flag, names);
    if (hint.empty()) {
      hint = fmt::format("; `outbox-check {}--help` lists them",
                         command != nullptr ? command->get_name() + " " : "");
    }
    return fmt::format("{}unknown flag '{}'{}", where, flag, hint);
  }
  return std::nullopt;
}

}  // namespace oc
