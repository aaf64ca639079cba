// Test-only: writes the HTML report of one scenario, for the in-browser test.
//
//   html_report_fixture SCENARIO.toml OUT.html
//
// Exit codes: 0 written; 2 usage, input or output error.

#include <fstream>
#include <iostream>

#include "check/scenario_check.h"
#include "reports/html_report.h"
#include "scenarios/scenario_loader.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: html_report_fixture SCENARIO.toml OUT.html\n";
    return 2;
  }
  const oc::Result<oc::Scenario> scenario = oc::LoadScenario(argv[1]);
  if (!scenario.ok()) {
    std::cerr << scenario.status().message() << "\n";
    return 2;
  }
  const oc::Result<oc::ScenarioResult> result =
      oc::CheckScenario(scenario.value());
  if (!result.ok()) {
    std::cerr << result.status().message() << "\n";
    return 2;
  }
  std::ofstream out(argv[2], std::ios::binary);
  out << oc::reports::HtmlReport(
      result.value(),
      oc::reports::ReportOptions{.wall_clock = false, .command_line = {}});
  out.close();
  if (!out) {
    std::cerr << argv[2] << ": cannot write\n";
    return 2;
  }
  return 0;
}
