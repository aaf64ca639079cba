// Rewriting the [expect] table of a scenario file's text, for `check
// --bless`, so that the file says what a check found and nothing else in
// it changes. toml++ cannot print a document with its comments, so this
// edits the text: it finds the table's keys by their source positions and
// replaces, removes or inserts whole key lines.

#ifndef OUTBOX_CHECK_SCENARIOS_EXPECT_TABLE_REWRITE_H_
#define OUTBOX_CHECK_SCENARIOS_EXPECT_TABLE_REWRITE_H_

#include <string>
#include <string_view>

#include "check/scenario.h"
#include "common/status.h"

namespace oc {

// `text` (the contents of the scenario file `path`) with an [expect] table
// that says `expect` (its keys as ExpectTableKeys writes them), and every
// other byte as it was:
// - An `[expect]` table with its own header is edited in place. A key
//   whose value already says the same is kept exactly as written (quotes,
//   order of a `violated` array, trailing comment); a key whose value
//   differs gets the new value, keeping its indentation and trailing
//   comment; a key the new table has no place for (an unknown key, or
//   `violated` when the verdict is now `holds`) is removed with the comment
//   lines right above it; a missing key goes on a new line after the
//   nearest key that comes before it in canonical order. Comments and
//   blank lines elsewhere in the table stay where they are.
// - Without an [expect] table, one is appended at the end, after a blank
//   line.
// - An expectation written otherwise (dotted keys such as
//   `expect.verdict = ...` at the top, an inline table, or a value that is
//   not a table) has its lines removed, and a table is appended.
// New lines end as the file's first line does ("\r\n" or "\n").
//
// The error case: `text` is not TOML, or [expect] holds a table (a dotted
// key or a sub-table) or an array of tables, which no scenario has and
// which this does not take apart: "PATH:LINE:COLUMN: FIELD: ...".
//
// Pure: the same arguments give the same text.
Result<std::string> RewriteExpectTable(std::string_view text,
                                       const std::string& path,
                                       const Expectation& expect);

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_EXPECT_TABLE_REWRITE_H_
