// The manual page written from a command line's own definition.

#include "cli/man_page.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace oc {
namespace {

struct Fixture {
  CLI::App app{"tool: checks .things for a living"};
  std::vector<std::string> paths;
  std::string output;
  std::string url;
  int threads = 4;
  bool force = false;
  Fixture() {
    app.name("tool");
    CLI::App* check = app.add_subcommand("check", "Check things");
    check->footer(
        "Exit codes:\n  0  all fine\n  3  a limit stopped it\nSee also x");
    check->add_option("paths", paths, "Files or folders")->required();
    check->add_option("--threads", threads, "Threads to use")
        ->capture_default_str();
    check->add_option("-o,--output", output, "Write here");
    CLI::App* fetch = app.add_subcommand("fetch", "Fetch a thing");
    fetch->add_option("--url", url, "Where from")->required();
    fetch->add_flag("--force", force, "Replace \\ what is there");
    app.add_subcommand("secret", "Not for people")->group("");
  }
  std::string Page() {
    return ManPage(app, {.version = "1.2.3",
                         .files = {{"PREFIX/share/tool/", "the data"}},
                         .see_also = {{"README.md", "the manual"}}});
  }
};

std::size_t Find(const std::string& page, const std::string& text) {
  const std::size_t at = page.find(text);
  INFO("looking for: " << text);
  CHECK(at != std::string::npos);
  return at;
}

TEST_CASE("the page has the man sections in order, one per command") {
  const std::string page = Fixture().Page();
  CHECK(page.find("\n.TH TOOL 1 \"\" \"tool 1.2.3\" \"User Commands\"\n") !=
        std::string::npos);
  std::size_t last = 0;
  for (const char* section :
       {"\n.SH NAME\ntool \\- checks .things for a living\n",
        "\n.SH SYNOPSIS\n",
        "\n.SH DESCRIPTION\n\\fBtool\\fR is checks .things for a living.\n",
        "\n.SH OPTIONS\n", "\n.SH CHECK\nCheck things.\n",
        "\n.SH FETCH\nFetch a thing.\n", "\n.SH \"EXIT STATUS\"\n",
        "\n.SH FILES\n.TP\n\\fIPREFIX/share/tool/\\fR\nthe data.\n",
        "\n.SH \"SEE ALSO\"\n.TP\n\\fIREADME.md\\fR\nthe manual.\n"}) {
    const std::size_t at = Find(page, section);
    CHECK(at > last);
    last = at;
  }
}

TEST_CASE(
    "the synopsis names required flags and arguments, optional ones in "
    "brackets") {
  const std::string page = Fixture().Page();
  Find(page, "\\fBtool check\\fR [\\fIflags\\fR] \\fIpaths\\fR ...\n");
  Find(page,
       "\\fBtool fetch\\fR \\fB\\-\\-url\\fR \\fITEXT\\fR "
       "[\\fIflags\\fR]\n");
}

TEST_CASE("flags show their names, value, default and whether required") {
  const std::string page = Fixture().Page();
  Find(page,
       ".TP\n\\fB\\-\\-threads\\fR \\fIINT\\fR\nThreads to use. Default: 4.\n");
  Find(page, ".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fITEXT\\fR\n");
  Find(page, ".TP\n\\fB\\-\\-url\\fR \\fITEXT\\fR\nWhere from. Required.\n");
  Find(page, ".TP\n\\fB\\-\\-force\\fR\nReplace \\e what is there.\n");
  Find(page, ".TP\n\\fIpaths\\fR ...\nFiles or folders.\n");
}

TEST_CASE("each command's exit codes are tagged paragraphs under its name") {
  const std::string page = Fixture().Page();
  Find(page,
       ".SS check\n.TP\n\\fB0\\fR\nall fine.\n.TP\n\\fB3\\fR\na limit "
       "stopped it.\n.PP\nSee also x.\n.SS fetch\n");
}

TEST_CASE("hidden commands and every command's --help are left out") {
  const std::string page = Fixture().Page();
  CHECK(page.find("secret") == std::string::npos);
  CHECK(page.find("Not for people") == std::string::npos);
  // Once, in OPTIONS: the program's own --help.
  const std::size_t help = Find(page, "\\fB\\-h\\fR, \\fB\\-\\-help\\fR");
  CHECK(page.find("\\fB\\-h\\fR, \\fB\\-\\-help\\fR", help + 1) ==
        std::string::npos);
}

TEST_CASE(
    "roff text escapes backslashes and hyphens and never starts a "
    "request") {
  CHECK(RoffText("a\\b --x") == "a\\eb \\-\\-x");
  CHECK(RoffText(".TH not a macro") == "\\&.TH not a macro");
  CHECK(RoffText("'quoted") == "\\&'quoted");
  CHECK(RoffText("  two\nlines") == "two lines");
}

}  // namespace
}  // namespace oc
