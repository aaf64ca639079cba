#include "invariants/invariant_expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "common/closest_name.h"

namespace oc {
namespace {

// The cells an expression can read, by code (ExprNode::a of a kCell leaf).
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
  kUserCell,  // a declared table: State::user[value + index]
  // The partitioned broker's cells (docs/SEMANTICS.md section 16): by key,
  // by partition, by record.
  kApplied,
  kCommitted,
  kStaleCommit,
  kProcessed,
  kInFlight,
};
// Their names, in the order of the cells above, and what indexes them.
constexpr std::string_view kBrokerCells[] = {
    "applied", "committed", "stale_commit", "processed", "in_flight"};
// The pseudo-domains of a partitioned broker: partitions (p1, p2, ...)
// and records (each partition's offsets 0 .. kMaxRecords - 1).
constexpr std::string_view kPartitionDomain = "partition";
constexpr std::string_view kRecordDomain = "record";
constexpr std::string_view kOutboxCells[] = {"published", "token",
                                             "completed_token", "offered"};
// "ready", then the durable tables (model/handler_program.h), in the order
// of the cells above.
constexpr auto kGroupCells = [] {
  std::array<std::string_view, 1 + kHandlerTables> names{"ready"};
  for (int t = 0; t < kHandlerTables; ++t)
    names[t + 1] = kDurableTables[t].name;
  return names;
}();
static_assert(kEffects ==
                  kReady + 1 + static_cast<int>(HandlerTable::kEffects) &&
              kCache == kReady + 1 + static_cast<int>(HandlerTable::kCache));
bool IsKeyCell(int cell) { return cell == kVersion || cell == kCache; }
bool IsBoolCell(int cell) {
  return cell == kPublished || cell == kInbox || cell == kLedger ||
         cell == kCache || cell == kStaleCommit || cell == kProcessed ||
         cell == kInFlight;
}

// Facts about the group an expression is checked for (`group.inbox`).
constexpr std::string_view kGroupFacts[] = {
    "group.credit", "group.notification", "group.projection", "group.cache",
    "group.custom", "group.inbox",        "group.retention"};

// Leaf opcodes (ExprNode::op).
constexpr auto kVar = ExprOp::kLeaf;  // the binding of domain `a`
constexpr auto kEventText = static_cast<ExprOp>(int(ExprOp::kLeaf) + 1);
constexpr auto kEventNumber = static_cast<ExprOp>(int(ExprOp::kLeaf) + 2);
// Cell `a` of group `b` (or -1: the outbox) at the index lhs evaluates to;
// for declared tables `value` is the table's first cell.
constexpr auto kCellLeaf = static_cast<ExprOp>(int(ExprOp::kLeaf) + 3);
// record.partition and record.offset of the record bound in domain `a`.
constexpr auto kRecordPartition = static_cast<ExprOp>(int(ExprOp::kLeaf) + 4);
constexpr auto kRecordOffset = static_cast<ExprOp>(int(ExprOp::kLeaf) + 5);

constexpr int kMaxDomains = 8;

// A text literal waiting for the domain it is compared with.
constexpr std::int8_t kLiteral = -2;

class Parser : public ExpressionParser {
 public:
  Parser(const Config& config, InvariantExpression& out, int group)
      : ExpressionParser(out.nodes), config_(config), out_(out), group_(group) {
    for (const Group& g : config.groups) group_names_.push_back(g.name);
    layouts_ = UserTableLayouts(config);
  }

  int Parse(const std::string& text) {
    SetTokens(LexExpression(text));
    if (AtEnd()) {
      throw ExprFailure{0,
                        "empty; write a boolean expression over durable state"};
    }
    const int at = Peek().offset;
    auto [root, type] = Expr();
    if (!(type == ExprType::Bool())) {
      throw ExprFailure{at, fmt::format("an invariant must be a boolean, got "
                                        "{}; compare it, e.g. '... <= 1'",
                                        TypeWord(type))};
    }
    if (!AtEnd()) {
      throw ExprFailure{
          Peek().offset,
          fmt::format("unexpected {} after the expression", Describe())};
    }
    Resolve();
    return root;
  }

