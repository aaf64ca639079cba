// The handler language: statements parsed on top of the shared expression
// core (model/expression.h), type-checked as they are parsed, and the
// interpreter of the compiled form. The grammar is in
// scenarios/strategies/LANGUAGE.md.

#include "model/handler_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "common/closest_name.h"
#include "model/config.h"
#include "model/state.h"

namespace oc {
namespace {

constexpr const auto& kTableNames = kDurableTableNames;
constexpr std::string_view kKeywords[] = {
    "if",  "not",   "and",  "or",     "true", "false",   "event",   "key",
    "max", "where", "stop", "insert", "call", "handler", "with_key"};

const DurableTable& Row(HandlerTable t) {
  return kDurableTables[static_cast<int>(t)];
}
bool IsRowTable(HandlerTable t) { return Row(t).row; }
bool IsCountTable(HandlerTable t) { return Row(t).count; }
bool IsKeyTable(HandlerTable t) { return Row(t).by_key; }
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
    case StrategyFamily::kCustom:
      return "custom";
  }
  return "";
}

// A statement's target: a built-in table or a declared one.
struct Target {
  HandlerTable table = HandlerTable::kEffects;
  int user = -1;
  int index = -1;  // a user table by domain: the index's node
  bool row() const { return user >= 0 ? row_user : IsRowTable(table); }
  bool row_user = false;
};

class Compiler : public ExpressionParser {
 public:
  explicit Compiler(HandlerProgram& p) : ExpressionParser(p.nodes), p_(p) {
    end_word_ = "the end of the statement";
  }

  // Compiles one statement of step `step` into p_.steps[step].
  void Statement(std::string_view text, int step) {
    SetTokens(LexExpression(text));
    step_ = step;
    if (AtEnd()) {
      throw ExprFailure{0, "empty statement; write one statement per string"};
    }
    HandlerStatement st;
    if (IsName("if")) {
      Next();
      const int at = Peek().offset;
      auto [node, type] = Expr();
      if (!(type == ExprType::Bool())) {
        throw ExprFailure{
            at,
            fmt::format("a guard must be a boolean, got {}; compare it, e.g. "
                        "'if effects[event] == 0:'",
                        TypeWord(type))};
      }
      st.guard = node;
      Expect(":", "after the guard of 'if'");
    }
    Action(st);
    if (!AtEnd()) {
      throw ExprFailure{Peek().offset,
                        fmt::format("unexpected '{}' after the statement; "
                                    "write one statement per string",
                                    Peek().text)};
    }
    p_.steps[static_cast<std::size_t>(step)].push_back(st);
  }

  bool HasTable() const { return family_.has_value() || wrote_user_; }
  bool HasFamily() const { return family_.has_value(); }

  // Locals read in a later step than one that set them keep memo bits,
  // and so does a `stop handler` of any step but the last.
  void AssignMemoBits() {
    p_.memo_bit.assign(p_.locals.size(), -1);
    for (std::size_t l = 0; l < p_.locals.size(); ++l) {
      if (carried_[l]) {
        p_.memo_bit[l] = static_cast<std::int8_t>(p_.memo_bits);
        p_.memo_bits += p_.local_is_int[l]        ? 16
                        : p_.local_domain[l] >= 0 ? 8
                                                  : 1;
      }
    }
    if (stops_handler_before_last_) {
      p_.stop_bit = static_cast<std::int8_t>(p_.memo_bits++);
    }
  }

 private:
  std::optional<HandlerTable> FindTable(std::string_view name) const {
    for (int t = 0; t < kHandlerTables; ++t) {
      if (kTableNames[t] == name) return static_cast<HandlerTable>(t);
    }
    return std::nullopt;
  }
  int FindUser(std::string_view name) const {
    for (std::size_t t = 0; t < p_.tables.size(); ++t) {
      if (p_.tables[t].name == name) return static_cast<int>(t);
    }
    return -1;
  }
  std::vector<std::string_view> AllTableNames() const {
    std::vector<std::string_view> names(std::begin(kTableNames),
                                        std::end(kTableNames));
    for (const UserTable& t : p_.tables) names.push_back(t.name);
    return names;
  }

  static int Index(std::vector<std::string>& list, std::string_view name) {
    auto it = std::find(list.begin(), list.end(), name);
    if (it != list.end()) return static_cast<int>(it - list.begin());
    list.emplace_back(name);
    return static_cast<int>(list.size()) - 1;
  }

