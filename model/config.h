// The configuration of one outbox model (docs/SEMANTICS.md section 1): relays,
// events, consumer groups, switches, fault budgets and the claim bound.
//
// A Config is plain data. It is filled by the scenario loader (or by a test)
// and validated once by Validate(); an OutboxModel is only ever built from a
// Config that validated. Names are kept for printing and for parsing pinned
// actions; the model itself works on indices.

#ifndef OUTBOX_CHECK_MODEL_CONFIG_H_
#define OUTBOX_CHECK_MODEL_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/handler_program.h"

namespace oc {

// The nine handler strategies of docs/SEMANTICS.md section 5.
enum class Strategy : std::uint8_t {
  kCreditNaive,
  kCreditInbox,
  kCreditCheckThenAct,
  kCreditEffectThenInbox,
  kProjectionLww,
  kProjectionMonotonic,
  kNotificationLedgerThenSend,
  kNotificationSendThenLedger,
  kCacheInvalidate,
  // A strategy declared in a strategy file (Group::declared holds it); not
  // in kAllStrategies, and no scenario spells it.
  kDeclared,
};

// What a strategy's durable effect is about; decides which tables it writes
// and which invariants apply to its group.
enum class StrategyFamily : std::uint8_t {
  kCredit,
  kProjection,
  kNotification,
  kCache,
  // A declared strategy that writes only tables of its own (no built-in
  // table): no built-in group invariant applies; its file's scenario
  // states its invariants as expressions.
  kCustom,
};

inline constexpr Strategy kAllStrategies[] = {
    Strategy::kCreditNaive,
    Strategy::kCreditInbox,
    Strategy::kCreditCheckThenAct,
    Strategy::kCreditEffectThenInbox,
    Strategy::kProjectionLww,
    Strategy::kProjectionMonotonic,
    Strategy::kNotificationLedgerThenSend,
    Strategy::kNotificationSendThenLedger,
    Strategy::kCacheInvalidate,
};

// "credit.naive", "projection.lww", ... as written in scenario files.
std::string_view StrategyName(Strategy s);
std::optional<Strategy> ParseStrategy(std::string_view name);
StrategyFamily FamilyOf(Strategy s);
// 1 or 2 (docs/SEMANTICS.md section 5, column "steps").
int StepCount(Strategy s);
// True for the credit strategies that keep an inbox table.
bool HasInbox(Strategy s);
// What a two-step strategy keeps in InstanceCells::memo between its steps.
enum class StrategyMemo : std::uint8_t {
  kNone,
  kInboxRead,     // the inbox value its first step read (0 or 1)
  kLedgerRowNew,  // 1: its ledger row was new; 0: it was already there
};
StrategyMemo MemoOf(Strategy s);
// True when the strategy's inbox has no unique key on (consumer, event id),
// so a check that found no row does not stop a concurrent insert
// (credit.check_then_act).
bool HasUnkeyedInbox(Strategy s);
// True for the strategies whose inbox decides "duplicate arrives
// concurrently" (docs/SEMANTICS.md section 7, row 5), which a conformance run
// then replays against the database with two connections.
bool RunsConcurrentDuplicate(Strategy s);

// An attribute of an event beyond the named ones (an order id, a SKU, a
// quantity): text or a number.
struct EventAttribute {
  std::string name;
  std::optional<std::string> text;
  std::optional<std::int64_t> number;
  bool operator==(const EventAttribute&) const = default;
};

// One committed outbox event. `key` and `version` are required by projection
// and cache groups; a declared strategy may read any attribute (its tables
// are indexed by text attributes, and it reads numbers); the others are
// carried for the reader only.
struct Event {
  std::string name;  // "e1" unless the scenario names it
  std::string type;  // a label, e.g. "credit"; the model does not interpret it
  std::optional<std::string> key;
  std::optional<std::uint16_t> version;
  std::optional<std::string> account;
  std::optional<std::int64_t> amount;
  std::vector<EventAttribute> attributes;  // the others, by name
  // With a partitioned broker: the partition the event goes to, from 1
  // (unset: by key; docs/SEMANTICS.md section 16).
  std::optional<int> partition;
  bool operator==(const Event&) const = default;
};

// An event's text attribute by name (key, account, type, or one of its
// own), or its number attribute (version, amount, or one of its own).
std::optional<std::string> TextAttribute(const Event& e, std::string_view name);
std::optional<std::int64_t> NumberAttribute(const Event& e,
                                            std::string_view name);
// An event's attributes of its own, for reports: "order=o-1, qty=2", or
// "" when it has none.
std::string OwnAttributesText(const Event& e);

// Durations are whole seconds (model/TIME.md); the model counts them in
// units of their greatest common divisor.
using Seconds = std::int64_t;

// A starting value of a declared table's cell (scenarios/FORMAT.md,
// `[initial]`): the cell of `table` at `at` (a value of the table's domain,
// or an event's name for a table by event) starts at `value` instead of 0.
struct InitialValue {
  std::string table;
  std::string at;
  std::int64_t value = 0;
  bool operator==(const InitialValue&) const = default;
};

struct Group {
  std::string name;
  Strategy strategy = Strategy::kCreditNaive;
  int instances = 1;  // K >= 1
  // Time (model/TIME.md): inbox rows may be deleted once this old, by a
  // cleanup job that runs every `inbox_cleanup_every`.
  std::optional<Seconds> inbox_retention{};
  std::optional<Seconds> inbox_cleanup_every{};
  // Delays before the 1st, 2nd, ... redelivery of a failed delivery.
  std::vector<Seconds> redelivery{};
  // A dead-letter queue, when either is set: an operator redrives its
  // messages after `dead_letter_redrive`; it drops them after
  // `dead_letter_retention`.
  std::optional<Seconds> dead_letter_redrive{};
  std::optional<Seconds> dead_letter_retention{};
  // The outside world's idempotency keys (`call ... with_key` of a declared
  // strategy) are kept this long after the call they let through; unset:
  // kept forever.
  std::optional<Seconds> idempotency_key_window{};
  // Set exactly when strategy == kDeclared: the compiled declared strategy.
  std::optional<HandlerProgram> declared = std::nullopt;
  // Starting values of the declared tables' cells, in the file's order.
  std::vector<InitialValue> initial{};
  // With a partitioned broker: commit a record's offset before its handler
  // runs (at-most-once) instead of after it (docs/SEMANTICS.md section 16).
  bool commit_before = false;
  // With a partitioned broker and handler failures: a failed record goes
  // to the group's retry topic and the partition moves on, instead of
  // being retried in place (docs/SEMANTICS.md section 16.2).
  bool retry_topic = false;
  bool operator==(const Group&) const = default;
};

// How the relay moves rows from the outbox to the broker
// (docs/RELAY_STYLES.md, "Which relay style for your library", says which
// library uses which). Every style uses the claim / send / complete
// actions, each with its own meaning:
//  - kLeaseToken: the seed's relay (docs/SEMANTICS.md section 3): a claim
//    takes a lease and a fencing token; complete is fenced.
//  - kRowLock: SELECT ... FOR UPDATE SKIP LOCKED, send, UPDATE published,
//    COMMIT, all in one transaction. claim locks the row (other relays skip
//    it); complete marks it published and commits; a relay crash or a
//    failed commit (commit_fails) rolls the row back to unpublished.
//  - kSequenceCursor: SELECT ... WHERE id > last_seen ORDER BY id; one
//    relay; claim takes the lowest committed id above the durable cursor;
//    complete moves the cursor to that id and marks the row published. Ids
//    are the events' order in the configuration (assigned at insert).
//  - kCdcOffset: a change-data-capture connector; one relay; claim reads
//    the next entry of the commit log, complete records the broker's
//    acknowledgement, flush_offset makes the read position durable, and a
//    restart (crash_relay) resumes from the last flushed offset.
//  - kAgeSweeper: no claim, no lease (Brighter's outbox sweeper, Spring
//    Modulith's resubmission of incomplete publications). A row's first
//    claim is the producer's dispatch, right after its transaction; later
//    claims are the sweeper's, once the row is at least `min_age` old and
//    still not marked; a send takes up to `send_time`; complete marks the
//    row dispatched. Timed: model/TIME.md, "The age sweeper".
//  - kInlineDispatch: a consumer's own outbox (MassTransit's consumer
//    outbox): the handler's transaction writes the rows, then the consume
//    context runs one delivery pass over them; no background relay. A
//    pass that runs before the commit finds nothing, and the row is
//    cleaned up unsent (docs/SEMANTICS.md section 11).
enum class RelayStyle : std::uint8_t {
  kLeaseToken,
  kRowLock,
  kSequenceCursor,
  kCdcOffset,
  kAgeSweeper,
  kInlineDispatch,
};

// The id the inbox (and a deduplicating broker) keys on.
enum class MessageIdentity : std::uint8_t {
  kOutboxId,    // the outbox row's id: every copy of an event is one message
  kPerAttempt,  // a fresh id per send attempt: copies are distinct messages
};

// The values of relay.message_id, in the order of MessageIdentity.
inline constexpr std::string_view kMessageIdentityNames[] = {"outbox_id",
                                                             "per_attempt"};

// "lease_token", "row_lock", ... as written in scenario files (the table of
// relay styles is model/relay_styles.h).
std::string_view RelayStyleName(RelayStyle s);
std::optional<RelayStyle> ParseRelayStyle(std::string_view name);
std::string_view MessageIdentityName(MessageIdentity m);
std::optional<MessageIdentity> ParseMessageIdentity(std::string_view name);
// The strategy questions asked of a group, for built-in and declared
// strategies alike; code that may see a declared strategy asks these.
StrategyFamily FamilyOf(const Group& g);
int StepCount(const Group& g);
bool HasInbox(const Group& g);
// The built-in's name, or the declared strategy's name followed by its
// file: "loyalty.inbox (strategies/loyalty.inbox.toml)".
std::string StrategyLabel(const Group& g);

// Remaining fault budgets are part of the state; these are the initial pools.
// Each pool is 0..kMaxBudget, or kAnyBudget.
struct FaultBudgets {
  int premature_expiries = 0;  // X
  int relay_crashes = 0;       // C
  int lost_publish_acks = 0;   // P
  int lost_consumer_acks = 0;  // A
  int consumer_crashes = 0;    // Q
  int redeliveries = 0;        // V
  int consumer_outages = 0;    // each lasts time.consumer_outage
  int database_outages = 0;    // each lasts time.database_outage
  // Relay styles, message identity, source commits and lost writes. Row-lock
  // relays only: commits that fail after the send.
  int failed_commits = 0;  // F
  // Writes the broker acknowledged and then lost (unsynced, power failure).
  int lost_broker_writes = 0;  // B
  // The partitioned broker: moves of a partition to another instance.
  int rebalances = 0;
  // Transient producer write failures, retried (docs/SEMANTICS.md 16.1).
  int send_failures = 0;
  // Failures of a consumer's handler on a record (section 16.2).
  int handler_failures = 0;
  bool operator==(const FaultBudgets&) const = default;
};

// How the broker deduplicates copies of an event (model/TIME.md).
enum class Dedup : std::uint8_t {
  kNone,
  kWindow,           // drops a copy within `window` of the last accepted one
  kProducerSession,  // drops a relay's retry after a lost acknowledgement
};

// kCapped: clocks stop at the largest constant they are compared with (the
// abstraction); kPlain: they count up to the horizon (for comparison).
enum class Clocks : std::uint8_t { kCapped, kPlain };

struct TimeConfig {
  std::optional<Seconds> lease;  // a lease's length
  std::optional<Seconds> poll;   // relays' poll interval
  std::optional<Seconds> horizon;
  std::optional<Seconds> consumer_outage;
  std::optional<Seconds> database_outage;
  Clocks clocks = Clocks::kCapped;
  bool operator==(const TimeConfig&) const = default;
};

// How the broker hands copies to consumer groups: as a bag (any copy, any
// order, acknowledged one by one), or as ordered partitions read through
// committed offsets (docs/SEMANTICS.md section 16).
enum class Delivery : std::uint8_t { kBag, kPartitioned };

struct BrokerConfig {
  Dedup dedup = Dedup::kNone;
  std::optional<Seconds> window;  // with kWindow only
  Delivery delivery = Delivery::kBag;
  int partitions = 1;  // with kPartitioned only
  // A commit from an instance that lost the partition, or holds it under
  // a newer assignment than the one it read with, is rejected.
  bool commit_fencing = true;
  bool operator==(const BrokerConfig&) const = default;
};

// The observation cells of the partitioned broker's invariants, which a
// configuration carries only when its checks read them (docs/SEMANTICS.md
// section 16), so that they add no states otherwise.
enum ObservedBits : std::uint8_t {
  kObserveKeyOrder = 1,     // applied[g][k]: applied_in_key_order
  kObserveProcessed = 2,    // done[g][p][j]: no_offset_skipped
  kObserveStaleCommit = 4,  // stale_commit[g][p]: committed_by_owner
};

// What a set of checks reads of events: attributes by name ("account",
// "version", or one of an event's own), and the events it names with a
// literal, which it therefore tells apart from the others.
struct EventReads {
  std::vector<std::string> attributes;
  std::vector<std::string> events;
  bool operator==(const EventReads&) const = default;
};

// What a set of checks reads of the state: the outbox rows, the broker's
// counts of copies accepted, and per group the cells named by the kReads*
// bits. Partial-order reduction (model/partial_order.h) treats the actions
// that write these as visible.
enum StateReadBits : std::uint8_t {
  kReadsReady = 1,  // broker.ready[GROUP][e]
  kReadsEffects = 2,
  kReadsInbox = 4,
  kReadsLedger = 8,
  kReadsSent = 16,
  kReadsKeys = 32,  // version and cache
  kReadsUser = 64,  // declared tables
};
struct StateReads {
  bool rows = false;
  bool offered = false;
  std::vector<std::uint8_t> groups;  // per group, StateReadBits
  bool operator==(const StateReads&) const = default;
};

struct Config {
  std::vector<std::string> relays;  // R >= 1 names, "r1".."rR" by default
  std::vector<Event> events;        // E >= 1
  std::vector<Group> groups;        // G >= 0
  bool lease = true;
  bool fencing = true;
  FaultBudgets budgets;
  // claim(r, e) is enabled only while token[e] < claim_bound. 0: no bound.
  // Required when `lease` is off (relays could fence each other forever).
  int claim_bound = 0;
  TimeConfig time;
  BrokerConfig broker;
  // Relay styles: the relay style, the message identity, and whether the source
  // transactions commit during the run (each event starts pending and a
  // source_commit(e) action commits it) instead of before it.
  RelayStyle relay_style = RelayStyle::kLeaseToken;
  MessageIdentity message_id = MessageIdentity::kOutboxId;
  bool commits_during_run = false;
  // age_sweeper only (required with it): the age from which the sweeper
  // sends a row still not marked dispatched again; and the longest a send
  // takes (unset: a send returns at the instant it begins).
  std::optional<Seconds> min_age{};
  std::optional<Seconds> send_time{};
  // sequence_cursor only (docs/SEMANTICS.md section 11, "Gaps"): the cursor
  // stops at a pending id above it instead of reading past it; with
  // `gap_timeout`, only until the gap is that old. `commit_within` bounds a
  // source transaction's length (model/TIME.md, "The gap-waiting cursor").
  bool gaps_wait = false;
  std::optional<Seconds> gap_timeout{};
  std::optional<Seconds> commit_within{};
  // The partitioned broker's producer (docs/SEMANTICS.md section 16.1):
  // writes a relay may have outstanding, and whether the broker refuses
  // a producer's write out of sequence.
  int max_in_flight = 1;
  bool idempotent_producer = false;
  // inline_dispatch only: the delivery pass starts only once the
  // transaction that writes the rows has committed.
  bool dispatch_waits_for_commit = true;
  // What the checks run on this configuration read of events, so that
  // symmetry (model/symmetry.h) may swap events that differ only in
  // attributes nothing reads. Set by whoever compiles the checks; unset,
  // they may read anything, and only events equal in every attribute are
  // swapped.
  std::optional<EventReads> checks_read;
  // What the checked safety and transition properties read of the state.
  // Set by whoever compiles the checks; unset, they may read anything.
  std::optional<StateReads> checks_state;
  // ObservedBits: which observation cells the checks need.
  std::uint8_t observed = 0;
  bool operator==(const Config&) const = default;
};

// The event attributes a configuration's own rules read: the key and
// version of projection and cache groups, and what declared strategies
// read. The others (an account, an amount, a type) the model only carries
// for the reader, unless a check reads them (Config::checks_read).
std::vector<std::string> AttributesTheModelReads(const Config& config);

// True when the scenario sets any duration: it then has a clock, a `tick`
// action and urgent actions (model/TIME.md).
bool Timed(const Config& config);

// The limits a Config must respect so that every state field fits its type.
inline constexpr int kMaxRelays = 16;
inline constexpr int kMaxEvents = 16;
inline constexpr int kMaxGroups = 8;
inline constexpr int kMaxInstances = 8;
inline constexpr int kMaxBudget = 15;
// A fault budget of "any": the fault may happen any finite number of times.
// Its action never spends it (the count left in the state stays 1), and the
// search abstracts what would otherwise grow without bound (docs/SEMANTICS.md
// section 14).
inline constexpr int kAnyBudget = -1;
inline constexpr int kMaxClaimBound = 100;
// The largest duration, in units of the greatest common divisor of all.
inline constexpr int kMaxTimeUnits = 10000;
inline constexpr int kMaxRedeliveries = 8;  // length of a group's schedule
// The partitioned broker: partitions, and records one partition can hold.
inline constexpr int kMaxPartitions = 4;
inline constexpr int kMaxRecords = 16;
inline constexpr int kMaxInFlight = 5;

// Checks sizes, unique names, required event attributes and the claim bound
// rule. The message names the offending field in scenario-file terms
// ("groups[1].instances", "bounds.claims"), without a file location.
Status Validate(const Config& config);

// True when `config` is the seed's pipeline: a lease_token relay, outbox-id
// message identity, sources committed before the run, no failed commits and
// no lost broker writes. Otherwise `why` (if not null) gets the first
// difference in scenario-file words ("relay.style is 'row_lock'").
bool IsSeedPipeline(const Config& config, std::string* why = nullptr);

// As IsSeedPipeline, but an age_sweeper relay counts as the seed's: false
// exactly when `config` uses a relay-style feature that has no place in
// model/TIME.md's clock yet (and so does not combine with durations).
bool UntimedStylesOnly(const Config& config, std::string* why = nullptr);

// The partitioned broker: the partition (from 0) event `e` goes to, and
// the most records partition `p` can ever hold (every send of each of its
// events, by the relay style's reads and the fault budgets).
int PartitionOf(const Config& config, int e);
int PartitionCapacity(const Config& config, int p);

// The distinct keys of the events, in order of first appearance. Projection
// and cache tables are indexed by position in this list.
std::vector<std::string> Keys(const Config& config);

// The distinct values of a text attribute over the events, in order of
// first appearance (events without it are skipped).
std::vector<std::string> AttributeValues(const Config& config,
                                         std::string_view attribute);

// The domain whose values text attribute `attribute` holds: the domain a
// declared strategy's `[domains]` places it in, else the attribute itself
// (scenarios/strategies/LANGUAGE.md, "Domains").
std::string DomainOf(const Config& config, std::string_view attribute);
// The attributes holding values of `domain`: the one named like it, then
// those the strategies' `[domains]` list, in order of first listing.
std::vector<std::string> DomainAttributes(const Config& config,
                                          std::string_view domain);
// The distinct values of `domain` over the events, in order of first
// appearance (per event, in DomainAttributes order).
std::vector<std::string> DomainValues(const Config& config,
                                      std::string_view domain);
// Per text attribute of `p`: event `e`'s value's index among its domain's
// values (DomainValues), or -1 when the event does not carry it.
std::vector<std::int16_t> EventValueIndices(const Config& config,
                                            const HandlerProgram& p,
                                            const Event& e);

// Where the tables declared by strategy files live in State::user: each
// declared table of each group has `size` cells from `first`, one per event
// or one per value of its domain (DomainValues order); `initial` holds each
// cell's starting value.
// The names of a declared table's cells, in cell order: the events' for
// a table by event, else the values of its domain (DomainValues).
std::vector<std::string> CellNames(const Config& config,
                                   const HandlerProgram& p,
                                   const UserTable& table);
// The tables a group's starting values name, in the order first named.
std::vector<std::string> InitialTables(const Group& group);

struct UserTableLayout {
  int group = 0;
  int table = 0;  // index in the group's HandlerProgram::tables
  int first = 0;
  int size = 0;
  bool by_event = false;
  bool row = false;
  std::vector<std::int16_t> initial;  // per cell
  // The names of the cells' indices: events' or the domain's values.
  std::vector<std::string> names;
};
std::vector<UserTableLayout> UserTableLayouts(const Config& config);
inline constexpr int kMaxUserCells = 64;

// An upper bound on the copies of one event a group can be handed:
// first sends and resends (by the relay style's reads and the fault
// budgets) plus every consumer-side redelivery.
int CopyBound(const Config& config);

// The largest magnitude a declared number table of `group` can reach
// (each `+=` or `-=` runs at most once per delivered copy).
int UserNumberBound(const Config& config, int group);

}  // namespace oc

#endif  // OUTBOX_CHECK_MODEL_CONFIG_H_