 private:
  // Domain d >= 1 for a domain of text values (an account, a key), added
  // on first use. The attributes holding its values count as read.
  int DomainIndex(std::string_view domain) {
    auto it = std::find(out_.domains.begin(), out_.domains.end(), domain);
    if (it != out_.domains.end()) {
      return 1 + static_cast<int>(it - out_.domains.begin());
    }
    if (out_.domains.size() + 1 >= static_cast<std::size_t>(kMaxDomains)) {
      throw ExprFailure{0, "too many domains in one expression"};
    }
    out_.domains.emplace_back(domain);
    if (Partitioned() && domain == kPartitionDomain) {
      out_.domain_sizes.push_back(config_.broker.partitions);
      return static_cast<int>(out_.domains.size());
    }
    if (Partitioned() && domain == kRecordDomain) {
      out_.domain_sizes.push_back(config_.broker.partitions * kMaxRecords);
      return static_cast<int>(out_.domains.size());
    }
    out_.domain_sizes.push_back(
        static_cast<int>(DomainValues(config_, domain).size()));
    for (const std::string& a : DomainAttributes(config_, domain)) {
      if (std::find(out_.attributes.begin(), out_.attributes.end(), a) ==
          out_.attributes.end()) {
        out_.attributes.push_back(a);
      }
    }
    return static_cast<int>(out_.domains.size());
  }

  // `event.A` for a text attribute: its index in text_reads (A's value per
  // event, as an index among its domain's values).
  int TextRead(std::string_view attribute) {
    const int domain = DomainIndex(DomainOf(config_, attribute));
    auto it =
        std::find(out_.text_reads.begin(), out_.text_reads.end(), attribute);
    if (it != out_.text_reads.end()) {
      return static_cast<int>(it - out_.text_reads.begin());
    }
    if (out_.text_reads.size() >= static_cast<std::size_t>(UINT8_MAX)) {
      throw ExprFailure{0, "too many attributes in one expression"};
    }
    out_.text_reads.emplace_back(attribute);
    out_.text_domain.push_back(domain);
    if (std::find(out_.attributes.begin(), out_.attributes.end(), attribute) ==
        out_.attributes.end()) {
      out_.attributes.emplace_back(attribute);
    }
    const std::vector<std::string> values =
        DomainValues(config_, DomainOf(config_, attribute));
    std::vector<std::int16_t> of;
    for (const Event& e : config_.events) {
      const std::optional<std::string> v = TextAttribute(e, attribute);
      const auto at =
          v ? std::find(values.begin(), values.end(), *v) : values.end();
      of.push_back(at == values.end()
                       ? std::int16_t{-1}
                       : static_cast<std::int16_t>(at - values.begin()));
    }
    out_.text_of.push_back(std::move(of));
    return static_cast<int>(out_.text_reads.size()) - 1;
  }

  bool KnownText(std::string_view attribute) const {
    if (attribute == "key" || attribute == "account" || attribute == "type" ||
        DomainOf(config_, attribute) != attribute ||
        DomainAttributes(config_, attribute).size() > 1) {
      return true;
    }
    return std::any_of(config_.events.begin(), config_.events.end(),
                       [&](const Event& e) {
                         return TextAttribute(e, attribute).has_value();
                       });
  }
  bool KnownNumber(std::string_view attribute) const {
    if (attribute == "version" || attribute == "amount") return true;
    return std::any_of(config_.events.begin(), config_.events.end(),
                       [&](const Event& e) {
                         return NumberAttribute(e, attribute).has_value();
                       });
  }

  bool Partitioned() const {
    return config_.broker.delivery == Delivery::kPartitioned;
  }

