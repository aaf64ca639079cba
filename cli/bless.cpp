#include "cli/bless.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "check/observed_expectation.h"
#include "cli/atomic_file.h"
#include "scenarios/expect_table_rewrite.h"
#include "scenarios/file_text.h"
#include "scenarios/scenario_loader.h"
#include "scenarios/scenario_writer.h"

namespace oc {
namespace {

// The scenario in canonical form, without its expectation: two scenarios
// that differ only in [expect] print the same.
std::string WithoutExpectation(Scenario scenario) {
  scenario.expect.reset();
  return FormatScenario(scenario);
}

bool Same(const Expectation& a, const Expectation& b) {
  std::vector<std::string> va = a.violated;
  std::vector<std::string> vb = b.violated;
  std::sort(va.begin(), va.end());
  std::sort(vb.begin(), vb.end());
  return a.verdict == b.verdict && va == vb &&
         a.trace_length == b.trace_length && a.states == b.states;
}

}  // namespace

std::optional<std::vector<Expectation>> ExpectationsToBless(
    const std::vector<ScenarioResult>& results, std::FILE* err) {
  std::vector<Expectation> out;
  bool refused = false;
  for (const ScenarioResult& r : results) {
    Result<Expectation> expect = ObservedExpectation(r);
    if (!expect.ok()) {
      fmt::print(err, "outbox-check: --bless: {}: {}\n", r.scenario.path,
                 expect.status().message());
      refused = true;
      continue;
    }
    out.push_back(std::move(expect).value());
  }
  if (refused) return std::nullopt;
  return out;
}

Result<bool> BlessFile(const ScenarioResult& result,
                       const Expectation& expect) {
  const std::string& path = result.scenario.path;
  const Result<std::string> text = ReadFileText(path);
  if (!text.ok()) return text.status();
  const Result<Scenario> now =
      ParseScenario(text.value(), path, ExpectTable::kIgnore);
  if (!now.ok() ||
      WithoutExpectation(now.value()) != WithoutExpectation(result.scenario)) {
    return Status::Error(fmt::format(
        "{}: changed since it was checked; not blessed, check it again", path));
  }
  Result<std::string> blessed = RewriteExpectTable(text.value(), path, expect);
  if (!blessed.ok()) return blessed.status();
  if (blessed.value() == text.value()) return false;
  // The new text must read back as this expectation and nothing else:
  // never write a file that a check would then refuse or read otherwise.
  const Result<Scenario> again = ParseScenario(blessed.value(), path);
  if (!again.ok() || !again.value().expect ||
      !Same(*again.value().expect, expect) ||
      WithoutExpectation(again.value()) != WithoutExpectation(now.value())) {
    return Status::Error(fmt::format(
        "{}: the rewritten [expect] table did not read back as written{}; "
        "the file is unchanged",
        path, again.ok() ? "" : " (" + again.status().message() + ")"));
  }
  // Through a symbolic link, the file it names is the one to update.
  std::error_code ec;
  std::filesystem::path target = std::filesystem::canonical(path, ec);
  if (ec) target = path;
  if (Status s = WriteFileAtomically(target.string(), blessed.value());
      !s.ok()) {
    return s;
  }
  return true;
}

}  // namespace oc
