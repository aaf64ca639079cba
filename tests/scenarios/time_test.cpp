// Time (model/TIME.md): the abstraction keeps verdicts and shortest traces
// of plain clocks, the unit makes only ratios of durations cost states, and
// each mechanism (dedup window, producer session, retention, delayed
// redelivery, dead letters, outages) acts as the page says.

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "check/scenario_check.h"
#include "model/outbox_model.h"
#include "model/timing.h"
#include "scenarios/scenario_loader.h"

namespace oc {
namespace {

std::string Preset(std::string_view name) {
  return std::string(OC_SOURCE_DIR) + "/scenarios/presets/" +
         std::string(name) + ".toml";
}

Scenario Load(const std::string& path) {
  Result<Scenario> s = LoadScenario(path);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  return std::move(s).value();
}

ScenarioResult Check(const Scenario& scenario) {
  CheckOptions options;
  options.symmetry = false;
  Result<ScenarioResult> r = CheckScenario(scenario, options);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return std::move(r).value();
}

// Invariant -> shortest violation length (0: holds).
std::map<std::string, std::size_t> Verdicts(const ScenarioResult& r) {
  std::map<std::string, std::size_t> out;
  for (const std::string& name : r.scenario.invariants) out[name] = 0;
  for (const Violation& v : r.exploration.violations) {
    out[v.property] = v.trace.length();
  }
  return out;
}

// Multiplies every duration of the config by `k`.
void Scale(Config& c, Seconds k) {
  auto scale = [&](std::optional<Seconds>& d) {
    if (d) *d *= k;
  };
  scale(c.time.lease);
  scale(c.time.poll);
  scale(c.time.horizon);
  scale(c.time.consumer_outage);
  scale(c.time.database_outage);
  scale(c.broker.window);
  scale(c.min_age);
  scale(c.send_time);
  scale(c.gap_timeout);
  scale(c.commit_within);
  for (Group& g : c.groups) {
    scale(g.inbox_retention);
    scale(g.inbox_cleanup_every);
    for (Seconds& d : g.redelivery) d *= k;
    scale(g.dead_letter_redrive);
    scale(g.dead_letter_retention);
  }
}

// The timed scenarios of the presets and of the catalogue.
std::vector<std::string> TimedPresets() {
  std::vector<std::string> files;
  for (const char* folder : {"/scenarios/presets", "/scenarios/catalogue"}) {
    for (const auto& entry : std::filesystem::directory_iterator(
             std::string(OC_SOURCE_DIR) + folder)) {
      if (entry.path().extension() != ".toml") continue;
      if (Timed(Load(entry.path().string()).config)) {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_CASE(
    "the key window's timing line says a call at the window's age is "
    "taken again") {
  Config c;
  c.relays = {"A"};
  Event e;
  e.name = "e1";
  c.events = {e};
  Group g;
  g.name = "mailer";
  g.redelivery = {7200};
  c.groups = {g};
  auto line = [&](Seconds window) {
    c.groups[0].idempotency_key_window = window;
    return TimingAssumptions(c).back();
  };
  // A key kept 2h is gone when a 2h redelivery calls again (the verdict of
  // the pinned email scenarios at 1h and 3h, and of a 2h window, agrees).
  CHECK(line(7200) ==
        "the first redelivery delay of mailer 2h >= its idempotency key "
        "window 2h: a redelivered call can outlive its key: the provider "
        "takes it again");
  CHECK(line(10800) ==
        "the first redelivery delay of mailer 2h < its idempotency key "
        "window 3h: a redelivered call finds its key");
}

}  // namespace

TEST_CASE("durations read and print in s, m, h and d") {
  CHECK(ParseDuration("30s") == 30);
  CHECK(ParseDuration("5m") == 300);
  CHECK(ParseDuration("1h30m") == 5400);
  CHECK(ParseDuration("7d") == 7 * 86400);
  CHECK(ParseDuration("0s") == 0);
  for (const char* bad :
       {"", "5", "m", "5 m", "1.5h", "-5m", "30m1h", "1h1h", "5min", "5M"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseDuration(bad).has_value());
  }
  for (Seconds s : {0, 1, 59, 60, 3600, 5400, 86400, 7 * 86400 + 61}) {
    CHECK(ParseDuration(FormatDuration(s)) == s);
  }
  CHECK(FormatDuration(5400) == "1h30m");
}

TEST_CASE("the unit is the greatest common divisor of the durations") {
  const Timing t = ComputeTiming(
      Load(Preset("masstransit.inbox-30m.redelivery-5m-15m-30m")).config);
  CHECK(t.unit == 300);
  CHECK(t.groups[0].retention == 6);
  CHECK(t.groups[0].delays == std::vector<int>{1, 3, 6});
  // Retention is strict: the row goes at the first instant after 30m.
  CHECK(t.groups[0].cleanup_due == 7);
}

TEST_CASE("scaling every duration changes no count, verdict or trace") {
  for (const std::string& path : TimedPresets()) {
    CAPTURE(path);
    const Scenario base = Load(path);
    Scenario scaled = base;
    Scale(scaled.config, 60);  // minutes become hours, days become 60 days
    REQUIRE(Validate(scaled.config).ok());
    const ScenarioResult a = Check(base);
    const ScenarioResult b = Check(scaled);
    CHECK(a.exploration.stats.states == b.exploration.stats.states);
    CHECK(a.exploration.stats.transitions == b.exploration.stats.transitions);
    CHECK(Verdicts(a) == Verdicts(b));
  }
}

TEST_CASE(
    "capped clocks give the verdicts and shortest traces of plain "
    "ticks") {
  // Plain clocks count every unit up to a horizon; the abstraction stops
  // each clock at the largest constant it is compared with. On the timed
  // presets (whose durations are at most a few dozen units) both must agree
  // on every verdict and every shortest violation length; plain clocks
  // store more states, since they tell apart ages the model cannot.
  for (const std::string& path : TimedPresets()) {
    CAPTURE(path);
    const Scenario capped = Load(path);
    const Timing t = ComputeTiming(capped.config);
    Scenario plain = capped;
    plain.config.time.clocks = Clocks::kPlain;
    // Far beyond any run's last waiting clock: no run is cut short.
    plain.config.time.horizon = 120 * t.unit;
    REQUIRE(Validate(plain.config).ok());
    const ScenarioResult a = Check(capped);
    const ScenarioResult b = Check(plain);
    CHECK(b.exploration.stats.bounded_dead_ends == 0);
    CHECK(Verdicts(a) == Verdicts(b));
    CHECK(a.exploration.stats.states <= b.exploration.stats.states);
  }
}

TEST_CASE("a dedup window drops a resend inside it and accepts one after") {
  // sqs-fifo.quick-resend: a resend at once is dropped; the crash of
  // sqs-fifo.window-5m.lease-10m makes the resend come after the lease and
  // it is accepted.
  const ScenarioResult quick = Check(Load(Preset("sqs-fifo.quick-resend")));
  CHECK(Verdicts(quick).at("offered_at_most_once") == 0);
  const ScenarioResult late =
      Check(Load(Preset("sqs-fifo.window-5m.lease-10m")));
  CHECK(Verdicts(late).at("offered_at_most_once") > 0);
  // With a window longer than lease + poll, the same late resend is dropped.
  Scenario wide = Load(Preset("sqs-fifo.window-5m.lease-10m"));
  wide.config.broker.window = 30 * 60;
  CHECK(Verdicts(Check(wide)).at("offered_at_most_once") == 0);
}

TEST_CASE(
    "the producer session drops a retry but not a restarted relay's "
    "resend") {
  const ScenarioResult retry =
      Check(Load(Preset("kafka-idempotent-producer.retry")));
  CHECK(Verdicts(retry).at("offered_at_most_once") == 0);
  const ScenarioResult restart =
      Check(Load(Preset("kafka-idempotent-producer.restart.naive")));
  CHECK(Verdicts(restart).at("offered_at_most_once") > 0);
  // Without the producer session, the lost acknowledgement alone already
  // duplicates the send.
  Scenario plain = Load(Preset("kafka-idempotent-producer.retry"));
  plain.config.broker.dedup = Dedup::kNone;
  CHECK(Verdicts(Check(plain)).at("offered_at_most_once") > 0);
}

TEST_CASE(
    "the age sweeper sends twice exactly when the longest send reaches the "
    "minimum age") {
  // brighter-sweeper.min-age-30s.send-10s with sends of 5s to 40s: a send
  // that can still be in flight when the row turns 30s old is sent again
  // (at 30s exactly, the sweep and the send's return share an instant).
  for (const auto& [send, holds] : std::vector<std::pair<Seconds, bool>>{
           {5, true}, {25, true}, {30, false}, {35, false}, {40, false}}) {
    const Seconds send_time = send;  // clang 14 captures no binding
    CAPTURE(send_time);
    Scenario s = Load(Preset("brighter-sweeper.min-age-30s.send-10s"));
    s.config.send_time = send;
    const auto verdicts = Verdicts(Check(s));
    CHECK((verdicts.at("offered_at_most_once") == 0) == holds);
    CHECK(verdicts.at("eventually_offered") == 0);  // never a loss
    // With one relay the sweeper waits for the dispatch: no race.
    s.config.relays = {"app"};
    CHECK(Verdicts(Check(s)).at("offered_at_most_once") == 0);
  }
}

TEST_CASE("effect_at_most_once breaks exactly when retention < redrive") {
  // The dead-letter presets at 1d, 3d and 7d, and the boundary around
  // 3d: retention keeps a row for at least its length.
  for (const auto& [retention, holds] :
       std::vector<std::pair<Seconds, bool>>{{86400, false},
                                             {2 * 86400, false},
                                             {3 * 86400, true},
                                             {4 * 86400, true},
                                             {7 * 86400, true}}) {
    const Seconds kept = retention;  // clang 14 captures no binding
    CAPTURE(kept);
    Scenario s = Load(Preset("dead-letter-7d.inbox-1d.redrive-3d"));
    s.config.groups[0].inbox_retention = retention;
    CHECK((Verdicts(Check(s)).at("effect_at_most_once") == 0) == holds);
  }
}

TEST_CASE(
    "a delayed redelivery waits for its delay, then goes to the "
    "dead-letter queue") {
  Scenario s = Load(Preset("masstransit.inbox-30m.redelivery-5m-15m-30m"));
  const OutboxModel model(s.config);
  auto step = [&](State& state, std::string_view text) {
    Result<Action> a = ParseAction(s.config, text);
    REQUIRE(a.ok());
    Result<State> next = model.Apply(state, a.value());
    REQUIRE_MESSAGE(next.ok(), text << ": " << next.status().message());
    state = std::move(next).value();
  };
  State st = model.InitialStates().front();
  for (const char* a : {"claim(A, e1)", "send(A)", "complete(A)",
                        "consume(billing, 1, e1)", "ack_lost(billing, 1)"}) {
    step(st, a);
  }
  const GroupEventCells& c = st.group_events[0];
  CHECK(c.parked == kDelayed);
  CHECK(c.attempts == 1);
  CHECK(c.ready == 0);
  Result<Action> retry = ParseAction(s.config, "retry(billing, e1)");
  REQUIRE(retry.ok());
  CHECK(model.WhyDisabled(st, retry.value()).has_value());  // 0 of 5m
  step(st, "tick");  // one unit is 5m: the first delay is over
  CHECK_FALSE(model.WhyDisabled(st, retry.value()).has_value());
  // The retry is due, so time cannot pass before it.
  Result<Action> tick = ParseAction(s.config, "tick");
  REQUIRE(tick.ok());
  CHECK(model.WhyDisabled(st, tick.value()).has_value());
  step(st, "retry(billing, e1)");
  CHECK(st.group_events[0].ready == 1);
  CHECK(st.group_events[0].parked == kNotParked);
}

TEST_CASE(
    "the gap-waiting cursor loses a row exactly when its gap can time out "
    "before the row commits") {
  // model/TIME.md, "The gap-waiting cursor": eventually_offered breaks iff
  // there is no bound on a transaction or the gap timeout G is at most the
  // longest transaction Tx. Two rows may commit out of id order.
  const Scenario base = Load(std::string(OC_SOURCE_DIR) +
                             "/scenarios/catalogue/"
                             "gap-timeout.shorter-than-commit.toml");
  for (Seconds g = 5; g <= 20; g += 5) {
    for (Seconds tx = 0; tx <= 20; tx += 5) {
      CAPTURE(g);
      CAPTURE(tx);
      Scenario s = base;
      s.config.gap_timeout = g;
      s.config.commit_within =
          tx == 0 ? std::nullopt : std::optional<Seconds>(tx);
      REQUIRE(Validate(s.config).ok());
      const bool lost = tx == 0 || g <= tx;
      CHECK((Verdicts(Check(s)).at("eventually_offered") > 0) == lost);
    }
  }
  // Without a timeout the cursor waits at every gap: nothing is lost,
  // timed or not; passing over gaps loses the row at once.
  Scenario waits = base;
  waits.config.gap_timeout.reset();
  CHECK(Verdicts(Check(waits)).at("eventually_offered") == 0);
  waits.config.commit_within.reset();
  REQUIRE_FALSE(Timed(waits.config));
  CHECK(Verdicts(Check(waits)).at("eventually_offered") == 0);
  Scenario passes = waits;
  passes.config.gaps_wait = false;
  CHECK(Verdicts(Check(passes)).at("eventually_offered") == 7);
}

TEST_CASE("a consumer outage takes back deliveries and blocks the group") {
  Scenario s = Load(Preset("wolverine.inbox-5m.consumer-down-3h"));
  const OutboxModel model(s.config);
  State st = model.InitialStates().front();
  for (const char* text :
       {"claim(A, e1)", "send(A)", "complete(A)", "consume(billing, 1, e1)",
        "consumer_outage(billing)"}) {
    Result<Action> a = ParseAction(s.config, text);
    REQUIRE(a.ok());
    Result<State> next = model.Apply(st, a.value());
    REQUIRE_MESSAGE(next.ok(), text);
    st = std::move(next).value();
  }
  CHECK(st.instances[0].phase == InstancePhase::kIdle);
  CHECK(st.group_events[0].ready == 1);
  CHECK(st.down[0] == 36);  // 3h in units of 5m
  Result<Action> consume = ParseAction(s.config, "consume(billing, 1, e1)");
  REQUIRE(consume.ok());
  const std::optional<std::string> why = model.WhyDisabled(st, consume.value());
  REQUIRE(why.has_value());
  CHECK(why->find("down") != std::string::npos);
}

TEST_CASE("the report names the timing assumptions of a verdict") {
  const ScenarioResult r =
      Check(Load(Preset("dead-letter-7d.inbox-1d.redrive-3d")));
  REQUIRE(r.time_assumptions.size() >= 2);
  CHECK(r.time_assumptions[1] ==
        "inbox retention of billing 1d < dead-letter redrive 3d: a redriven "
        "copy can find the inbox row deleted");
  const ScenarioResult untimed =
      Check(Load(std::string(OC_SOURCE_DIR) +
                 "/scenarios/seed/lease-expiry-after-send.toml"));
  CHECK(untimed.time_assumptions.empty());
}

}  // namespace oc
