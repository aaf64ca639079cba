// The JSON report: well-formed, versioned, with the fields JSON_SCHEMA.md
// documents, on small fixed results. A tiny strict parser below checks
// well-formedness and lets the tests walk the document.

#include "reports/json_report.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/index_report.h"
#include "reports/markdown_report.h"
#include "tests/reports/writer_fixtures.h"

namespace oc::reports {
namespace {

using testing::Contains;
using testing::Holding;
using testing::Pinned;
using testing::Violated;

// A parsed JSON value. Object members keep their order.
struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  std::string text;  // a string's value, or a number's digits
  std::vector<Json> items;
  // An object's keys, and its values at the same index (a vector of
  // pair<string, Json> needs Json complete, which clang 14 insists on).
  std::vector<std::string> keys;
  std::vector<Json> values;

  const Json& operator[](const std::string& key) const {
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k] == key) return values[k];
    }
    FAIL("no key '" << key << "'");
    return *this;
  }
  const Json& operator[](std::size_t i) const {
    REQUIRE(i < items.size());
    return items[i];
  }
  bool Has(const std::string& key) const {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  std::vector<std::string> Keys() const { return keys; }
};

// RFC 8259 JSON, strictly: no trailing commas, no leading zeros, only the
// standard escapes, no raw control characters, nothing after the value,
// no repeated key in an object. nullopt when malformed.
class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  std::optional<Json> Document() {
    std::optional<Json> v = Value();
    Space();
    if (!v || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void Space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' ||
                              s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool Eat(char c) {
    Space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  std::optional<std::string> String() {
    if (!Eat('"')) return std::nullopt;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      const char c = s_[i_++];
      if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return std::nullopt;
      const char e = s_[i_++];
      const std::string_view simple = "\"\\/bfnrt";
      const std::string_view meaning = "\"\\/\b\f\n\r\t";
      if (simple.find(e) != std::string_view::npos) {
        out += meaning[simple.find(e)];
      } else if (e == 'u' && i_ + 4 <= s_.size()) {
        const unsigned code = std::stoul(std::string(s_.substr(i_, 4)), 0, 16);
        i_ += 4;
        if (code >= 0x80) return std::nullopt;  // not needed by these tests
        out += static_cast<char>(code);
      } else {
        return std::nullopt;
      }
    }
    if (i_ >= s_.size()) return std::nullopt;
    ++i_;
    return out;
  }
  std::optional<Json> Value() {
    Space();
    if (i_ >= s_.size()) return std::nullopt;
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.type = Json::Type::kObject;
      ++i_;
      if (Eat('}')) return v;
      do {
        std::optional<std::string> key = String();
        if (!key || v.Has(*key) || !Eat(':')) return std::nullopt;
        std::optional<Json> member = Value();
        if (!member) return std::nullopt;
        v.keys.push_back(*key);
        v.values.push_back(*member);
      } while (Eat(','));
      if (!Eat('}')) return std::nullopt;
    } else if (c == '[') {
      v.type = Json::Type::kArray;
      ++i_;
      if (Eat(']')) return v;
      do {
        std::optional<Json> item = Value();
        if (!item) return std::nullopt;
        v.items.push_back(*item);
      } while (Eat(','));
      if (!Eat(']')) return std::nullopt;
    } else if (c == '"') {
      v.type = Json::Type::kString;
      std::optional<std::string> text = String();
      if (!text) return std::nullopt;
      v.text = *text;
    } else if (Word("true") || Word("false")) {
      v.type = Json::Type::kBool;
      v.boolean = s_[i_ - 1] == 'e' && s_[i_ - 2] == 'u';
    } else if (Word("null")) {
      v.type = Json::Type::kNull;
    } else {
      const std::size_t start = i_;
      if (s_[i_] == '-') ++i_;
      const std::size_t digits = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
        ++i_;
      if (i_ == digits || (s_[digits] == '0' && i_ - digits > 1)) {
        return std::nullopt;
      }
      if (i_ < s_.size() && s_[i_] == '.') {
        const std::size_t fraction = ++i_;
        while (i_ < s_.size() &&
               std::isdigit(static_cast<unsigned char>(s_[i_])))
          ++i_;
        if (i_ == fraction) return std::nullopt;
      }
      v.type = Json::Type::kNumber;
      v.text = std::string(s_.substr(start, i_ - start));
    }
    return v;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

Json Parse(const std::string& text) {
  std::optional<Json> json = Parser(text).Document();
  REQUIRE_MESSAGE(json.has_value(), "not well-formed JSON:\n" << text);
  return *json;
}

TEST_CASE("the test's JSON parser rejects what is not JSON") {
  CHECK(Parser(R"({"a": [1, 2.5, -3, true, null, "x\n"]})").Document());
  CHECK(!Parser(R"({"a": 1,})").Document());
  CHECK(!Parser(R"({"a": 01})").Document());
  CHECK(!Parser(R"({"a": 1, "a": 2})").Document());
  CHECK(!Parser("\"a\tb\"").Document());
  CHECK(!Parser(R"("\x")").Document());
  CHECK(!Parser("{} {}").Document());
}

TEST_CASE(
    "the JSON report is well-formed, versioned, with keys in a fixed "
    "order") {
  const std::string text =
      JsonReport(Violated(), {.wall_clock = false, .command_line = {}});
  const Json j = Parse(text);
  CHECK(text.rfind("{\n  \"schema_version\": 2,\n  \"tool\": {\n", 0) == 0);
  CHECK(text.back() == '\n');
  CHECK(j["schema_version"].text == "2");
  CHECK(j.Keys() == std::vector<std::string>{
                        "schema_version", "tool", "scenario", "config",
                        "expectation", "verdict", "outcome", "exit_code",
                        "mismatches", "warnings", "timing_assumptions", "stats",
                        "coverage", "violations", "replay", "simulation"});
}

TEST_CASE("every report states the tool's version and the command") {
  const ReportOptions with{.wall_clock = true,
                           .command_line = "outbox-check check 'a b.toml'"};
  const Json j = Parse(JsonReport(Violated(), with));
  CHECK(j["tool"]["name"].text == "outbox-check");
  CHECK(j["tool"]["version"].text == OUTBOX_CHECK_VERSION);
  CHECK(j["tool"]["command_line"].text == "outbox-check check 'a b.toml'");
  const std::string written =
      std::string("Written by outbox-check ") + OUTBOX_CHECK_VERSION +
      ", by the command `outbox-check check 'a b.toml'`.";
  CHECK(Contains(MarkdownReport(Violated(), with), written));
  CHECK(Contains(MarkdownIndex({Violated()}, {"v"}, with), written));
  // Without a command line (the byte-identical mode), the version alone.
  const ReportOptions without{.wall_clock = false, .command_line = {}};
  CHECK(Parse(JsonReport(Violated(), without))["tool"]["command_line"].type ==
        Json::Type::kNull);
  const std::string md = MarkdownReport(Violated(), without);
  CHECK(Contains(md, std::string("Written by outbox-check ") +
                         OUTBOX_CHECK_VERSION + ".\n"));
  CHECK_FALSE(Contains(md, "by the command"));
}

TEST_CASE(
    "the JSON report carries the scenario, configuration and "
    "expectation") {
  const Json j =
      Parse(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
  CHECK(j["scenario"]["name"].text == "lease-expiry-after-send");
  CHECK(j["scenario"]["path"].text == "lease.toml");
  CHECK(j["scenario"]["search"].text == "exhaustive");
  const Json& config = j["config"];
  CHECK(config["relays"].items.size() == 2);
  CHECK(config["relays"][1].text == "B");
  CHECK(config["events"][0]["account"].text == "acct-1");
  CHECK(config["events"][0]["amount"].text == "1000");
  CHECK(config["events"][0]["key"].type == Json::Type::kNull);
  CHECK(config["groups"][0]["strategy"].text == "credit.naive");
  CHECK(config["switches"]["fencing"].boolean);
  CHECK(config["budgets"]["premature_expiries"].text == "1");
  CHECK(config["claim_bound"].text == "0");
  CHECK(j["expectation"]["verdict"].text == "violated");
  CHECK(j["expectation"]["trace_length"].text == "8");
  CHECK(j["expectation"]["states"].type == Json::Type::kNull);
}

TEST_CASE("the JSON report gives a group's starting values, when it has any") {
  const Result<Scenario> scenario = LoadScenario(
      OC_SOURCE_DIR "/scenarios/consumers/transfer.single_transaction.toml");
  REQUIRE_MESSAGE(scenario.ok(), scenario.status().message());
  const Result<ScenarioResult> result = CheckScenario(scenario.value());
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  const Json j = Parse(
      JsonReport(result.value(), {.wall_clock = false, .command_line = {}}));
  const Json& bank = j["config"]["groups"][0];
  CHECK(bank["name"].text == "bank");
  CHECK(bank["initial"]["balance"]["alice"].text == "100");
  CHECK(bank["initial"]["balance"]["bob"].text == "50");
  // A group without starting values has no key for them.
  const Json v =
      Parse(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
  CHECK_FALSE(v["config"]["groups"][0].Has("initial"));
}

TEST_CASE("the JSON report carries verdict, outcome, stats and coverage") {
  const Json j =
      Parse(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
  CHECK(j["verdict"]["text"].text == "violated: effect_at_most_once (8 steps)");
  CHECK(j["verdict"]["violated"][0].text == "effect_at_most_once");
  CHECK(j["verdict"]["held"][0].text == "stale_completion_rejected");
  CHECK(j["verdict"]["complete"].boolean);
  CHECK(j["outcome"].text == "ok");
  CHECK(j["exit_code"].text == "0");
  CHECK(j["stats"]["states"].text == "95");
  CHECK(j["stats"]["stop"].text == "complete");
  CHECK(j["coverage"]["claim"].text == "10");
  CHECK(j["coverage"]["crash_relay"].text == "0");
  CHECK(j["replay"].type == Json::Type::kNull);
}

TEST_CASE(
    "a JSON violation has 8 steps and its point of no return at step "
    "4") {
  const Json j =
      Parse(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
  REQUIRE(j["violations"].items.size() == 1);
  const Json& v = j["violations"][0];
  CHECK(v["invariant"].text == "effect_at_most_once");
  CHECK(v["kind"].text == "safety");
  CHECK(v["length"].text == "8");
  const Json& p = v["point_of_no_return"];
  CHECK(p["step"].text == "4");
  CHECK(p["unknown_because"].type == Json::Type::kNull);
  REQUIRE(!p["safe_alternatives"].items.empty());
  CHECK(p["safe_alternatives"][0]["text"].text == "complete(A)");
  REQUIRE(v["steps"].items.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(v["steps"][i]["index"].text == std::to_string(i + 1));
  }
  CHECK(v["initial_state"]["relay[A]"].text == "idle");
}

TEST_CASE("a JSON step names its action's arguments and what it changed") {
  const Json j =
      Parse(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
  const Json& steps = j["violations"][0]["steps"];
  const Json& claim = steps[3];
  CHECK(claim["action"]["kind"].text == "claim");
  CHECK(claim["action"]["relay"].text == "B");
  CHECK(claim["action"]["event"].text == "e1");
  CHECK(claim["action"]["group"].type == Json::Type::kNull);
  CHECK(claim["action"]["instance"].type == Json::Type::kNull);
  CHECK(claim["action"]["text"].text == "claim(B, e1)");
  CHECK(claim["detail"].text == "token 2");
  CHECK(claim["changed"][0]["cell"].text == "outbox[e1].owner");
  CHECK(claim["changed"][0]["before"].text == "A");
  CHECK(claim["changed"][0]["after"].text == "B");
  CHECK(claim["state"]["relay[B]"].text == "claimed(e1, token 2)");
  const Json& consume = steps[5];
  CHECK(consume["action"]["group"].text == "billing");
  CHECK(consume["action"]["instance"].text == "1");
  CHECK(consume["action"]["relay"].type == Json::Type::kNull);
  CHECK(consume["detail"].text == "");
}

TEST_CASE("a pinned scenario's JSON has the replay in the step form") {
  const Json j =
      Parse(JsonReport(Pinned(), {.wall_clock = false, .command_line = {}}));
  CHECK(j["scenario"]["search"].text == "pinned");
  const Json& replay = j["replay"];
  CHECK(replay["length"].text == "8");
  CHECK(replay["ends_at_rest"].boolean);
  CHECK(replay["broke"].items.empty());
  REQUIRE(replay["steps"].items.size() == 8);
  CHECK(replay["steps"][1]["action"]["kind"].text == "send_ack_lost");
}

TEST_CASE(
    "a JSON violation says whether it is a lasso; only a lasso has a "
    "loop") {
  const ReportOptions options{.wall_clock = false, .command_line = {}};
  const Json plain = Parse(JsonReport(Violated(), options));
  const Json& v = plain["violations"][0];
  CHECK(v.Keys() == std::vector<std::string>{"invariant", "kind", "length",
                                             "lasso", "point_of_no_return",
                                             "initial_state", "steps", "loop"});
  CHECK(v["lasso"].type == Json::Type::kBool);
  CHECK_FALSE(v["lasso"].boolean);
  CHECK(v["loop"].type == Json::Type::kNull);
  CHECK(plain["stats"]["liveness"].type == Json::Type::kNull);

  const Json lasso = Parse(JsonReport(testing::Lasso(), options));
  CHECK(lasso["schema_version"].text == "2");
  const Json& l = lasso["violations"][0];
  CHECK(l["invariant"].text == "eventually_offered");
  CHECK(l["kind"].text == "at_rest");
  CHECK(l["lasso"].boolean);
  CHECK(l["length"].text == "4");
  CHECK(l["steps"].items.size() == 4);
  CHECK(l["loop"].Keys() == std::vector<std::string>{"length", "steps"});
  CHECK(l["loop"]["length"].text == "6");
  REQUIRE(l["loop"]["steps"].items.size() == 6);
  // The loop's steps have the trace's shape, numbered on from the stem.
  const Json& first = l["loop"]["steps"][0];
  CHECK(first.Keys() == l["steps"][0].Keys());
  CHECK(first["index"].text == "5");
  CHECK(first["action"]["text"].text == "complete(A)");
  CHECK(l["loop"]["steps"][5]["index"].text == "10");
  CHECK(lasso["stats"]["liveness"].text.rfind("leads-to under weak fairness",
                                              0) == 0);
}

TEST_CASE(
    "a pinned lasso's JSON replay has the order's and the loop's lengths "
    "and both turns") {
  const Json j = Parse(JsonReport(testing::PinnedLasso(),
                                  {.wall_clock = false, .command_line = {}}));
  const Json& replay = j["replay"];
  CHECK(replay["length"].text == "16");
  CHECK(replay["order_length"].text == "4");
  CHECK(replay["loop_length"].text == "6");
  CHECK(replay["steps"].items.size() == 16);
  CHECK(replay["broke"][0]["step"].text == "4");
  CHECK(replay["broke"][0]["lasso"].boolean);
  CHECK(j["violations"][0]["lasso"].boolean);
  CHECK(j["violations"][0]["loop"]["length"].text == "6");
  // A plain pinned order has no loop.
  const Json plain =
      Parse(JsonReport(Pinned(), {.wall_clock = false, .command_line = {}}));
  CHECK(plain["replay"]["order_length"].text == "8");
  CHECK(plain["replay"]["loop_length"].text == "0");
}

TEST_CASE("a scenario that holds has an empty violation list in JSON") {
  const std::string text =
      JsonReport(Holding(), {.wall_clock = false, .command_line = {}});
  const Json j = Parse(text);
  CHECK(j["violations"].items.empty());
  CHECK(text.find("\"violations\": [],") != std::string::npos);
}

TEST_CASE("JSON has timing only with timing, in its own object") {
  const ScenarioResult r = Violated();
  const Json without =
      Parse(JsonReport(r, {.wall_clock = false, .command_line = {}}));
  CHECK(!without.Has("timing"));
  CHECK(JsonReport(r, {.wall_clock = false, .command_line = {}})
            .find("seconds") == std::string::npos);
  const Json with =
      Parse(JsonReport(r, {.wall_clock = true, .command_line = {}}));
  REQUIRE(with.Has("timing"));
  CHECK(with["timing"]["seconds"].type == Json::Type::kNumber);
  CHECK(!with["stats"].Has("seconds"));
}

TEST_CASE("JSON strings escape quotes, backslashes and control characters") {
  ScenarioResult r = Holding();
  r.scenario.name = "say \"hi\"\\now";
  r.scenario.description = "tab\there\nline\x01";
  const std::string text =
      JsonReport(r, {.wall_clock = false, .command_line = {}});
  CHECK(text.find(R"("name": "say \"hi\"\\now")") != std::string::npos);
  CHECK(text.find(R"("description": "tab\there\nline\u0001")") !=
        std::string::npos);
  const Json j = Parse(text);
  CHECK(j["scenario"]["name"].text == r.scenario.name);
  CHECK(j["scenario"]["description"].text == r.scenario.description);
}

TEST_CASE(
    "the JSON simulation object gives the scenario's walk weights that are "
    "not 1, or null") {
  const ReportOptions options{.wall_clock = false, .command_line = {}};
  const Json weighted = Parse(JsonReport(
      testing::Simulated(
          "walk_weights = { consume = 0, expire_premature = 5, claim = 1 }"),
      options));
  const Json& sim = weighted["simulation"];
  CHECK(sim.Keys() == std::vector<std::string>{
                          "seed", "swarm", "max_depth", "walks", "walks_asked",
                          "time_limit_seconds", "distinct_states_seen",
                          "distinct_states_capped", "faults_never_exercised",
                          "violating_walk", "walk_length", "trace_minimised",
                          "trace_shortest", "drawn_budgets", "walk_weights"});
  // In class order, as ActionClassNames lists them.
  CHECK(sim["walk_weights"].Keys() ==
        std::vector<std::string>{"expire_premature", "consume"});
  CHECK(sim["walk_weights"]["expire_premature"].text == "5");
  CHECK(sim["walk_weights"]["consume"].text == "0");
  CHECK(Parse(JsonReport(testing::Simulated(""),
                         options))["simulation"]["walk_weights"]
            .type == Json::Type::kNull);
}

TEST_CASE("the JSON report is a pure function of the result") {
  CHECK(JsonReport(Violated(), {.wall_clock = false, .command_line = {}}) ==
        JsonReport(Violated(), {.wall_clock = false, .command_line = {}}));
}

TEST_CASE(
    "the run document holds each scenario's JSON report, indented one level "
    "deeper, after the run's own fields") {
  const std::vector<ScenarioResult> results = {Violated(), Holding()};
  const std::string text = JsonRunReport(
      results, {.tool_version = "9.8.7", .exit_code = 0, .interrupted = false},
      {.wall_clock = false, .command_line = {}});
  std::string expected =
      "{\n  \"schema_version\": 2,\n  \"tool\": {\n    \"name\": "
      "\"outbox-check\",\n    \"version\": \"9.8.7\"\n  },\n  "
      "\"exit_code\": 0,\n  \"interrupted\": false,\n  \"scenarios\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::string report =
        JsonReport(results[i], {.wall_clock = false, .command_line = {}});
    report.pop_back();  // its final newline
    expected += i == 0 ? "\n    " : ",\n    ";
    for (char c : report) {
      expected += c;
      if (c == '\n') expected += "    ";
    }
  }
  expected += "\n  ]\n}\n";
  CHECK(text == expected);
  const Json j = Parse(text);
  CHECK(j["scenarios"].items.size() == 2);
}

}  // namespace
}  // namespace oc::reports