  std::optional<ExprDomain> Domain(std::string_view word) override {
    if (word == "events") {
      return ExprDomain{0, static_cast<int>(config_.events.size()), "event",
                        ExprType::Text(0)};
    }
    if (Partitioned() && (word == "partitions" || word == "records")) {
      const std::string_view domain =
          word == "partitions" ? kPartitionDomain : kRecordDomain;
      const int d = DomainIndex(domain);
      return ExprDomain{d, out_.domain_sizes[static_cast<std::size_t>(d)],
                        std::string(domain), ExprType::Text(d)};
    }
    if (word.size() < 2 || word.back() != 's') return std::nullopt;
    const std::string_view domain = word.substr(0, word.size() - 1);
    // A domain: not an attribute placed in another one (`froms`).
    if (!KnownText(domain) || DomainOf(config_, domain) != domain) {
      return std::nullopt;
    }
    const int d = DomainIndex(domain);
    return ExprDomain{d, out_.domain_sizes[static_cast<std::size_t>(d)],
                      std::string(domain), ExprType::Text(d)};
  }
  ExprRange LeafRange(const ExprNode& n) const override {
    if (n.op == kVar) {
      return {-1, out_.domain_sizes[n.a]};
    }
    if (n.op == kEventText) {
      return {
          -1,
          out_.domain_sizes[static_cast<std::size_t>(out_.text_domain[n.a])]};
    }
    if (n.op == kEventNumber) {
      const std::vector<std::int64_t>& of = out_.number_of[n.a];
      if (of.empty()) return {0, 0};
      return {*std::min_element(of.begin(), of.end()),
              *std::max_element(of.begin(), of.end())};
    }
    if (n.op == kRecordPartition) return {-1, config_.broker.partitions};
    if (n.op == kRecordOffset) return {0, kMaxRecords - 1};
    // A cell: its storage decides.
    switch (n.a) {
      case kPublished:
      case kInbox:
      case kLedger:
      case kCache:
        return {0, 1};
      case kVersion:
        return {0, UINT16_MAX};
      case kUserCell:
        return {INT16_MIN, INT16_MAX};
      default:
        return {0, UINT8_MAX};
    }
  }

  std::string DomainWords() const override {
    std::vector<std::string> words = {"events", "keys"};
    if (Partitioned()) {
      words.emplace_back("partitions");
      words.emplace_back("records");
    }
    for (const Event& e : config_.events) {
      if (e.account) words.push_back("accounts");
      for (const EventAttribute& a : e.attributes) {
        if (a.text) words.push_back(DomainOf(config_, a.name) + "s");
      }
    }
    std::vector<std::string> unique;
    for (const std::string& w : words) {
      if (std::find(unique.begin(), unique.end(), w) == unique.end()) {
        unique.push_back(w);
      }
    }
    return fmt::format("{}", fmt::join(unique, ", "));
  }

  // A string literal: pushed with kLiteral type; Resolve() turns it into
  // the index of its value once a comparison or an index gives its domain.
  Typed Literal(const ExprToken& t) {
    ExprNode n;
    n.value = -1;
    const int node = Push(n);
    literals_.push_back({node, t.text, t.offset, -1});
    return {node, ExprType{ExprType::Kind::kText, kLiteral}};
  }
  // Gives literal `node` domain `d` (for index and comparison).
  void Assign(int node, int domain) {
    for (PendingLiteral& l : literals_) {
      if (l.node == node) l.domain = domain;
    }
  }
  void Resolve() {
    for (const PendingLiteral& l : literals_) {
      if (l.domain < 0) continue;  // never compared: a type error was raised
      int index = -1;
      std::vector<std::string_view> names;
      if (l.domain == 0) {
        for (std::size_t e = 0; e < config_.events.size(); ++e) {
          names.push_back(config_.events[e].name);
          if (config_.events[e].name == l.text) index = static_cast<int>(e);
        }
        if (index >= 0 &&
            std::find(out_.named_events.begin(), out_.named_events.end(),
                      index) == out_.named_events.end()) {
          out_.named_events.push_back(index);
        }
      } else if (Partitioned() &&
                 out_.domains[static_cast<std::size_t>(l.domain - 1)] ==
                     kRecordDomain) {
        throw ExprFailure{l.offset,
                          "a record has no name to write in quotes; range "
                          "over records with all(records, ...)"};
      } else {
        std::vector<std::string> values = DomainValues(
            config_, out_.domains[static_cast<std::size_t>(l.domain - 1)]);
        if (Partitioned() &&
            out_.domains[static_cast<std::size_t>(l.domain - 1)] ==
                kPartitionDomain) {
          values.clear();
          for (int p = 1; p <= config_.broker.partitions; ++p) {
            values.push_back(fmt::format("p{}", p));
          }
        }
        for (std::size_t v = 0; v < values.size(); ++v) {
          if (values[v] == l.text) index = static_cast<int>(v);
        }
        if (index < 0) {
          const std::vector<std::string_view> views(values.begin(),
                                                    values.end());
          throw ExprFailure{
              l.offset,
              fmt::format("no event has {} \"{}\"{}",
                          out_.domains[static_cast<std::size_t>(l.domain - 1)],
                          l.text, DidYouMean(l.text, views))};
        }
      }
      if (index < 0) {
        throw ExprFailure{l.offset,
                          fmt::format("no event is named \"{}\"{}", l.text,
                                      DidYouMean(l.text, names))};
      }
      out_.nodes[static_cast<std::size_t>(l.node)].value = index;
    }
  }