  // `event.NAME` read as a number: its index in number_attributes.
  int NumberAttribute(const ExprToken& t) {
    const std::string_view attribute = std::string_view(t.text).substr(6);
    if (attribute.empty() || attribute.find('.') != std::string_view::npos) {
      throw ExprFailure{t.offset,
                        fmt::format("'{}' is not an event attribute; write "
                                    "event.NAME, e.g. event.amount",
                                    t.text)};
    }
    if (attribute == "key" || attribute == "account" || attribute == "type" ||
        attribute == "name" || ReadsAsText(attribute)) {
      throw ExprFailure{
          t.offset,
          fmt::format("event.{} is text; a handler uses text attributes to "
                      "index a table (points[event.{}]), and reads numbers "
                      "such as event.version or event.amount",
                      attribute, attribute)};
    }
    return Index(p_.number_attributes, attribute);
  }

  // Whether the handler reads text attribute `attribute` as a value of a
  // domain (else as a number): a member of a declared domain, a domain's
  // own name, key or account.
  bool ReadsAsText(std::string_view attribute) const {
    const auto named = [&](std::string_view domain) {
      return std::find(p_.domains.begin(), p_.domains.end(), domain) !=
                 p_.domains.end() ||
             std::any_of(
                 p_.declared_domains.begin(), p_.declared_domains.end(),
                 [&](const DeclaredDomain& d) { return d.name == domain; });
    };
    return DomainOfAttribute(p_, attribute) != attribute ||
           attribute == "key" || attribute == "account" || named(attribute);
  }

  // `event.NAME` read as a value of its domain: a kText node.
  Typed TextValue(const ExprToken& t, std::string_view attribute) {
    const std::string_view name = DomainOfAttribute(p_, attribute);
    if (std::find(p_.domains.begin(), p_.domains.end(), name) ==
            p_.domains.end() &&
        p_.domains.size() >= static_cast<std::size_t>(kMaxHandlerDomains)) {
      throw ExprFailure{t.offset,
                        fmt::format("too many domains; a handler reads values "
                                    "of at most {}",
                                    kMaxHandlerDomains)};
    }
    if (std::find(p_.text_attributes.begin(), p_.text_attributes.end(),
                  attribute) == p_.text_attributes.end() &&
        p_.text_attributes.size() >=
            static_cast<std::size_t>(kMaxTextAttributes)) {
      throw ExprFailure{t.offset,
                        fmt::format("too many attributes; a handler reads at "
                                    "most {} text attributes",
                                    kMaxTextAttributes)};
    }
    const int domain = Index(p_.domains, name);
    auto it = std::find(p_.text_attributes.begin(), p_.text_attributes.end(),
                        attribute);
    if (it == p_.text_attributes.end()) {
      p_.text_attributes.emplace_back(attribute);
      p_.text_domain.push_back(static_cast<std::int8_t>(domain));
      it = p_.text_attributes.end() - 1;
    }
    ExprNode n;
    n.op = handler_op::kText;
    n.a = static_cast<std::uint8_t>(it - p_.text_attributes.begin());
    return {Push(n, t.offset), ExprType::Text(domain)};
  }

  // How an event's value of domain `d` is written, for hints:
  // {"event.account"}, or {"event.from", "event.to"} for a declared domain.
  std::vector<std::string> DomainValueWords(int d) const {
    const std::string& name = p_.domains[static_cast<std::size_t>(d)];
    std::vector<std::string> words;
    for (const DeclaredDomain& dd : p_.declared_domains) {
      if (dd.name != name) continue;
      for (const std::string& a : dd.attributes) words.push_back("event." + a);
    }
    if (words.empty()) words.push_back("event." + name);
    return words;
  }

