#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace oc {

bool ColourWanted(bool terminal, const char* no_color, const char* term) {
  if (!terminal) return false;
  if (no_color != nullptr && *no_color != '\0') return false;
  return term == nullptr || std::string_view(term) != "dumb";
}

bool ColourWanted(std::FILE* out) {
  return ColourWanted(isatty(fileno(out)) != 0, std::getenv("NO_COLOR"),
                      std::getenv("TERM"));
}

std::size_t TerminalWidth(std::FILE* out) {
  winsize size{};
  if (isatty(fileno(out)) == 0 || ioctl(fileno(out), TIOCGWINSZ, &size) != 0) {
    return 0;
  }
  return size.ws_col;
}

}  // namespace oc
