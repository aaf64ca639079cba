#include "scenarios/toml_words.h"

#include <fmt/format.h>

namespace oc {

std::string_view TypeName(toml::node_type type) {
  switch (type) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::string ErrorAt(std::string_view path, const toml::source_region& region,
                    std::string_view field, std::string_view what) {
  return fmt::format("{}:{}:{}: {}: {}", path, region.begin.line,
                     region.begin.column, field, what);
}

}  // namespace oc
