#include "model/expression.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

namespace oc {

std::vector<ExprToken> LexExpression(std::string_view s) {
  std::vector<ExprToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#') break;  // a comment runs to the end
    ExprToken t;
    t.offset = static_cast<int>(i);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) ||
                              s[j] == '_' || s[j] == '.')) {
        ++j;
      }
      t.kind = ExprToken::Kind::kName;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        ++j;
      }
      t.kind = ExprToken::Kind::kNumber;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = s.find(c, i + 1);
      if (end == std::string_view::npos) {
        throw ExprFailure{t.offset, "a string is not closed"};
      }
      t.kind = ExprToken::Kind::kString;
      t.text = std::string(s.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      static constexpr std::string_view kTwo[] = {
          "==", "!=", "<=", ">=", "+=", "-="};
      t.kind = ExprToken::Kind::kPunct;
      const std::string_view two = s.substr(i, 2);
      if (std::find(std::begin(kTwo), std::end(kTwo), two) != std::end(kTwo)) {
        t.text = std::string(two);
        i += 2;
      } else if (std::string_view("[](),:=<>+-*").find(c) !=
                 std::string_view::npos) {
        t.text = std::string(1, c);
        ++i;
      } else {
        throw ExprFailure{
            t.offset,
            fmt::format("unexpected character '{}'; expressions use names, "
                        "numbers, quoted strings and [ ] ( ) , : = == != < "
                        "<= > >= + - * += -=",
                        c)};
      }
    }
    out.push_back(std::move(t));
  }
  ExprToken end;
  end.offset = static_cast<int>(s.size());
  out.push_back(end);
  return out;
}

std::string_view TypeWord(ExprType t) {
  switch (t.kind) {
    case ExprType::Kind::kInt:
      return "an integer";
    case ExprType::Kind::kBool:
      return "a boolean";
    case ExprType::Kind::kText:
      return "a string";
  }
  return "";
}

std::string ExpressionParser::Describe() const {
  switch (Peek().kind) {
    case ExprToken::Kind::kEnd:
      return end_word_;
    case ExprToken::Kind::kString:
      return fmt::format("the string \"{}\"", Peek().text);
    default:
      return fmt::format("'{}'", Peek().text);
  }
}

void ExpressionParser::Expect(std::string_view punct, std::string_view where) {
  if (!IsPunct(punct)) {
    throw ExprFailure{Peek().offset, fmt::format("expected '{}' {}, got {}",
                                                 punct, where, Describe())};
  }
  Next();
}

int ExpressionParser::Push(const ExprNode& n) {
  nodes_.push_back(n);
  return static_cast<int>(nodes_.size()) - 1;
}

int ExpressionParser::Constant(int value) {
  ExprNode n;
  n.value = value;
  return Push(n);
}

ExpressionParser::Typed ExpressionParser::Binary(ExprOp op, Typed l, Typed r,
                                                 ExprType operands,
                                                 ExprType result,
                                                 std::string_view word,
                                                 int offset) {
  if (!(l.second == operands) || !(r.second == operands)) {
    const bool left = !(l.second == operands);
    std::string wanted;
    switch (operands.kind) {
      case ExprType::Kind::kInt:
        wanted = "integers";
        break;
      case ExprType::Kind::kBool:
        wanted = "booleans";
        break;
      case ExprType::Kind::kText:
        wanted = "values of one attribute";
        break;
    }
    throw ExprFailure{
        offset, fmt::format("'{}' needs {} on both sides; its {} side is {}",
                            word, wanted, left ? "left" : "right",
                            TypeWord(left ? l.second : r.second))};
  }
  ExprNode n;
  n.op = op;
  n.lhs = static_cast<std::int16_t>(l.first);
  n.rhs = static_cast<std::int16_t>(r.first);
  return {Push(n), result};
}

ExpressionParser::Typed ExpressionParser::Expr() {
  Typed l = And();
  while (IsName("or")) {
    const int at = Next().offset;
    l = Binary(ExprOp::kOr, l, And(), ExprType::Bool(), ExprType::Bool(), "or",
               at);
  }
  return l;
}

