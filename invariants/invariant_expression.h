// Invariants written as expressions in a scenario file (issue 6):
//
//   [[invariants]]
//   name = "points_once"
//   kind = "safety"                   # safety | transition | at_rest
//   holds = "all(events, loyalty.effects[event] <= 1)"
//
// An expression reads durable state only: the outbox rows, the broker's
// copies, and each group's tables (grammar in
// scenarios/strategies/LANGUAGE.md, "Invariant expressions"). It is compiled
// once against a Config, with every name resolved to an index; evaluating it
// allocates nothing. A compiled expression is plain, comparable data.

#ifndef OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_
#define OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "invariants/invariant.h"
#include "model/config.h"
#include "model/outbox_model.h"
#include "model/state.h"

namespace oc {

struct ExpressionNode {
  enum class Op : std::uint8_t {
    kConst,
    kCell,  // field `field` of group `group` at the bound event or key
    kEventVersion,
    kOld,  // child evaluated in the state before the transition
    kNot,
    kAnd,
    kOr,
    kAdd,
    kSub,
    kMul,
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,
    kAll,  // over events (`field` 0) or keys (1), child lhs
    kAny,
    kCount,
    kSum,
    kMax,
  };
  Op op = Op::kConst;
  std::uint8_t field = 0;  // a Cell code, or the domain of an aggregate
  std::int8_t group = -1;
  std::uint8_t index = 0;  // for cells: 0 the bound event, 1 the bound
                           // key, 2 the bound event's key
  std::int16_t lhs = -1;
  std::int16_t rhs = -1;
  std::int32_t value = 0;
  bool operator==(const ExpressionNode&) const = default;
};

struct InvariantExpression {
  std::string name;
  InvariantKind kind = InvariantKind::kSafety;
  std::string text;  // as written
  std::vector<ExpressionNode> nodes;
  int root = -1;
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

// Compiles `out.text` for `out.kind` against `config`. False, with `error`
// filled, when the text does not parse or type-check.
bool CompileInvariantExpression(const Config& config, InvariantExpression& out,
                                ExpressionError& error);

}  // namespace oc

#endif  // OUTBOX_CHECK_INVARIANTS_INVARIANT_EXPRESSION_H_
