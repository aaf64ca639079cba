#include "cli/list_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <vector>

#include "cli/check_command.h"
#include "cli/data_folder.h"
#include "cli/scenario_paths.h"
#include "common/closest_name.h"
#include "common/text.h"
#include "invariants/invariant.h"
#include "model/config.h"
#include "model/fault_budgets.h"
#include "model/relay_styles.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/strategy_loader.h"

namespace oc {
namespace {

namespace fs = std::filesystem;

struct Item {
  std::string name;
  std::string description;
};

struct Section {
  std::string_view name;
  std::string_view heading;
  Result<std::vector<Item>> (*items)();
};

// The first sentence of `text`, its line breaks and runs of spaces made
// single spaces.
std::string FirstSentence(std::string_view text) {
  std::string flat;
  for (char c : text) {
    const char d = (c == '\n' || c == '\t' || c == '\r') ? ' ' : c;
    if (d == ' ' && (flat.empty() || flat.back() == ' ')) continue;
    flat += d;
  }
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  const std::size_t end = flat.find(". ");
  return end == std::string::npos ? flat : flat.substr(0, end + 1);
}

std::string_view FamilyWord(StrategyFamily family) {
  switch (family) {
    case StrategyFamily::kCredit:
      return "credit";
    case StrategyFamily::kProjection:
      return "projection";
    case StrategyFamily::kNotification:
      return "notification";
    case StrategyFamily::kCache:
      return "cache";
    case StrategyFamily::kCustom:
      return "its own tables";
  }
  return "?";
}

Result<std::vector<Item>> Strategies() {
  // The definitions restate each built-in in the handler language; their
  // descriptions say what it does. Without the bundled data, the table's
  // own facts.
  const Result<std::string> definitions = BundledPath("strategies");
  std::vector<Item> items;
  for (Strategy s : kAllStrategies) {
    const std::string name(StrategyName(s));
    std::string description;
    if (definitions.ok()) {
      Result<std::string> d = LoadStrategyDescription(
          BuiltinDefinitionPath(definitions.value(), name));
      if (!d.ok()) return d.status();
      description = FirstSentence(d.value());
    }
    if (description.empty()) {
      description = fmt::format("{} group, {}{}", FamilyWord(FamilyOf(s)),
                                Plural(StepCount(s), "step"),
                                HasInbox(s) ? ", with an inbox" : "");
    }
    items.push_back({name, std::move(description)});
  }
  return items;
}

Result<std::vector<Item>> Invariants() {
  std::vector<Item> items;
  for (const Invariant& inv : AllInvariants()) {
    items.push_back(
        {std::string(inv.name),
         fmt::format("{}: {}", InvariantKindWord(inv.kind), inv.reads)});
  }
  return items;
}

Result<std::vector<Item>> Styles() {
  std::vector<Item> items;
  for (const RelayStyleInfo& style : kRelayStyles) {
    items.push_back(
        {std::string(style.name),
         fmt::format(
             "{}{}", style.summary,
             style.style == kDefaultRelayStyle ? " (the default)" : "")});
  }
  return items;
}

Result<std::vector<Item>> Budgets() {
  std::vector<Item> items;
  for (const FaultBudget& budget : kFaultBudgets) {
    std::string_view family;
    switch (budget.family) {
      case BudgetFamily::kSeed:
        family = "";
        break;
      case BudgetFamily::kTime:
        family = "; needs durations ([time])";
        break;
      case BudgetFamily::kStyle:
        family = "; only where the relay style or broker has it";
        break;
      case BudgetFamily::kBroker:
        family = "; needs a partitioned broker";
        break;
    }
    items.push_back({std::string(budget.key),
                     fmt::format("how many {} a run may suffer (action "
                                 "{}){}",
                                 budget.plural, budget.spender, family)});
  }
  return items;
}

// Every scenario under the bundled folder `folder` (all of scenarios/ when
// empty), named by its path below it without ".toml".
Result<std::vector<Item>> BundledScenarios(std::string_view folder) {
  Result<std::string> root = BundledPath("");
  if (!root.ok()) return root.status();
  const fs::path base = fs::path(root.value()) / folder;
  Result<std::vector<std::string>> files = ScenarioFiles({base.string()});
  if (!files.ok()) return files.status();
  std::vector<Item> items;
  for (const std::string& file : files.value()) {
    Result<Scenario> scenario = LoadScenario(file);
    if (!scenario.ok()) return scenario.status();
    fs::path name = fs::path(file).lexically_relative(base);
    name.replace_extension();
    items.push_back(
        {name.generic_string(), FirstSentence(scenario.value().description)});
  }
  return items;
}

Result<std::vector<Item>> Presets() { return BundledScenarios("presets"); }
Result<std::vector<Item>> Catalogue() { return BundledScenarios(""); }

constexpr Section kSections[] = {
    {"strategies", "Strategies (groups[].strategy)", Strategies},
    {"invariants", "Invariants (check.invariants)", Invariants},
    {"styles", "Relay styles (relay.style)", Styles},
    {"budgets", "Fault budgets ([faults])", Budgets},
    {"presets", "Presets (outbox-check init FILE --from NAME)", Presets},
    {"catalogue", "Bundled scenarios (scenarios/NAME.toml)", Catalogue},
};

constexpr auto kSectionNames = [] {
  std::array<std::string_view, std::size(kSections)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kSections[i].name;
  return names;
}();

// `text` cut to `width` columns with "..." (never inside a UTF-8
// sequence).
std::string Fit(std::string text, std::size_t width) {
  if (width < 4 || text.size() <= width) return text;
  std::size_t keep = width - 3;
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  text.resize(keep);
  return text + "...";
}

void PrintItems(const std::vector<Item>& items, std::string_view indent,
                std::size_t columns, std::FILE* out) {
  std::size_t width = 0;
  for (const Item& item : items) width = std::max(width, item.name.size());
  for (const Item& item : items) {
    fmt::print(out, "{}\n",
               Fit(fmt::format("{}{:<{}}  {}", indent, item.name, width,
                               item.description),
                   columns));
  }
}

}  // namespace

std::span<const std::string_view> ListSections() { return kSectionNames; }

std::string ListSectionChoices() {
  return fmt::format("{}", fmt::join(kSectionNames, "|"));
}

int RunList(const ListFlags& flags, std::FILE* out, std::FILE* err) {
  std::vector<const Section*> chosen;
  for (const Section& section : kSections) {
    if (flags.section.empty() || section.name == flags.section) {
      chosen.push_back(&section);
    }
  }
  if (chosen.empty()) {
    const std::string hint = DidYouMean(flags.section, kSectionNames);
    if (!hint.empty()) {
      fmt::print(err, "outbox-check list: unknown section '{}'{}\n",
                 flags.section, hint);
    } else {
      fmt::print(err,
                 "outbox-check list: unknown section '{}'; the sections are "
                 "{}\n",
                 flags.section, fmt::join(kSectionNames, ", "));
    }
    return kExitUsage;
  }
  const bool headings = chosen.size() > 1;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    Result<std::vector<Item>> items = chosen[i]->items();
    if (!items.ok()) {
      fmt::print(err, "outbox-check list {}: {}\n", chosen[i]->name,
                 items.status().message());
      return kExitUsage;
    }
    if (headings) {
      fmt::print(out, "{}{}:\n", i > 0 ? "\n" : "", chosen[i]->heading);
    }
    PrintItems(items.value(), headings ? "  " : "", flags.width, out);
  }
  return 0;
}

}  // namespace oc
