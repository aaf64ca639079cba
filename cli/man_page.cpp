#include "cli/man_page.h"

#include <fmt/format.h>

#include <cctype>
#include <sstream>
#include <string_view>

namespace oc {
namespace {

bool Hidden(const CLI::App& app) { return app.get_group().empty(); }

// Every command has --help; the page says so once instead of per command.
bool Listed(const CLI::App& app, const CLI::Option& option) {
  return !option.get_group().empty() && &option != app.get_help_ptr() &&
         &option != app.get_help_all_ptr();
}

std::vector<const CLI::App*> Commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !Hidden(*sub); });
}

// CLI11's descriptions are phrases; the page prints them as sentences.
std::string Sentence(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  if (!text.empty() && text.back() != '.' && text.back() != '?' &&
      text.back() != '!') {
    text += '.';
  }
  return RoffText(text);
}

std::string Bold(std::string_view text) {
  return "\\fB" + RoffText(std::string(text)) + "\\fR";
}

std::string Italic(std::string_view text) {
  return "\\fI" + RoffText(std::string(text)) + "\\fR";
}

bool Repeats(const CLI::Option& option) {
  return option.get_items_expected_max() >=
         CLI::detail::expected_max_vector_size;
}

// "--max-memory SIZE", "-o, --output TEXT", "--threads UINT ...".
std::string OptionTag(const CLI::Option& option) {
  std::string names;
  for (const std::string& name : option.get_snames()) {
    names += (names.empty() ? "" : ", ") + Bold("-" + name);
  }
  for (const std::string& name : option.get_lnames()) {
    names += (names.empty() ? "" : ", ") + Bold("--" + name);
  }
  if (option.get_type_size() == 0) return names;
  const std::string& text = option.get_option_text();
  const std::string value = text.empty() ? option.get_type_name() : text;
  if (!value.empty()) names += " " + Italic(value);
  if (Repeats(option)) names += " ...";
  return names;
}

std::string PositionalTag(const CLI::Option& option) {
  return Italic(option.get_name(true)) + (Repeats(option) ? " ..." : "");
}

std::string OptionText(const CLI::Option& option) {
  std::string text = Sentence(option.get_description());
  if (!option.get_default_str().empty()) {
    text += " Default: " + RoffText(option.get_default_str()) + ".";
  }
  if (option.get_required() && option.nonpositional()) text += " Required.";
  return text;
}

// One line of SYNOPSIS: the command, its required flags, a placeholder for
// the others, and its arguments (optional ones in brackets).
std::string Synopsis(const CLI::App& app, const CLI::App& command) {
  std::string line = Bold(app.get_name() + " " + command.get_name());
  bool optional_flags = false;
  for (const CLI::Option* option : command.get_options()) {
    if (!Listed(command, *option) || !option->nonpositional()) continue;
    if (option->get_required()) {
      line += " " + OptionTag(*option);
    } else {
      optional_flags = true;
    }
  }
  if (optional_flags) line += " [" + Italic("flags") + "]";
  for (const CLI::Option* option : command.get_options()) {
    if (!Listed(command, *option) || option->nonpositional()) continue;
    const std::string tag = PositionalTag(*option);
    line += " " + (option->get_required() ? tag : "[" + tag + "]");
  }
  return line;
}

void Tagged(std::ostringstream& out, const std::string& tag,
            const std::string& text) {
  out << ".TP\n" << tag << "\n" << text << "\n";
}

// A command's footer: a heading line ending in ':' is dropped (the section
// is the heading), "  N  text" becomes a tagged paragraph, anything else a
// paragraph of its own.
void Footer(std::ostringstream& out, const std::string& footer) {
  std::istringstream lines(footer);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line.back() == ':') continue;
    const std::size_t code_end = line.find("  ", 2);
    if (line.starts_with("  ") && line[2] != ' ' &&
        code_end != std::string::npos) {
      Tagged(out, Bold(line.substr(2, code_end - 2)),
             Sentence(line.substr(code_end + 2)));
    } else {
      out << ".PP\n" << Sentence(line) << "\n";
    }
  }
}

void FileList(std::ostringstream& out,
              const std::vector<std::pair<std::string, std::string>>& entries) {
  for (const auto& [path, text] : entries) {
    Tagged(out, Italic(path), Sentence(text));
  }
}