  void UnifyText(Typed& l, Typed& r) override {
    const auto literal = [](const Typed& x) {
      return x.second.kind == ExprType::Kind::kText &&
             x.second.domain == kLiteral;
    };
    const auto text = [](const Typed& x) {
      return x.second.kind == ExprType::Kind::kText && x.second.domain >= 0;
    };
    if (literal(l) && text(r)) {
      Assign(l.first, r.second.domain);
      l.second = r.second;
    } else if (literal(r) && text(l)) {
      Assign(r.first, l.second.domain);
      r.second = l.second;
    }
  }

  // An index or comparison operand of text type `want` (domain d): a
  // literal takes the domain.
  void RequireText(Typed x, int domain, int offset, std::string_view what) {
    if (x.second.kind == ExprType::Kind::kText && x.second.domain == kLiteral) {
      Assign(x.first, domain);
      return;
    }
    if (!(x.second == ExprType::Text(domain))) {
      throw ExprFailure{offset, std::string(what)};
    }
  }

  Typed Name(const ExprToken& name) override {
    if (name.kind == ExprToken::Kind::kString) return Literal(name);
    if (name.text == "old" && IsPunct("(")) {
      if (out_.kind != InvariantKind::kTransition) {
        throw ExprFailure{
            name.offset,
            "old(...) is only for kind = \"transition\", which compares the "
            "state before a step with the state after"};
      }
      Next();
      Typed x = Expr();
      Expect(")", "to close 'old('");
      ExprNode n;
      n.op = ExprOp::kOld;
      n.lhs = x.first;
      return {Push(n), x.second};
    }
    if (IsPunct("(")) {
      throw ExprFailure{
          name.offset,
          fmt::format(
              "unknown function '{}'{}", name.text,
              DidYouMean(name.text,
                         std::vector<std::string_view>{"all", "any", "count",
                                                       "sum", "max", "old"})
                      .empty()
                  ? std::string("; functions are all, "
                                "any, count, sum, max, "
                                "old")
                  : DidYouMean(name.text, std::vector<std::string_view>{
                                              "all", "any", "count", "sum",
                                              "max", "old"}))};
    }
    if (name.text.rfind("group.", 0) == 0) return GroupFact(name);
    if (const ExprDomain* d = Bound(name.text)) {
      ExprNode n;
      n.op = kVar;
      n.a = static_cast<std::uint8_t>(d->id);
      return {Push(n), d->variable_type};
    }
    if (name.text.rfind("record.", 0) == 0 && Bound(kRecordDomain)) {
      return RecordAttributeRead(name);
    }
    if (name.text.rfind("event.", 0) == 0) return EventAttributeRead(name);
    if (IsPunct("[")) return Cell(name);
    throw ExprFailure{
        name.offset,
        fmt::format("unknown name '{}'; an expression reads outbox columns "
                    "(published[event]), group tables (GROUP.TABLE[event]), "
                    "event attributes (event.version) and aggregates (all, "
                    "any, count, sum, max)",
                    name.text)};
  }

  Typed GroupFact(const ExprToken& name) {
    auto it =
        std::find(std::begin(kGroupFacts), std::end(kGroupFacts), name.text);
    if (it == std::end(kGroupFacts)) {
      throw ExprFailure{
          name.offset,
          fmt::format("unknown fact '{}'{}; facts about the group checked "
                      "are {}",
                      name.text, DidYouMean(name.text, kGroupFacts),
                      fmt::join(kGroupFacts, ", "))};
    }
    if (group_ < 0) {
      throw ExprFailure{name.offset,
                        fmt::format("'{}' is about the group an invariant is "
                                    "checked for; set groups = \"all\" (or a "
                                    "kind, or names) to check it per group",
                                    name.text)};
    }
    const Group& g = config_.groups[static_cast<std::size_t>(group_)];
    const StrategyFamily f = FamilyOf(g);
    // In the order of kGroupFacts.
    const bool facts[] = {
        f == StrategyFamily::kCredit,     f == StrategyFamily::kNotification,
        f == StrategyFamily::kProjection, f == StrategyFamily::kCache,
        f == StrategyFamily::kCustom,     HasInbox(g),
        g.inbox_retention.has_value()};
    static_assert(std::size(kGroupFacts) == 7);
    return {Constant(facts[it - std::begin(kGroupFacts)] ? 1 : 0),
            ExprType::Bool()};
  }

