#include "scenarios/strategy_loader.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/closest_name.h"
#include "scenarios/file_text.h"
#include "scenarios/toml_words.h"

namespace oc {
namespace {

constexpr std::string_view kStrategyKeys[] = {"name", "description", "tables",
                                              "domains", "steps"};
constexpr std::string_view kTableKeys[] = {"kind", "by"};
// A declared table's kinds: a row (present or not), or a number.
constexpr std::string_view kRow = "row";
constexpr std::string_view kNumber = "number";

// [tables]: NAME = { kind = "row" | "number", by = "event" | ATTRIBUTE }.
Status ReadTables(const toml::node& node, const std::string& path,
                  HandlerProgram& program) {
  const toml::table* tables = node.as_table();
  if (tables == nullptr) {
    return Status::Error(
        ErrorAt(path, node.source(), "tables",
                fmt::format("expected a table of tables, got {}",
                            TypeName(node.type()))));
  }
  for (const auto& [key, value] : *tables) {
    const std::string name(key.str());
    const std::string field = fmt::format("tables.{}", name);
    const bool word =
        !name.empty() &&
        (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
        std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
    if (!word || ReservedHandlerName(name)) {
      return Status::Error(ErrorAt(
          path, key.source(), field,
          word ? fmt::format("'{}' is a built-in table or a keyword; choose "
                             "another name",
                             name)
               : "a table's name is a word: letters, digits and '_'"));
    }
    const toml::table* t = value.as_table();
    if (t == nullptr) {
      return Status::Error(ErrorAt(path, value.source(), field,
                                   fmt::format("expected {{ kind = \"row\" or "
                                               "\"number\", by = \"event\" or "
                                               "an attribute }}, got {}",
                                               TypeName(value.type()))));
    }
    for (const auto& [k, v] : *t) {
      if (std::find(std::begin(kTableKeys), std::end(kTableKeys), k.str()) ==
          std::end(kTableKeys)) {
        std::string hint = DidYouMean(k.str(), kTableKeys);
        if (hint.empty()) hint = "; allowed keys are kind, by";
        return Status::Error(ErrorAt(path, k.source(),
                                     fmt::format("{}.{}", field, k.str()),
                                     "unknown key" + hint));
      }
    }
    UserTable table;
    table.name = name;
    const toml::node* kind = t->get("kind");
    const std::optional<std::string> kind_text =
        kind ? kind->value<std::string>() : std::nullopt;
    if (!kind_text || (*kind_text != kRow && *kind_text != kNumber)) {
      return Status::Error(
          ErrorAt(path, kind ? kind->source() : value.source(), field + ".kind",
                  kind ? "expected \"row\" (present or not) or \"number\""
                       : "missing; \"row\" (present or not) or \"number\""));
    }
    table.row = *kind_text == kRow;
    const toml::node* by = t->get("by");
    const std::optional<std::string> by_text =
        by ? by->value<std::string>() : std::nullopt;
    if (!by_text || by_text->empty()) {
      return Status::Error(
          ErrorAt(path, by ? by->source() : value.source(), field + ".by",
                  by ? "expected \"event\" or an event attribute such as "
                       "\"account\""
                     : "missing; \"event\" (a cell per event) or an event "
                       "attribute such as \"account\" (a cell per account)"));
    }
    if (*by_text != "event") {
      if (*by_text == "version" || *by_text == "amount" || *by_text == "name") {
        return Status::Error(
            ErrorAt(path, by->source(), field + ".by",
                    fmt::format("'{}' is not a text attribute; "
                                "tables are indexed by the event "
                                "or by text such as account, key "
                                "or order",
                                *by_text)));
      }
      if (const std::string_view domain = DomainOfAttribute(program, *by_text);
          domain != *by_text) {
        return Status::Error(ErrorAt(
            path, by->source(), field + ".by",
            fmt::format("'{}' holds values of the domain '{}' ([domains]); "
                        "write by = \"{}\"",
                        *by_text, domain, domain)));
      }
      auto it =
          std::find(program.domains.begin(), program.domains.end(), *by_text);
      if (it == program.domains.end()) {
        program.domains.push_back(*by_text);
        it = program.domains.end() - 1;
      }
      table.by = static_cast<std::int8_t>(it - program.domains.begin());
    }
    if (program.tables.size() >= static_cast<std::size_t>(kMaxUserTables)) {
      return Status::Error(
          ErrorAt(path, key.source(), field,
                  fmt::format("too many tables; a strategy declares at most {}",
                              kMaxUserTables)));
    }
    program.tables.push_back(std::move(table));
  }
  return Status::Ok();
}

bool IsWord(std::string_view name) {
  return !name.empty() &&
         (std::isalpha(static_cast<unsigned char>(name[0])) ||
          name[0] == '_') &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

// Attributes that are no domain's: a label, the event's name, numbers.
bool NotADomainAttribute(std::string_view name) {
  return name == "type" || name == "name" || name == "version" ||
         name == "amount" || name == "event";
}

// [domains]: DOMAIN = [ ATTRIBUTE, ... ].
Status ReadDomains(const toml::node& node, const std::string& path,
                   HandlerProgram& program) {
  const toml::table* domains = node.as_table();
  if (domains == nullptr) {
    return Status::Error(
        ErrorAt(path, node.source(), "domains",
                fmt::format("expected a table of DOMAIN = [attributes], got {}",
                            TypeName(node.type()))));
  }
  for (const auto& [key, value] : *domains) {
    const std::string name(key.str());
    const std::string field = fmt::format("domains.{}", name);
    if (!IsWord(name) || NotADomainAttribute(name) || name == "key") {
      return Status::Error(ErrorAt(
          path, key.source(), field,
          IsWord(name) ? fmt::format("'{}' cannot be a domain: a domain is a "
                                     "kind of text value, such as account",
                                     name)
                       : "a domain's name is a word: letters, digits and "
                         "'_'"));
    }
    const toml::array* list = value.as_array();
    if (list == nullptr || list->empty()) {
      return Status::Error(ErrorAt(
          path, value.source(), field,
          list == nullptr
              ? fmt::format("expected an array of attribute names, such as "
                            "[\"from\", \"to\"], got {}",
                            TypeName(value.type()))
              : std::string("empty; list the attributes whose values are "
                            "of this domain, such as [\"from\", \"to\"]")));
    }
    if (program.declared_domains.size() >=
        static_cast<std::size_t>(kMaxHandlerDomains)) {
      return Status::Error(ErrorAt(
          path, key.source(), field,
          fmt::format("too many domains; a strategy declares at most {}",
                      kMaxHandlerDomains)));
    }
    DeclaredDomain domain{name, {}};
    for (std::size_t i = 0; i < list->size(); ++i) {
      const toml::node& item = *list->get(i);
      const std::string ifield = fmt::format("{}[{}]", field, i + 1);
      const std::optional<std::string> attribute = item.value<std::string>();
      if (!attribute || !IsWord(*attribute)) {
        return Status::Error(
            ErrorAt(path, item.source(), ifield,
                    "expected an attribute's name (a word), such as \"from\""));
      }
      if (NotADomainAttribute(*attribute) || *attribute == "key" ||
          *attribute == "account") {
        return Status::Error(ErrorAt(
            path, item.source(), ifield,
            fmt::format("'{}' {}", *attribute,
                        *attribute == "key" || *attribute == "account"
                            ? "holds values of its own domain; it cannot "
                              "join another"
                            : "is not a text attribute a domain can hold")));
      }
      for (const DeclaredDomain& other : program.declared_domains) {
        if (other.name == *attribute ||
            std::find(other.attributes.begin(), other.attributes.end(),
                      *attribute) != other.attributes.end()) {
          return Status::Error(ErrorAt(
              path, item.source(), ifield,
              fmt::format("'{}' is already {}; an attribute holds values of "
                          "one domain",
                          *attribute,
                          other.name == *attribute
                              ? "a domain"
                              : fmt::format("in domain '{}'", other.name))));
        }
      }
      if (*attribute == name ||
          std::find(domain.attributes.begin(), domain.attributes.end(),
                    *attribute) != domain.attributes.end()) {
        return Status::Error(
            ErrorAt(path, item.source(), ifield,
                    fmt::format("'{}' is listed twice", *attribute)));
      }
      domain.attributes.push_back(*attribute);
    }
    for (const DeclaredDomain& other : program.declared_domains) {
      if (std::find(other.attributes.begin(), other.attributes.end(), name) !=
          other.attributes.end()) {
        return Status::Error(ErrorAt(
            path, key.source(), field,
            fmt::format("'{}' is already in domain '{}'; an attribute holds "
                        "values of one domain",
                        name, other.name)));
      }
    }
    program.declared_domains.push_back(std::move(domain));
  }
  return Status::Ok();
}

}  // namespace

Result<HandlerProgram> ParseStrategyFile(std::string_view text,
                                         const std::string& path,
                                         const std::string& written_as) {
  Result<toml::table> parsed = ParseTomlText(text, path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = parsed.value();
  for (const auto& [key, value] : root) {
    if (std::find(std::begin(kStrategyKeys), std::end(kStrategyKeys),
                  key.str()) != std::end(kStrategyKeys)) {
      continue;
    }
    std::string hint = DidYouMean(key.str(), kStrategyKeys);
    if (hint.empty()) {
      hint = "; allowed keys are name, description, tables, domains, steps";
    }
    return Status::Error(
        ErrorAt(path, key.source(), key.str(), "unknown key" + hint));
  }
  HandlerProgram program;
  program.file = written_as;
  const toml::node* name = root.get("name");
  if (name == nullptr) {
    return Status::Error(fmt::format(
        "{}: name: missing; the strategy's name, e.g. \"loyalty.inbox\"",
        path));
  }
  if (!name->is_string()) {
    return Status::Error(ErrorAt(
        path, name->source(), "name",
        fmt::format("expected a string, got {}", TypeName(name->type()))));
  }
  program.name = name->as_string()->get();
  if (program.name.empty()) {
    return Status::Error(
        ErrorAt(path, name->source(), "name",
                "empty; the strategy's name, e.g. \"loyalty.inbox\""));
  }
  if (const toml::node* d = root.get("description");
      d != nullptr && !d->is_string()) {
    return Status::Error(
        ErrorAt(path, d->source(), "description",
                fmt::format("expected a string, got {}", TypeName(d->type()))));
  }
  if (const toml::node* domains = root.get("domains")) {
    if (Status s = ReadDomains(*domains, path, program); !s.ok()) return s;
  }
  if (const toml::node* tables = root.get("tables")) {
    if (Status s = ReadTables(*tables, path, program); !s.ok()) return s;
  }
  const toml::node* steps = root.get("steps");
  if (steps == nullptr) {
    return Status::Error(fmt::format(
        "{}: steps: missing; one or two steps, each an array of statements",
        path));
  }
  const toml::array* step_array = steps->as_array();
  if (step_array == nullptr) {
    return Status::Error(ErrorAt(
        path, steps->source(), "steps",
        fmt::format("expected an array, got {}", TypeName(steps->type()))));
  }
  if (step_array->empty() ||
      step_array->size() > static_cast<std::size_t>(kMaxHandlerSteps)) {
    return Status::Error(ErrorAt(
        path, steps->source(), "steps",
        fmt::format("{} steps; a handler has 1 to {} steps (transactions): "
                    "consume runs the first, each step action the next "
                    "(docs/SEMANTICS.md section 4)",
                    step_array->size(), kMaxHandlerSteps)));
  }
  std::vector<std::vector<HandlerSource>> sources;
  for (std::size_t s = 0; s < step_array->size(); ++s) {
    const toml::node& step = *step_array->get(s);
    const std::string field = fmt::format("steps[{}]", s + 1);
    const toml::array* statements = step.as_array();
    if (statements == nullptr) {
      return Status::Error(
          ErrorAt(path, step.source(), field,
                  fmt::format("expected an array of statements, "
                              "got {}",
                              TypeName(step.type()))));
    }
    if (statements->empty()) {
      return Status::Error(
          ErrorAt(path, step.source(), field,
                  "empty; a step holds at least one statement"));
    }
    sources.emplace_back();
    for (std::size_t i = 0; i < statements->size(); ++i) {
      const toml::node& st = *statements->get(i);
      const std::string sfield = fmt::format("{}[{}]", field, i + 1);
      if (!st.is_string()) {
        return Status::Error(ErrorAt(
            path, st.source(), sfield,
            fmt::format("expected a string, got {}", TypeName(st.type()))));
      }
      const std::string& text = st.as_string()->get();
      if (text.find('\n') != std::string::npos) {
        return Status::Error(ErrorAt(path, st.source(), sfield,
                                     "a statement is one line; write one "
                                     "statement per string"));
      }
      // The value's region starts at its opening quote.
      sources.back().push_back(
          HandlerSource{text, static_cast<int>(st.source().begin.line),
                        static_cast<int>(st.source().begin.column) + 1});
    }
  }
  HandlerError error;
  if (!CompileHandler(sources, program, error)) {
    return Status::Error(fmt::format("{}:{}:{}: steps[{}][{}]: {}", path,
                                     error.line, error.column, error.step + 1,
                                     error.statement + 1, error.message));
  }
  return program;
}

Result<HandlerProgram> LoadStrategyFile(const std::string& path,
                                        const std::string& written_as) {
  const Result<std::string> text = ReadFileText(path);
  if (!text.ok()) return text.status();
  return ParseStrategyFile(text.value(), path, written_as);
}

Result<std::string> LoadStrategyDescription(const std::string& path) {
  const Result<std::string> text = ReadFileText(path);
  if (!text.ok()) return text.status();
  if (Result<HandlerProgram> program =
          ParseStrategyFile(text.value(), path, path);
      !program.ok()) {
    return program.status();
  }
  Result<toml::table> parsed = ParseTomlText(text.value(), path);
  if (!parsed.ok()) return parsed.status();
  return std::string(parsed.value()["description"].value_or(std::string{}));
}

std::string BuiltinDefinitionPath(std::string_view strategies_dir,
                                  std::string_view name) {
  return fmt::format("{}/{}.toml", strategies_dir, name);
}

std::vector<KeyTable> StrategyKeyTables() {
  return {{.path = "",
           .keys = {std::begin(kStrategyKeys), std::end(kStrategyKeys)}},
          {.path = "tables.*",
           .keys = {std::begin(kTableKeys), std::end(kTableKeys)}}};
}

std::vector<WordList> StrategyWordLists() {
  return {{.path = "tables.*.kind",
           .words = {std::string(kRow), std::string(kNumber)}}};
}

Status UseBuiltinDefinitions(Config& config, std::string_view strategies_dir) {
  for (Group& g : config.groups) {
    if (g.declared) continue;
    const std::string path =
        BuiltinDefinitionPath(strategies_dir, StrategyName(g.strategy));
    Result<HandlerProgram> program = LoadStrategyFile(path, path);
    if (!program.ok()) return program.status();
    g.strategy = Strategy::kDeclared;
    g.declared = std::move(program).value();
  }
  return Status::Ok();
}

}  // namespace oc
