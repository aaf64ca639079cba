// What the command line says when CLI11 rejects it: a did-you-mean for a
// misspelt command or flag, and choices shown as `auto|always|never`
// rather than CLI11's `{always->1,auto->0,never->2}`.

#ifndef OUTBOX_CHECK_CLI_USAGE_HINTS_H_
#define OUTBOX_CHECK_CLI_USAGE_HINTS_H_

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace oc {

// For a command line `app` failed to parse (`args` without the program
// name): "unknown command 'chek'; did you mean 'check'?" when the first
// word is no command, or "check: unknown flag '--treads'; did you mean
// '--threads'?" for the first flag the command does not have (both with
// where to look when nothing is close). nullopt when neither explains the
// failure; CLI11's own message then does.
std::optional<std::string> UsageHint(CLI::App& app,
                                     const std::vector<std::string>& args);

// Makes `option` take one of `choices` (case-insensitive) into its
// variable, and shows them in --help as "a|b|c" in the map's order of
// `names` (which must list every key once).
template <class T>
CLI::Option* Choices(CLI::Option* option, std::map<std::string, T> choices,
                     const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : "|") + name;
  return option
      ->transform(CLI::CheckedTransformer(std::move(choices), CLI::ignore_case)
                      .description(""))
      ->option_text(text);
}

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_USAGE_HINTS_H_
