#include "reports/sarif_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "common/json_writer.h"
#include "common/text.h"
#include "invariants/invariant.h"
#include "model/presentation.h"
#include "reports/sequence.h"
#include "reports/wording.h"

namespace oc::reports {
namespace {

constexpr std::string_view kSchemaUri =
    "https://json.schemastore.org/sarif-2.1.0.json";

struct Rule {
  std::string id;
  std::string description;
  std::string_view level;  // its default level
};

// What an invariant checks, for its rule: the built-in's description, or
// the declared expression when every scenario that declares the name
// declares it alike.
std::string InvariantDescription(const std::string& name,
                                 const std::vector<ScenarioResult>& results) {
  if (const Invariant* builtin = FindInvariant(name)) {
    return fmt::format("Built-in {} invariant over {}.",
                       InvariantKindWord(builtin->kind), builtin->reads);
  }
  std::optional<InvariantExpression> first;
  bool alike = true;
  for (const ScenarioResult& r : results) {
    for (const InvariantExpression& x : r.scenario.expressions) {
      if (x.name != name) continue;
      if (!first) {
        first = x;
      } else if (x.text != first->text || x.kind != first->kind) {
        alike = false;
      }
    }
  }
  if (!first) return "An invariant a scenario declares.";
  if (!alike) {
    return "An invariant that several scenarios declare in [[invariants]], "
           "not all alike; each result names its scenario.";
  }
  return fmt::format("A {} invariant declared in [[invariants]]: holds = {}",
                     InvariantKindWord(first->kind), first->text);
}

// The rules of the run, and each one's index by id.
class Rules {
 public:
  explicit Rules(const std::vector<ScenarioResult>& results) {
    for (const ScenarioResult& r : results) {
      for (const std::string& name : r.scenario.invariants) {
        Add(name, InvariantDescription(name, results), "error");
      }
      for (const Violation& v : r.exploration.violations) {
        Add(v.property, InvariantDescription(v.property, results), "error");
      }
    }
    expectation_ =
        Add(Free("outbox-check/expectation"),
            "A scenario's outcome differs from its [expect] table in something "
            "no single invariant explains: its distinct-state count, or an "
            "action check.must_fire requires that never fired.",
            "error");
    inconclusive_ = Add(Free("outbox-check/inconclusive"),
                        "A limit (depth, states, memory) stopped a search "
                        "before it could decide the scenario's verdict; "
                        "what it did not see violated is not proved.",
                        "warning");
  }

  const std::vector<Rule>& all() const { return rules_; }
  int Index(const std::string& id) const { return index_.at(id); }
  const std::string& expectation() const { return rules_[expectation_].id; }
  const std::string& inconclusive() const { return rules_[inconclusive_].id; }

 private:
  std::size_t Add(const std::string& id, std::string description,
                  std::string_view level) {
    const auto [it, added] =
        index_.emplace(id, static_cast<int>(rules_.size()));
    if (added) rules_.push_back({id, std::move(description), level});
    return static_cast<std::size_t>(it->second);
  }
  // `base`, or the first of base-2, base-3, ... that no rule has.
  std::string Free(const std::string& base) const {
    std::string id = base;
    for (int n = 2; index_.count(id) > 0; ++n) {
      id = fmt::format("{}-{}", base, n);
    }
    return id;
  }

