#include "common/closest_name.h"

#include <algorithm>
#include <vector>

namespace oc {
namespace {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string ClosestName(std::string_view name,
                        std::span<const std::string_view> candidates) {
  // Short names are too alike to guess between ("A" is one edit from "B").
  if (name.size() < 3) return std::string();
  const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
  std::string_view best;
  std::size_t best_distance = limit + 1;
  for (std::string_view candidate : candidates) {
    const std::size_t d = EditDistance(name, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return std::string(best);
}

std::string DidYouMean(std::string_view name,
                       std::span<const std::string_view> candidates) {
  const std::string best = ClosestName(name, candidates);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

}  // namespace oc
