// The handler language: a lexer, a recursive-descent parser that type-checks
// as it goes, and the interpreter of the compiled form. The grammar is in
// scenarios/strategies/LANGUAGE.md.

#include "model/handler_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "model/closest_name.h"
#include "model/config.h"
#include "model/state.h"

namespace oc {
namespace {

constexpr std::string_view kTableNames[] = {"effects", "inbox",   "ledger",
                                            "sent",    "version", "cache"};

bool IsRowTable(HandlerTable t) {
  return t == HandlerTable::kInbox || t == HandlerTable::kLedger ||
         t == HandlerTable::kCache;
}
bool IsCountTable(HandlerTable t) {
  return t == HandlerTable::kEffects || t == HandlerTable::kSent;
}
bool IsKeyTable(HandlerTable t) {
  return t == HandlerTable::kVersion || t == HandlerTable::kCache;
}
StrategyFamily FamilyOfTable(HandlerTable t) {
  switch (t) {
    case HandlerTable::kEffects:
    case HandlerTable::kInbox:
      return StrategyFamily::kCredit;
    case HandlerTable::kLedger:
    case HandlerTable::kSent:
      return StrategyFamily::kNotification;
    case HandlerTable::kVersion:
      return StrategyFamily::kProjection;
    case HandlerTable::kCache:
      return StrategyFamily::kCache;
  }
  return StrategyFamily::kCredit;
}
std::string_view FamilyWord(StrategyFamily f) {
  switch (f) {
    case StrategyFamily::kCredit:
      return "credit";
    case StrategyFamily::kNotification:
      return "notification";
    case StrategyFamily::kProjection:
      return "projection";
    case StrategyFamily::kCache:
      return "cache";
  }
  return "";
}

enum class Type : std::uint8_t { kInt, kBool };
std::string_view TypeWord(Type t) {
  return t == Type::kInt ? "an integer" : "a boolean";
}

struct Token {
  enum class Kind : std::uint8_t { kName, kNumber, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  int offset = 0;  // in the statement's text
};

// Thrown inside this file only and caught by CompileHandler, which returns
// it as a value: the first failure in a statement stops compilation, and a
// throw saves threading a status through every level of the descent.
struct CompileFailure {
  int offset;
  std::string message;
};

std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (c == '#') break;  // a comment runs to the end of the statement
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
    } else {
      static constexpr std::string_view kTwo[] = {"==", "!=", "<=", ">=", "+="};
      t.kind = Token::Kind::kPunct;
      std::string_view two = s.substr(i, 2);
      if (std::find(std::begin(kTwo), std::end(kTwo), two) != std::end(kTwo)) {
        t.text = std::string(two);
        i += 2;
      } else if (std::string_view("[]():=<>+-*").find(c) !=
                 std::string_view::npos) {
        t.text = std::string(1, c);
        ++i;
      } else {
        throw CompileFailure{
            t.offset, fmt::format("unexpected character '{}'; statements use "
                                  "names, numbers and [ ] ( ) : = == != < <= "
                                  "> >= + - * +=",
                                  c)};
      }
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.offset = static_cast<int>(s.size());
  out.push_back(end);
  return out;
}

class Compiler {
 public:
  Compiler(HandlerProgram& p) : p_(p) {}

  // Compiles one statement of step `step` into p_.steps[step].
  void Statement(std::string_view text, int step) {
    tokens_ = Lex(text);
    pos_ = 0;
    step_ = step;
    if (Peek().kind == Token::Kind::kEnd) {
      throw CompileFailure{0,
                           "empty statement; write one statement per string"};
    }
    HandlerStatement st;
    if (IsName("if")) {
      Next();
      const int at = Peek().offset;
      auto [node, type] = Expr();
      if (type != Type::kBool) {
        throw CompileFailure{
            at,
            fmt::format("a guard must be a boolean, got {}; compare it, e.g. "
                        "'if effects[event] == 0:'",
                        TypeWord(type))};
      }
      st.guard = static_cast<std::int16_t>(node);
      Expect(":", "after the guard of 'if'");
    }
    Action(st);
    if (Peek().kind != Token::Kind::kEnd) {
      throw CompileFailure{Peek().offset,
                           fmt::format("unexpected '{}' after the statement; "
                                       "write one statement per string",
                                       Peek().text)};
    }
    p_.steps[static_cast<std::size_t>(step)].push_back(st);
  }

