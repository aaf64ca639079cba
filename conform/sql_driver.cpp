#include "conform/sql_driver.h"

#include <fmt/format.h>

#include <utility>

#include "conform/conform_schema.h"
#include "model/state_cells.h"

namespace oc::conform {

struct SqlDriver::RelayMemory {
  bool busy = false;  // claimed or sent
  int event = 0;      // index, while busy
  std::string token;  // as the claim's RETURNING gave it
};

struct SqlDriver::InstanceMemory {
  int event = -1;  // index, while holding or midway
  // What the first step learnt and the second needs: check_then_act's read
  // found no inbox row; ledger_then_send's ledger row was new.
  bool flag = false;
  bool in_transaction = false;  // check_then_act between its steps
};

namespace {

std::string Outcome(const PgRows& rows, std::string_view sql) {
  if (!rows.columns.empty()) {
    return fmt::format("{} row{}", rows.rows.size(),
                       rows.rows.size() == 1 ? "" : "s");
  }
  const std::string_view verb = sql.substr(0, sql.find(' '));
  if (verb == "BEGIN" || verb == "COMMIT" || verb == "ROLLBACK") return "ok";
  return fmt::format("{} row{} affected", rows.affected,
                     rows.affected == 1 ? "" : "s");
}

std::string CountOf(const PgRows& rows) {
  return rows.rows.empty() || rows.rows[0].empty()
             ? std::string("0")
             : rows.rows[0][0].value_or("0");
}

}  // namespace

SqlDriver::SqlDriver(const std::string& conninfo, const std::string& schema,
                     const OutboxModel& model, const SqlStatements& sql)
    : conninfo_(conninfo), schema_(schema), model_(model), sql_(sql) {}

SqlDriver::~SqlDriver() = default;

Result<PgConnection> SqlDriver::Connect() {
  Result<PgConnection> conn = PgConnection::Open(conninfo_);
  if (!conn.ok()) return conn.status();
  if (Status s = UseSchema(conn.value(), schema_); !s.ok()) return s;
  return conn;
}

Result<std::unique_ptr<SqlDriver>> SqlDriver::Open(const std::string& conninfo,
                                                   const std::string& schema,
                                                   const OutboxModel& model,
                                                   const SqlStatements& sql) {
  std::unique_ptr<SqlDriver> d(new SqlDriver(conninfo, schema, model, sql));
  const Config& config = model.config();
  auto add = [&](std::vector<PgConnection>& to) -> Status {
    Result<PgConnection> c = d->Connect();
    if (!c.ok()) return c.status();
    to.push_back(std::move(c).value());
    return Status::Ok();
  };
  for (std::size_t r = 0; r < config.relays.size(); ++r) {
    if (Status s = add(d->relay_conns_); !s.ok()) return s;
  }
  for (const Group& g : config.groups) {
    for (int i = 0; i < g.instances; ++i) {
      if (Status s = add(d->instance_conns_); !s.ok()) return s;
    }
  }
  std::vector<PgConnection> shared;
  for (int i = 0; i < 2; ++i) {
    if (Status s = add(shared); !s.ok()) return s;
  }
  d->broker_.emplace(std::move(shared[0]));
  d->clock_.emplace(std::move(shared[1]));
  d->relays_.resize(config.relays.size());
  d->instances_.resize(d->instance_conns_.size());
  return d;
}

Result<PgRows> SqlDriver::Exec(PgConnection& conn, const std::string& label,
                               const std::string& sql,
                               const std::vector<std::string>& params,
                               std::vector<RunStatement>& log) {
  Result<PgRows> rows = conn.Exec(sql, params);
  log.push_back(RunStatement{
      label, sql, params,
      rows.ok() ? Outcome(rows.value(), sql) : rows.status().message()});
  if (!rows.ok()) {
    return Status::Error(fmt::format("the statement failed on {}: {}", label,
                                     rows.status().message()));
  }
  return rows;
}

Status SqlDriver::Run(const Action& a, std::vector<RunStatement>& log) {
  switch (a.kind) {
    case ActionKind::kClaim:
    case ActionKind::kSend:
    case ActionKind::kSendAckLost:
    case ActionKind::kComplete:
    case ActionKind::kExpire:
    case ActionKind::kCrashRelay:
      return RunRelay(a, log);
    default:
      return RunConsumer(a, log);
  }
}

Status SqlDriver::RunRelay(const Action& a, std::vector<RunStatement>& log) {
  const Config& config = model_.config();
  const std::string& relay_name = config.relays[a.relay];
  const std::string label = "relay " + relay_name;
  RelayMemory& relay = relays_[a.relay];
  const bool needs_row = a.kind == ActionKind::kSend ||
                         a.kind == ActionKind::kSendAckLost ||
                         a.kind == ActionKind::kComplete;
  if (needs_row && !relay.busy) {
    return Status::Error(fmt::format(
        "relay {} holds no claimed row (its claim returned none), but the "
        "model's relay is working on one",
        relay_name));
  }
  switch (a.kind) {
    case ActionKind::kClaim: {
      Result<PgRows> rows =
          Exec(relay_conns_[a.relay], label,
               config.lease ? sql_.claim : sql_.claim_no_lease,
               {std::to_string(a.event + 1), relay_name}, log);
      if (!rows.ok()) return rows.status();
      const PgRows& r = rows.value();
      if (r.rows.size() != 1 || r.columns.size() < 4 || !r.rows[0][3]) {
        return Status::Error(fmt::format(
            "the claim returned {} rows with a token; the model claims the "
            "row (it is unpublished and its lease is not active)",
            r.rows.size()));
      }
      relay = RelayMemory{true, a.event, *r.rows[0][3]};
      return Status::Ok();
    }
    case ActionKind::kSend:
    case ActionKind::kSendAckLost: {
      // The broker accepts the copy whether or not its answer reaches the
      // relay; a lost answer only means the relay will send again.
      Result<PgRows> rows =
          Exec(*broker_, "broker", sql_.broker_accept,
               {config.events[relay.event].name, relay_name, relay.token}, log);
      return rows.ok() ? Status::Ok() : rows.status();
    }
    case ActionKind::kComplete: {
      const std::string id = std::to_string(relay.event + 1);
      Result<PgRows> rows =
          config.fencing ? Exec(relay_conns_[a.relay], label, sql_.complete,
                                {id, relay_name, relay.token}, log)
                         : Exec(relay_conns_[a.relay], label,
                                sql_.complete_unfenced, {id, relay.token}, log);
      relay = RelayMemory{};  // zero rows updated or one, the relay is done
      return rows.ok() ? Status::Ok() : rows.status();
    }
    case ActionKind::kExpire: {
      Result<PgRows> rows = Exec(*clock_, "clock", sql_.expire,
                                 {std::to_string(a.event + 1)}, log);
      return rows.ok() ? Status::Ok() : rows.status();
    }
    case ActionKind::kCrashRelay: {
      // Closing the connection is what a crashed process does to it.
      Result<PgConnection> fresh = Connect();
      if (!fresh.ok()) return fresh.status();
      relay_conns_[a.relay] = std::move(fresh).value();
      log.push_back(
          RunStatement{label, "(connection closed; reconnected)", {}, "ok"});
      relay = RelayMemory{};
      return Status::Ok();
    }
    default:
      return Status::Error("not a relay action");
  }
}

Status SqlDriver::ProbeClaims(const State& s, std::vector<RunStatement>& log) {
  const Config& config = model_.config();
  std::size_t relay = 0;
  while (relay < relays_.size() && relays_[relay].busy) ++relay;
  if (relay == relays_.size()) return Status::Ok();  // no relay can claim
  const std::string& name = config.relays[relay];
  const std::string label = "relay " + name + " (probe)";
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    if (config.claim_bound > 0 && s.events[e].token >= config.claim_bound) {
      continue;
    }
    const Action claim{ActionKind::kClaim, static_cast<std::uint8_t>(relay),
                       static_cast<std::uint8_t>(e), 0, 0};
    const std::optional<std::string> why = model_.WhyDisabled(s, claim);
    PgConnection& conn = relay_conns_[relay];
    if (Result<PgRows> r = Exec(conn, label, "BEGIN", {}, log); !r.ok()) {
      return r.status();
    }
    Result<PgRows> rows =
        Exec(conn, label, config.lease ? sql_.claim : sql_.claim_no_lease,
             {std::to_string(e + 1), name}, log);
    if (Result<PgRows> r = Exec(conn, label, "ROLLBACK", {}, log); !r.ok()) {
      return r.status();
    }
    if (!rows.ok()) return rows.status();
    const bool claimed = rows.value().rows.size() == 1;
    if (claimed && why) {
      return Status::Error(fmt::format(
          "probing the claim's guard: the claim SQL claims {} for relay {} "
          "(rolled back), but the model's {} is not enabled: {}",
          config.events[e].name, name, FormatAction(config, claim), *why));
    }
    if (!claimed && !why) {
      return Status::Error(fmt::format(
          "probing the claim's guard: the claim SQL claims nothing, but the "
          "model's {} is enabled",
          FormatAction(config, claim)));
    }
  }
  return Status::Ok();
}

