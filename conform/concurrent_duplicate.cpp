#include "conform/concurrent_duplicate.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "common/text.h"
#include "conform/conform_schema.h"
#include "model/outbox_model.h"
#include "model/state_cells.h"

namespace oc::conform {
namespace {

Config DuplicateConfig(Strategy strategy) {
  Config config;
  config.relays = {"A"};
  Event e1;
  e1.name = "e1";
  e1.type = "credit";
  config.events = {e1};
  config.groups = {Group{"billing", strategy, 2}};
  config.budgets.lost_publish_acks = 1;
  return config;
}

// What the model says of the same interleaving: a lost publish
// acknowledgement puts two copies in the broker; both instances take one
// before either finishes.
Result<int> ModelCredits(const Config& config, Strategy strategy) {
  const OutboxModel model(config);
  std::vector<std::string> order = {"claim(A, e1)", "send_ack_lost(A)",
                                    "send(A)", "consume(billing, 1, e1)",
                                    "consume(billing, 2, e1)"};
  if (StepCount(strategy) == 2) {
    order.push_back("step(billing, 1)");
    order.push_back("step(billing, 2)");
  }
  State s = model.InitialStates().front();
  for (const std::string& text : order) {
    Result<Action> a = ParseAction(config, text);
    if (!a.ok()) return a.status();
    Result<State> next = model.Apply(s, a.value());
    if (!next.ok()) return next.status();
    s = std::move(next).value();
  }
  // The one group, billing, and the one event, e1.
  if (s.group_events.empty()) {
    return Status::Error("the model has no cell billing.effects[e1]");
  }
  return static_cast<int>(s.group_events.front().effects);
}

// The two instances' connections and the log of what they ran.
class Interleaving {
 public:
  Interleaving(PgConnection& one, PgConnection& two, PgConnection& observer,
               std::vector<RunStatement>& log)
      : conns_{&one, &two}, observer_(observer), log_(log) {}

  // Runs a statement on instance i (0 or 1) and waits for its result.
  Result<PgRows> Run(int i, const std::string& sql,
                     const std::vector<std::string>& params = {}) {
    Result<PgRows> r = conns_[i]->Exec(sql, params);
    Log(i, sql, params, r);
    return r;
  }