  bool HasFamily() const { return family_.has_value(); }

  // Locals of step 1 read by step 2 keep a memo bit.
  void AssignMemoBits() {
    p_.memo_bit.assign(p_.locals.size(), -1);
    for (std::size_t l = 0; l < p_.locals.size(); ++l) {
      if (read_in_step2_.size() > l && read_in_step2_[l] && set_in_step1_[l]) {
        p_.memo_bit[l] = static_cast<std::int8_t>(p_.memo_bits++);
      }
    }
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() { return tokens_[pos_++]; }
  bool IsName(std::string_view s) const {
    return Peek().kind == Token::Kind::kName && Peek().text == s;
  }
  bool IsPunct(std::string_view s) const {
    return Peek().kind == Token::Kind::kPunct && Peek().text == s;
  }
  void Expect(std::string_view punct, std::string_view where) {
    if (!IsPunct(punct)) {
      throw CompileFailure{
          Peek().offset,
          fmt::format("expected '{}' {}, got {}", punct, where, Describe())};
    }
    Next();
  }
  std::string Describe() const {
    return Peek().kind == Token::Kind::kEnd
               ? std::string("the end of the statement")
               : fmt::format("'{}'", Peek().text);
  }

  std::optional<HandlerTable> FindTable(std::string_view name) const {
    for (int t = 0; t < kHandlerTables; ++t) {
      if (kTableNames[t] == name) return static_cast<HandlerTable>(t);
    }
    return std::nullopt;
  }

  // TABLE '[' event|key ']' at the current token; records the family.
  HandlerTable Target() {
    const Token& name = Next();
    const std::optional<HandlerTable> t = FindTable(name.text);
    if (!t) {
      std::string hint = DidYouMean(name.text, kTableNames);
      if (hint.empty()) {
        hint = fmt::format("; tables are {}", fmt::join(kTableNames, ", "));
      }
      throw CompileFailure{
          name.offset, fmt::format("unknown table '{}'{}", name.text, hint)};
    }
    UseFamily(*t, name.offset);
    Expect("[", fmt::format("after table '{}'", name.text));
    const std::string_view index = IsKeyTable(*t) ? "key" : "event";
    if (!IsName(index)) {
      throw CompileFailure{
          Peek().offset,
          fmt::format("table '{}' is indexed by the event's {}; write {}[{}]",
                      name.text, index == "key" ? "key" : "identity", name.text,
                      index)};
    }
    Next();
    Expect("]", fmt::format("after {}[{}", name.text, index));
    if (IsKeyTable(*t)) p_.uses_key = true;
    if (*t == HandlerTable::kInbox) p_.uses_inbox = true;
    return *t;
  }

  void UseFamily(HandlerTable t, int offset) {
    const StrategyFamily f = FamilyOfTable(t);
    if (!family_) {
      family_ = f;
      p_.family = static_cast<std::uint8_t>(f);
      family_table_ = t;
      return;
    }
    if (*family_ != f) {
      throw CompileFailure{
          offset,
          fmt::format("table '{}' belongs to {} handlers, but this handler "
                      "already uses '{}', a {} table; a handler works on the "
                      "tables of one kind (credit: effects, inbox; "
                      "notification: ledger, sent; projection: version; "
                      "cache: cache)",
                      HandlerTableName(t), FamilyWord(f),
                      HandlerTableName(family_table_), FamilyWord(*family_))};
    }
  }

  int Local(std::string_view name) {
    auto it = std::find(p_.locals.begin(), p_.locals.end(), name);
    if (it != p_.locals.end()) return static_cast<int>(it - p_.locals.begin());
    p_.locals.emplace_back(name);
    set_in_step1_.push_back(false);
    read_in_step2_.push_back(false);
    set_before_.push_back(false);
    return static_cast<int>(p_.locals.size()) - 1;
  }

  void Action(HandlerStatement& st) {
    const Token& first = Peek();
    if (first.kind != Token::Kind::kName) {
      throw CompileFailure{
          first.offset,
          fmt::format("expected a statement (insert, call, stop, a local or "
                      "a table), got {}",
                      Describe())};
    }
    if (first.text == "stop") {
      Next();
      st.kind = HandlerStatement::Kind::kStop;
      return;
    }
    if (first.text == "call") {
      // An outside-world call: `call sent[event]` is received every time;
      // with `with_key`, the provider deduplicates on the event's
      // idempotency key, so it records at most one call per event.
      Next();
      RequireTableName("call");
      const int at = Peek().offset;
      st.table = Target();
      if (st.table != HandlerTable::kSent) {
        throw CompileFailure{
            at, fmt::format("'call' records a call in the outside world's "
                            "record, sent[event]; '{}' is a table of the "
                            "group",
                            HandlerTableName(st.table))};
      }
      p_.writes[static_cast<std::size_t>(st.table)] = true;
      p_.adds[static_cast<std::size_t>(st.table)] += 1;
      st.value = Constant(1, at);
      st.kind = HandlerStatement::Kind::kAdd;
      if (IsName("with_key")) {
        Next();
        st.kind = HandlerStatement::Kind::kCallOnce;
      }
      return;
    }
    if (first.text == "insert") {
      Next();
      RequireTableName("insert");
      st.kind = HandlerStatement::Kind::kInsert;
      const int at = Peek().offset;
      st.table = Target();
      RequireRow(st.table, at, "insert");
      p_.writes[static_cast<std::size_t>(st.table)] = true;
      return;
    }
    const bool table_target = tokens_[pos_ + 1].kind == Token::Kind::kPunct &&
                              tokens_[pos_ + 1].text == "[";
    if (table_target) {
      const int at = first.offset;
      st.table = Target();
      p_.writes[static_cast<std::size_t>(st.table)] = true;
      if (IsPunct("+=")) {
        Next();
        if (!IsCountTable(st.table)) {
          throw CompileFailure{
              at,
              fmt::format("'+=' adds to a count table (effects, sent); "
                          "'{}' is not one{}",
                          HandlerTableName(st.table),
                          IsRowTable(st.table)
                              ? fmt::format(": use 'insert {}[...]'",
                                            HandlerTableName(st.table))
                              : std::string("")),
          };
        }
        const Token& n = Peek();
        int amount = 0;
        if (n.kind == Token::Kind::kNumber) {
          std::from_chars(n.text.data(), n.text.data() + n.text.size(), amount);
        }
        if (n.kind != Token::Kind::kNumber || amount < 1 || amount > 15) {
          throw CompileFailure{
              n.offset, fmt::format("'+=' adds a constant from 1 to 15, got {}",
                                    Describe())};
        }
        Next();
        st.kind = HandlerStatement::Kind::kAdd;
        st.value = Constant(amount, n.offset);
        p_.adds[static_cast<std::size_t>(st.table)] += amount;
        return;
      }
      bool max = false;
      if (IsName("max")) {
        Next();
        max = true;
      }
      if (!IsPunct("=")) {
        throw CompileFailure{
            Peek().offset,
            fmt::format("expected '+=', '=' or 'max =' after the table, got {}",
                        Describe())};
      }
      Next();
      if (st.table != HandlerTable::kVersion) {
        throw CompileFailure{
            at,
            fmt::format("'{}' cannot be set; only version[key] is set (with "
                        "'=' or 'max ='); {}",
                        HandlerTableName(st.table),
                        IsRowTable(st.table) ? "rows are written with 'insert'"
                                             : "counts grow with '+='")};
      }
      st.kind =
          max ? HandlerStatement::Kind::kSetMax : HandlerStatement::Kind::kSet;
      const Token& v = Peek();
      if (v.kind == Token::Kind::kName && v.text == "event.version") {
        Next();
        p_.reads_version = true;
        HandlerNode node;
        node.op = HandlerNode::Op::kEventVersion;
        st.value = Push(node, v.offset);
      } else if (v.kind == Token::Kind::kNumber) {
        Next();
        int n = -1;
        std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
        if (n < 0 || n > 65535) {
          throw CompileFailure{v.offset,
                               "a version is a number from 0 to 65535"};
        }
        st.value = Constant(n, v.offset);
        p_.max_constant = std::max(p_.max_constant, n);
      } else {
        throw CompileFailure{
            v.offset,
            fmt::format("version[key] is set to event.version or a constant, "
                        "got {}",
                        Describe())};
      }
      return;
    }
    // LOCAL = insert TABLE[...] | LOCAL = EXPR
    Next();
    if (first.text == "if" || first.text == "not" || first.text == "and" ||
        first.text == "or" || first.text == "true" || first.text == "false" ||
        first.text == "event" || first.text == "key" ||
        first.text.find('.') != std::string::npos) {
      throw CompileFailure{
          first.offset,
          fmt::format("'{}' cannot be a local's name", first.text)};
    }
    if (FindTable(first.text)) {
      throw CompileFailure{
          first.offset,
          fmt::format("'{}' is a table; write {}[{}]", first.text, first.text,
                      IsKeyTable(*FindTable(first.text)) ? "key" : "event")};
    }
    if (!IsPunct("=")) {
      std::string hint = DidYouMean(first.text, kTableNames);
      throw CompileFailure{
          Peek().offset,
          hint.empty() ? fmt::format("expected '=' after local '{}', got {}",
                                     first.text, Describe())
                       : fmt::format("expected '=' after local '{}', got {}{}",
                                     first.text, Describe(), hint)};
    }
    Next();
    const int local = Local(first.text);
    st.local = static_cast<std::int8_t>(local);
    if (p_.locals.size() > 8) {
      throw CompileFailure{first.offset,
                           "too many locals; a handler has at most 8"};
    }
    if (IsName("insert")) {
      Next();
      RequireTableName("insert");
      st.kind = HandlerStatement::Kind::kInsert;
      const int at = Peek().offset;
      st.table = Target();
      RequireRow(st.table, at, "insert");
      p_.writes[static_cast<std::size_t>(st.table)] = true;
    } else {
      const int at = Peek().offset;
      auto [node, type] = Expr();
      if (type != Type::kBool) {
        throw CompileFailure{
            at, fmt::format("local '{}' must be a boolean, got {}; locals "
                            "hold yes/no facts such as 'seen = inbox[event]'",
                            first.text, TypeWord(type))};
      }
      st.kind = HandlerStatement::Kind::kSetLocal;
      st.value = static_cast<std::int16_t>(node);
    }
    set_before_[static_cast<std::size_t>(local)] = true;
    if (step_ == 0) set_in_step1_[static_cast<std::size_t>(local)] = true;
  }

  void RequireTableName(std::string_view after) {
    if (Peek().kind != Token::Kind::kName) {
      throw CompileFailure{Peek().offset,
                           fmt::format("expected a table after '{}', got {}",
                                       after, Describe())};
    }
  }
  void RequireRow(HandlerTable t, int at, std::string_view what) {
    if (!IsRowTable(t)) {
      throw CompileFailure{
          at, fmt::format("'{}' applies to row tables (inbox, ledger, cache); "
                          "'{}' is not one",
                          what, HandlerTableName(t))};
    }
  }

  std::int16_t Push(const HandlerNode& n, int offset) {
    p_.nodes.push_back(n);
    offset_of_.push_back(offset);
    return static_cast<std::int16_t>(p_.nodes.size() - 1);
  }
  std::int16_t Constant(int v, int offset) {
    HandlerNode n;
    n.op = HandlerNode::Op::kConst;
    n.value = v;
    return Push(n, offset);
  }

  using Typed = std::pair<int, Type>;

  Typed Binary(HandlerNode::Op op, Typed l, Typed r, Type operands, Type result,
               std::string_view word, int offset) {
    if (l.second != operands || r.second != operands) {
      const bool left = l.second != operands;
      throw CompileFailure{
          offset,
          fmt::format("'{}' needs {} on both sides; its {} side is {}", word,
                      operands == Type::kInt ? "integers" : "booleans",
                      left ? "left" : "right",
                      TypeWord(left ? l.second : r.second))};
    }
    HandlerNode n;
    n.op = op;
    n.lhs = static_cast<std::int16_t>(l.first);
    n.rhs = static_cast<std::int16_t>(r.first);
    return {Push(n, offset), result};
  }

  Typed Expr() {
    Typed l = And();
    while (IsName("or")) {
      const int at = Next().offset;
      l = Binary(HandlerNode::Op::kOr, l, And(), Type::kBool, Type::kBool, "or",
                 at);
    }
    return l;
  }
  Typed And() {
    Typed l = Not();
    while (IsName("and")) {
      const int at = Next().offset;
      l = Binary(HandlerNode::Op::kAnd, l, Not(), Type::kBool, Type::kBool,
                 "and", at);
    }
    return l;
  }
  Typed Not() {
    if (IsName("not")) {
      const int at = Next().offset;
      Typed x = Not();
      if (x.second != Type::kBool) {
        throw CompileFailure{at, fmt::format("'not' needs a boolean, got {}",
                                             TypeWord(x.second))};
      }
      HandlerNode n;
      n.op = HandlerNode::Op::kNot;
      n.lhs = static_cast<std::int16_t>(x.first);
      return {Push(n, at), Type::kBool};
    }
    return Compare();
  }
  Typed Compare() {
    Typed l = Sum();
    static constexpr std::pair<std::string_view, HandlerNode::Op> kOps[] = {
        {"==", HandlerNode::Op::kEq}, {"!=", HandlerNode::Op::kNe},
        {"<", HandlerNode::Op::kLt},  {"<=", HandlerNode::Op::kLe},
        {">", HandlerNode::Op::kGt},  {">=", HandlerNode::Op::kGe}};
    for (const auto& [text, op] : kOps) {
      if (IsPunct(text)) {
        const int at = Next().offset;
        Typed r = Sum();
        if ((op == HandlerNode::Op::kEq || op == HandlerNode::Op::kNe) &&
            l.second == r.second) {
          return Binary(op, l, r, l.second, Type::kBool, text, at);
        }
        return Binary(op, l, r, Type::kInt, Type::kBool, text, at);
      }
    }
    return l;
  }
  Typed Sum() {
    Typed l = Term();
    while (IsPunct("+") || IsPunct("-")) {
      const bool add = Peek().text == "+";
      const int at = Next().offset;
      l = Binary(add ? HandlerNode::Op::kAdd : HandlerNode::Op::kSub, l, Term(),
                 Type::kInt, Type::kInt, add ? "+" : "-", at);
    }
    return l;
  }
  Typed Term() {
    Typed l = Atom();
    while (IsPunct("*")) {
      const int at = Next().offset;
      l = Binary(HandlerNode::Op::kMul, l, Atom(), Type::kInt, Type::kInt, "*",
                 at);
    }
    return l;
  }
  Typed Atom() {
    const Token& t = Peek();
    if (t.kind == Token::Kind::kNumber) {
      Next();
      int v = -1;
      auto [ptr, ec] =
          std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
      if (ec != std::errc() || v > 65535) {
        throw CompileFailure{t.offset, "a number is at most 65535"};
      }
      return {Constant(v, t.offset), Type::kInt};
    }
    if (IsPunct("(")) {
      Next();
      Typed x = Expr();
      Expect(")", "to close '('");
      return x;
    }
    if (t.kind != Token::Kind::kName) {
      throw CompileFailure{t.offset,
                           fmt::format("expected a value, got {}", Describe())};
    }
    if (t.text == "true" || t.text == "false") {
      Next();
      return {Constant(t.text == "true" ? 1 : 0, t.offset), Type::kBool};
    }
    if (t.text == "event.version") {
      Next();
      p_.reads_version = true;
      HandlerNode n;
      n.op = HandlerNode::Op::kEventVersion;
      return {Push(n, t.offset), Type::kInt};
    }
    if (t.text.rfind("event.", 0) == 0) {
      throw CompileFailure{
          t.offset,
          fmt::format("unknown event field '{}'; a handler reads "
                      "event.version (tables are indexed by event and key)",
                      t.text.substr(6))};
    }
    if (tokens_[pos_ + 1].kind == Token::Kind::kPunct &&
        tokens_[pos_ + 1].text == "[") {
      HandlerNode n;
      n.op = HandlerNode::Op::kRead;
      n.table = Target();
      return {Push(n, t.offset),
              IsRowTable(n.table) || n.table == HandlerTable::kCache
                  ? Type::kBool
                  : Type::kInt};
    }
    Next();
    auto it = std::find(p_.locals.begin(), p_.locals.end(), t.text);
    const bool known =
        it != p_.locals.end() &&
        set_before_[static_cast<std::size_t>(it - p_.locals.begin())];
    if (!known) {
      std::vector<std::string_view> names;
      for (std::size_t l = 0; l < p_.locals.size(); ++l) {
        if (set_before_[l]) names.push_back(p_.locals[l]);
      }
      std::string hint = DidYouMean(t.text, names);
      if (FindTable(t.text)) {
        hint = fmt::format("; '{}' is a table: write {}[{}]", t.text, t.text,
                           IsKeyTable(*FindTable(t.text)) ? "key" : "event");
      } else if (hint.empty()) {
        hint = DidYouMean(t.text, kTableNames);
      }
      throw CompileFailure{
          t.offset,
          fmt::format("local '{}' is read, but no earlier statement sets it; "
                      "set it first (in this step or in step 1){}",
                      t.text, hint)};
    }
    const int local = static_cast<int>(it - p_.locals.begin());
    if (step_ == 1) read_in_step2_[static_cast<std::size_t>(local)] = true;
    HandlerNode n;
    n.op = HandlerNode::Op::kLocal;
    n.value = local;
    return {Push(n, t.offset), Type::kBool};
  }

  HandlerProgram& p_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int step_ = 0;
  std::vector<int> offset_of_;  // per node, where it was written
  std::vector<bool> set_in_step1_, read_in_step2_, set_before_;
  std::optional<StrategyFamily> family_;
  HandlerTable family_table_ = HandlerTable::kEffects;
};

int Eval(const HandlerProgram& p, int node, const HandlerCells& c,
         const std::uint8_t* locals);

int Read(HandlerTable t, const HandlerCells& c) {
  switch (t) {
    case HandlerTable::kEffects:
      return c.event_cells->effects;
    case HandlerTable::kInbox:
      return c.event_cells->inbox;
    case HandlerTable::kLedger:
      return c.event_cells->ledger;
    case HandlerTable::kSent:
      return c.event_cells->sent;
    case HandlerTable::kVersion:
      return c.key_cells->version;
    case HandlerTable::kCache:
      return c.key_cells->fresh;
  }
  return 0;
}

int Eval(const HandlerProgram& p, int node, const HandlerCells& c,
         const std::uint8_t* locals) {
  const HandlerNode& n = p.nodes[static_cast<std::size_t>(node)];
  using Op = HandlerNode::Op;
  switch (n.op) {
    case Op::kConst:
      return n.value;
    case Op::kLocal:
      return locals[n.value];
    case Op::kRead:
      return Read(n.table, c);
    case Op::kEventVersion:
      return c.version;
    case Op::kNot:
      return Eval(p, n.lhs, c, locals) == 0 ? 1 : 0;
    case Op::kAnd:
      return Eval(p, n.lhs, c, locals) != 0 && Eval(p, n.rhs, c, locals) != 0;
    case Op::kOr:
      return Eval(p, n.lhs, c, locals) != 0 || Eval(p, n.rhs, c, locals) != 0;
    default:
      break;
  }
  const int l = Eval(p, n.lhs, c, locals);
  const int r = Eval(p, n.rhs, c, locals);
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

std::string_view HandlerTableName(HandlerTable t) {
  return kTableNames[static_cast<int>(t)];
}

void RunHandlerStep(const HandlerProgram& p, int step, const HandlerCells& c) {
  std::uint8_t locals[8] = {};
  for (std::size_t l = 0; l < p.memo_bit.size(); ++l) {
    if (p.memo_bit[l] >= 0) locals[l] = (*c.memo >> p.memo_bit[l]) & 1;
  }
  for (const HandlerStatement& st : p.steps[static_cast<std::size_t>(step)]) {
    if (st.guard >= 0 && Eval(p, st.guard, c, locals) == 0) continue;
    using Kind = HandlerStatement::Kind;
    switch (st.kind) {
      case Kind::kStop:
        goto done;
      case Kind::kInsert: {
        std::uint8_t& row =
            st.table == HandlerTable::kInbox    ? c.event_cells->inbox
            : st.table == HandlerTable::kLedger ? c.event_cells->ledger
                                                : c.key_cells->fresh;
        const bool inserted = row == 0;
        row = 1;
        if (st.local >= 0) locals[st.local] = inserted ? 1 : 0;
        break;
      }
      case Kind::kSetLocal:
        locals[st.local] = Eval(p, st.value, c, locals) != 0 ? 1 : 0;
        break;
      case Kind::kAdd: {
        const int v = p.nodes[static_cast<std::size_t>(st.value)].value;
        std::uint8_t& cell = st.table == HandlerTable::kEffects
                                 ? c.event_cells->effects
                                 : c.event_cells->sent;
        cell = static_cast<std::uint8_t>(cell + v);
        break;
      }
      case Kind::kCallOnce:
        if (c.event_cells->sent == 0) c.event_cells->sent = 1;
        break;
      case Kind::kSet:
      case Kind::kSetMax: {
        const int v = Eval(p, st.value, c, locals);
        std::uint16_t& cell = c.key_cells->version;
        if (st.kind == Kind::kSet || v > cell) {
          cell = static_cast<std::uint16_t>(v);
        }
        break;
      }
    }
  }
done:
  std::uint8_t memo = 0;
  if (!c.last_step) {
    for (std::size_t l = 0; l < p.memo_bit.size(); ++l) {
      if (p.memo_bit[l] >= 0) {
        memo = static_cast<std::uint8_t>(memo | (locals[l] << p.memo_bit[l]));
      }
    }
  }
  *c.memo = memo;
}

bool CompileHandler(const std::vector<std::vector<HandlerSource>>& steps,
                    HandlerProgram& out, HandlerError& error) {
  out.steps.assign(steps.size(), {});
  Compiler compiler(out);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    for (std::size_t i = 0; i < steps[s].size(); ++i) {
      const HandlerSource& src = steps[s][i];
      try {
        compiler.Statement(src.text, static_cast<int>(s));
      } catch (const CompileFailure& f) {
        error.step = static_cast<int>(s);
        error.statement = static_cast<int>(i);
        error.line = src.line;
        error.column = src.column + f.offset;
        error.message = f.message;
        return false;
      }
    }
  }
  if (!compiler.HasFamily()) {
    error = HandlerError{0, 0, steps[0].empty() ? 0 : steps[0][0].line,
                         steps[0].empty() ? 0 : steps[0][0].column,
                         "the handler names no table; a handler writes the "
                         "tables of one kind (credit: effects, inbox; "
                         "notification: ledger, sent; projection: version; "
                         "cache: cache)"};
    return false;
  }
  compiler.AssignMemoBits();
  return true;
}

}  // namespace oc
