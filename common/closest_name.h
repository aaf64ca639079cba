// "Did you mean" hints for misspelt names in scenario files and actions.

#ifndef OUTBOX_CHECK_COMMON_CLOSEST_NAME_H_
#define OUTBOX_CHECK_COMMON_CLOSEST_NAME_H_

#include <span>
#include <string>
#include <string_view>

namespace oc {

// The candidate closest to `name` by edit distance, if that distance is at
// most max(1, name.size() / 3) and `name` has at least 3 characters;
// otherwise empty. Ties go to the earlier
// candidate, so the answer is deterministic.
std::string ClosestName(std::string_view name,
                        std::span<const std::string_view> candidates);

// "; did you mean 'x'?" or "" — ready to append to a message.
std::string DidYouMean(std::string_view name,
                       std::span<const std::string_view> candidates);

}  // namespace oc

#endif  // OUTBOX_CHECK_COMMON_CLOSEST_NAME_H_