  Typed EventAttributeRead(const ExprToken& name) {
    const std::string_view attribute = std::string_view(name.text).substr(6);
    const ExprDomain* event = Bound("event");
    if (event == nullptr) {
      throw ExprFailure{name.offset,
                        fmt::format("{} is read inside an aggregate over "
                                    "events, such as all(events, ...)",
                                    name.text)};
    }
    if (KnownNumber(attribute) && !KnownText(attribute)) {
      auto it = std::find(out_.numbers.begin(), out_.numbers.end(), attribute);
      if (it == out_.numbers.end()) {
        out_.numbers.emplace_back(attribute);
        std::vector<std::int64_t> of;
        for (const Event& e : config_.events) {
          of.push_back(NumberAttribute(e, attribute).value_or(0));
        }
        out_.number_of.push_back(std::move(of));
        it = out_.numbers.end() - 1;
      }
      ExprNode n;
      n.op = kEventNumber;
      n.a = static_cast<std::uint8_t>(it - out_.numbers.begin());
      return {Push(n), ExprType::Int()};
    }
    if (KnownText(attribute)) {
      ExprNode n;
      n.op = kEventText;
      n.a = static_cast<std::uint8_t>(TextRead(attribute));
      return {Push(n), ExprType::Text(out_.text_domain[n.a])};
    }
    throw ExprFailure{
        name.offset,
        fmt::format("no event has the attribute '{}'; events carry key, "
                    "account, version, amount and attributes of their own",
                    attribute)};
  }

  // record.partition or record.offset, inside all(records, ...).
  Typed RecordAttributeRead(const ExprToken& name) {
    const std::string_view attribute = std::string_view(name.text).substr(7);
    ExprNode n;
    n.a = static_cast<std::uint8_t>(Bound(kRecordDomain)->id);
    if (attribute == "partition") {
      const int d = DomainIndex(kPartitionDomain);
      n.op = kRecordPartition;
      n.b = static_cast<std::uint8_t>(d);
      return {Push(n), ExprType::Text(d)};
    }
    if (attribute == "offset") {
      n.op = kRecordOffset;
      return {Push(n), ExprType::Int()};
    }
    throw ExprFailure{name.offset,
                      fmt::format("a record has no attribute '{}'; records "
                                  "carry partition and offset",
                                  attribute)};
  }

