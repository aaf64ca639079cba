// `check --bless`: writing what a check found into each checked scenario
// file's [expect] table, so that checking the file again is as expected.

#ifndef OUTBOX_CHECK_CLI_BLESS_H_
#define OUTBOX_CHECK_CLI_BLESS_H_

#include <cstdio>
#include <optional>
#include <vector>

#include "check/scenario_check.h"
#include "common/status.h"

namespace oc {

// The expectation to write into each result's file (ObservedExpectation),
// in the order of `results`; or, when any of them cannot be blessed (its
// search was incomplete, or it fails whatever [expect] says), nullopt
// after printing "outbox-check: --bless: PATH: WHY" to `err` for each of
// them. Nothing is written either way.
// REQUIRES: every result was checked without an expectation.
std::optional<std::vector<Expectation>> ExpectationsToBless(
    const std::vector<ScenarioResult>& results, std::FILE* err);

// Writes `expect` into the [expect] table of the file `result` was loaded
// from (RewriteExpectTable: comments, key order and layout elsewhere are
// kept), atomically: the file holds its old text or all of the new, with
// its permissions, and a symbolic link stays a link to the updated file.
// Returns whether the text changed (false: the table already said this).
//
// Before writing, it checks that the file still says what was checked
// (the same scenario apart from [expect]), and that the new text reads
// back with exactly `expect` and nothing else changed; the error says
// which, and the file is left as it was.
Result<bool> BlessFile(const ScenarioResult& result, const Expectation& expect);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_BLESS_H_