Status SqlDriver::RunConsumer(const Action& a, std::vector<RunStatement>& log) {
  const Config& config = model_.config();
  const int index = model_.FirstInstance(a.group) + a.instance;
  const std::string& group = config.groups[a.group].name;
  InstanceMemory& inst = instances_[index];
  if (a.kind != ActionKind::kConsume && inst.event < 0) {
    return Status::Error(fmt::format(
        "instance {}/{} holds no delivery, but the model's instance does",
        group, a.instance + 1));
  }
  auto requeue = [&](int event) -> Status {
    Result<PgRows> rows = Exec(*broker_, "broker", sql_.broker_requeue,
                               {group, config.events[event].name}, log);
    return rows.ok() ? Status::Ok() : rows.status();
  };
  switch (a.kind) {
    case ActionKind::kConsume: {
      Result<PgRows> rows = Exec(*broker_, "broker", sql_.broker_take,
                                 {group, config.events[a.event].name}, log);
      if (!rows.ok()) return rows.status();
      if (rows.value().affected != 1) {
        return Status::Error(fmt::format(
            "the broker's store had no copy of {} ready for {}; the model "
            "has one",
            config.events[a.event].name, group));
      }
      inst = InstanceMemory{a.event, false, false};
      return RunHandlerStep(a.group, a.instance, a.event, 0, log);
    }
    case ActionKind::kStep:
      return RunHandlerStep(a.group, a.instance, inst.event, 1, log);
    case ActionKind::kAcknowledge:
      log.push_back(
          RunStatement{"broker",
                       "(no SQL: the broker forgets a delivery it handed out)",
                       {},
                       "ok"});
      inst = InstanceMemory{};
      return Status::Ok();
    case ActionKind::kAckLost: {
      const int event = inst.event;
      inst = InstanceMemory{};
      return requeue(event);
    }
    case ActionKind::kCrashConsumer: {
      Result<PgConnection> fresh = Connect();
      if (!fresh.ok()) return fresh.status();
      instance_conns_[index] = std::move(fresh).value();
      log.push_back(RunStatement{
          fmt::format("instance {}/{}", group, a.instance + 1),
          inst.in_transaction
              ? "(connection closed with its transaction open: rolled back; "
                "reconnected)"
              : "(connection closed; reconnected)",
          {},
          "ok"});
      const int event = inst.event;
      inst = InstanceMemory{};
      return requeue(event);
    }
    case ActionKind::kRedeliver:
      return requeue(inst.event);  // the instance goes on
    default:
      return Status::Error("not a consumer action");
  }
}

