#include "reports/report_set.h"

#include "reports/file_names.h"
#include "reports/html_report.h"
#include "reports/index_report.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/wording.h"

namespace oc::reports {

const std::vector<std::string>& SetStems() {
  static const std::vector<std::string> kStems = {"index", "junit"};
  return kStems;
}

std::vector<std::string> UniqueStems(
    const std::vector<ScenarioResult>& results) {
  std::vector<std::string> stems;
  for (const ScenarioResult& r : results)
    stems.push_back(ReportStem(r.scenario));
  return UniqueFileStems(stems, SetStems());
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

namespace {

// "STEM.INVARIANT" + `extension` for every violation, but those of pinned
// orders unless `pinned_too`.
std::vector<TraceFileName> ViolationFileNames(
    const std::vector<ScenarioResult>& results, bool pinned_too,
    std::string_view extension) {
  const std::vector<std::string> stems = UniqueStems(results);
  std::vector<TraceFileName> files;
  std::vector<std::string> file_stems;
  for (std::size_t r = 0; r < results.size(); ++r) {
    if (results[r].replay && !pinned_too) continue;
    const auto& violations = results[r].exploration.violations;
    for (std::size_t i = 0; i < violations.size(); ++i) {
      files.push_back({r, i, ""});
      file_stems.push_back(stems[r] + "." +
                           SafeFileStem(violations[i].property));
    }
  }
  // "a.b" + "c" and "a" + "b.c" would meet.
  file_stems = UniqueFileStems(file_stems, {});
  for (std::size_t f = 0; f < files.size(); ++f) {
    files[f].name = file_stems[f] + std::string(extension);
  }
  return files;
}

}  // namespace

std::vector<TraceFileName> TraceFileNames(
    const std::vector<ScenarioResult>& results) {
  // A pinned order's violations are pinned orders already.
  return ViolationFileNames(results, /*pinned_too=*/false, ".toml");
}

std::vector<TraceFileName> CounterexampleFileNames(
    const std::vector<ScenarioResult>& results, std::string_view extension) {
  return ViolationFileNames(results, /*pinned_too=*/true, extension);
}

}  // namespace oc::reports