  // TABLE '[' index ']' at the current token; records the family.
  Target ParseTarget() {
    const ExprToken name = Next();
    Target target;
    target.user = FindUser(name.text);
    if (target.user >= 0) {
      const UserTable& t = p_.tables[static_cast<std::size_t>(target.user)];
      target.row_user = t.row;
      Expect("[", fmt::format("after table '{}'", name.text));
      const ExprToken index = Peek();
      const std::string domain =
          t.by < 0 ? std::string("event")
                   : p_.domains[static_cast<std::size_t>(t.by)];
      const std::vector<std::string> words =
          t.by < 0 ? std::vector<std::string>{"event"} : DomainValueWords(t.by);
      const bool has_members = t.by >= 0 && words.front() != "event." + domain;
      const std::string& wanted = words.front();
      const auto wrong = [&] {
        return ExprFailure{
            index.offset,
            has_members
                ? fmt::format("table '{}' has a cell per {}; write {}[{}], or "
                              "another {} ({} or a local set to one)",
                              name.text, domain, name.text, wanted, domain,
                              fmt::join(words, ", "))
                : fmt::format("table '{}' has a cell per {}; write {}[{}]",
                              name.text, domain, name.text, wanted)};
      };
      if (t.by < 0 ||
          (domain == "key" && index.kind == ExprToken::Kind::kName &&
           index.text == "key")) {
        if (index.kind != ExprToken::Kind::kName ||
            index.text != (t.by < 0 ? "event" : "key")) {
          throw wrong();
        }
        Next();
        if (t.by >= 0) target.index = TextValue(index, "key").first;
      } else {
        // `event`, or a bare word that is no local set so far (`account`
        // for `event.account`), is a slip the hint corrects.
        if (index.kind == ExprToken::Kind::kName &&
            (index.text == "event" ||
             (index.text.find('.') == std::string::npos &&
              !IsSetLocal(index.text)))) {
          throw wrong();
        }
        const Typed value = Expr();
        if (!(value.second == ExprType::Text(t.by))) throw wrong();
        target.index = value.first;
      }
      Expect("]", fmt::format("after {}[{}", name.text, index.text));
      return target;
    }
    const std::optional<HandlerTable> t = FindTable(name.text);
    if (!t) {
      const std::vector<std::string_view> names = AllTableNames();
      std::string hint = DidYouMean(name.text, names);
      if (hint.empty()) {
        hint = fmt::format("; tables are {}", fmt::join(names, ", "));
        if (p_.tables.empty()) {
          hint += " (declare your own under [tables])";
        }
      }
      throw ExprFailure{name.offset,
                        fmt::format("unknown table '{}'{}", name.text, hint)};
    }
    target.table = *t;
    UseFamily(*t, name.offset);
    Expect("[", fmt::format("after table '{}'", name.text));
    const std::string_view index = IsKeyTable(*t) ? "key" : "event";
    if (!IsName(index) && !(IsKeyTable(*t) && IsName("event.key"))) {
      throw ExprFailure{
          Peek().offset,
          fmt::format("table '{}' is indexed by the event's {}; write {}[{}]",
                      name.text, index == "key" ? "key" : "identity", name.text,
                      index)};
    }
    Next();
    Expect("]", fmt::format("after {}[{}", name.text, index));
    if (IsKeyTable(*t)) p_.uses_key = true;
    if (*t == HandlerTable::kInbox) p_.uses_inbox = true;
    return target;
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
      throw ExprFailure{
          offset,
          fmt::format("table '{}' belongs to {} handlers, but this handler "
                      "already uses '{}', a {} table; a handler works on the "
                      "tables of one kind (credit: effects, inbox; "
                      "notification: ledger, sent; projection: version; "
                      "cache: cache), besides its own",
                      HandlerTableName(t), FamilyWord(f),
                      HandlerTableName(family_table_), FamilyWord(*family_))};
    }
  }

  void Wrote(const Target& t) {
    if (t.user >= 0) {
      wrote_user_ = true;
    } else {
      p_.writes[static_cast<std::size_t>(t.table)] = true;
    }
  }

  std::string TargetName(const Target& t) const {
    return t.user >= 0 ? p_.tables[static_cast<std::size_t>(t.user)].name
                       : std::string(HandlerTableName(t.table));
  }

  bool IsSetLocal(std::string_view name) const {
    auto it = std::find(p_.locals.begin(), p_.locals.end(), name);
    return it != p_.locals.end() &&
           set_before_[static_cast<std::size_t>(it - p_.locals.begin())];
  }

  std::string LocalTypeWords(bool is_int, int domain) const {
    if (is_int) return "an integer";
    if (domain >= 0) {
      return fmt::format("a value of {}",
                         p_.domains[static_cast<std::size_t>(domain)]);
    }
    return "a boolean";
  }

  int Local(std::string_view name, bool is_int, int domain = -1) {
    auto it = std::find(p_.locals.begin(), p_.locals.end(), name);
    if (it != p_.locals.end()) {
      const auto l = static_cast<std::size_t>(it - p_.locals.begin());
      if (p_.local_is_int[l] != is_int || p_.local_domain[l] != domain) {
        throw ExprFailure{
            0, fmt::format(
                   "local '{}' was {} and is now set to {}; a local "
                   "keeps one type",
                   name, LocalTypeWords(p_.local_is_int[l], p_.local_domain[l]),
                   LocalTypeWords(is_int, domain))};
      }
      return static_cast<int>(l);
    }
    p_.locals.emplace_back(name);
    p_.local_is_int.push_back(is_int);
    p_.local_domain.push_back(static_cast<std::int8_t>(domain));
    first_set_.push_back(-1);
    local_range_.push_back({});
    carried_.push_back(false);
    set_before_.push_back(false);
    return static_cast<int>(p_.locals.size()) - 1;
  }

  // A value written to a table: a constant, or (for version and declared
  // number tables) an event's number attribute. Returns its node.
  int Value(const Target& target, bool adding) {
    const ExprToken v = Peek();
    bool negative = false;
    if (IsPunct("-") && target.user >= 0) {
      Next();
      negative = true;
    }
    const ExprToken& t = Peek();
    if (t.kind == ExprToken::Kind::kName && t.text.rfind("event.", 0) == 0 &&
        (target.user >= 0 || target.table == HandlerTable::kVersion)) {
      Next();
      ExprNode n;
      n.op = handler_op::kNumber;
      n.a = static_cast<std::uint8_t>(NumberAttribute(t));
      int node = Push(n);
      if (negative) {
        ExprNode neg;
        neg.op = ExprOp::kNeg;
        neg.lhs = node;
        node = Push(neg);
      }
      return node;
    }
    if (t.kind != ExprToken::Kind::kNumber) {
      throw ExprFailure{
          v.offset,
          target.user >= 0
              ? fmt::format("'{}' is written with a constant or an event "
                            "attribute (event.amount), got {}",
                            TargetName(target), Describe())
          : target.table == HandlerTable::kVersion
              ? fmt::format("version[key] is set to event.version or a "
                            "constant, got {}",
                            Describe())
              : fmt::format("'+=' adds a constant from 1 to 15, got {}",
                            Describe())};
    }
    Next();
    int n = -1;
    std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
    if (target.user < 0 && target.table != HandlerTable::kVersion &&
        (n < 1 || n > 15)) {
      throw ExprFailure{
          t.offset,
          fmt::format("'+=' adds a constant from 1 to 15, got '{}'", t.text)};
    }
    if (target.user < 0 && target.table == HandlerTable::kVersion &&
        (n < 0 || n > 65535)) {
      throw ExprFailure{t.offset, "a version is a number from 0 to 65535"};
    }
    if (target.user >= 0 && (n < 0 || n > 10000)) {
      throw ExprFailure{t.offset,
                        "a constant written to a table is at most 10000"};
    }
    if (target.user < 0 && adding) {
      p_.adds[static_cast<std::size_t>(target.table)] += n;
    }
    if (target.user < 0 && target.table == HandlerTable::kVersion) {
      p_.max_constant = std::max(p_.max_constant, n);
    }
    return Constant(negative ? -n : n);
  }

  void Action(HandlerStatement& st) {
    const ExprToken first = Peek();
    if (first.kind != ExprToken::Kind::kName) {
      throw ExprFailure{
          first.offset,
          fmt::format("expected a statement (insert, call, stop, a local or "
                      "a table), got {}",
                      Describe())};
    }
    if (first.text == "stop") {
      Next();
      st.kind = HandlerStatement::Kind::kStop;
      if (IsName("handler")) {
        Next();
        st.kind = HandlerStatement::Kind::kStopHandler;
        if (step_ + 1 < static_cast<int>(p_.steps.size())) {
          stops_handler_before_last_ = true;
        }
      }
      return;
    }
    if (first.text == "call") {
      // An outside-world call: `call sent[event]` is received every time;
      // with `with_key`, the provider deduplicates on the event's
      // idempotency key, so it records at most one call per event.
      Next();
      RequireTableName("call");
      const int at = Peek().offset;
      const Target t = ParseTarget();
      if (t.user >= 0 || t.table != HandlerTable::kSent) {
        throw ExprFailure{
            at, fmt::format("'call' records a call in the outside world's "
                            "record, sent[event]; '{}' is a table of the "
                            "group",
                            TargetName(t))};
      }
      st.table = t.table;
      Wrote(t);
      p_.adds[static_cast<std::size_t>(st.table)] += 1;
      st.value = Constant(1);
      st.kind = HandlerStatement::Kind::kAdd;
      if (IsName("with_key")) {
        Next();
        st.kind = HandlerStatement::Kind::kCallOnce;
      }
      return;
    }
    if (first.text == "insert") {
      Next();
      InsertInto(st);
      return;
    }
    const bool table_target =
        Peek(1).kind == ExprToken::Kind::kPunct && Peek(1).text == "[";
    if (table_target) {
      Write(st);
      return;
    }
    // LOCAL = insert TABLE[...] | LOCAL = EXPR
    Next();
    if (std::find(std::begin(kKeywords), std::end(kKeywords), first.text) !=
            std::end(kKeywords) ||
        first.text.find('.') != std::string::npos) {
      throw ExprFailure{
          first.offset,
          fmt::format("'{}' cannot be a local's name", first.text)};
    }
    if (FindTable(first.text) || FindUser(first.text) >= 0) {
      const int user = FindUser(first.text);
      throw ExprFailure{
          first.offset,
          fmt::format(
              "'{}' is a table; write {}[{}]", first.text, first.text,
              user >= 0
                  ? (p_.tables[static_cast<std::size_t>(user)].by < 0
                         ? std::string("event")
                         : DomainValueWords(
                               p_.tables[static_cast<std::size_t>(user)].by)
                               .front())
              : IsKeyTable(*FindTable(first.text)) ? std::string("key")
                                                   : std::string("event"))};
    }
    if (!IsPunct("=")) {
      std::string hint = DidYouMean(first.text, AllTableNames());
      throw ExprFailure{Peek().offset,
                        fmt::format("expected '=' after local '{}', got {}{}",
                                    first.text, Describe(), hint)};
    }
    Next();
    int local = -1;
    if (IsName("insert")) {
      Next();
      try {
        local = Local(first.text, false);
      } catch (ExprFailure& f) {
        f.offset = first.offset;
        throw;
      }
      InsertInto(st);
    } else {
      auto [node, type] = Expr();
      try {
        local = Local(first.text, type == ExprType::Int(),
                      type.kind == ExprType::Kind::kText ? type.domain : -1);
      } catch (ExprFailure& f) {
        f.offset = first.offset;
        throw;
      }
      if (type == ExprType::Int()) {
        // An integer local holds 16 bits (it may be carried to a later
        // step in the memo): refuse a value that could not fit.
        const ExprRange r = RangeOf(node);
        if (r.lo < INT16_MIN || r.hi > INT16_MAX) {
          throw ExprFailure{
              first.offset,
              fmt::format("local '{}' could be set to {}; an integer local "
                          "holds -32768..32767",
                          first.text, r.lo < INT16_MIN ? r.lo : r.hi)};
        }
        ExprRange& held = local_range_[static_cast<std::size_t>(local)];
        held = {std::min(held.lo, r.lo), std::max(held.hi, r.hi)};
      }
      st.kind = HandlerStatement::Kind::kSetLocal;
      st.value = node;
    }
    if (p_.locals.size() > 8) {
      throw ExprFailure{first.offset,
                        "too many locals; a handler has at most 8"};
    }
    st.local = static_cast<std::int8_t>(local);
    set_before_[static_cast<std::size_t>(local)] = true;
    if (first_set_[static_cast<std::size_t>(local)] < 0) {
      first_set_[static_cast<std::size_t>(local)] = step_;
    }
  }

  void InsertInto(HandlerStatement& st) {
    RequireTableName("insert");
    st.kind = HandlerStatement::Kind::kInsert;
    const int at = Peek().offset;
    const Target t = ParseTarget();
    if (!t.row()) {
      throw ExprFailure{
          at, fmt::format("'insert' applies to row tables (inbox, ledger, "
                          "cache, and declared rows); '{}' is not one",
                          TargetName(t))};
    }
    st.table = t.table;
    st.user = static_cast<std::int8_t>(t.user);
    st.index = t.index;
    Wrote(t);
  }

  // TABLE[...] += VALUE | -= VALUE | = VALUE | max = VALUE
  void Write(HandlerStatement& st) {
    const int at = Peek().offset;
    const Target t = ParseTarget();
    st.table = t.table;
    st.user = static_cast<std::int8_t>(t.user);
    st.index = t.index;
    Wrote(t);
    if (IsPunct("+=") || IsPunct("-=")) {
      const bool add = IsPunct("+=");
      const std::string op = Next().text;
      const bool counts = t.user < 0 && IsCountTable(t.table);
      const bool numbers = t.user >= 0 && !t.row();
      if (!counts && !numbers) {
        throw ExprFailure{
            at,
            fmt::format(
                "'{}' changes a count table (effects, sent) or a declared "
                "number; '{}' is not one{}",
                op, TargetName(t),
                t.row() ? fmt::format(": use 'insert {}[...]'", TargetName(t))
                        : std::string(""))};
      }
      if (counts && !add) {
        throw ExprFailure{at, fmt::format("'-=' does not apply to '{}': a "
                                          "count of effects only grows",
                                          TargetName(t))};
      }
      st.kind = add ? HandlerStatement::Kind::kAdd
                    : HandlerStatement::Kind::kSubtract;
      st.value = Value(t, true);
      return;
    }
    bool max = false;
    if (IsName("max")) {
      Next();
      max = true;
    }
    if (!IsPunct("=")) {
      throw ExprFailure{
          Peek().offset,
          fmt::format("expected '+=', '-=', '=' or 'max =' after the table, "
                      "got {}",
                      Describe())};
    }
    Next();
    const bool settable = (t.user < 0 && t.table == HandlerTable::kVersion) ||
                          (t.user >= 0 && !t.row());
    if (!settable) {
      throw ExprFailure{
          at, fmt::format("'{}' cannot be set; only version[key] and declared "
                          "numbers are set (with '=' or 'max ='); {}",
                          TargetName(t),
                          t.row() ? "rows are written with 'insert'"
                                  : "counts grow with '+='")};
    }
    st.kind =
        max ? HandlerStatement::Kind::kSetMax : HandlerStatement::Kind::kSet;
    st.value = Value(t, false);
  }

  void RequireTableName(std::string_view after) {
    if (Peek().kind != ExprToken::Kind::kName) {
      throw ExprFailure{Peek().offset,
                        fmt::format("expected a table after '{}', got {}",
                                    after, Describe())};
    }
  }

  ExprRange LeafRange(const ExprNode& n) const override {
    if (n.op == handler_op::kLocal) {
      const auto l = static_cast<std::size_t>(n.value);
      if (p_.local_domain[l] >= 0) return {0, kMaxDomainValues - 1};
      if (!p_.local_is_int[l]) return {0, 1};
      const ExprRange& r = local_range_[l];
      return {std::min<std::int64_t>(r.lo, 0), std::max<std::int64_t>(r.hi, 0)};
    }
    if (n.op == handler_op::kRead) {
      const auto t = static_cast<HandlerTable>(n.a);
      if (IsRowTable(t)) return {0, 1};
      return {0, t == HandlerTable::kVersion ? UINT16_MAX : UINT8_MAX};
    }
    if (n.op == handler_op::kReadUser) return {INT16_MIN, INT16_MAX};
    if (n.op == handler_op::kText) return {0, kMaxDomainValues - 1};
    // An event's number attribute: the scenario refuses one a strategy
    // reads outside -10000..10000.
    return {-10000, 10000};
  }

  Typed Name(const ExprToken& t) override {
    if (t.kind == ExprToken::Kind::kString) {
      throw ExprFailure{t.offset,
                        "a handler reads no text in quotes; it compares "
                        "numbers and booleans"};
    }
    if (t.text.rfind("event.", 0) == 0) {
      const std::string_view attribute = std::string_view(t.text).substr(6);
      if (!attribute.empty() && attribute.find('.') == std::string_view::npos &&
          ReadsAsText(attribute)) {
        return TextValue(t, attribute);
      }
      ExprNode n;
      n.op = handler_op::kNumber;
      n.a = static_cast<std::uint8_t>(NumberAttribute(t));
      return {Push(n), ExprType::Int()};
    }
    if (IsPunct("[")) {
      Back();  // ParseTarget reads the name again
      const Target target = ParseTarget();
      ExprNode n;
      if (target.user >= 0) {
        n.op = handler_op::kReadUser;
        n.a = static_cast<std::uint8_t>(target.user);
        n.lhs = target.index;
        return {Push(n), target.row() ? ExprType::Bool() : ExprType::Int()};
      }
      n.op = handler_op::kRead;
      n.a = static_cast<std::uint8_t>(target.table);
      return {Push(n),
              IsRowTable(target.table) ? ExprType::Bool() : ExprType::Int()};
    }
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
      } else if (FindUser(t.text) >= 0) {
        hint = fmt::format("; '{}' is a table: write {}[...]", t.text, t.text);
      } else if (hint.empty()) {
        hint = DidYouMean(t.text, AllTableNames());
      }
      throw ExprFailure{
          t.offset,
          fmt::format("local '{}' is read, but no earlier statement sets it; "
                      "set it first (in this step or in step 1){}",
                      t.text, hint)};
    }
    const auto local = static_cast<std::size_t>(it - p_.locals.begin());
    // Read in a later step than the one that first set it: its value must
    // outlive the steps in between.
    if (first_set_[local] < step_) carried_[local] = true;
    ExprNode n;
    n.op = handler_op::kLocal;
    n.value = static_cast<int>(local);
    return {Push(n), p_.local_is_int[local] ? ExprType::Int()
                     : p_.local_domain[local] >= 0
                         ? ExprType::Text(p_.local_domain[local])
                         : ExprType::Bool()};
  }

  HandlerProgram& p_;
  int step_ = 0;
  std::vector<int> first_set_;  // per local: the first step that sets it
  // Per integer local: the values the statements so far set it to (and 0,
  // its value before it is set).
  std::vector<ExprRange> local_range_;
  std::vector<bool> carried_, set_before_;
  std::optional<StrategyFamily> family_;
  HandlerTable family_table_ = HandlerTable::kEffects;
  bool wrote_user_ = false;
  bool stops_handler_before_last_ = false;
};

