// A declared handler strategy: a consumer written in the small
// statement language of scenarios/strategies/LANGUAGE.md instead of one of
// the nine built-in strategies of docs/SEMANTICS.md section 5.
//
// A HandlerProgram is plain, comparable data compiled once, at load time,
// by CompileHandler(); every name in it is already resolved to an index, so
// running a step never looks anything up. It works on the same durable
// cells as the built-ins (docs/SEMANTICS.md section 2: effects, inbox, ledger,
// sent per event; version and cache per key), so a declared definition of a
// built-in reaches exactly the states the built-in reaches, and on tables
// the strategy file declares itself (`points` per account, `reserved` per
// order), which live in State::user.
//
// Locals are booleans or integers. Those set in step 1 and read in step 2
// survive the step as bits of the instance's `memo` (the strategy's private
// in-flight data), and are zeroed, like every private datum, once the
// instance is no longer midway. Every other local starts at 0 (false) on
// each run of a step.

#ifndef OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_
#define OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/expression.h"

namespace oc {

enum class StrategyFamily : std::uint8_t;
struct GroupEventCells;
struct GroupKeyCells;

// The durable tables of docs/SEMANTICS.md section 2 a handler can name. Per
// event: effects (a count of business effects), inbox and ledger (rows: present
// or not), sent (the outside world's record of calls received). Per key:
// version (a number) and cache (a row: present means fresh).
enum class HandlerTable : std::uint8_t {
  kEffects,
  kInbox,
  kLedger,
  kSent,
  kVersion,
  kCache,
};
inline constexpr int kHandlerTables = 6;

// The built-in durable tables, one row each in HandlerTable order: the one
// vocabulary of strategy files, invariant expressions (GROUP.NAME[...]), the
// state's cells (model/state_cells.h) and conformance runs. Each is a field
// of the same name in GroupEventCells or GroupKeyCells.
struct DurableTable {
  HandlerTable table;
  std::string_view name;
  bool row;     // 0 or 1 (present or not)
  bool count;   // counts copies (a business effect, a call received)
  bool by_key;  // one cell per key (GroupKeyCells); else per event
};
inline constexpr DurableTable kDurableTables[kHandlerTables] = {
    {HandlerTable::kEffects, "effects", false, true, false},
    {HandlerTable::kInbox, "inbox", true, false, false},
    {HandlerTable::kLedger, "ledger", true, false, false},
    {HandlerTable::kSent, "sent", false, true, false},
    {HandlerTable::kVersion, "version", false, false, true},
    {HandlerTable::kCache, "cache", true, false, true},
};
inline constexpr auto kDurableTableNames = [] {
  std::array<std::string_view, kHandlerTables> names{};
  for (int t = 0; t < kHandlerTables; ++t) names[t] = kDurableTables[t].name;
  return names;
}();
std::string_view HandlerTableName(HandlerTable t);

// A table the strategy file declares (`[tables]`): a row (present or not)
// or a number, per event or per value of a domain (accounts, orders, keys).
struct UserTable {
  std::string name;
  bool row = false;  // a row; otherwise a number
  // -1: one cell per event; otherwise an index into HandlerProgram::domains:
  // one cell per value of that domain.
  std::int8_t by = -1;
  bool operator==(const UserTable&) const = default;
};

// A domain the strategy file declares (`[domains]`): the text attributes
// whose values are of the domain, besides the attribute named like it.
struct DeclaredDomain {
  std::string name;                     // "account"
  std::vector<std::string> attributes;  // "from", "to"
  bool operator==(const DeclaredDomain&) const = default;
};
// A domain has at most this many values (its value index fits the 8 bits a
// carried local of the domain takes, and a table's cells are bounded).
inline constexpr int kMaxDomainValues = 64;
// A strategy declares at most this many domains, and its statements read
// at most this many text attributes (their indices fit the compiled
// program's 8-bit fields).
inline constexpr int kMaxHandlerDomains = 16;
inline constexpr int kMaxTextAttributes = 32;
inline constexpr int kMaxUserTables = 8;
// Steps of a handler: consume runs the first, each `step` action the next.
inline constexpr int kMaxHandlerSteps = 4;

// The handler's leaf opcodes (ExprNode::op), after the shared ones.
namespace handler_op {
inline constexpr auto kLocal = ExprOp::kLeaf;  // local `value`
// A built-in table (`a`: HandlerTable) at the event or its key.
inline constexpr auto kRead = static_cast<ExprOp>(int(ExprOp::kLeaf) + 1);
// A user table (`a`: its index) at the cell its index (`lhs`, a value of
// its domain; -1 for a table by event: the event's cell) names.
inline constexpr auto kReadUser = static_cast<ExprOp>(int(ExprOp::kLeaf) + 2);
// An event's number attribute (`a`: index into number_attributes).
inline constexpr auto kNumber = static_cast<ExprOp>(int(ExprOp::kLeaf) + 3);
// An event's text attribute (`a`: index into text_attributes), as the index
// of its value among its domain's values.
inline constexpr auto kText = static_cast<ExprOp>(int(ExprOp::kLeaf) + 4);
}  // namespace handler_op

// One statement: `[if GUARD:] ACTION`.
struct HandlerStatement {
  enum class Kind : std::uint8_t {
    kInsert,       // insert TABLE[...]; with local >= 0: LOCAL = insert ...
    kSetLocal,     // LOCAL = EXPR
    kAdd,          // TABLE[...] += VALUE
    kSubtract,     // TABLE[...] -= VALUE
    kSet,          // TABLE[...] = VALUE
    kSetMax,       // TABLE[...] max= VALUE (set if greater)
    kStop,         // skip the rest of this step
    kStopHandler,  // skip the rest of the handler (this step and the next)
    // call sent[event] with_key: the outside world records the call only
    // if it has not seen the event's idempotency key (sent[event] is 0).
    kCallOnce,
  };
  Kind kind = Kind::kStop;
  HandlerTable table = HandlerTable::kEffects;
  std::int8_t user = -1;    // a user table written, or -1 for `table`
  std::int8_t local = -1;   // the local written, or -1
  std::int32_t guard = -1;  // node index of the guard, or -1
  std::int32_t value = -1;  // node index of the value, or -1
  // For a user table by a domain: node index of the cell's index (a value
  // of the domain); -1 for a table by event (the event's cell).
  std::int32_t index = -1;
  bool operator==(const HandlerStatement&) const = default;
};

struct HandlerProgram {
  std::string name;  // the strategy's declared name, e.g. "credit.inbox"
  std::string file;  // the strategy file, as the scenario wrote it
  std::vector<ExprNode> nodes;
  std::vector<std::vector<HandlerStatement>> steps;  // 1..4 transactions
  std::vector<UserTable> tables;                     // declared in the file
  std::vector<DeclaredDomain> declared_domains;      // `[domains]`
  // The domains the handler names: its tables' and its text values'.
  std::vector<std::string> domains;
  // The event attributes the handler names: those it reads as values of a
  // domain (text: event.order, event.from) and those it reads as numbers
  // (event.version, event.amount...). Every event must carry each of them.
  std::vector<std::string> text_attributes;
  std::vector<std::int8_t> text_domain;  // per text attribute: its domain
  std::vector<std::string> number_attributes;
  std::vector<std::string> locals;  // names, by number
  std::vector<bool> local_is_int;   // per local: an integer (else boolean)
  // Per local: the domain of the values it holds, or -1 (an integer or a
  // boolean).
  std::vector<std::int8_t> local_domain;
  // Per local: its first bit in `memo` while midway, or -1 when it does not
  // outlive step 1. A boolean takes 1 bit, a value of a domain 8, an integer
  // 16 (two's complement: integer locals carried to step 2 are 16-bit).
  std::vector<std::int8_t> memo_bit;
  int memo_bits = 0;
  // The memo bit that says step 1 ran `stop handler`, or -1.
  std::int8_t stop_bit = -1;
  // Inferred from the built-in tables named: credit (effects, inbox),
  // notification (ledger, sent), projection (version), cache (cache).
  // Decides which built-in invariants apply to the group. kNoFamily when
  // the handler writes only its own tables.
  std::uint8_t family = 0;  // a StrategyFamily, or kNoFamily
  static constexpr std::uint8_t kNoFamily = 4;  // StrategyFamily::kCustom
  bool uses_inbox = false;
  bool uses_key = false;  // needs a key on every event
  // Per built-in table: the sum of the constants its `+=` statements add
  // (each runs at most once per delivered copy), which bounds its growth
  // per copy.
  std::array<int, kHandlerTables> adds{};
  // The largest constant `version` can be set to (besides event versions).
  int max_constant = 0;
  // Per built-in table: does a statement write it? Tables never written
  // keep 0.
  std::array<bool, kHandlerTables> writes{};
  bool operator==(const HandlerProgram&) const = default;
};

// The cells one run of a step sees.
struct HandlerCells {
  GroupEventCells* event_cells;      // the group's cells for the event
  GroupKeyCells* key_cells;          // the group's cells for its key, or null
  std::int16_t* user;                // State::user
  const std::uint16_t* table_first;  // per user table: its first cell
  int event;                         // the event's index
  const std::int16_t* values;   // per text attribute: the event's value index
  const std::int32_t* numbers;  // per number attribute: the event's value
  std::uint32_t* memo;          // the instance's private data
  bool last_step;               // the memo is zeroed after it
  // The provider's idempotency-key window in time units (0: keys are kept
  // forever): a keyed call is dropped while the last one let through is
  // younger (event_cells->key_age < key_window).
  int key_window = 0;
  // relay.message_id = "per_attempt": every copy is a message the inbox and
  // the ledger (keyed by message id) have never seen.
  bool fresh_id = false;
};

// Runs step `step` of `p` as one transaction.
// REQUIRES: step < p.steps.size(); key_cells is set if p.uses_key.
void RunHandlerStep(const HandlerProgram& p, int step, const HandlerCells& c);

// The value of local `l` kept in `memo` (REQUIRES: p.memo_bit[l] >= 0).
int MemoLocal(const HandlerProgram& p, int l, std::uint32_t memo);

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

// Parses and type-checks `steps` (1..4 lists of statements) against the
// tables already in `out.tables`. On error, `error` is filled and the
// result is false.
bool CompileHandler(const std::vector<std::vector<HandlerSource>>& steps,
                    HandlerProgram& out, HandlerError& error);

// A name a user table cannot take: a built-in table, a keyword.
bool ReservedHandlerName(std::string_view name);

// The domain text attribute `attribute` holds values of in `p`: the
// declared domain that lists it, else the attribute itself.
std::string_view DomainOfAttribute(const HandlerProgram& p,
                                   std::string_view attribute);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_HANDLER_PROGRAM_H_