  // [GROUP.]TABLE '[' index ']'
  Typed Cell(const ExprToken& name) {
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
        throw ExprFailure{name.offset,
                          fmt::format("unknown group '{}'{}", g, hint)};
      }
      group = static_cast<int>(it - group_names_.begin());
    }
    const bool outbox =
        group < 0 && std::find(std::begin(kOutboxCells), std::end(kOutboxCells),
                               cell) != std::end(kOutboxCells);
    if (group < 0 && !outbox) group = group_;  // the group checked, if any
    ExprNode n;
    n.op = kCellLeaf;
    n.b = static_cast<std::uint8_t>(group + 1);
    int domain = 0;  // what the index ranges over
    bool boolean = false;
    if (outbox) {
      n.a = static_cast<std::uint8_t>(
          std::find(std::begin(kOutboxCells), std::end(kOutboxCells), cell) -
          std::begin(kOutboxCells));
      boolean = IsBoolCell(n.a);
    } else {
      std::vector<std::string_view> names(std::begin(kGroupCells),
                                          std::end(kGroupCells));
      const HandlerProgram* program =
          group >= 0 && config_.groups[static_cast<std::size_t>(group)].declared
              ? &*config_.groups[static_cast<std::size_t>(group)].declared
              : nullptr;
      // The partitioned broker's cells (applied on either broker), unless
      // the group's strategy file declares a table of that name.
      const auto broker_cell =
          std::find(std::begin(kBrokerCells), std::end(kBrokerCells), cell);
      const bool declared_here =
          program != nullptr &&
          std::any_of(program->tables.begin(), program->tables.end(),
                      [&](const UserTable& t) { return t.name == cell; });
      if (group >= 0 && broker_cell != std::end(kBrokerCells) &&
          !declared_here &&
          (broker_cell == std::begin(kBrokerCells) || Partitioned())) {
        n.a = static_cast<std::uint8_t>(
            kApplied + (broker_cell - std::begin(kBrokerCells)));
        boolean = IsBoolCell(n.a);
        domain = n.a == kApplied ? DomainIndex("key")
                 : n.a == kCommitted || n.a == kStaleCommit
                     ? DomainIndex(kPartitionDomain)
                     : DomainIndex(kRecordDomain);
        out_.observes |= n.a == kApplied       ? kObserveKeyOrder
                         : n.a == kStaleCommit ? kObserveStaleCommit
                         : n.a == kProcessed   ? kObserveProcessed
                                               : 0;
        return IndexedCell(name, cell, n, domain, boolean);
      }
      if (program != nullptr) {
        for (const UserTable& t : program->tables) names.push_back(t.name);
      }
      auto it = std::find(names.begin(), names.end(), cell);
      if (it == names.end() || group < 0) {
        std::string hint = DidYouMean(cell, names);
        if (group < 0) {
          std::vector<std::string_view> columns(std::begin(kOutboxCells),
                                                std::end(kOutboxCells));
          hint = DidYouMean(cell, columns);
          if (hint.empty()) {
            hint = fmt::format("; outbox columns are {}",
                               fmt::join(columns, ", "));
          }
          throw ExprFailure{
              name.offset,
              fmt::format("unknown column '{}'{} (a group's table is "
                          "written GROUP.TABLE)",
                          cell, hint)};
        }
        if (hint.empty()) {
          hint = fmt::format("; group tables are {}", fmt::join(names, ", "));
        }
        throw ExprFailure{
            name.offset,
            fmt::format("unknown table '{}' of group '{}'{}", cell,
                        group_names_[static_cast<std::size_t>(group)], hint)};
      }
      const int at = static_cast<int>(it - names.begin());
      if (at < static_cast<int>(std::size(kGroupCells))) {
        n.a = static_cast<std::uint8_t>(kReady + at);
        boolean = IsBoolCell(n.a);
        if (IsKeyCell(n.a)) domain = DomainIndex("key");
      } else {
        const int table = at - static_cast<int>(std::size(kGroupCells));
        const UserTable& t = program->tables[static_cast<std::size_t>(table)];
        n.a = kUserCell;
        boolean = t.row;
        for (const UserTableLayout& l : layouts_) {
          if (l.group == group && l.table == table) n.value = l.first;
        }
        if (t.by >= 0) {
          domain =
              DomainIndex(program->domains[static_cast<std::size_t>(t.by)]);
        }
      }
    }
    return IndexedCell(name, cell, n, domain, boolean);
  }

  // The '[' index ']' of cell `n` (of `domain`), and the leaf.
  Typed IndexedCell(const ExprToken& name, std::string_view cell, ExprNode n,
                    int domain, bool boolean) {
    Expect("[", fmt::format("after '{}'", name.text));
    const ExprToken index_token = Peek();
    const std::string wanted =
        domain == 0 ? std::string("an event")
                    : out_.domains[static_cast<std::size_t>(domain - 1)];
    if (index_token.kind == ExprToken::Kind::kName &&
        index_token.text == "event" && Bound("event") == nullptr) {
      throw ExprFailure{index_token.offset,
                        fmt::format("'{}' is indexed by {}: write [event] "
                                    "inside an aggregate over events, such as "
                                    "all(events, ...), got 'event'",
                                    cell, wanted)};
    }
    const Typed index = Expr();
    RequireText(
        index, domain, index_token.offset,
        domain == 0
            ? fmt::format("'{}' is indexed by an event: write [event] inside "
                          "an aggregate over events, such as all(events, "
                          "...), or an event's name in quotes",
                          cell)
            : fmt::format("'{}' is indexed by {}: write [{}] inside "
                          "all({}s, ...), [{}] inside all(events, ...), "
                          "or a value in quotes",
                          cell, wanted,
                          out_.domains[static_cast<std::size_t>(domain - 1)],
                          out_.domains[static_cast<std::size_t>(domain - 1)],
                          EventWords(domain)));
    Expect("]", "to close the index");
    n.lhs = index.first;
    return {Push(n), boolean ? ExprType::Bool() : ExprType::Int()};
  }

  // How an event's value of domain `domain` is written: "event.account",
  // or "event.from or event.to" for the attributes events carry.
  std::string EventWords(int domain) const {
    const std::vector<std::string> attributes = DomainAttributes(
        config_, out_.domains[static_cast<std::size_t>(domain - 1)]);
    std::vector<std::string> words;
    for (const std::string& a : attributes) {
      if (std::any_of(config_.events.begin(), config_.events.end(),
                      [&](const Event& e) {
                        return TextAttribute(e, a).has_value();
                      })) {
        words.push_back("event." + a);
      }
    }
    if (words.empty()) words.push_back("event." + attributes.front());
    return fmt::format("{}", fmt::join(words, " or "));
  }

  struct PendingLiteral {
    int node;
    std::string text;
    int offset;
    int domain;
  };

  const Config& config_;
  InvariantExpression& out_;
  int group_;
  std::vector<std::string> group_names_;
  std::vector<UserTableLayout> layouts_;
  std::vector<PendingLiteral> literals_;
};