// What a step's expressions read.
struct StepContext {
  const HandlerProgram& p;
  const HandlerCells& c;
  const std::int32_t* locals;

  std::int64_t Leaf(const ExprNode& n) const {
    switch (static_cast<int>(n.op) - static_cast<int>(ExprOp::kLeaf)) {
      case 0:
        return locals[n.value];
      case 1:
        return Read(static_cast<HandlerTable>(n.a));
      case 2:
        return c.user[Cell(n.a, n.lhs)];
      case 3:
        return c.numbers[n.a];
      default:
        return c.values[n.a];
    }
  }
  // The cell of user table `table` at index node `index` (-1: the event's).
  std::size_t Cell(int table, std::int32_t index) const {
    const std::int64_t at =
        index < 0 ? c.event : Evaluate(p.nodes, index, *this);
    return static_cast<std::size_t>(c.table_first[table] + at);
  }
  int Read(HandlerTable t) const {
    switch (t) {
      case HandlerTable::kEffects:
        return c.event_cells->effects;
      case HandlerTable::kInbox:
        return c.fresh_id ? 0 : c.event_cells->inbox;
      case HandlerTable::kLedger:
        return c.fresh_id ? 0 : c.event_cells->ledger;
      case HandlerTable::kSent:
        return c.event_cells->sent;
      case HandlerTable::kVersion:
        return c.key_cells->version;
      case HandlerTable::kCache:
        return c.key_cells->cache;
    }
    return 0;
  }
  // Handlers have no aggregates and no old(...).
  int DomainSize(int) const { return 0; }
  int Bind(int, int) const { return 0; }
  void Unbind(int, int) const {}
  void EnterOld() const {}
  void LeaveOld() const {}
};

}  // namespace

