// Invariants written as expressions in a scenario file:
//
//   [[invariants]]
//   name = "points_once"
//   kind = "safety"                   # safety | transition | at_rest
//   holds = "all(events, loyalty.effects[event] <= 1)"
//
// An expression reads durable state only: the outbox rows, the broker's
// copies, each group's tables (built-in and declared), and the events'
// attributes (grammar in scenarios/strategies/LANGUAGE.md, "Invariant
// expressions"). It is parsed by the shared expression core
// (model/expression.h) and compiled once against a Config, with every name
// resolved to an index; evaluating it allocates nothing. A compiled
// expression is plain, comparable data.
//
// An expression can be checked once per group (`groups`): then a table
// named without a group (`effects[event]`) is that group's, and the
// invariant holds when it holds for every such group. The built-in
// invariants are written this way in scenarios/invariants/.

#ifndef OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_
#define OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "invariants/invariant.h"
#include "model/config.h"
#include "model/expression.h"
#include "model/outbox_model.h"
#include "model/state.h"

namespace oc {

struct InvariantExpression {
  std::string name;
  InvariantKind kind = InvariantKind::kSafety;
  std::string text;  // as written
  // The groups it is checked for, one at a time, as the scenario wrote
  // them: empty (once, tables named GROUP.TABLE), ["all"], a family
  // ("credit"), or group names.
  std::vector<std::string> groups;
  std::vector<ExprNode> nodes;
  std::vector<int> roots;  // one per group checked (or one)
  // Domains of aggregates and indices: 0 is the events; d >= 1 the values
  // of domains[d - 1] (DomainValues order).
  std::vector<std::string> domains;
  std::vector<int> domain_sizes;  // per domain
  // The event attributes it reads, or whose domain it ranges over.
  std::vector<std::string> attributes;
  // Per text attribute read as event.A (text_reads[t]): its domain, and per
  // event the index of its value among the domain's, or -1.
  std::vector<std::string> text_reads;
  std::vector<int> text_domain;
  std::vector<std::vector<std::int16_t>> text_of;
  // Per number attribute read (numbers[n]), per event: its value.
  std::vector<std::string> numbers;
  std::vector<std::vector<std::int64_t>> number_of;
  // The events it names with a literal ("e1"), by index, no repeats: it
  // tells them apart from the others, so symmetry must not swap them.
  std::vector<int> named_events;
  // The observation cells it reads (ObservedBits: applied, processed,
  // stale_commit), which a configuration that checks it must keep.
  std::uint8_t observes = 0;
  bool operator==(const InvariantExpression&) const = default;

  // REQUIRES: compiled against model.config(); kind is kSafety or kAtRest.
  bool Holds(const OutboxModel& model, const State& s) const;
  // REQUIRES: kind is kTransition.
  bool HoldsOn(const OutboxModel& model, const State& before,
               const State& after) const;
};

struct ExpressionError {
  int offset = 0;  // in the text
  std::string message;
};

// Compiles `out.text` for `out.kind` and `out.groups` against `config`.
// False, with `error` filled, when the text does not parse or type-check,
// or `groups` names no group or family of the config.
bool CompileInvariantExpression(const Config& config, InvariantExpression& out,
                                ExpressionError& error);

// Adds what `x` reads of the state to `reads` (whose `groups` has one
// entry per group of the config it was compiled against).
void AddStateReads(const InvariantExpression& x, StateReads& reads);

// The words `groups` accepts besides group names.
inline constexpr std::string_view kGroupSelectors[] = {
    "all", "credit", "projection", "notification", "cache", "custom"};

}  // namespace oc

#endif  // OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_