struct Context {
  const InvariantExpression& x;
  const OutboxModel& model;
  const State* now;
  const State* before;
  int binding[kMaxDomains] = {-1, -1, -1, -1, -1, -1, -1, -1};

  std::int64_t Leaf(const ExprNode& n) {
    if (n.op == kVar) return binding[n.a];
    if (n.op == kEventText) {
      return x.text_of[static_cast<std::size_t>(n.a)]
                      [static_cast<std::size_t>(binding[0])];
    }
    if (n.op == kEventNumber) {
      return x.number_of[n.a][static_cast<std::size_t>(binding[0])];
    }
    if (n.op == kRecordPartition) return binding[n.a] / kMaxRecords;
    if (n.op == kRecordOffset) return binding[n.a] % kMaxRecords;
    const std::int64_t index = Evaluate(x.nodes, n.lhs, *this);
    if (index < 0) return 0;  // an event without the attribute
    const State& s = *now;
    const auto i = static_cast<std::size_t>(index);
    const int group = n.b - 1;
    const auto partitions = static_cast<std::size_t>(model.Partitions());
    switch (n.a) {
      case kApplied:
        return s
            .group_keys[static_cast<std::size_t>(group * model.KeyCount()) + i]
            .applied;
      case kCommitted:
      case kStaleCommit: {
        const GroupPartitionCells& c =
            s.partitions[static_cast<std::size_t>(group) * partitions + i];
        return n.a == kCommitted ? c.committed : c.stale_commit;
      }
      case kProcessed:
      case kInFlight: {
        const std::size_t p = i / kMaxRecords;
        const std::size_t j = i % kMaxRecords;
        if (n.a == kProcessed) {
          return (s.partitions[static_cast<std::size_t>(group) * partitions + p]
                      .done >>
                  j) &
                 1u;
        }
        // Some instance of the group works on the record.
        const int first = model.FirstInstance(group);
        for (int k = 0; k < model.config().groups[group].instances; ++k) {
          const InstanceCells& inst = s.instances[first + k];
          if (inst.partition == p + 1 && inst.offset == j) return 1;
        }
        return 0;
      }
      case kPublished:
        return s.events[i].published;
      case kToken:
        return s.events[i].token;
      case kCompletedToken:
        return s.events[i].completed_token;
      case kOffered:
        return s.events[i].offered;
      case kVersion:
      case kCache: {
        const GroupKeyCells& c =
            s.group_keys[static_cast<std::size_t>(group * model.KeyCount()) +
                         i];
        return n.a == kVersion ? c.version : c.cache;
      }
      case kUserCell:
        return s.user[static_cast<std::size_t>(n.value) + i];
      default:
        break;
    }
    const GroupEventCells& c = s.group_events[static_cast<std::size_t>(group) *
                                                  model.config().events.size() +
                                              i];
    switch (n.a) {
      case kReady:
        return c.ready;
      case kEffects:
        return c.effects;
      case kInbox:
        return c.inbox;
      case kLedger:
        return c.ledger;
      default:
        return c.sent;
    }
  }
  int DomainSize(int d) const { return x.domain_sizes[d]; }
  int Bind(int d, int i) {
    const int previous = binding[d];
    binding[d] = i;
    return previous;
  }
  void Unbind(int d, int previous) { binding[d] = previous; }
  void EnterOld() { std::swap(now, before); }
  void LeaveOld() { std::swap(now, before); }
};

bool AllHold(const InvariantExpression& x, const OutboxModel& model,
             const State& now, const State& before) {
  for (int root : x.roots) {
    Context ctx{x, model, &now, &before};
    if (Evaluate(x.nodes, root, ctx) == 0) return false;
  }
  return true;
}