  // Sends a statement on instance i without waiting; then watches it until
  // it is waiting for a lock (true) or has finished (false).
  Result<bool> SendAndWatch(int i, const std::string& sql,
                            const std::vector<std::string>& params) {
    pending_sql_ = sql;
    pending_params_ = params;
    if (Status s = conns_[i]->Send(sql, params); !s.ok()) return s;
    const std::string pid = std::to_string(conns_[i]->BackendPid());
    for (int tries = 0; tries < 1000; ++tries) {
      Result<bool> busy = conns_[i]->Busy();
      if (!busy.ok()) return busy.status();
      if (!busy.value()) return false;
      Result<PgRows> activity = observer_.Exec(
          "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", {pid});
      if (!activity.ok()) return activity.status();
      const PgRows& rows = activity.value();
      if (!rows.rows.empty() && rows.rows[0][0] == "Lock") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return Status::Error(
        "the second instance's statement neither finished nor waited for a "
        "lock within 10 seconds");
  }

  // Waits for the statement SendAndWatch left running on instance i.
  Result<PgRows> Finish(int i, std::string_view note) {
    Result<PgRows> r = conns_[i]->Finish();
    Log(i, pending_sql_, pending_params_, r, note);
    return r;
  }

 private:
  void Log(int i, const std::string& sql,
           const std::vector<std::string>& params, const Result<PgRows>& r,
           std::string_view note = "") {
    std::string outcome =
        !r.ok() ? r.status().message()
        : !r.value().columns.empty()
            ? fmt::format("read {}", r.value().rows.empty()
                                         ? std::string("nothing")
                                         : r.value().rows[0][0].value_or(""))
            : fmt::format("{} row(s) affected", r.value().affected);
    if (!note.empty()) outcome = fmt::format("{}; {}", note, outcome);
    log_.push_back(RunStatement{fmt::format("instance billing/{}", i + 1), sql,
                                params, outcome});
  }

  PgConnection* conns_[2];
  PgConnection& observer_;
  std::vector<RunStatement>& log_;
  std::string pending_sql_;
  std::vector<std::string> pending_params_;
};

Status Check(const Result<PgRows>& r) {
  return r.ok() ? Status::Ok() : r.status();
}

// The interleavings described in the header. Returns whether instance 2
// was seen waiting for a lock.
Result<bool> Interleave(Interleaving& run, Strategy strategy,
                        const SqlStatements& sql,
                        const std::vector<std::string>& ids,
                        const std::vector<std::string>& credit) {
  const std::string kWaited = "waited for instance billing/1's commit";
  for (int i = 0; i < 2; ++i) {
    if (Status s = Check(run.Run(i, "BEGIN")); !s.ok()) return s;
  }
  bool waited = false;
  if (strategy == Strategy::kCreditInbox) {
    Result<PgRows> first = run.Run(0, sql.inbox_insert, ids);
    if (!first.ok()) return first.status();
    Result<bool> w = run.SendAndWatch(1, sql.inbox_insert, ids);
    if (!w.ok()) return w.status();
    waited = w.value();
    if (first.value().affected == 1) {
      if (Status s = Check(run.Run(0, sql.credit, credit)); !s.ok()) return s;
    }
    if (Status s = Check(run.Run(0, "COMMIT")); !s.ok()) return s;
    Result<PgRows> second = run.Finish(1, waited ? kWaited : "");
    if (!second.ok()) return second.status();
    if (second.value().affected == 1) {
      if (Status s = Check(run.Run(1, sql.credit, credit)); !s.ok()) return s;
    }
    if (Status s = Check(run.Run(1, "COMMIT")); !s.ok()) return s;
    return waited;
  }
  // check_then_act: both read before either writes.
  bool none[2] = {false, false};
  for (int i = 0; i < 2; ++i) {
    Result<PgRows> read = run.Run(i, sql.unkeyed_inbox_read, ids);
    if (!read.ok()) return read.status();
    none[i] = !read.value().rows.empty() && read.value().rows[0][0] == "0";
  }
  if (none[0]) {
    for (const std::string* s : {&sql.unkeyed_inbox_insert, &sql.credit}) {
      if (Status st = Check(run.Run(0, *s, s == &sql.credit ? credit : ids));
          !st.ok()) {
        return st;
      }
    }
  }
  if (none[1]) {
    if (Status s = Check(run.Run(1, sql.unkeyed_inbox_insert, ids)); !s.ok()) {
      return s;
    }
    Result<bool> w = run.SendAndWatch(1, sql.credit, credit);
    if (!w.ok()) return w.status();
    waited = w.value();
  }
  if (Status s = Check(run.Run(0, "COMMIT")); !s.ok()) return s;
  if (none[1]) {
    if (Status s = Check(run.Finish(1, waited ? kWaited : "")); !s.ok()) {
      return s;
    }
  }
  if (Status s = Check(run.Run(1, "COMMIT")); !s.ok()) return s;
  return waited;
}

}  // namespace

Result<ConcurrentDuplicate> RunConcurrentDuplicate(const std::string& conninfo,
                                                   const std::string& schema,
                                                   Strategy strategy,
                                                   const SqlStatements& sql) {
  const Config config = DuplicateConfig(strategy);
  ConcurrentDuplicate out;
  out.strategy = strategy;
  Result<int> model_credits = ModelCredits(config, strategy);
  if (!model_credits.ok()) return model_credits.status();
  out.model_credits = model_credits.value();

  Result<PgConnection> admin = PgConnection::Open(conninfo);
  if (!admin.ok()) return admin.status();
  if (Status s = CheckSchemaIsFree(admin.value(), schema); !s.ok()) return s;
  if (Status s = CreateSchema(admin.value(), schema, config); !s.ok()) {
    return s;
  }
  Result<bool> waited = [&]() -> Result<bool> {
    std::vector<PgConnection> instances;
    for (int i = 0; i < 2; ++i) {
      Result<PgConnection> c = PgConnection::Open(conninfo);
      if (!c.ok()) return c.status();
      if (Status s = UseSchema(c.value(), schema); !s.ok()) return s;
      instances.push_back(std::move(c).value());
    }
    Interleaving run(instances[0], instances[1], admin.value(), out.timeline);
    const std::vector<std::string> ids = {"billing", "e1"};
    const std::vector<std::string> credit = {
        AccountId(config, 0, 0), std::to_string(AmountCents(config, 0))};
    return Interleave(run, strategy, sql, ids, credit);
  }();  // the instances' connections are closed here
  Result<PgRows> cents =
      admin.value().Exec("SELECT credit_cents FROM accounts WHERE id = $1",
                         {AccountId(config, 0, 0)});
  const Status dropped = DropSchema(admin.value(), schema);
  if (!waited.ok()) return waited.status();
  if (!cents.ok()) return cents.status();
  if (!dropped.ok()) return dropped;
  out.second_waited = waited.value();
  if (cents.value().rows.size() == 1 && cents.value().rows[0][0]) {
    const std::string& text = *cents.value().rows[0][0];
    const std::optional<std::int64_t> value = ParseInteger(text);
    if (!value) {
      return Status::Error(fmt::format(
          "accounts.credit_cents is '{}' in PostgreSQL, not an integer", text));
    }
    out.database_credits = static_cast<int>(*value / AmountCents(config, 0));
  }
  return out;
}

std::string FormatConcurrentDuplicate(const ConcurrentDuplicate& r) {
  std::string out = fmt::format(
      "concurrent duplicate, {}: {} credit{} in PostgreSQL, {} in the model "
      "({}); instance billing/2 {}\n",
      StrategyName(r.strategy), r.database_credits,
      r.database_credits == 1 ? "" : "s", r.model_credits,
      r.database_credits == r.model_credits ? "agree" : "DIVERGE",
      r.second_waited ? "waited for a lock held by instance billing/1"
                      : "never waited for a lock");
  for (const RunStatement& s : r.timeline) {
    out += fmt::format("    [{}] {} -> {}\n", s.connection, s.sql, s.outcome);
  }
  return out;
}

}  // namespace oc::conform
