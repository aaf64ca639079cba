// The manual page, outbox-check(1), written from the command line's own
// definition: the same descriptions, flags, choices and exit codes that
// each command's --help prints, so the page cannot drift from the program.
// The build runs the hidden `outbox-check man-page FILE` and installs FILE.

#ifndef OUTBOX_CHECK_CLI_MAN_PAGE_H_
#define OUTBOX_CHECK_CLI_MAN_PAGE_H_

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

namespace oc {

// What the page says that the command line does not know.
struct ManPageFacts {
  std::string version;  // "0.1.0", in the page's header
  // FILES and SEE ALSO: (path, what it holds), in this order.
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::pair<std::string, std::string>> see_also;
};

// The facts of this build: its version, and the installed data and
// documentation folders relative to the install prefix.
ManPageFacts InstalledManPageFacts();

// The page as roff (man macros): .TH, NAME and DESCRIPTION from `app`'s
// description, SYNOPSIS, OPTIONS (the program's own flags), one section
// per command (its description, arguments and flags; every command's
// --help is mentioned once, not per command), EXIT STATUS (each command's
// footer lines "  N  text"), FILES and SEE ALSO from `facts`. Hidden
// commands and flags (an empty group) are left out. Deterministic: no date.
// REQUIRES: `app` has a name and a description.
std::string ManPage(const CLI::App& app, const ManPageFacts& facts);

// Text as one roff line of running text: backslashes and hyphens escaped,
// and a leading '.' or '\'' kept from being read as a request.
std::string RoffText(const std::string& text);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_MAN_PAGE_H_
