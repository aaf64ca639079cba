// Every report file of a run, as (file name, content) pairs: a pure function
// of the results, so that the command line only has to write them.
//
// Per scenario STEM: STEM.md, STEM.html, STEM.json. Over all scenarios:
// index.md, index.html, junit.xml. File names come from reports/file_names.h:
// whatever a scenario is called, each is one plain file name, and no two
// differ only in case.

#ifndef OUTBOX_CHECK_REPORTS_REPORT_SET_H_
#define OUTBOX_CHECK_REPORTS_REPORT_SET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "check/scenario_check.h"
#include "reports/report_options.h"

namespace oc::reports {

struct ReportFile {
  std::string name;  // file name within the report folder
  std::string content;
};

// The stems of the files the set writes over all scenarios ("index",
// "junit"); no scenario's stem is one of them, in any case.
const std::vector<std::string>& SetStems();

// ReportStem of each scenario, made unique in the run, ignoring case and
// avoiding SetStems(), by UniqueFileStems (a later repeat of "x" becomes
// "x-2", or "x-3" when a scenario is really called "x-2").
std::vector<std::string> UniqueStems(
    const std::vector<ScenarioResult>& results);

std::vector<ReportFile> ReportFiles(const std::vector<ScenarioResult>& results,
                                    const ReportOptions& options);

// One counterexample that --save-traces writes: violation `violation` of
// results[`result`], into the file `name`.
struct TraceFileName {
  std::size_t result = 0;
  std::size_t violation = 0;
  std::string name;  // "STEM.INVARIANT.toml", unique ignoring case
};

// The counterexamples --save-traces writes, in result and violation order:
// every violation of every search (a pinned order's are left out, as it is
// one already). STEM is the scenario's UniqueStems entry and INVARIANT the
// SafeFileStem of the violated invariant's name.
std::vector<TraceFileName> TraceFileNames(
    const std::vector<ScenarioResult>& results);

// Every counterexample of the run, a pinned order's violations included, in
// result and violation order, named "STEM.INVARIANT" + `extension` (as
// TraceFileNames, unique ignoring case): the files of --itf, with
// extension ".itf.json".
std::vector<TraceFileName> CounterexampleFileNames(
    const std::vector<ScenarioResult>& results, std::string_view extension);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_REPORT_SET_H_