std::string Upper(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string RoffText(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\e";
        break;
      case '-':
        out += "\\-";
        break;
      case '\n':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  const std::size_t first = out.find_first_not_of(' ');
  out.erase(0, first == std::string::npos ? out.size() : first);
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string ManPage(const CLI::App& app, const ManPageFacts& facts) {
  const std::string name = app.get_name();
  std::string summary = app.get_description();
  if (summary.starts_with(name + ": ")) summary.erase(0, name.size() + 2);
  while (!summary.empty() && summary.back() == '.') summary.pop_back();

  std::ostringstream out;
  out << ".\\\" Written by `" << name
      << " man-page` from the command line's own help; do not edit.\n";
  out << ".TH " << RoffText(Upper(name)) << " 1 \"\" \""
      << RoffText(name + " " + facts.version) << "\" \"User Commands\"\n";
  out << ".SH NAME\n" << RoffText(name) << " \\- " << RoffText(summary) << "\n";

  out << ".SH SYNOPSIS\n";
  out << Bold(name) << " " << Italic("command") << " [" << Italic("flags")
      << "] [" << Italic("arguments") << "]\n";
  for (const CLI::App* command : Commands(app)) {
    out << ".br\n" << Synopsis(app, *command) << "\n";
  }
  out << ".br\n"
      << Bold(name) << " [" << Italic("command") << "] " << Bold("--help")
      << "\n";

  // "NAME: an explicit-state model checker ..." reads "NAME is an ...".
  out << ".SH DESCRIPTION\n";
  if (!summary.empty() &&
      std::islower(static_cast<unsigned char>(summary[0]))) {
    out << Bold(name) << " is ";
  }
  out << Sentence(summary) << "\n";
  out << ".PP\nThe commands:\n";
  for (const CLI::App* command : Commands(app)) {
    Tagged(out, Bold(command->get_name()),
           Sentence(command->get_description()));
  }
  out << ".PP\nEach command's " << Bold("--help")
      << " prints its flags and exit codes, as the sections below do.\n";

  out << ".SH OPTIONS\n";
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;
    Tagged(out, OptionTag(*option), OptionText(*option));
  }

  for (const CLI::App* command : Commands(app)) {
    out << ".SH " << RoffText(Upper(command->get_name())) << "\n";
    out << Sentence(command->get_description()) << "\n";
    for (const CLI::Option* option : command->get_options()) {
      if (!Listed(*command, *option) || option->nonpositional()) continue;
      Tagged(out, PositionalTag(*option), OptionText(*option));
    }
    for (const CLI::Option* option : command->get_options()) {
      if (!Listed(*command, *option) || !option->nonpositional()) continue;
      Tagged(out, OptionTag(*option), OptionText(*option));
    }
  }

  out << ".SH \"EXIT STATUS\"\n";
  for (const CLI::App* command : Commands(app)) {
    out << ".SS " << RoffText(command->get_name()) << "\n";
    Footer(out, command->get_footer());
  }

  out << ".SH FILES\n";
  FileList(out, facts.files);
  out << ".SH \"SEE ALSO\"\n";
  FileList(out, facts.see_also);
  return out.str();
}

ManPageFacts InstalledManPageFacts() {
  // Relative to the install prefix (GNUInstallDirs), as cli/CMakeLists.txt
  // lays them out.
  const std::string data = std::string("PREFIX/") + OC_MAN_DATA_FOLDER;
  const std::string doc = std::string("PREFIX/") + OC_MAN_DOC_FOLDER;
  ManPageFacts facts;
  facts.version = OUTBOX_CHECK_VERSION;
  facts.files = {
      {std::string("PREFIX/") + OC_MAN_BIN_FOLDER + "/outbox-check",
       "the program; PREFIX is the folder it was installed into: /usr for "
       "the Debian package, the --prefix of cmake --install otherwise"},
      {data + "/",
       "the bundled scenarios: presets (list presets, init --from), bench "
       "(what bench runs without paths), seed, examples, consumers, the "
       "built-in strategies and invariants as definition files, and the "
       "JSON Schemas of the file formats (schema); the program finds them "
       "from its own location, never from the working folder"},
      {doc + "/", "README.md and the documentation pages"},
  };
  facts.see_also = {
      {doc + "/README.md",
       "what outbox-check checks, a worked example, guarantees and limits"},
      {doc + "/docs/SEMANTICS.md", "the semantics the checker implements"},
      {doc + "/docs/MACHINE_OUTPUT.md",
       "what --format json, --sarif and --itf write"},
      {doc + "/docs/INSTALL.md",
       "installing, the Debian package, and this page"},
      {data + "/FORMAT.md", "the scenario file format"},
      {data + "/strategies/LANGUAGE.md",
       "the language of declared strategies and invariants"},
  };
  return facts;
}

}  // namespace oc