Status SqlDriver::RunHandlerStep(int group, int instance, int event, int step,
                                 std::vector<RunStatement>& log) {
  const Config& config = model_.config();
  const Group& g = config.groups[group];
  const int index = model_.FirstInstance(group) + instance;
  PgConnection& conn = instance_conns_[index];
  InstanceMemory& inst = instances_[index];
  const std::string label = fmt::format("instance {}/{}", g.name, instance + 1);
  const std::vector<std::string> ids = {g.name, config.events[event].name};
  const std::vector<std::string> credit = {
      AccountId(config, group, event),
      std::to_string(AmountCents(config, event))};
  auto run = [&](const std::string& sql,
                 const std::vector<std::string>& params) {
    return Exec(conn, label, sql, params, log);
  };
  auto keyed = [&](const std::string& sql, bool with_version) {
    const Event& e = config.events[event];
    std::vector<std::string> params = {g.name, e.key.value_or("")};
    if (with_version) params.push_back(std::to_string(e.version.value_or(0)));
    Result<PgRows> r = run(sql, params);
    return r.ok() ? Status::Ok() : r.status();
  };
  // Runs the statements in order, stopping at the first failure.
  auto all = [&](std::initializer_list<
                 std::pair<const std::string*, std::vector<std::string>>>
                     statements) -> Status {
    for (const auto& [sql, params] : statements) {
      if (Result<PgRows> r = run(*sql, params); !r.ok()) return r.status();
    }
    return Status::Ok();
  };
  static const std::string kBegin = "BEGIN", kCommit = "COMMIT";

  switch (g.strategy) {
    case Strategy::kDeclared:  // refused by the conform command
      return Status::Error("declared strategies are not run against SQL");
    case Strategy::kCreditNaive:
      return all({{&sql_.credit, credit}});
    case Strategy::kCreditInbox: {
      if (Status s = all({{&kBegin, {}}}); !s.ok()) return s;
      Result<PgRows> inserted = run(sql_.inbox_insert, ids);
      if (!inserted.ok()) return inserted.status();
      if (inserted.value().affected == 1) {
        if (Status s = all({{&sql_.credit, credit}}); !s.ok()) return s;
      }
      return all({{&kCommit, {}}});
    }
    case Strategy::kCreditCheckThenAct:
      if (step == 0) {
        // The read's transaction stays open until the second step, so a
        // crash in between rolls it back.
        if (Status s = all({{&kBegin, {}}}); !s.ok()) return s;
        inst.in_transaction = true;
        Result<PgRows> read = run(sql_.unkeyed_inbox_read, ids);
        if (!read.ok()) return read.status();
        inst.flag = CountOf(read.value()) == "0";
        return Status::Ok();
      }
      if (inst.flag) {
        if (Status s = all(
                {{&sql_.unkeyed_inbox_insert, ids}, {&sql_.credit, credit}});
            !s.ok()) {
          return s;
        }
      }
      inst.in_transaction = false;
      inst.flag = false;
      return all({{&kCommit, {}}});
    case Strategy::kCreditEffectThenInbox: {
      if (step == 1) return all({{&sql_.inbox_insert, ids}});
      if (Status s = all({{&kBegin, {}}}); !s.ok()) return s;
      Result<PgRows> read = run(sql_.inbox_read, ids);
      if (!read.ok()) return read.status();
      if (CountOf(read.value()) == "0") {
        if (Status s = all({{&sql_.credit, credit}}); !s.ok()) return s;
      }
      return all({{&kCommit, {}}});
    }
    case Strategy::kProjectionLww:
      return keyed(sql_.projection_lww, true);
    case Strategy::kProjectionMonotonic:
      return keyed(sql_.projection_monotonic, true);
    case Strategy::kNotificationLedgerThenSend: {
      if (step == 0) {
        Result<PgRows> inserted = run(sql_.ledger_insert, ids);
        if (!inserted.ok()) return inserted.status();
        inst.flag = inserted.value().affected == 1;
        return Status::Ok();
      }
      const bool was_new = std::exchange(inst.flag, false);
      return was_new ? all({{&sql_.notification_send, ids}}) : Status::Ok();
    }
    case Strategy::kNotificationSendThenLedger: {
      if (step == 1) return all({{&sql_.ledger_insert, ids}});
      Result<PgRows> read = run(sql_.ledger_read, ids);
      if (!read.ok()) return read.status();
      if (CountOf(read.value()) != "0") return Status::Ok();
      return all({{&sql_.notification_send, ids}});
    }
    case Strategy::kCacheInvalidate:
      return keyed(sql_.cache_invalidate, false);
  }
  return Status::Error("unknown strategy");
}

}  // namespace oc::conform
