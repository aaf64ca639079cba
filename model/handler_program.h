// A declared handler strategy (issue 6): a consumer written in the small
// statement language of scenarios/strategies/LANGUAGE.md instead of one of
// the nine built-in strategies of MODEL.md section 5.
//
// A HandlerProgram is plain, comparable data compiled once, at load time,
// by CompileHandler(); every name in it is already resolved to an index, so
// running a step never looks anything up. It works on the same durable
// cells as the built-ins (MODEL.md section 2: effects, inbox, ledger, sent
// per event; version and cache per key), so a declared definition of a
// built-in reaches exactly the states the built-in reaches.
//
// Locals are booleans. Those set in step 1 and read in step 2 survive the
// step as bits of the instance's `memo` (the strategy's private in-flight
// data), and are zeroed, like every private datum, once the instance is no
// longer midway. Every other local starts false on each run of a step.

#ifndef OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_
#define OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/status.h"

namespace oc {

enum class StrategyFamily : std::uint8_t;
struct GroupEventCells;
struct GroupKeyCells;

// The durable tables a handler can name. Per event: effects (a count of
// business effects), inbox and ledger (rows: present or not), sent (the
// outside world's record of calls received). Per key: version (a number)
// and cache (a row: present means fresh).
enum class HandlerTable : std::uint8_t {
  kEffects,
  kInbox,
  kLedger,
  kSent,
  kVersion,
  kCache,
};
inline constexpr int kHandlerTables = 6;
std::string_view HandlerTableName(HandlerTable t);

// One node of an expression tree, stored in HandlerProgram::nodes; children
// come before their parent, so a node's operands have smaller indices.
struct HandlerNode {
  enum class Op : std::uint8_t {
    kConst,         // value
    kLocal,         // local number `value`
    kRead,          // table `table` at the event or its key
    kEventVersion,  // the event's version attribute
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
  };
  Op op = Op::kConst;
  HandlerTable table = HandlerTable::kEffects;
  std::int16_t lhs = -1;
  std::int16_t rhs = -1;
  std::int32_t value = 0;
  bool operator==(const HandlerNode&) const = default;
};

// One statement: `[if GUARD:] ACTION`.
struct HandlerStatement {
  enum class Kind : std::uint8_t {
    kInsert,    // insert TABLE[...]; with local >= 0: LOCAL = insert ...
    kSetLocal,  // LOCAL = EXPR
    kAdd,       // TABLE[...] += EXPR
    kSet,       // TABLE[...] = EXPR
    kSetMax,    // TABLE[...] max= EXPR (set if greater)
    kStop,      // skip the rest of this step
    // call sent[event] with_key: the outside world records the call only
    // if it has not seen the event's idempotency key (sent[event] is 0).
    kCallOnce,
  };
  Kind kind = Kind::kStop;
  HandlerTable table = HandlerTable::kEffects;
  std::int8_t local = -1;   // the local written, or -1
  std::int16_t guard = -1;  // node index of the guard, or -1
  std::int16_t value = -1;  // node index of the value, or -1
  bool operator==(const HandlerStatement&) const = default;
};

struct HandlerProgram {
  std::string name;  // the strategy's declared name, e.g. "credit.inbox"
  std::string file;  // the strategy file, as the scenario wrote it
  std::vector<HandlerNode> nodes;
  std::vector<std::vector<HandlerStatement>> steps;  // 1 or 2 transactions
  std::vector<std::string> locals;                   // names, by number
  // Per local: its bit in `memo` while midway, or -1 when it does not
  // outlive step 1.
  std::vector<std::int8_t> memo_bit;
  int memo_bits = 0;
  // Inferred from the tables named: credit (effects, inbox), notification
  // (ledger, sent), projection (version), cache (cache). Decides which
  // built-in invariants apply to the group.
  std::uint8_t family = 0;  // a StrategyFamily
  bool uses_inbox = false;
  bool reads_version = false;  // needs a version on every event
  bool uses_key = false;       // needs a key on every event
  // Per table: the sum of the constants its `+=` statements add (each runs
  // at most once per delivered copy), which bounds its growth per copy.
  std::array<int, kHandlerTables> adds{};
  // The largest constant `version` can be set to (besides event versions).
  int max_constant = 0;
  // Per table: does a statement write it? Tables never written keep 0.
  std::array<bool, kHandlerTables> writes{};
  bool operator==(const HandlerProgram&) const = default;
};

// The cells one run of a step sees.
struct HandlerCells {
  GroupEventCells* event_cells;  // the group's cells for the event
  GroupKeyCells* key_cells;      // the group's cells for its key, or null
  int version;                   // the event's version, 0 without one
  std::uint8_t* memo;            // the instance's private data
  bool last_step;                // the memo is zeroed after it
};

// Runs step `step` of `p` as one transaction.
// REQUIRES: step < p.steps.size(); key_cells is set if p.uses_key.
void RunHandlerStep(const HandlerProgram& p, int step, const HandlerCells& c);

// One statement as written: its text and where its first character is.
struct HandlerSource {
  std::string text;
  int line = 0;    // 1-based, in the strategy file
  int column = 0;  // 1-based, of text[0]
};

// A compile error: where it is and what is wrong (with a hint).
struct HandlerError {
  int step = 0;       // 0-based
  int statement = 0;  // 0-based
  int line = 0;
  int column = 0;
  std::string message;
};

// Parses and type-checks `steps` (1 or 2 lists of statements). On error,
// `error` is filled and the result is false.
bool CompileHandler(const std::vector<std::vector<HandlerSource>>& steps,
                    HandlerProgram& out, HandlerError& error);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_