ExpressionParser::Typed ExpressionParser::And() {
  Typed l = Not();
  while (IsName("and")) {
    const int at = Next().offset;
    l = Binary(ExprOp::kAnd, l, Not(), ExprType::Bool(), ExprType::Bool(),
               "and", at);
  }
  return l;
}

ExpressionParser::Typed ExpressionParser::Not() {
  if (IsName("not")) {
    const int at = Next().offset;
    Typed x = Not();
    if (!(x.second == ExprType::Bool())) {
      throw ExprFailure{
          at, fmt::format("'not' needs a boolean, got {}", TypeWord(x.second))};
    }
    ExprNode n;
    n.op = ExprOp::kNot;
    n.lhs = static_cast<std::int16_t>(x.first);
    return {Push(n), ExprType::Bool()};
  }
  return Compare();
}

ExpressionParser::Typed ExpressionParser::Compare() {
  Typed l = Sum();
  static constexpr std::pair<std::string_view, ExprOp> kOps[] = {
      {"==", ExprOp::kEq}, {"!=", ExprOp::kNe}, {"<", ExprOp::kLt},
      {"<=", ExprOp::kLe}, {">", ExprOp::kGt},  {">=", ExprOp::kGe}};
  for (const auto& [text, op] : kOps) {
    if (!IsPunct(text)) continue;
    const int at = Next().offset;
    Typed r = Sum();
    if (op == ExprOp::kEq || op == ExprOp::kNe) UnifyText(l, r);
    if ((op == ExprOp::kEq || op == ExprOp::kNe) && l.second == r.second) {
      return Binary(op, l, r, l.second, ExprType::Bool(), text, at);
    }
    if ((op == ExprOp::kEq || op == ExprOp::kNe) &&
        l.second.kind == ExprType::Kind::kText &&
        r.second.kind == ExprType::Kind::kText) {
      throw ExprFailure{at, fmt::format("'{}' compares values of one "
                                        "attribute; these are values of two",
                                        text)};
    }
    return Binary(op, l, r, ExprType::Int(), ExprType::Bool(), text, at);
  }
  return l;
}

ExpressionParser::Typed ExpressionParser::Sum() {
  Typed l = Term();
  while (IsPunct("+") || IsPunct("-")) {
    const bool add = Peek().text == "+";
    const int at = Next().offset;
    l = Binary(add ? ExprOp::kAdd : ExprOp::kSub, l, Term(), ExprType::Int(),
               ExprType::Int(), add ? "+" : "-", at);
  }
  return l;
}

ExpressionParser::Typed ExpressionParser::Term() {
  Typed l = Unary();
  while (IsPunct("*")) {
    const int at = Next().offset;
    l = Binary(ExprOp::kMul, l, Unary(), ExprType::Int(), ExprType::Int(), "*",
               at);
  }
  return l;
}

ExpressionParser::Typed ExpressionParser::Unary() {
  if (!IsPunct("-")) return Atom();
  const int at = Next().offset;
  Typed x = Unary();
  if (!(x.second == ExprType::Int())) {
    throw ExprFailure{
        at, fmt::format("'-' needs an integer, got {}", TypeWord(x.second))};
  }
  ExprNode n;
  n.op = ExprOp::kNeg;
  n.lhs = static_cast<std::int16_t>(x.first);
  return {Push(n), ExprType::Int()};
}

