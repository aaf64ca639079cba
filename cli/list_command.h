// `outbox-check list [SECTION]`: what a scenario can name, one line per
// item (its name, then a short description), read from the tables the
// loader itself uses and from the bundled definition files, so the list
// cannot drift from what the loader accepts.
//
// Sections: strategies (kAllStrategies, with each one's description from
// its definition in scenarios/strategies/), invariants (AllInvariants()),
// styles (kRelayStyles), budgets (kFaultBudgets), presets (the files of
// scenarios/presets/, which `init --from` starts from) and catalogue
// (every bundled scenario, as FOLDER/NAME under scenarios/). Without a
// section: all of them, each under a heading.

#ifndef OUTBOX_CHECK_CLI_LIST_COMMAND_H_
#define OUTBOX_CHECK_CLI_LIST_COMMAND_H_

#include <cstddef>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace oc {

struct ListFlags {
  std::string section;  // one of ListSections(); "": every section
  // Cut each line to this many columns with "..." (the terminal's width);
  // 0: never cut (a pipe or a file gets whole lines).
  std::size_t width = 0;
};

// The section names, in the order `list` prints them.
std::span<const std::string_view> ListSections();

// "strategies|invariants|...", for --help.
std::string ListSectionChoices();

// Exit code 0; 2 for an unknown section (with a did-you-mean) or when the
// bundled data a section needs cannot be found or read.
int RunList(const ListFlags& flags, std::FILE* out, std::FILE* err);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_LIST_COMMAND_H_
