#include "invariants/invariant_expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "model/closest_name.h"

namespace oc {
namespace {

// The cells an expression can read, by code (ExpressionNode::field).
enum Cell : std::uint8_t {
  kPublished,
  kToken,
  kCompletedToken,
  kOffered,
  kReady,
  kEffects,
  kInbox,
  kLedger,
  kSent,
  kVersion,
  kCache,
};
constexpr std::string_view kOutboxCells[] = {"published", "token",
                                             "completed_token", "offered"};
constexpr std::string_view kGroupCells[] = {
    "ready", "effects", "inbox", "ledger", "sent", "version", "cache"};
bool IsKeyCell(int cell) { return cell == kVersion || cell == kCache; }
bool IsBoolCell(int cell) {
  return cell == kPublished || cell == kInbox || cell == kLedger ||
         cell == kCache;
}

enum class Type : std::uint8_t { kInt, kBool, kString };
std::string_view TypeWord(Type t) {
  switch (t) {
    case Type::kInt:
      return "an integer";
    case Type::kBool:
      return "a boolean";
    case Type::kString:
      return "a string";
  }
  return "";
}

struct Token {
  enum class Kind : std::uint8_t { kName, kNumber, kString, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  int offset = 0;
};

// Thrown inside this file only; CompileInvariantExpression returns it as a
// value.
struct Failure {
  int offset;
  std::string message;
};

std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      ++i;
      continue;
    }
    Token t;
    t.offset = static_cast<int>(i);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) ||
                              s[j] == '_' || s[j] == '.')) {
        ++j;
      }
      t.kind = Token::Kind::kName;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        ++j;
      }
      t.kind = Token::Kind::kNumber;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = s.find(c, i + 1);
      if (end == std::string_view::npos) {
        throw Failure{t.offset, "a string is not closed"};
      }
      t.kind = Token::Kind::kString;
      t.text = std::string(s.substr(i, end + 1 - i));
      i = end + 1;
    } else {
      static constexpr std::string_view kTwo[] = {"==", "!=", "<=", ">="};
      t.kind = Token::Kind::kPunct;
      const std::string_view two = s.substr(i, 2);
      if (std::find(std::begin(kTwo), std::end(kTwo), two) != std::end(kTwo)) {
        t.text = std::string(two);
        i += 2;
      } else if (std::string_view("[](),<>+-*").find(c) !=
                 std::string_view::npos) {
        t.text = std::string(1, c);
        ++i;
      } else {
        throw Failure{t.offset, fmt::format("unexpected character '{}'", c)};
      }
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.offset = static_cast<int>(s.size());
  out.push_back(end);
  return out;
}

class Parser {
 public:
  Parser(const Config& config, InvariantExpression& out)
      : config_(config), out_(out) {
    for (const Group& g : config.groups) group_names_.push_back(g.name);
  }

  void Parse() {
    tokens_ = Lex(out_.text);
    if (Peek().kind == Token::Kind::kEnd) {
      throw Failure{0, "empty; write a boolean expression over durable state"};
    }
    const int at = Peek().offset;
    auto [root, type] = Expr();
    if (type != Type::kBool) {
      throw Failure{at, fmt::format("an invariant must be a boolean, got {}; "
                                    "compare it, e.g. '... <= 1'",
                                    TypeWord(type))};
    }
    if (Peek().kind != Token::Kind::kEnd) {
      throw Failure{
          Peek().offset,
          fmt::format("unexpected {} after the expression", Describe())};
    }
    out_.root = root;
  }

 private:
  using Typed = std::pair<int, Type>;
  using Op = ExpressionNode::Op;

  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() { return tokens_[pos_++]; }
  bool IsName(std::string_view s) const {
    return Peek().kind == Token::Kind::kName && Peek().text == s;
  }
  bool IsPunct(std::string_view s) const {
    return Peek().kind == Token::Kind::kPunct && Peek().text == s;
  }
  std::string Describe() const {
    return Peek().kind == Token::Kind::kEnd
               ? std::string("the end of the expression")
               : fmt::format("'{}'", Peek().text);
  }
  void Expect(std::string_view punct, std::string_view where) {
    if (!IsPunct(punct)) {
      throw Failure{Peek().offset, fmt::format("expected '{}' {}, got {}",
                                               punct, where, Describe())};
    }
    Next();
  }
  int Push(const ExpressionNode& n) {
    out_.nodes.push_back(n);
    return static_cast<int>(out_.nodes.size()) - 1;
  }