ExpressionParser::Typed ExpressionParser::Atom() {
  const ExprToken& t = Peek();
  if (t.kind == ExprToken::Kind::kNumber) {
    Next();
    int v = 0;
    auto [ptr, ec] =
        std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || v > 1'000'000) {
      throw ExprFailure{t.offset, "a number is at most 1000000"};
    }
    return {Constant(v), ExprType::Int()};
  }
  if (IsPunct("(")) {
    Next();
    Typed x = Expr();
    Expect(")", "to close '('");
    return x;
  }
  if (t.kind == ExprToken::Kind::kName &&
      (t.text == "true" || t.text == "false")) {
    Next();
    return {Constant(t.text == "true" ? 1 : 0), ExprType::Bool()};
  }
  if (t.kind == ExprToken::Kind::kString) {
    const ExprToken literal = Next();
    return Name(literal);
  }
  if (t.kind != ExprToken::Kind::kName) {
    throw ExprFailure{t.offset,
                      fmt::format("expected a value, got {}", Describe())};
  }
  static constexpr std::string_view kAggregates[] = {"all", "any", "count",
                                                     "sum", "max"};
  const ExprToken name = Next();
  if (IsPunct("(") && std::find(std::begin(kAggregates), std::end(kAggregates),
                                name.text) != std::end(kAggregates)) {
    return Aggregate(name);
  }
  return Name(name);
}

ExpressionParser::Typed ExpressionParser::Aggregate(const ExprToken& name) {
  static constexpr std::pair<std::string_view, ExprAggregate> kAggs[] = {
      {"all", ExprAggregate::kAll},
      {"any", ExprAggregate::kAny},
      {"count", ExprAggregate::kCount},
      {"sum", ExprAggregate::kSum},
      {"max", ExprAggregate::kMax}};
  ExprAggregate agg = ExprAggregate::kAll;
  for (const auto& [text, a] : kAggs) {
    if (text == name.text) agg = a;
  }
  Expect("(", fmt::format("after '{}'", name.text));
  const ExprToken domain_token = Peek();
  std::optional<ExprDomain> domain;
  if (domain_token.kind == ExprToken::Kind::kName) {
    domain = Domain(domain_token.text);
  }
  if (!domain) {
    const std::string words = DomainWords();
    throw ExprFailure{domain_token.offset,
                      words.empty()
                          ? fmt::format("'{}' cannot be used here", name.text)
                          : fmt::format("'{}' ranges over {}, got {}",
                                        name.text, words, Describe())};
  }
  Next();
  if (Bound(domain->variable) != nullptr) {
    throw ExprFailure{domain_token.offset,
                      fmt::format("'{}' is already bound by an enclosing "
                                  "aggregate; nest different domains, not "
                                  "the same domain twice",
                                  domain->variable)};
  }
  ExprNode n;
  n.op = ExprOp::kAggregate;
  n.a = static_cast<std::uint8_t>(domain->id);
  n.b = static_cast<std::uint8_t>(agg);
  bound_.push_back(*domain);
  if (IsName("where")) {
    Next();
    const int at = Peek().offset;
    Typed filter = Expr();
    if (!(filter.second == ExprType::Bool())) {
      throw ExprFailure{at, fmt::format("'where' needs a boolean, got {}",
                                        TypeWord(filter.second))};
    }
    n.rhs = static_cast<std::int16_t>(filter.first);
  }
  const bool wants_bool = agg == ExprAggregate::kAll ||
                          agg == ExprAggregate::kAny ||
                          agg == ExprAggregate::kCount;
  if (agg == ExprAggregate::kCount && IsPunct(")")) {
    Next();  // count(events [where ...]): how many members
    bound_.pop_back();
    return {Push(n), ExprType::Int()};
  }
  Expect(",", fmt::format("after '{}({}'", name.text, domain_token.text));
  const int at = Peek().offset;
  Typed body = Expr();
  bound_.pop_back();
  const ExprType wanted = wants_bool ? ExprType::Bool() : ExprType::Int();
  if (!(body.second == wanted)) {
    throw ExprFailure{at, fmt::format("'{}' needs {} for each {}, got {}",
                                      name.text, TypeWord(wanted),
                                      domain->variable, TypeWord(body.second))};
  }
  Expect(")", fmt::format("to close '{}('", name.text));
  n.lhs = static_cast<std::int16_t>(body.first);
  return {Push(n), wants_bool && agg != ExprAggregate::kCount
                       ? ExprType::Bool()
                       : ExprType::Int()};
}

}  // namespace oc
