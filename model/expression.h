// The expression core shared by the handler language (model/handler_program.h)
// and invariant expressions (invariants/invariant_expression.h): one lexer,
// one recursive-descent parser that type-checks as it goes, and one
// evaluator. The grammar is in scenarios/strategies/LANGUAGE.md.
//
// The core knows operators, literals, aggregates and their bound variables;
// it knows nothing of tables. Each client (a "dialect") resolves names:
// ExpressionParser::Name turns a name into a leaf node (an opcode of the
// client's own, at or above ExprOp::kLeaf), and the client's evaluation
// context reads those leaves. A compiled expression is plain, comparable
// data: a vector of nodes in which children come before their parent.

#ifndef OUTBOX_CHECK_MODEL_EXPRESSION_H_
#define OUTBOX_CHECK_MODEL_EXPRESSION_H_

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oc {

// A value's type. Text values are attribute values (an account, an order),
// held as their index in the attribute's list of values, so they compare
// only with values of the same attribute (`domain`).
struct ExprType {
  enum class Kind : std::uint8_t { kInt, kBool, kText };
  Kind kind = Kind::kInt;
  std::int8_t domain = -1;  // for kText: which attribute
  bool operator==(const ExprType&) const = default;
  static ExprType Int() { return {Kind::kInt, -1}; }
  static ExprType Bool() { return {Kind::kBool, -1}; }
  static ExprType Text(int domain) {
    return {Kind::kText, static_cast<std::int8_t>(domain)};
  }
};

enum class ExprOp : std::uint8_t {
  kConst,  // value
  kNot,
  kAnd,
  kOr,
  kAdd,
  kSub,
  kMul,
  kNeg,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  // An aggregate over domain `a` (events, keys, an attribute's values):
  // `b` is the ExprAggregate, lhs the body (or -1: count the members),
  // rhs the `where` filter (or -1).
  kAggregate,
  kOld,   // lhs evaluated in the state before the transition
  kLeaf,  // the first of the client's opcodes
};

enum class ExprAggregate : std::uint8_t { kAll, kAny, kCount, kSum, kMax };

struct ExprNode {
  ExprOp op = ExprOp::kConst;
  std::uint8_t a = 0;  // meaning depends on op (client leaves use a, b, c)
  std::uint8_t b = 0;
  std::uint8_t c = 0;
  std::int32_t lhs = -1;
  std::int32_t rhs = -1;
  std::int32_t value = 0;
  bool operator==(const ExprNode&) const = default;
};

// The values an integer node can take, as the parser proves them: every
// leaf has a range its client gives, and each operator's range follows from
// its operands'. Evaluation is in 64 bits, and the parser refuses an
// expression whose range leaves them, so no evaluation overflows.
struct ExprRange {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  bool operator==(const ExprRange&) const = default;
};

// The sizes an expression may have (LANGUAGE.md, "Limits"). Evaluation
// recurses once per level of the tree, so its height is bounded, and so is
// the parser's own recursion (parentheses, `not`, `-`, aggregates).
inline constexpr int kMaxExpressionNodes = 10'000;
inline constexpr int kMaxExpressionHeight = 500;
inline constexpr int kMaxExpressionNesting = 100;

struct ExprToken {
  enum class Kind : std::uint8_t { kName, kNumber, kString, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // a string's text without its quotes
  int offset = 0;    // in the source text
};

// Thrown by the lexer and parsers, caught by each client's compile
// function, which returns it as a value: the first failure stops
// compilation, and a throw saves threading a status through every level of
// the descent.
struct ExprFailure {
  int offset;
  std::string message;
};

// Splits `text` into tokens: names (letters, digits, '_' and '.'), numbers,
// quoted strings ('...' or "..."), and the punctuation of both dialects.
// `#` starts a comment that runs to the end. Throws ExprFailure.
std::vector<ExprToken> LexExpression(std::string_view text);

std::string_view TypeWord(ExprType t);

// A domain an aggregate can range over, as a client resolves it.
struct ExprDomain {
  int id = 0;              // the client's number for it
  int size = 0;            // how many members it has at most
  std::string variable;    // the name bound in the body: "event", "account"
  ExprType variable_type;  // the bound variable's type
};

// The recursive-descent parser of the shared grammar. A client derives from
// it, implements Name (and Domain, to allow aggregates), and calls Expr().
class ExpressionParser {
 public:
  using Typed = std::pair<int, ExprType>;

  ExpressionParser(std::vector<ExprNode>& nodes) : nodes_(nodes) {}
  virtual ~ExpressionParser() = default;

  void SetTokens(std::vector<ExprToken> tokens) {
    tokens_ = std::move(tokens);
    pos_ = 0;
  }
  Typed Expr();

  // The proved range of node `node` (an integer or boolean node pushed by
  // this parser).
  ExprRange RangeOf(int node) const {
    return ranges_[static_cast<std::size_t>(node)];
  }

 protected:
  // A name the core does not know (not a keyword or an aggregate), or a
  // quoted string, already consumed: a local, a table read, an attribute.
  // Throws ExprFailure.
  virtual Typed Name(const ExprToken& name) = 0;
  // The domain an aggregate ranges over ("events", "accounts"), or nullopt.
  virtual std::optional<ExprDomain> Domain(std::string_view word) {
    (void)word;
    return std::nullopt;
  }
  // The words Domain accepts, for an error's hint.
  virtual std::string DomainWords() const { return ""; }
  // Called on the operands of == and != before their types are compared:
  // a client may give a quoted literal the type of the other side.
  virtual void UnifyText(Typed& l, Typed& r) {
    (void)l;
    (void)r;
  }

  // The variable bound by an enclosing aggregate, innermost first.
  const ExprDomain* Bound(std::string_view variable) const {
    for (auto it = bound_.rbegin(); it != bound_.rend(); ++it) {
      if (it->variable == variable) return &*it;
    }
    return nullptr;
  }

  const ExprToken& Peek(int ahead = 0) const {
    return tokens_[std::min(pos_ + static_cast<std::size_t>(ahead),
                            tokens_.size() - 1)];
  }
  const ExprToken& Next() { return tokens_[pos_++]; }
  void Back() { --pos_; }
  bool AtEnd() const { return Peek().kind == ExprToken::Kind::kEnd; }
  bool IsName(std::string_view s) const {
    return Peek().kind == ExprToken::Kind::kName && Peek().text == s;
  }
  bool IsPunct(std::string_view s) const {
    return Peek().kind == ExprToken::Kind::kPunct && Peek().text == s;
  }
  std::string Describe() const;
  void Expect(std::string_view punct, std::string_view where);
  // Appends `n` (its children already pushed) and returns its index.
  // Throws ExprFailure, at `offset` or else the current token, when the
  // expression passes a size limit or its value could leave 64 bits.
  int Push(const ExprNode& n, int offset = -1);
  int Constant(int value);
  // The values leaf `n` (an opcode >= ExprOp::kLeaf) can take. The default
  // is any 32-bit integer; a client whose leaves are narrower or wider
  // says so.
  virtual ExprRange LeafRange(const ExprNode& n) const {
    (void)n;
    return {INT32_MIN, INT32_MAX};
  }
  // What the end of the input is called in messages.
  std::string end_word_ = "the end of the expression";

 private:
  Typed Binary(ExprOp op, Typed l, Typed r, ExprType operands, ExprType result,
               std::string_view word, int offset);
  Typed And();
  Typed Not();
  Typed Compare();
  Typed Sum();
  Typed Term();
  Typed Unary();
  Typed Atom();
  Typed Aggregate(const ExprToken& name);
  // Push with a range already known (an aggregate's).
  int PushRanged(const ExprNode& n, ExprRange range, int offset);

  // Counts one level of the descent; throws past kMaxExpressionNesting.
  struct Nest {
    explicit Nest(ExpressionParser& p);
    ~Nest() { --parser.nesting_; }
    ExpressionParser& parser;
  };

  std::vector<ExprNode>& nodes_;
  std::vector<ExprToken> tokens_;
  std::size_t pos_ = 0;
  std::vector<ExprDomain> bound_;
  // Per node index (nodes pushed by another parser into the same vector
  // keep a default entry; they are never this parser's children).
  std::vector<ExprRange> ranges_;
  std::vector<int> heights_;
  int nesting_ = 0;
};

// Evaluates node `node` of `nodes`. The context supplies the client's
// leaves and the domains of aggregates:
//   int64 Leaf(const ExprNode&)          an opcode >= ExprOp::kLeaf
//   int DomainSize(int domain)
//   int Bind(int domain, int index)      binds the domain's variable,
//                                        returning the previous binding
//   void Unbind(int domain, int previous)
//   bool EnterOld() / void LeaveOld()    switch to the state before a step
//
// Values are 64-bit; the parser proved that none of this expression's
// operations leaves that range (ExprRange).
template <class Context>
std::int64_t Evaluate(const std::vector<ExprNode>& nodes, int node,
                      Context& ctx) {
  const ExprNode& n = nodes[static_cast<std::size_t>(node)];
  switch (n.op) {
    case ExprOp::kConst:
      return n.value;
    case ExprOp::kNot:
      return Evaluate(nodes, n.lhs, ctx) == 0 ? 1 : 0;
    case ExprOp::kAnd:
      return Evaluate(nodes, n.lhs, ctx) != 0 &&
             Evaluate(nodes, n.rhs, ctx) != 0;
    case ExprOp::kOr:
      return Evaluate(nodes, n.lhs, ctx) != 0 ||
             Evaluate(nodes, n.rhs, ctx) != 0;
    case ExprOp::kNeg:
      return -Evaluate(nodes, n.lhs, ctx);
    case ExprOp::kOld: {
      ctx.EnterOld();
      const std::int64_t v = Evaluate(nodes, n.lhs, ctx);
      ctx.LeaveOld();
      return v;
    }
    case ExprOp::kAggregate: {
      const auto agg = static_cast<ExprAggregate>(n.b);
      const int size = ctx.DomainSize(n.a);
      std::int64_t acc = agg == ExprAggregate::kAll ? 1 : 0;
      bool any = false;  // for max: a member passed the filter
      for (int i = 0; i < size; ++i) {
        const int previous = ctx.Bind(n.a, i);
        const bool member = n.rhs < 0 || Evaluate(nodes, n.rhs, ctx) != 0;
        const std::int64_t v =
            !member || n.lhs < 0 ? 1 : Evaluate(nodes, n.lhs, ctx);
        ctx.Unbind(n.a, previous);
        if (!member) continue;
        switch (agg) {
          case ExprAggregate::kAll:
            if (v == 0) return 0;
            break;
          case ExprAggregate::kAny:
            if (v != 0) return 1;
            break;
          case ExprAggregate::kCount:
            acc += v != 0;
            break;
          case ExprAggregate::kSum:
            acc += v;
            break;
          case ExprAggregate::kMax:
            acc = any ? std::max(acc, v) : v;
            any = true;
            break;
        }
      }
      return acc;
    }
    default:
      break;
  }
  if (n.op >= ExprOp::kLeaf) return ctx.Leaf(n);
  const std::int64_t l = Evaluate(nodes, n.lhs, ctx);
  const std::int64_t r = Evaluate(nodes, n.rhs, ctx);
  switch (n.op) {
    case ExprOp::kAdd:
      return l + r;
    case ExprOp::kSub:
      return l - r;
    case ExprOp::kMul:
      return l * r;
    case ExprOp::kEq:
      return l == r;
    case ExprOp::kNe:
      return l != r;
    case ExprOp::kLt:
      return l < r;
    case ExprOp::kLe:
      return l <= r;
    case ExprOp::kGt:
      return l > r;
    case ExprOp::kGe:
      return l >= r;
    default:
      return 0;
  }
}

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_EXPRESSION_H_