// The groups `selectors` stand for, in config order; an error names the
// first selector that is neither a group nor a kind.
std::optional<std::vector<int>> SelectGroups(
    const Config& config, const std::vector<std::string>& selectors,
    ExpressionError& error) {
  std::vector<int> out;
  for (const std::string& sel : selectors) {
    bool known = false;
    for (std::size_t g = 0; g < config.groups.size(); ++g) {
      const Group& group = config.groups[g];
      const StrategyFamily f = FamilyOf(group);
      const bool match =
          sel == "all" || sel == group.name ||
          (sel == "credit" && f == StrategyFamily::kCredit) ||
          (sel == "projection" && f == StrategyFamily::kProjection) ||
          (sel == "notification" && f == StrategyFamily::kNotification) ||
          (sel == "cache" && f == StrategyFamily::kCache) ||
          (sel == "custom" && f == StrategyFamily::kCustom);
      if (match) {
        known = true;
        if (std::find(out.begin(), out.end(), static_cast<int>(g)) ==
            out.end()) {
          out.push_back(static_cast<int>(g));
        }
      }
    }
    const bool selector =
        std::find(std::begin(kGroupSelectors), std::end(kGroupSelectors),
                  sel) != std::end(kGroupSelectors);
    if (!known && !selector) {
      std::vector<std::string_view> names(std::begin(kGroupSelectors),
                                          std::end(kGroupSelectors));
      for (const Group& g : config.groups) names.push_back(g.name);
      error = ExpressionError{
          -1, fmt::format("'{}' is neither a group of this scenario nor a "
                          "kind of group{}",
                          sel, DidYouMean(sel, names))};
      return std::nullopt;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool InvariantExpression::Holds(const OutboxModel& model,
                                const State& s) const {
  return AllHold(*this, model, s, s);
}

bool InvariantExpression::HoldsOn(const OutboxModel& model, const State& before,
                                  const State& after) const {
  return AllHold(*this, model, after, before);
}

void AddStateReads(const InvariantExpression& x, StateReads& reads) {
  for (const ExprNode& n : x.nodes) {
    if (n.op != kCellLeaf) continue;
    std::uint8_t bit = 0;
    switch (n.a) {
      case kPublished:
      case kToken:
      case kCompletedToken:
        if (n.b == 0) {
          reads.rows = true;
          continue;
        }
        break;
      case kOffered:
        if (n.b == 0) {
          reads.offered = true;
          continue;
        }
        break;
      case kReady:
        bit = kReadsReady;
        break;
      case kEffects:
        bit = kReadsEffects;
        break;
      case kInbox:
        bit = kReadsInbox;
        break;
      case kLedger:
        bit = kReadsLedger;
        break;
      case kSent:
        bit = kReadsSent;
        break;
      case kVersion:
      case kCache:
        bit = kReadsKeys;
        break;
      case kUserCell:
        bit = kReadsUser;
        break;
    }
    const std::size_t group = n.b - 1u;
    if (n.b == 0 || bit == 0 || group >= reads.groups.size()) {
      // Not a cell this list knows: it may read anything.
      reads.rows = reads.offered = true;
      for (std::uint8_t& g : reads.groups) g = 0xff;
      continue;
    }
    reads.groups[group] |= bit;
  }
}

bool CompileInvariantExpression(const Config& config, InvariantExpression& out,
                                ExpressionError& error) {
  out.nodes.clear();
  out.roots.clear();
  out.attributes.clear();
  out.domains.clear();
  out.domain_sizes.assign(1, static_cast<int>(config.events.size()));
  out.text_reads.clear();
  out.text_domain.clear();
  out.text_of.clear();
  out.numbers.clear();
  out.number_of.clear();
  out.observes = 0;
  std::vector<int> groups = {-1};
  if (!out.groups.empty()) {
    std::optional<std::vector<int>> selected =
        SelectGroups(config, out.groups, error);
    if (!selected) return false;
    groups = *selected;
  }
  try {
    // No group of the kinds named: nothing to check (vacuously true), as
    // for a built-in invariant of a kind the scenario has no group of.
    for (int g : groups) {
      out.roots.push_back(Parser(config, out, g).Parse(out.text));
    }
  } catch (const ExprFailure& f) {
    error = ExpressionError{f.offset, f.message};
    return false;
  }
  return true;
}

}  // namespace oc
