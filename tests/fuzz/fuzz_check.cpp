// libFuzzer target: any bytes as a scenario, checked end to end on a tiny
// state bound (search, verdict, point of no return) and rendered by the
// text, Markdown, JSON and HTML reports.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "check/scenario_check.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/text_report.h"
#include "scenarios/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const oc::Result<oc::Scenario> s =
      oc::ParseScenario(text, OC_SOURCE_DIR "/scenarios/fuzzed.toml");
  if (!s.ok()) return 0;
  oc::CheckOptions options;
  options.max_states = 300;
  options.threads = 1;
  options.graph_limit = 300;
  const oc::Result<oc::ScenarioResult> r =
      oc::CheckScenario(s.value(), options);
  if (!r.ok()) return 0;
  oc::reports::TextOptions text_options;
  text_options.wall_clock = false;
  (void)oc::reports::FormatResult(r.value(), text_options);
  const oc::reports::ReportOptions report_options;
  (void)oc::reports::MarkdownReport(r.value(), report_options);
  (void)oc::reports::JsonReport(r.value(), report_options);
  (void)oc::reports::HtmlReport(r.value(), report_options);
  return 0;
}