  Typed Binary(Op op, Typed l, Typed r, Type operands, Type result,
               std::string_view word, int offset) {
    if (l.second != operands || r.second != operands) {
      const bool left = l.second != operands;
      throw Failure{
          offset,
          fmt::format("'{}' needs {} on both sides; its {} side is {}", word,
                      operands == Type::kInt ? "integers" : "booleans",
                      left ? "left" : "right",
                      TypeWord(left ? l.second : r.second))};
    }
    ExpressionNode n;
    n.op = op;
    n.lhs = static_cast<std::int16_t>(l.first);
    n.rhs = static_cast<std::int16_t>(r.first);
    return {Push(n), result};
  }

  Typed Expr() {
    Typed l = And();
    while (IsName("or")) {
      const int at = Next().offset;
      l = Binary(Op::kOr, l, And(), Type::kBool, Type::kBool, "or", at);
    }
    return l;
  }
  Typed And() {
    Typed l = Not();
    while (IsName("and")) {
      const int at = Next().offset;
      l = Binary(Op::kAnd, l, Not(), Type::kBool, Type::kBool, "and", at);
    }
    return l;
  }
  Typed Not() {
    if (IsName("not")) {
      const int at = Next().offset;
      Typed x = Not();
      if (x.second != Type::kBool) {
        throw Failure{at, fmt::format("'not' needs a boolean, got {}",
                                      TypeWord(x.second))};
      }
      ExpressionNode n;
      n.op = Op::kNot;
      n.lhs = static_cast<std::int16_t>(x.first);
      return {Push(n), Type::kBool};
    }
    return Compare();
  }
  Typed Compare() {
    Typed l = Sum();
    static constexpr std::pair<std::string_view, Op> kOps[] = {
        {"==", Op::kEq}, {"!=", Op::kNe}, {"<", Op::kLt},
        {"<=", Op::kLe}, {">", Op::kGt},  {">=", Op::kGe}};
    for (const auto& [text, op] : kOps) {
      if (!IsPunct(text)) continue;
      const int at = Next().offset;
      Typed r = Sum();
      if ((op == Op::kEq || op == Op::kNe) && l.second == r.second &&
          l.second != Type::kString) {
        return Binary(op, l, r, l.second, Type::kBool, text, at);
      }
      return Binary(op, l, r, Type::kInt, Type::kBool, text, at);
    }
    return l;
  }
  Typed Sum() {
    Typed l = Term();
    while (IsPunct("+") || IsPunct("-")) {
      const bool add = Peek().text == "+";
      const int at = Next().offset;
      l = Binary(add ? Op::kAdd : Op::kSub, l, Term(), Type::kInt, Type::kInt,
                 add ? "+" : "-", at);
    }
    return l;
  }
  Typed Term() {
    Typed l = Atom();
    while (IsPunct("*")) {
      const int at = Next().offset;
      l = Binary(Op::kMul, l, Atom(), Type::kInt, Type::kInt, "*", at);
    }
    return l;
  }

