#include "model/expression.h"

#include <fmt/format.h>

#include <cassert>
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

namespace {

// Exact bounds of one operation, in 128 bits.
using Wide = __int128;

std::string WideText(Wide v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

}  // namespace

ExpressionParser::Nest::Nest(ExpressionParser& p) : parser(p) {
  if (++parser.nesting_ > kMaxExpressionNesting) {
    --parser.nesting_;
    throw ExprFailure{
        parser.Peek().offset,
        fmt::format("nested more than {} levels deep (parentheses, 'not', "
                    "'-' and aggregates); split the expression",
                    kMaxExpressionNesting)};
  }
}

int ExpressionParser::Push(const ExprNode& n, int offset) {
  const auto range = [&](int child) {
    return child < 0 ? ExprRange{} : ranges_[static_cast<std::size_t>(child)];
  };
  const ExprRange l = range(n.lhs);
  const ExprRange r = range(n.rhs);
  Wide lo = 0;
  Wide hi = 1;  // comparisons, connectives, booleans
  std::string_view word;
  switch (n.op) {
    case ExprOp::kConst:
      lo = hi = n.value;
      break;
    case ExprOp::kAdd:
      lo = Wide{l.lo} + r.lo;
      hi = Wide{l.hi} + r.hi;
      word = "+";
      break;
    case ExprOp::kSub:
      lo = Wide{l.lo} - r.hi;
      hi = Wide{l.hi} - r.lo;
      word = "-";
      break;
    case ExprOp::kMul: {
      const Wide p[] = {Wide{l.lo} * r.lo, Wide{l.lo} * r.hi, Wide{l.hi} * r.lo,
                        Wide{l.hi} * r.hi};
      lo = *std::min_element(std::begin(p), std::end(p));
      hi = *std::max_element(std::begin(p), std::end(p));
      word = "*";
      break;
    }
    case ExprOp::kNeg:
      lo = -Wide{l.hi};
      hi = -Wide{l.lo};
      word = "-";
      break;
    case ExprOp::kOld:
      lo = l.lo;
      hi = l.hi;
      break;
    case ExprOp::kAggregate:
      assert(false && "aggregates are pushed by PushRanged");
      break;
    default:
      if (n.op >= ExprOp::kLeaf) {
        const ExprRange leaf = LeafRange(n);
        lo = leaf.lo;
        hi = leaf.hi;
      }
      break;
  }
  if (lo < INT64_MIN || hi > INT64_MAX) {
    throw ExprFailure{
        offset >= 0 ? offset : Peek().offset,
        fmt::format("'{}' here can reach {}, beyond the 64-bit integers "
                    "expressions compute with",
                    word, WideText(lo < INT64_MIN ? lo : hi))};
  }
  return PushRanged(
      n, {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)},
      offset);
}

int ExpressionParser::PushRanged(const ExprNode& n, ExprRange range,
                                 int offset) {
  const int at = offset >= 0 ? offset : Peek().offset;
  if (nodes_.size() >= static_cast<std::size_t>(kMaxExpressionNodes)) {
    throw ExprFailure{at, fmt::format("longer than {} operations and values; "
                                      "split it into several invariants or "
                                      "statements",
                                      kMaxExpressionNodes)};
  }
  int height = 1;
  for (const int child : {n.lhs, n.rhs}) {
    if (child >= 0) {
      height = std::max(height, heights_[static_cast<std::size_t>(child)] + 1);
    }
  }
  if (height > kMaxExpressionHeight) {
    throw ExprFailure{
        at, fmt::format("more than {} operations deep (a chain such as "
                        "a + b + c + ... counts one level per operator); "
                        "use an aggregate such as sum(events, ...)",
                        kMaxExpressionHeight)};
  }
  nodes_.push_back(n);
  ranges_.resize(nodes_.size());
  heights_.resize(nodes_.size());
  ranges_.back() = range;
  heights_.back() = height;
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
        wanted = "values of one domain";
        break;
    }
    throw ExprFailure{
        offset, fmt::format("'{}' needs {} on both sides; its {} side is {}",
                            word, wanted, left ? "left" : "right",
                            TypeWord(left ? l.second : r.second))};
  }
  ExprNode n;
  n.op = op;
  n.lhs = l.first;
  n.rhs = r.first;
  return {Push(n, offset), result};
}

ExpressionParser::Typed ExpressionParser::Expr() {
  const Nest nest(*this);
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
    const Nest nest(*this);
    const int at = Next().offset;
    Typed x = Not();
    if (!(x.second == ExprType::Bool())) {
      throw ExprFailure{
          at, fmt::format("'not' needs a boolean, got {}", TypeWord(x.second))};
    }
    ExprNode n;
    n.op = ExprOp::kNot;
    n.lhs = x.first;
    return {Push(n, at), ExprType::Bool()};
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
      throw ExprFailure{
          at, fmt::format("'{}' compares values of one domain; these are "
                          "values of two (a strategy's [domains] puts "
                          "attributes in one domain)",
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
  const Nest nest(*this);
  const int at = Next().offset;
  Typed x = Unary();
  if (!(x.second == ExprType::Int())) {
    throw ExprFailure{
        at, fmt::format("'-' needs an integer, got {}", TypeWord(x.second))};
  }
  ExprNode n;
  n.op = ExprOp::kNeg;
  n.lhs = x.first;
  return {Push(n, at), ExprType::Int()};
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
    n.rhs = filter.first;
  }
  const bool wants_bool = agg == ExprAggregate::kAll ||
                          agg == ExprAggregate::kAny ||
                          agg == ExprAggregate::kCount;
  const std::int64_t size = std::max(domain->size, 0);
  if (agg == ExprAggregate::kCount && IsPunct(")")) {
    Next();  // count(events [where ...]): how many members
    bound_.pop_back();
    return {PushRanged(n, {0, size}, name.offset), ExprType::Int()};
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
  n.lhs = body.first;
  ExprRange range{0, 1};
  if (agg == ExprAggregate::kCount) range = {0, size};
  if (agg == ExprAggregate::kMax) {
    // An empty domain (or filter) gives 0.
    const ExprRange b = RangeOf(body.first);
    range = {std::min<std::int64_t>(b.lo, 0), std::max<std::int64_t>(b.hi, 0)};
  }
  if (agg == ExprAggregate::kSum) {
    const ExprRange b = RangeOf(body.first);
    const Wide lo = std::min<Wide>(Wide{b.lo} * size, 0);
    const Wide hi = std::max<Wide>(Wide{b.hi} * size, 0);
    if (lo < INT64_MIN || hi > INT64_MAX) {
      throw ExprFailure{
          name.offset,
          fmt::format("'sum' here can reach {} over {} members, beyond the "
                      "64-bit integers expressions compute with",
                      WideText(lo < INT64_MIN ? lo : hi), size)};
    }
    range = {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
  }
  return {PushRanged(n, range, name.offset),
          wants_bool && agg != ExprAggregate::kCount ? ExprType::Bool()
                                                     : ExprType::Int()};
}

}  // namespace oc
