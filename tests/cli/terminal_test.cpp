// Colour only for a terminal, and never against NO_COLOR or a dumb one.

#include "cli/terminal.h"

#include <doctest/doctest.h>

namespace oc {
namespace {

TEST_CASE("colour goes to a terminal only") {
  CHECK(ColourWanted(true, nullptr, "xterm-256color"));
  CHECK(ColourWanted(true, nullptr, nullptr));
  CHECK_FALSE(ColourWanted(false, nullptr, "xterm-256color"));
}

TEST_CASE("NO_COLOR with any value, or a dumb terminal, turns colour off") {
  CHECK_FALSE(ColourWanted(true, "1", "xterm"));
  CHECK_FALSE(ColourWanted(true, "no", "xterm"));
  CHECK(ColourWanted(true, "", "xterm"));  // set but empty: as unset
  CHECK_FALSE(ColourWanted(true, nullptr, "dumb"));
}

}  // namespace
}  // namespace oc
