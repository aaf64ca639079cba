// Options shared by the report writers.

#ifndef OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_
#define OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_

#include <string>

namespace oc::reports {

struct ReportOptions {
  // Include wall-clock seconds, the one thing in a report that is not a
  // function of the input. Default on; off for byte-identical reports
  // (`--no-time`, the committed examples and their staleness test).
  bool wall_clock = true;
  // The command that wrote the report, as the user typed it, which every
  // report states beside the tool's version; empty: not stated (the
  // byte-identical mode leaves it out, since it names paths and settings
  // that differ between runs with the same results).
  std::string command_line;
};

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_
