// The fixed scenario the expression, definition and pinned-order fuzz
// targets compile against: two relays, events with keys, accounts,
// amounts and attributes of their own, and one group of each kind, so that
// every name an expression can read resolves somewhere.

#ifndef OUTBOX_CHECK_TESTS_FUZZ_FUZZ_CONFIG_H_
#define OUTBOX_CHECK_TESTS_FUZZ_FUZZ_CONFIG_H_

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "check/scenario.h"
#include "invariants/invariant_expression.h"
#include "model/outbox_model.h"
#include "scenarios/scenario_loader.h"

namespace oc::fuzz {

struct Fixture {
  Scenario scenario;
  std::unique_ptr<OutboxModel> model;
};

// Built once (the first call), then shared.
inline const Fixture& GetFixture() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture;
    const Result<Scenario> s = ParseScenario(
        "relays = 2\n"
        "[[events]]\nname = \"e1\"\nkey = \"k1\"\naccount = \"a1\"\n"
        "amount = 9223372036854775807\nversion = 3\nsku = \"w\"\nqty = 2\n"
        "[[events]]\nname = \"e2\"\nkey = \"k1\"\naccount = \"a2\"\n"
        "amount = -5\nversion = 4\nsku = \"v\"\nqty = -3\n"
        "[[groups]]\nname = \"billing\"\nstrategy = \"credit.inbox\"\n"
        "[[groups]]\nname = \"view\"\nstrategy = \"projection.monotonic\"\n"
        "[[groups]]\nname = \"mail\"\nstrategy = "
        "\"notification.ledger_then_send\"\n"
        "[[groups]]\nname = \"cache\"\nstrategy = \"cache.invalidate\"\n"
        "[faults]\npremature_expiries = 1\n"
        "[check]\ninvariants = [\"effect_at_most_once\"]\n"
        "[expect]\nverdict = \"holds\"\n",
        OC_SOURCE_DIR "/scenarios/fuzz-fixture.toml");
    if (!s.ok()) {  // the fixture itself must load
      std::fprintf(stderr, "fuzz fixture: %s\n", s.status().message().c_str());
      std::abort();
    }
    f->scenario = s.value();
    f->model = std::make_unique<OutboxModel>(f->scenario.config);
    return f;
  }();
  return *fixture;
}

// Evaluates `x` on the initial states and their successors (both orders
// for a transition invariant), to run the evaluator on what compiled.
inline void Evaluate(const Fixture& f, const InvariantExpression& x) {
  std::vector<std::pair<Action, State>> next;
  for (const State& s : f.model->InitialStates()) {
    next.clear();
    f.model->Successors(s, next);
    if (x.kind == InvariantKind::kTransition) {
      for (const auto& [a, t] : next) {
        (void)x.HoldsOn(*f.model, s, t);
        (void)x.HoldsOn(*f.model, t, s);
      }
    } else {
      (void)x.Holds(*f.model, s);
      for (const auto& [a, t] : next) (void)x.Holds(*f.model, t);
    }
  }
}

}  // namespace oc::fuzz

#endif  // OUTBOX_CHECK_TESTS_FUZZ_FUZZ_CONFIG_H_
