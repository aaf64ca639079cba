// Small builders shared by the model tests.

#ifndef OUTBOX_CHECK_TESTS_MODEL_MODEL_TEST_UTIL_H_
#define OUTBOX_CHECK_TESTS_MODEL_MODEL_TEST_UTIL_H_

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/action.h"
#include "model/config.h"
#include "model/outbox_model.h"

namespace oc::testing {

// R relays named r1.., E events named e1.. (key "k", version = index + 1),
// and one group per strategy given, named g1.., with `instances` each.
inline Config MakeConfig(int relays, int events,
                         std::vector<Strategy> strategies = {},
                         int instances = 1) {
  Config c;
  for (int r = 1; r <= relays; ++r) c.relays.push_back("r" + std::to_string(r));
  for (int e = 1; e <= events; ++e) {
    Event event;
    event.name = "e" + std::to_string(e);
    event.type = "event";
    event.key = "k";
    event.version = static_cast<std::uint16_t>(e);
    c.events.push_back(event);
  }
  int g = 1;
  for (Strategy s : strategies) {
    c.groups.push_back(Group{"g" + std::to_string(g++), s, instances});
  }
  return c;
}

// Applies the actions written in text form, in order; fails the test if one
// is not enabled.
inline State Run(const OutboxModel& m, std::vector<std::string> actions) {
  State s = m.InitialStates().front();
  for (const std::string& text : actions) {
    const Result<Action> a = ParseAction(m.config(), text);
    REQUIRE_MESSAGE(a.ok(), text);
    Result<State> next = m.Apply(s, a.value());
    const std::string why = next.ok() ? "" : next.status().message();
    REQUIRE_MESSAGE(next.ok(), text << ": " << why);
    s = std::move(next).value();
  }
  return s;
}

// Why `text` is not enabled in `s`, or "" if it is.
inline std::string Why(const OutboxModel& m, const State& s,
                       const std::string& text) {
  const Result<Action> a = ParseAction(m.config(), text);
  REQUIRE_MESSAGE(a.ok(), text);
  return m.WhyDisabled(s, a.value()).value_or("");
}

}  // namespace oc::testing

#endif  // OUTBOX_CHECK_TESTS_MODEL_MODEL_TEST_UTIL_H_
