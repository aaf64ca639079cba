// Options shared by the report writers.

#ifndef OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_
#define OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_

namespace oc::reports {

struct ReportOptions {
  // Include wall-clock seconds, the one thing in a report that is not a
  // function of the input. Default on; off for byte-identical reports
  // (`--no-time`, the committed examples and their staleness test).
  bool wall_clock = true;
};

}  // namespace oc::reports

#endif  // OUTBOX_CHECK_REPORTS_REPORT_OPTIONS_H_