  Typed Aggregate(const Token& name) {
    static constexpr std::pair<std::string_view, Op> kAggs[] = {
        {"all", Op::kAll},
        {"any", Op::kAny},
        {"count", Op::kCount},
        {"sum", Op::kSum},
        {"max", Op::kMax}};
    Op op = Op::kAll;
    for (const auto& [text, o] : kAggs) {
      if (text == name.text) op = o;
    }
    Expect("(", fmt::format("after '{}'", name.text));
    const Token& domain = Peek();
    std::uint8_t field = 0;
    if (domain.kind == Token::Kind::kName && domain.text == "events") {
      field = 0;
    } else if (domain.kind == Token::Kind::kName && domain.text == "keys") {
      field = 1;
    } else {
      throw Failure{domain.offset,
                    fmt::format("'{}' ranges over 'events' or 'keys', got {}",
                                name.text, Describe())};
    }
    Next();
    bool& bound = field == 0 ? event_bound_ : key_bound_;
    if (bound) {
      throw Failure{domain.offset,
                    fmt::format("'{}' is already bound by an enclosing "
                                "aggregate; nest events and keys, not the "
                                "same domain twice",
                                field == 0 ? "event" : "key")};
    }
    ExpressionNode n;
    n.op = op;
    n.field = field;
    if (op == Op::kCount && IsPunct(")")) {
      Next();  // count(events): how many there are
      return {Push(n), Type::kInt};
    }
    Expect(",", fmt::format("after '{}({}'", name.text, domain.text));
    bound = true;
    const int at = Peek().offset;
    Typed body = Expr();
    bound = false;
    const bool wants_bool =
        op == Op::kAll || op == Op::kAny || op == Op::kCount;
    if (body.second != (wants_bool ? Type::kBool : Type::kInt)) {
      throw Failure{
          at, fmt::format("'{}' needs {} for each {}, got {}", name.text,
                          wants_bool ? "a boolean" : "an integer",
                          field == 0 ? "event" : "key", TypeWord(body.second))};
    }
    Expect(")", fmt::format("to close '{}('", name.text));
    n.lhs = static_cast<std::int16_t>(body.first);
    return {Push(n), wants_bool && op != Op::kCount ? Type::kBool : Type::kInt};
  }

  Typed Cell(const Token& name) {
    const std::size_t dot = name.text.rfind('.');
    int group = -1;
    std::string_view cell = name.text;
    if (dot != std::string::npos) {
      const std::string_view g = std::string_view(name.text).substr(0, dot);
      cell = std::string_view(name.text).substr(dot + 1);
      auto it = std::find(group_names_.begin(), group_names_.end(), g);
      if (it == group_names_.end()) {
        std::vector<std::string_view> names(group_names_.begin(),
                                            group_names_.end());
        std::string hint = DidYouMean(g, names);
        if (hint.empty()) {
          hint = names.empty()
                     ? std::string("; this scenario has no groups")
                     : fmt::format("; groups are {}", fmt::join(names, ", "));
        }
        throw Failure{name.offset,
                      fmt::format("unknown group '{}'{}", g, hint)};
      }
      group = static_cast<int>(it - group_names_.begin());
    }
    const auto& names = group < 0
                            ? std::span<const std::string_view>(kOutboxCells)
                            : std::span<const std::string_view>(kGroupCells);
    auto it = std::find(names.begin(), names.end(), cell);
    if (it == names.end()) {
      std::string hint = DidYouMean(cell, names);
      if (hint.empty()) {
        hint = fmt::format("; {} are {}",
                           group < 0 ? "outbox columns" : "group tables",
                           fmt::join(names, ", "));
      }
      throw Failure{
          name.offset,
          group < 0 ? fmt::format("unknown column '{}'{} (a group's table is "
                                  "written GROUP.TABLE)",
                                  cell, hint)
                    : fmt::format("unknown table '{}' of group '{}'{}", cell,
                                  group_names_[static_cast<std::size_t>(group)],
                                  hint)};
    }
    const int code = group < 0 ? static_cast<int>(it - names.begin())
                               : kReady + static_cast<int>(it - names.begin());
    Expect("[", fmt::format("after '{}'", name.text));
    const Token& index = Peek();
    ExpressionNode n;
    n.op = Op::kCell;
    n.field = static_cast<std::uint8_t>(code);
    n.group = static_cast<std::int8_t>(group);
    if (IsKeyCell(code)) {
      if (index.text == "key" && key_bound_) {
        n.index = 1;
      } else if (index.text == "event.key" && event_bound_) {
        if (config_.events.empty() ||
            std::any_of(config_.events.begin(), config_.events.end(),
                        [](const Event& e) { return !e.key; })) {
          throw Failure{index.offset, "event.key needs a key on every event"};
        }
        n.index = 2;
      } else {
        throw Failure{index.offset,
                      fmt::format("'{}' is indexed by a key: write [key] "
                                  "inside all(keys, ...) or [event.key] "
                                  "inside all(events, ...), got {}",
                                  cell, Describe())};
      }
    } else if (index.text == "event" && event_bound_) {
      n.index = 0;
    } else {
      throw Failure{index.offset,
                    fmt::format("'{}' is indexed by an event: write [event] "
                                "inside an aggregate over events, such as "
                                "all(events, ...), got {}",
                                cell, Describe())};
    }
    Next();
    Expect("]", "to close the index");
    return {Push(n), IsBoolCell(code) ? Type::kBool : Type::kInt};
  }

