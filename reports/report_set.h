// Every report file of a run, as (file name, content) pairs: a pure function
// of the results, so that the command line only has to write them.
//
// Per scenario STEM: STEM.md, STEM.html, STEM.json. Over all scenarios:
// index.md, index.html, junit.xml.

#ifndef OUTBOX_CHECK_REPORTS_REPORT_SET_H_
#define OUTBOX_CHECK_REPORTS_REPORT_SET_H_

#include <string>
#include <vector>

#include "reports/report_options.h"
#include "scenarios/scenario_check.h"

namespace oc::reports {

struct ReportFile {
  std::string name;  // file name within the report folder
  std::string content;
};

// ReportStem of each scenario, made unique by appending "-2", "-3", ... to
// later repeats, in order.
std::vector<std::string> UniqueStems(
    const std::vector<ScenarioResult>& results);

std::vector<ReportFile> ReportFiles(const std::vector<ScenarioResult>& results,
                                    const ReportOptions& options);

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_REPORT_SET_H_
