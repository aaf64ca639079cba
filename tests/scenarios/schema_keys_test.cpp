// The JSON Schemas of scenarios/schema/ against the loaders' own lists
// (ScenarioKeyTables() and friends), in both directions: every key a loader
// allows is a property of the schema at the same place and every property
// the schema describes is a key the loader allows; closed tables are closed
// in the schema, the event table is open; every word-valued field offers
// exactly the loader's words. tests/scenarios/schema_test.py validates the
// bundled files against the same schemas.

#include <doctest/doctest.h>

#include <algorithm>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "invariants/invariant.h"
#include "model/handler_program.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/strategy_loader.h"

namespace oc {
namespace {

using boost::property_tree::ptree;

ptree ParseJson(const std::string& text) {
  ptree root;
  std::istringstream in(text);
  boost::property_tree::read_json(in, root);
  return root;
}

ptree ReadSchema(std::string_view file) {
  ptree root;
  boost::property_tree::read_json(
      std::string(OC_SOURCE_DIR) + "/scenarios/schema/" + std::string(file),
      root);
  return root;
}

// The member `key` of a JSON object (by name: keys are never split at '.').
const ptree* Member(const ptree& node, std::string_view key) {
  const auto it = node.find(std::string(key));
  return it == node.not_found() ? nullptr : &it->second;
}

// Whether `node` is a JSON object or array, not a scalar such as `false`.
bool Compound(const ptree* node) { return node != nullptr && !node->empty(); }

// `node` and every schema it stands for through $ref, allOf, anyOf and
// oneOf (and `not`, when asked: the words a field must not take). Not
// through if/then/else: those restate properties, they add none.
void Alternatives(const ptree& root, const ptree& node, bool through_not,
                  std::vector<const ptree*>& out, int depth = 0) {
  REQUIRE(depth < 16);
  out.push_back(&node);
  if (const ptree* ref = Member(node, "$ref")) {
    const std::string target = ref->data();
    const std::string prefix = "#/definitions/";
    REQUIRE_MESSAGE(target.rfind(prefix, 0) == 0, target);
    const ptree* definitions = Member(root, "definitions");
    REQUIRE_MESSAGE(definitions != nullptr, target);
    const ptree* definition =
        Member(*definitions, target.substr(prefix.size()));
    REQUIRE_MESSAGE(definition != nullptr, target);
    Alternatives(root, *definition, through_not, out, depth + 1);
  }
  for (std::string_view combinator : {"allOf", "anyOf", "oneOf"}) {
    if (const ptree* list = Member(node, combinator)) {
      for (const auto& [unused, sub] : *list) {
        Alternatives(root, sub, through_not, out, depth + 1);
      }
    }
  }
  if (through_not) {
    if (const ptree* negated = Member(node, "not")) {
      Alternatives(root, *negated, through_not, out, depth + 1);
    }
  }
}

std::vector<const ptree*> AlternativesOf(const ptree& root, const ptree& node,
                                         bool through_not = false) {
  std::vector<const ptree*> out;
  Alternatives(root, node, through_not, out);
  return out;
}

// The schemas at `path` (key_tables.h's notation: "groups[].strategy",
// "tables.*", "check.must_fire[]"), with their alternatives.
std::vector<const ptree*> At(const ptree& root, std::string_view path,
                             bool through_not = false) {
  std::vector<const ptree*> nodes = AlternativesOf(root, root, through_not);
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    std::string_view segment = path.substr(0, dot);
    path = dot == std::string_view::npos ? "" : path.substr(dot + 1);
    const bool each = segment.ends_with("[]");
    if (each) segment.remove_suffix(2);
    std::vector<const ptree*> next;
    for (const ptree* node : nodes) {
      const ptree* sub = nullptr;
      if (segment == "*") {
        sub = Member(*node, "additionalProperties");
        if (!Compound(sub)) sub = nullptr;
      } else if (const ptree* properties = Member(*node, "properties")) {
        sub = Member(*properties, segment);
      }
      if (sub == nullptr) continue;
      for (const ptree* alternative : AlternativesOf(root, *sub, through_not)) {
        if (!each) {
          next.push_back(alternative);
        } else if (const ptree* items = Member(*alternative, "items")) {
          for (const ptree* item : AlternativesOf(root, *items, through_not)) {
            next.push_back(item);
          }
        }
      }
    }
    nodes = std::move(next);
  }
  return nodes;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

template <class List>
std::string Joined(const List& list) {
  return Joined(std::vector<std::string>(std::begin(list), std::end(list)));
}

void AddOnce(std::vector<std::string>& list, const std::string& word) {
  if (std::find(list.begin(), list.end(), word) == list.end()) {
    list.push_back(word);
  }
}

// The property names of the schema at `path`, in the schema's order.
std::vector<std::string> PropertiesAt(const ptree& root,
                                      std::string_view path) {
  std::vector<std::string> names;
  for (const ptree* node : At(root, path)) {
    if (const ptree* properties = Member(*node, "properties")) {
      for (const auto& [name, unused] : *properties) AddOnce(names, name);
    }
  }
  return names;
}

// The words the schema at `path` enumerates, in the schema's order.
std::vector<std::string> EnumAt(const ptree& root, std::string_view path,
                                bool through_not = false) {
  std::vector<std::string> words;
  for (const ptree* node : At(root, path, through_not)) {
    if (const ptree* list = Member(*node, "enum")) {
      for (const auto& [unused, word] : *list) AddOnce(words, word.data());
    }
  }
  return words;
}

// Whether some schema at `path` says `additionalProperties: false`.
bool ClosedAt(const ptree& root, std::string_view path) {
  for (const ptree* node : At(root, path)) {
    const ptree* extra = Member(*node, "additionalProperties");
    if (extra != nullptr && !Compound(extra) && extra->data() == "false") {
      return true;
    }
  }
  return false;
}

// Every place in the schema that describes a table, with its property
// names: the reverse direction of the key tables.
void Tables(const ptree& root, const ptree& node, const std::string& path,
            std::map<std::string, std::vector<std::string>>& out,
            int depth = 0) {
  REQUIRE(depth < 16);
  auto join = [&](std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  };
  for (const ptree* alternative : AlternativesOf(root, node)) {
    if (const ptree* properties = Member(*alternative, "properties")) {
      for (const auto& [name, sub] : *properties) {
        AddOnce(out[path], name);
        Tables(root, sub, join(name), out, depth + 1);
      }
    }
    if (const ptree* items = Member(*alternative, "items")) {
      Tables(root, *items, path + "[]", out, depth + 1);
    }
    const ptree* extra = Member(*alternative, "additionalProperties");
    if (Compound(extra)) Tables(root, *extra, join("*"), out, depth + 1);
  }
}

// What `required` and the conditionals (if/then/else) name at `path` must
// be properties there: a misspelt name in them would never match.
void CheckNamesInRules(const ptree& root, std::string_view path) {
  const std::vector<std::string> properties = PropertiesAt(root, path);
  auto check = [&](const ptree& schema) {
    if (const ptree* required = Member(schema, "required")) {
      for (const auto& entry : *required) {
        const std::string name = entry.second.data();
        CHECK_MESSAGE(std::find(properties.begin(), properties.end(), name) !=
                          properties.end(),
                      "'", path, "' requires '", name,
                      "', which is not one of its properties");
      }
    }
    if (const ptree* named = Member(schema, "properties")) {
      for (const auto& entry : *named) {
        const std::string name = entry.first;
        CHECK_MESSAGE(std::find(properties.begin(), properties.end(), name) !=
                          properties.end(),
                      "a condition of '", path, "' names '", name,
                      "', which is not one of its properties");
      }
    }
  };
  for (const ptree* node : At(root, path)) {
    check(*node);
    for (std::string_view branch : {"if", "then", "else"}) {
      if (const ptree* sub = Member(*node, branch)) check(*sub);
    }
  }
}

// Both directions for every table of one kind of file.
void CheckKeyTables(const ptree& schema, const std::vector<KeyTable>& tables) {
  std::map<std::string, std::vector<std::string>> described;
  Tables(schema, schema, "", described);
  for (const KeyTable& table : tables) {
    INFO("table '", table.path, "'");
    CHECK(Joined(PropertiesAt(schema, table.path)) == Joined(table.keys));
    CHECK(ClosedAt(schema, table.path) == !table.open);
    CheckNamesInRules(schema, table.path);
  }
  for (const auto& entry : described) {
    const auto& path = entry.first;
    const auto& names = entry.second;
    const bool known =
        std::any_of(tables.begin(), tables.end(),
                    [&](const KeyTable& t) { return t.path == path; });
    CHECK_MESSAGE(known, "the schema describes a table at '", path,
                  "' with keys ", Joined(names),
                  "; the loader has no such table");
  }
}

void CheckWordLists(const ptree& schema, const std::vector<WordList>& lists) {
  for (const WordList& list : lists) {
    INFO("field '", list.path, "'");
    CHECK(Joined(EnumAt(schema, list.path)) == Joined(list.words));
  }
}

std::vector<std::string> BuiltinInvariantNames() {
  std::vector<std::string> names;
  for (const Invariant& invariant : AllInvariants()) {
    names.emplace_back(invariant.name);
  }
  return names;
}

TEST_CASE("the schema walker sees through $ref, allOf, oneOf and items") {
  const ptree schema = ParseJson(R"({
    "type": "object",
    "properties": {
      "a": {"allOf": [{"$ref": "#/definitions/t"}]},
      "b": {"oneOf": [{"type": "integer"},
                      {"type": "array", "items": {"$ref": "#/definitions/t"}}]},
      "c": {"type": "object", "additionalProperties": {
              "type": "object", "additionalProperties": false,
              "properties": {"k": {"enum": ["x", "y"]}}}}
    },
    "definitions": {
      "t": {"type": "object", "additionalProperties": false,
            "properties": {"p": {"type": "string"}, "q": {"enum": ["u"]}}}
    }
  })");
  CHECK(Joined(PropertiesAt(schema, "")) == "a, b, c");
  CHECK(Joined(PropertiesAt(schema, "a")) == "p, q");
  CHECK(Joined(PropertiesAt(schema, "b[]")) == "p, q");
  CHECK(Joined(PropertiesAt(schema, "c.*")) == "k");
  CHECK(Joined(EnumAt(schema, "c.*.k")) == "x, y");
  CHECK(Joined(EnumAt(schema, "b[].q")) == "u");
  CHECK(ClosedAt(schema, "a"));
  CHECK_FALSE(ClosedAt(schema, ""));
  std::map<std::string, std::vector<std::string>> described;
  Tables(schema, schema, "", described);
  std::string paths;
  for (const auto& [path, unused] : described) paths += "'" + path + "' ";
  CHECK(paths == "'' 'a' 'b[]' 'c.*' ");
}

TEST_CASE(
    "the scenario schema has exactly the keys the scenario loader allows, "
    "table by table") {
  CheckKeyTables(ReadSchema("scenario.schema.json"), ScenarioKeyTables());
}

TEST_CASE(
    "the scenario schema offers exactly the words the scenario loader "
    "takes") {
  const ptree schema = ReadSchema("scenario.schema.json");
  CheckWordLists(schema, ScenarioWordLists());
  // Built-in invariants are offered for check.invariants (a scenario may
  // list its own too) and refused as the names of its own.
  CHECK(Joined(EnumAt(schema, "check.invariants[]")) ==
        Joined(BuiltinInvariantNames()));
  CHECK(Joined(EnumAt(schema, "invariants[].name", /*through_not=*/true)) ==
        Joined(BuiltinInvariantNames()));
}

TEST_CASE(
    "the strategy schema has exactly the keys and words the strategy loader "
    "allows") {
  const ptree schema = ReadSchema("strategy.schema.json");
  CheckKeyTables(schema, StrategyKeyTables());
  CheckWordLists(schema, StrategyWordLists());
  // The names a declared table may not take: every built-in table, and
  // nothing the loader would accept.
  const ptree* names = nullptr;
  for (const ptree* node : At(schema, "tables")) {
    if (const ptree* p = Member(*node, "propertyNames")) names = p;
  }
  REQUIRE(names != nullptr);
  const std::vector<std::string> reserved =
      EnumAt(*names, "", /*through_not=*/true);
  for (std::string_view table : kDurableTableNames) {
    CHECK_MESSAGE(
        std::find(reserved.begin(), reserved.end(), table) != reserved.end(),
        "built-in table '", table, "' is not refused");
  }
  for (const std::string& name : reserved) {
    CHECK_MESSAGE(ReservedHandlerName(name), "'", name,
                  "' is refused by the schema, not by the loader");
  }
}

TEST_CASE(
    "the invariant definition schema has exactly the keys and words its "
    "loader allows") {
  const ptree schema = ReadSchema("invariant.schema.json");
  CheckKeyTables(schema, InvariantDefinitionKeyTables());
  CheckWordLists(schema, InvariantDefinitionWordLists());
}

}  // namespace
}  // namespace oc
