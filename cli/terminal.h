// Whether output goes to a person at a terminal, and so may be coloured.

#ifndef OUTBOX_CHECK_CLI_TERMINAL_H_
#define OUTBOX_CHECK_CLI_TERMINAL_H_

#include <cstddef>
#include <cstdio>

namespace oc {

// Colour only for a terminal, never for a pipe, a file or a CI log; and
// not when NO_COLOR is set to anything but "" (https://no-color.org) or
// TERM is "dumb". `no_color` and `term` are the variables' values, or
// nullptr when unset.
bool ColourWanted(bool terminal, const char* no_color, const char* term);

// ColourWanted for `out` and this process's environment.
bool ColourWanted(std::FILE* out);

// The width in columns of the terminal `out` writes to; 0 when `out` is
// not a terminal (or its width is unknown).
std::size_t TerminalWidth(std::FILE* out);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_TERMINAL_H_