  Typed Atom() {
    const Token& t = Peek();
    if (t.kind == Token::Kind::kNumber) {
      Next();
      ExpressionNode n;
      auto [ptr, ec] = std::from_chars(t.text.data(),
                                       t.text.data() + t.text.size(), n.value);
      if (ec != std::errc()) throw Failure{t.offset, "number too large"};
      return {Push(n), Type::kInt};
    }
    if (t.kind == Token::Kind::kString) {
      Next();
      return {Push(ExpressionNode{}), Type::kString};
    }
    if (IsPunct("(")) {
      Next();
      Typed x = Expr();
      Expect(")", "to close '('");
      return x;
    }
    if (t.kind != Token::Kind::kName) {
      throw Failure{t.offset,
                    fmt::format("expected a value, got {}", Describe())};
    }
    const Token name = Next();
    if (name.text == "true" || name.text == "false") {
      ExpressionNode n;
      n.value = name.text == "true";
      return {Push(n), Type::kBool};
    }
    if (name.text == "event.version") {
      if (!event_bound_) {
        throw Failure{name.offset,
                      "event.version is read inside an aggregate over events"};
      }
      if (std::any_of(config_.events.begin(), config_.events.end(),
                      [](const Event& e) { return !e.version; })) {
        throw Failure{name.offset,
                      "event.version needs a version on every event"};
      }
      ExpressionNode n;
      n.op = Op::kEventVersion;
      return {Push(n), Type::kInt};
    }
    if (name.text == "old" && IsPunct("(")) {
      if (out_.kind != InvariantKind::kTransition) {
        throw Failure{name.offset,
                      "old(...) is only for kind = \"transition\", which "
                      "compares the state before a step with the state after"};
      }
      Next();
      Typed x = Expr();
      Expect(")", "to close 'old('");
      ExpressionNode n;
      n.op = Op::kOld;
      n.lhs = static_cast<std::int16_t>(x.first);
      return {Push(n), x.second};
    }
    if (IsPunct("(")) {
      static constexpr std::string_view kAggs[] = {"all", "any", "count", "sum",
                                                   "max"};
      if (std::find(std::begin(kAggs), std::end(kAggs), name.text) ==
          std::end(kAggs)) {
        std::string hint = DidYouMean(name.text, kAggs);
        if (hint.empty())
          hint = "; functions are all, any, count, sum, max, old";
        throw Failure{name.offset,
                      fmt::format("unknown function '{}'{}", name.text, hint)};
      }
      return Aggregate(name);
    }
    if (IsPunct("[")) return Cell(name);
    throw Failure{name.offset,
                  fmt::format("unknown name '{}'; an expression reads "
                              "outbox columns (published[event]), group "
                              "tables (GROUP.TABLE[event]) and aggregates "
                              "(all, any, count, sum, max)",
                              name.text)};
  }

  const Config& config_;
  InvariantExpression& out_;
  std::vector<std::string> group_names_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  bool event_bound_ = false;
  bool key_bound_ = false;
};

struct Env {
  const OutboxModel& model;
  const State* now;
  const State* before;
  int event;
  int key;
};