std::string_view HandlerTableName(HandlerTable t) {
  return kTableNames[static_cast<int>(t)];
}

bool ReservedHandlerName(std::string_view name) {
  return std::find(std::begin(kTableNames), std::end(kTableNames), name) !=
             std::end(kTableNames) ||
         std::find(std::begin(kKeywords), std::end(kKeywords), name) !=
             std::end(kKeywords);
}

std::string_view DomainOfAttribute(const HandlerProgram& p,
                                   std::string_view attribute) {
  for (const DeclaredDomain& d : p.declared_domains) {
    if (std::find(d.attributes.begin(), d.attributes.end(), attribute) !=
        d.attributes.end()) {
      return d.name;
    }
  }
  return attribute;
}

int MemoLocal(const HandlerProgram& p, int l, std::uint32_t memo) {
  const int bit = p.memo_bit[static_cast<std::size_t>(l)];
  if (p.local_domain[static_cast<std::size_t>(l)] >= 0) {
    return static_cast<int>((memo >> bit) & 0xffu);
  }
  if (!p.local_is_int[static_cast<std::size_t>(l)]) return (memo >> bit) & 1;
  return static_cast<std::int16_t>(
      static_cast<std::uint16_t>((memo >> bit) & 0xffffu));
}

void RunHandlerStep(const HandlerProgram& p, int step, const HandlerCells& c) {
  std::int32_t locals[8] = {};
  for (std::size_t l = 0; l < p.memo_bit.size(); ++l) {
    if (p.memo_bit[l] >= 0) {
      locals[l] = MemoLocal(p, static_cast<int>(l), *c.memo);
    }
  }
  // An earlier step ran `stop handler`: this one does nothing.
  const bool stopped =
      p.stop_bit >= 0 && step >= 1 && ((*c.memo >> p.stop_bit) & 1) != 0;
  bool stop_handler = false;
  StepContext ctx{p, c, locals};
  if (!stopped) {
    for (const HandlerStatement& st : p.steps[static_cast<std::size_t>(step)]) {
      if (st.guard >= 0 && Evaluate(p.nodes, st.guard, ctx) == 0) continue;
      using Kind = HandlerStatement::Kind;
      if (st.kind == Kind::kStop) break;
      if (st.kind == Kind::kStopHandler) {
        stop_handler = true;
        break;
      }
      std::int16_t* user =
          st.user >= 0 ? &c.user[ctx.Cell(st.user, st.index)] : nullptr;
      switch (st.kind) {
        case Kind::kInsert: {
          bool inserted;
          if (user != nullptr) {
            inserted = *user == 0;
            *user = 1;
          } else {
            std::uint8_t& row =
                st.table == HandlerTable::kInbox    ? c.event_cells->inbox
                : st.table == HandlerTable::kLedger ? c.event_cells->ledger
                                                    : c.key_cells->cache;
            inserted =
                row == 0 || (c.fresh_id && st.table != HandlerTable::kCache);
            row = 1;
          }
          if (st.local >= 0) locals[st.local] = inserted ? 1 : 0;
          break;
        }
        case Kind::kSetLocal: {
          // The compiler proved the value fits a 16-bit local.
          const auto v =
              static_cast<std::int32_t>(Evaluate(p.nodes, st.value, ctx));
          const auto l = static_cast<std::size_t>(st.local);
          locals[st.local] = p.local_is_int[l] || p.local_domain[l] >= 0
                                 ? v
                                 : (v != 0 ? 1 : 0);
          break;
        }
        case Kind::kAdd:
        case Kind::kSubtract: {
          // A constant or an event attribute (at most 10000 either way).
          auto v = static_cast<int>(Evaluate(p.nodes, st.value, ctx));
          if (st.kind == Kind::kSubtract) v = -v;
          if (user != nullptr) {
            *user = static_cast<std::int16_t>(*user + v);
          } else {
            std::uint8_t& cell = st.table == HandlerTable::kEffects
                                     ? c.event_cells->effects
                                     : c.event_cells->sent;
            cell = static_cast<std::uint8_t>(cell + v);
          }
          break;
        }
        case Kind::kCallOnce:
          if (c.key_window == 0) {
            if (c.event_cells->sent == 0) c.event_cells->sent = 1;
          } else if (c.event_cells->sent == 0 ||
                     c.event_cells->key_age >= c.key_window) {
            c.event_cells->sent += 1;
            c.event_cells->key_age = 0;
          }
          break;
        case Kind::kSet:
        case Kind::kSetMax: {
          const auto v = static_cast<int>(Evaluate(p.nodes, st.value, ctx));
          if (user != nullptr) {
            if (st.kind == Kind::kSet || v > *user) {
              *user = static_cast<std::int16_t>(v);
            }
          } else {
            std::uint16_t& cell = c.key_cells->version;
            if (st.kind == Kind::kSet || v > cell) {
              cell = static_cast<std::uint16_t>(v);
            }
          }
          break;
        }
        default:
          break;
      }
    }
  }
  std::uint32_t memo = 0;
  if (!c.last_step) {
    for (std::size_t l = 0; l < p.memo_bit.size(); ++l) {
      if (p.memo_bit[l] < 0) continue;
      const std::uint32_t v =
          p.local_is_int[l]
              ? static_cast<std::uint16_t>(static_cast<std::int16_t>(locals[l]))
          : p.local_domain[l] >= 0
              ? static_cast<std::uint32_t>(locals[l] & 0xff)
              : static_cast<std::uint32_t>(locals[l] & 1);
      memo |= v << p.memo_bit[l];
    }
    if ((stopped || stop_handler) && p.stop_bit >= 0) {
      memo |= 1u << p.stop_bit;
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
      } catch (const ExprFailure& f) {
        error.step = static_cast<int>(s);
        error.statement = static_cast<int>(i);
        error.line = src.line;
        error.column = src.column + f.offset;
        error.message = f.message;
        return false;
      }
    }
  }
  if (!compiler.HasTable()) {
    error = HandlerError{0, 0, steps[0].empty() ? 0 : steps[0][0].line,
                         steps[0].empty() ? 0 : steps[0][0].column,
                         "the handler names no table; a handler writes the "
                         "tables of one kind (credit: effects, inbox; "
                         "notification: ledger, sent; projection: version; "
                         "cache: cache) or tables it declares"};
    return false;
  }
  if (!compiler.HasFamily()) out.family = HandlerProgram::kNoFamily;
  compiler.AssignMemoBits();
  if (out.memo_bits > 24) {
    error = HandlerError{1, 0, steps.size() > 1 ? steps[1][0].line : 0,
                         steps.size() > 1 ? steps[1][0].column : 0,
                         fmt::format("later steps read {} bits of locals "
                                     "set by earlier ones; a handler carries "
                                     "at most 24 (an integer takes 16, a "
                                     "boolean 1)",
                                     out.memo_bits)};
    return false;
  }
  return true;
}

}  // namespace oc