  std::vector<Rule> rules_;
  std::map<std::string, int> index_;
  std::size_t expectation_ = 0;
  std::size_t inconclusive_ = 0;
};

// A location in the scenario file; `line` 0 leaves the region out.
void WriteLocation(JsonWriter& w, const std::string& uri, int line,
                   const std::string* message) {
  w.BeginObject();
  w.Key("physicalLocation").BeginObject();
  w.Key("artifactLocation").BeginObject();
  w.Key("uri").String(uri);
  w.EndObject();
  if (line > 0) {
    w.Key("region").BeginObject();
    w.Key("startLine").Number(line);
    w.EndObject();
  }
  w.EndObject();
  if (message != nullptr) {
    w.Key("message").BeginObject();
    w.Key("text").String(*message);
    w.EndObject();
  }
  w.EndObject();
}

void WriteMessage(JsonWriter& w, const std::string& text) {
  w.Key("message").BeginObject();
  w.Key("text").String(text);
  w.EndObject();
}

// "Step 4 of 8: claim(B, e1) [token 2]; relay B -> outbox database: claim
// e1 (token 2)".
std::string StepText(const std::vector<std::string>& participants,
                     const StepPresentation& step, std::size_t index,
                     std::size_t steps) {
  const std::string& from = participants[static_cast<std::size_t>(step.from)];
  const std::string& to = participants[static_cast<std::size_t>(step.to)];
  std::string where;
  switch (step.shape) {
    case StepShape::kMessage:
      where = fmt::format("{} -> {}", from, to);
      break;
    case StepShape::kNote:
      where = "at " + from;
      break;
  }
  return fmt::format("Step {} of {}: {}{}; {}: {}{}", index + 1, steps,
                     step.action,
                     step.detail.empty() ? "" : " [" + step.detail + "]", where,
                     step.text, step.lost ? " (lost)" : "");
}

// codeFlows with the trace of `v`, one location per step. REQUIRES: the
// trace has a step.
void WriteCodeFlows(JsonWriter& w, const ScenarioResult& r, const Violation& v,
                    const std::string& uri, int line) {
  // A lasso's flow is its stem and then one turn of its loop.
  const Trace trace = v.lasso() ? LassoTrace(v) : v.trace;
  const std::vector<StepPresentation> steps =
      PresentSteps(*r.model, trace.actions, trace.states);
  const std::vector<std::string> participants = Participants(*r.model);
  const bool pinned = r.replay.has_value();
  w.Key("codeFlows").BeginArray();
  w.BeginObject();
  WriteMessage(
      w, v.lasso()
             ? fmt::format("A fair cycle that puts off {} for ever: the stem, "
                           "{}, then a loop of {} repeated for ever",
                           v.property, Plural(v.trace.length(), "step"),
                           Plural(v.loop.length(), "step"))
         : pinned ? fmt::format("The pinned order up to where {} "
                                "breaks: {}",
                                v.property, Plural(steps.size(), "step"))
         : r.simulation
             ? fmt::format("A trace that violates {} ({}): {}", v.property,
                           TraceKindText(r), Plural(steps.size(), "step"))
             : fmt::format("The shortest trace that violates {}: "
                           "{}",
                           v.property, Plural(steps.size(), "step")));
  w.Key("threadFlows").BeginArray();
  w.BeginObject();
  w.Key("locations").BeginArray();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string text = StepText(participants, steps[i], i, steps.size());
    // A pinned step points at its line of check.order or check.loop.
    const std::size_t n = r.scenario.order.size();
    const int step_line = !pinned ? line
                          : i < n ? r.scenario.order[i].position.line
                          : i - n < r.scenario.loop.size()
                              ? r.scenario.loop[i - n].position.line
                              : line;
    w.BeginObject();
    w.Key("location");
    WriteLocation(w, uri, step_line, &text);
    if (!steps[i].changed.empty()) {
      w.Key("state").BeginObject();
      for (const CellChange& c : steps[i].changed) {
        w.Key(c.name).BeginObject();
        w.Key("text").String(c.after);
        w.EndObject();
      }
      w.EndObject();
    }
    w.Key("executionOrder").Number(static_cast<std::uint64_t>(i + 1));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndArray();
  w.EndObject();
  w.EndArray();
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The line of the scenario's [expect] table, or the file's first line
// when it has none.
int ExpectLine(const Scenario& s) {
  return s.expect ? std::max(1, s.expect->position.line) : 1;
}

// The line naming invariant `name` in the scenario file, else its [expect]
// table's.
int InvariantLine(const Scenario& s, const std::string& name) {
  const auto it = std::find(s.invariants.begin(), s.invariants.end(), name);
  const auto i = static_cast<std::size_t>(it - s.invariants.begin());
  if (i < s.invariant_positions.size() && s.invariant_positions[i].line > 0) {
    return s.invariant_positions[i].line;
  }
  return ExpectLine(s);
}

void BeginResult(JsonWriter& w, const Rules& rules, const std::string& rule,
                 std::string_view level, const std::string& message) {
  w.BeginObject();
  w.Key("ruleId").String(rule);
  w.Key("ruleIndex").Number(rules.Index(rule));
  w.Key("level").String(level);
  WriteMessage(w, message);
}

void WriteViolation(JsonWriter& w, const Rules& rules, const ScenarioResult& r,
                    const Violation& v, const std::string& uri) {
  const Scenario& s = r.scenario;
  const bool expected = s.expect && Contains(s.expect->violated, v.property);
  const std::size_t n = v.trace.length();
  // "is violated; WHAT", or for a lasso "is violated by a fair cycle: ...".
  std::string what;
  if (v.lasso()) {
    what = fmt::format(" by a fair cycle: stem {}, loop {}{}",
                       Plural(n, "step"), Plural(v.loop.length(), "step"),
                       r.replay ? " (the pinned order and check.loop)" : "");
  } else if (n == 0) {
    what = "; the initial state violates it";
  } else if (r.replay) {
    what = fmt::format("; it breaks at step {} of the pinned order", n);
  } else {
    what = fmt::format("; the shortest trace has {}", Plural(n, "step"));
  }
  const std::string message =
      fmt::format("Scenario '{}': {} ({}) is violated{}{}", s.name, v.property,
                  KindText(v.kind), what,
                  expected   ? ", as the scenario expects."
                  : s.expect ? ". The scenario expects it to hold."
                             : ". The scenario has no expectation.");
  const int line = InvariantLine(s, v.property);
  BeginResult(w, rules, v.property, expected ? "note" : "error", message);
  w.Key("locations").BeginArray();
  WriteLocation(w, uri, line, nullptr);
  w.EndArray();
  if (n > 0 || v.lasso()) WriteCodeFlows(w, r, v, uri, line);
  w.Key("properties").BeginObject();
  w.Key("scenario").String(s.name);
  w.Key("kind").String(KindText(v.kind));
  w.Key("traceLength").Number(static_cast<std::uint64_t>(n));
  // A lasso's loop, only for one; traceLength is then its stem's.
  if (v.lasso()) {
    w.Key("loopLength").Number(static_cast<std::uint64_t>(v.loop.length()));
  }
  w.Key("expected").Bool(expected);
  w.EndObject();
  w.EndObject();
}

// The violation of `name` in `r`, or nullptr.
const Violation* ViolationOf(const ScenarioResult& r, const std::string& name) {
  for (const Violation& v : r.exploration.violations) {
    if (v.property == name) return &v;
  }
  return nullptr;
}

// The invariant an unexpected outcome is about, as Judge (check/) decides
// one: violated but expected to hold; expected violated but holding after a
// search that could tell; or the shortest trace whose length differs. None
// for a state count or check.must_fire, or without an expectation.
std::optional<std::string> InvariantConcerned(const ScenarioResult& r) {
  if (!r.scenario.expect) return std::nullopt;
  const Expectation& expect = *r.scenario.expect;
  const std::vector<std::string> violated = r.ViolatedInvariants();
  for (const std::string& name : violated) {
    if (!Contains(expect.violated, name)) return name;
  }
  const Exploration& e = r.exploration;
  if (e.complete()) {
    for (const std::string& name : expect.violated) {
      if (!Contains(violated, name)) return name;
    }
  }
  if (expect.trace_length && !e.violations.empty() &&
      e.violations.front().trace.length() !=
          static_cast<std::size_t>(*expect.trace_length)) {
    return e.violations.front().property;
  }
  return std::nullopt;
}

void WriteOutcome(JsonWriter& w, const Rules& rules, const ScenarioResult& r,
                  const std::string& uri) {
  const Scenario& s = r.scenario;
  const bool unexpected = r.outcome == Outcome::kUnexpected;
  const std::optional<std::string> invariant =
      unexpected ? InvariantConcerned(r) : std::nullopt;
  const std::string rule = invariant    ? *invariant
                           : unexpected ? rules.expectation()
                                        : rules.inconclusive();
  std::string message =
      fmt::format("Scenario '{}' is {}: {} (expected {}).", s.name,
                  unexpected ? "not as expected" : "inconclusive",
                  VerdictText(r), ExpectedText(s));
  for (const std::string& why : r.mismatches) message += " " + why + ".";
  BeginResult(w, rules, rule, unexpected ? "error" : "warning", message);
  w.Key("locations").BeginArray();
  WriteLocation(w, uri, ExpectLine(s), nullptr);
  w.EndArray();
  const Violation* v = invariant ? ViolationOf(r, *invariant) : nullptr;
  if (v != nullptr && (v->trace.length() > 0 || v->lasso())) {
    WriteCodeFlows(w, r, *v, uri, ExpectLine(s));
  }
  w.Key("properties").BeginObject();
  w.Key("scenario").String(s.name);
  w.Key("outcome").String(OutcomeText(r.outcome));
  w.Key("mismatches").Strings(r.mismatches);
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string FileUri(std::string_view path) {
  const std::string normal =
      std::filesystem::path(path).lexically_normal().generic_string();
  std::string uri = !normal.empty() && normal.front() == '/' ? "file://" : "";
  for (const char c : normal) {
    const auto b = static_cast<unsigned char>(c);
    const bool plain =
        (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
        (b >= '0' && b <= '9') ||
        std::string_view("-._~/!$&'()*+,;=@").find(c) != std::string_view::npos;
    uri += plain ? std::string(1, c) : fmt::format("%{:02X}", b);
  }
  return uri;
}

std::string SarifReport(const std::vector<ScenarioResult>& results,
                        std::string_view tool_version) {
  const Rules rules(results);
  std::vector<Outcome> outcomes;
  for (const ScenarioResult& r : results) outcomes.push_back(r.outcome);

  JsonWriter w;
  w.BeginObject();
  w.Key("$schema").String(kSchemaUri);
  w.Key("version").String("2.1.0");
  w.Key("runs").BeginArray();
  w.BeginObject();
  w.Key("tool").BeginObject();
  w.Key("driver").BeginObject();
  w.Key("name").String("outbox-check");
  w.Key("version").String(tool_version);
  w.Key("rules").BeginArray();
  for (const Rule& rule : rules.all()) {
    w.BeginObject();
    w.Key("id").String(rule.id);
    w.Key("shortDescription").BeginObject();
    w.Key("text").String(rule.description);
    w.EndObject();
    w.Key("defaultConfiguration").BeginObject();
    w.Key("level").String(rule.level);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  w.Key("invocations").BeginArray();
  w.BeginObject();
  w.Key("executionSuccessful").Bool(true);
  w.Key("exitCode").Number(ExitCodeFor(outcomes));
  w.EndObject();
  w.EndArray();
  w.Key("results").BeginArray();
  for (const ScenarioResult& r : results) {
    const std::string uri = FileUri(r.scenario.path);
    for (const Violation& v : r.exploration.violations) {
      WriteViolation(w, rules, r, v, uri);
    }
    // Without an expectation, the violations above are the findings.
    if (r.outcome == Outcome::kUnexpected ||
        r.outcome == Outcome::kInconclusive) {
      WriteOutcome(w, rules, r, uri);
    }
  }
  w.EndArray();
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return w.Finish();
}

}  // namespace oc::reports
