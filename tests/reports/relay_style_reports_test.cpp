// Relay styles in the reports: the relay settings in JSON, the broker
// assumption and the per-attempt warning beside the verdict, and the sequence
// diagram's words for the other relay styles.

#include <doctest/doctest.h>

#include <string>

#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "reports/text_report.h"
#include "writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::CheckText;
using testing::Contains;
using testing::Violated;

constexpr char kCursor[] = R"x(relays = ["forwarder"]
events = 2

[relay]
style = "sequence_cursor"

[source]
commits = "during_run"

[check]
invariants = ["eventually_offered"]

[expect]
verdict = "violated"
violated = "eventually_offered"
)x";

constexpr char kLostWrite[] = R"x(relays = ["A"]
events = 1

[relay]
message_id = "per_attempt"

[faults]
lost_broker_writes = 1

[check]
invariants = ["eventually_offered"]

[expect]
verdict = "violated"
violated = "eventually_offered"
)x";

constexpr char kSweeper[] = R"x(relays = ["producer", "sweeper"]
events = 1

[relay]
style = "age_sweeper"
min_age = "5s"
send_time = "10s"

[check]
invariants = ["offered_at_most_once"]

[expect]
verdict = "violated"
violated = "offered_at_most_once"
)x";

TEST_CASE("JSON names the relay style, identity and commit time") {
  const std::string json =
      JsonReport(CheckText(kCursor, "cursor.toml"),
                 {.wall_clock = false, .command_line = {}});
  CHECK(Contains(json, R"("style": "sequence_cursor")"));
  CHECK(Contains(json, R"("message_id": "outbox_id")"));
  CHECK(Contains(json, R"("source_commits": "during_run")"));
  CHECK(Contains(json, R"("kind": "source_commit")"));
  CHECK_FALSE(Contains(
      JsonReport(Violated(), {.wall_clock = false, .command_line = {}}),
      R"("relay": {)"));
}

TEST_CASE("the age sweeper's knobs are in JSON and its race in the diagram") {
  const ScenarioResult r = CheckText(kSweeper, "sweeper.toml");
  const std::string json =
      JsonReport(r, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(json, R"("style": "age_sweeper")"));
  CHECK(Contains(json, R"("min_age": "5s")"));
  CHECK(Contains(json, R"("send_time": "10s")"));
  const std::string md =
      MarkdownReport(r, {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "dispatch (just written) e1"));
  CHECK(Contains(md, "sweep: unmarked and old enough e1"));
  const std::string text =
      FormatResult(r, {.traces = true, .wall_clock = false});
  CHECK(Contains(text,
                 "relay style age_sweeper (minimum age 5s, sends up "
                 "to 10s)"));
  CHECK(Contains(text, "longest send 10s >= sweeper minimum age 5s"));
}

TEST_CASE("the Markdown diagram reads, not claims, with a cursor") {
  const std::string md =
      MarkdownReport(CheckText(kCursor, "cursor.toml"),
                     {.wall_clock = false, .command_line = {}});
  CHECK(Contains(md, "read e2"));
  CHECK(Contains(md, "source transaction of e1 commits"));
  CHECK_FALSE(Contains(md, "token"));
}

TEST_CASE("the summary states the broker assumption and the id warning") {
  const ScenarioResult r = CheckText(kLostWrite, "lost.toml");
  const std::string text =
      FormatResult(r, {.traces = true, .wall_clock = false});
  CHECK(Contains(text,
                 "warning:   relay.message_id is 'per_attempt': the inbox "
                 "deduplicates on a message id that is not the outbox row "
                 "id"));
  CHECK(Contains(text,
                 "warning:   the broker is assumed to acknowledge writes "
                 "before they are durable and to lose up to 1 of them"));
  CHECK(Contains(text, "lose_write(e1)"));
  CHECK(
      Contains(text, "; at most 1 lost broker write; message id per_attempt"));
}

}  // namespace
}  // namespace oc::reports
