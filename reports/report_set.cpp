#include "reports/report_set.h"

#include <fmt/format.h>

#include <map>

#include "reports/html_report.h"
#include "reports/index_report.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/report_text.h"

namespace oc::reports {

std::vector<std::string> UniqueStems(
    const std::vector<ScenarioResult>& results) {
  std::vector<std::string> stems;
  std::map<std::string, int> seen;
  for (const ScenarioResult& r : results) {
    const std::string stem = ReportStem(r.scenario);
    const int n = ++seen[stem];
    stems.push_back(n == 1 ? stem : fmt::format("{}-{}", stem, n));
  }
  return stems;
}

std::vector<ReportFile> ReportFiles(const std::vector<ScenarioResult>& results,
                                    const ReportOptions& options) {
  const std::vector<std::string> stems = UniqueStems(results);
  std::vector<ReportFile> files;
  for (std::size_t i = 0; i < results.size(); ++i) {
    files.push_back({stems[i] + ".md", MarkdownReport(results[i], options)});
    files.push_back({stems[i] + ".html", HtmlReport(results[i], options)});
    files.push_back({stems[i] + ".json", JsonReport(results[i], options)});
  }
  files.push_back({"index.md", MarkdownIndex(results, stems, options)});
  files.push_back({"index.html", HtmlIndex(results, stems, options)});
  files.push_back({"junit.xml", JunitXml(results, stems, options)});
  return files;
}

}  // namespace oc::reports