int Eval(const InvariantExpression& x, int node, Env env) {
  const ExpressionNode& n = x.nodes[static_cast<std::size_t>(node)];
  using Op = ExpressionNode::Op;
  switch (n.op) {
    case Op::kConst:
      return n.value;
    case Op::kCell: {
      const State& s = *env.now;
      const std::size_t events = env.model.config().events.size();
      const std::size_t g = static_cast<std::size_t>(n.group);
      if (IsKeyCell(n.field)) {
        const int k = n.index == 1 ? env.key : env.model.KeyOf(env.event);
        const GroupKeyCells& c =
            s.group_keys[g * static_cast<std::size_t>(env.model.KeyCount()) +
                         static_cast<std::size_t>(k)];
        return n.field == kVersion ? c.version : c.fresh;
      }
      const std::size_t e = static_cast<std::size_t>(env.event);
      switch (n.field) {
        case kPublished:
          return s.events[e].published;
        case kToken:
          return s.events[e].token;
        case kCompletedToken:
          return s.events[e].completed_token;
        case kOffered:
          return s.events[e].offered;
        default:
          break;
      }
      const GroupEventCells& c = s.group_events[g * events + e];
      switch (n.field) {
        case kReady:
          return c.ready;
        case kEffects:
          return c.effects;
        case kInbox:
          return c.inbox;
        case kLedger:
          return c.ledger;
        case kSent:
          return c.sent;
        default:
          return 0;
      }
    }
    case Op::kEventVersion:
      return *env.model.config()
                  .events[static_cast<std::size_t>(env.event)]
                  .version;
    case Op::kOld: {
      Env old = env;
      old.now = env.before;
      return Eval(x, n.lhs, old);
    }
    case Op::kNot:
      return Eval(x, n.lhs, env) == 0;
    case Op::kAnd:
      return Eval(x, n.lhs, env) != 0 && Eval(x, n.rhs, env) != 0;
    case Op::kOr:
      return Eval(x, n.lhs, env) != 0 || Eval(x, n.rhs, env) != 0;
    case Op::kAll:
    case Op::kAny:
    case Op::kCount:
    case Op::kSum:
    case Op::kMax: {
      const int size = n.field == 0
                           ? static_cast<int>(env.model.config().events.size())
                           : env.model.KeyCount();
      if (n.lhs < 0) return size;  // count(events)
      int acc = n.op == Op::kAll ? 1 : 0;
      for (int i = 0; i < size; ++i) {
        Env inner = env;
        (n.field == 0 ? inner.event : inner.key) = i;
        const int v = Eval(x, n.lhs, inner);
        switch (n.op) {
          case Op::kAll:
            if (v == 0) return 0;
            break;
          case Op::kAny:
            if (v != 0) return 1;
            break;
          case Op::kCount:
            acc += v != 0;
            break;
          case Op::kSum:
            acc += v;
            break;
          default:
            acc = i == 0 ? v : std::max(acc, v);
            break;
        }
      }
      return acc;
    }
    default:
      break;
  }
  const int l = Eval(x, n.lhs, env);
  const int r = Eval(x, n.rhs, env);
  switch (n.op) {
    case Op::kAdd:
      return l + r;
    case Op::kSub:
      return l - r;
    case Op::kMul:
      return l * r;
    case Op::kEq:
      return l == r;
    case Op::kNe:
      return l != r;
    case Op::kLt:
      return l < r;
    case Op::kLe:
      return l <= r;
    case Op::kGt:
      return l > r;
    case Op::kGe:
      return l >= r;
    default:
      return 0;
  }
}

}  // namespace

bool InvariantExpression::Holds(const OutboxModel& model,
                                const State& s) const {
  return Eval(*this, root, Env{model, &s, &s, -1, -1}) != 0;
}

bool InvariantExpression::HoldsOn(const OutboxModel& model, const State& before,
                                  const State& after) const {
  return Eval(*this, root, Env{model, &after, &before, -1, -1}) != 0;
}

bool CompileInvariantExpression(const Config& config, InvariantExpression& out,
                                ExpressionError& error) {
  out.nodes.clear();
  try {
    Parser(config, out).Parse();
  } catch (const Failure& f) {
    error = ExpressionError{f.offset, f.message};
    return false;
  }
  return true;
}

}  // namespace oc
