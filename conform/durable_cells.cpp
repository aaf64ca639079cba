#include "conform/durable_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "conform/conform_schema.h"
#include "model/state_cells.h"

namespace oc::conform {
namespace {

constexpr std::string_view kMissing = "(missing)";

// The accounts group g credits, each once, in order of the first event
// that credits it.
std::vector<std::string> AccountsOf(const Config& config, int g) {
  std::vector<std::string> accounts;
  std::set<std::string> seen;
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    std::string id = AccountId(config, g, static_cast<int>(e));
    if (seen.insert(id).second) accounts.push_back(std::move(id));
  }
  return accounts;
}

std::string InboxTable(Strategy s) {
  return HasUnkeyedInbox(s) ? "consumed_events_unkeyed" : "consumed_events";
}

// Calls add(name, table, lookup_key) for every durable cell of `config`,
// in the order both sides list them. `lookup_key` is how the database side
// finds the value among the rows it read.
template <class Add>
void ForEachDurableCell(const Config& config, Add add) {
  const std::vector<std::string> keys = Keys(config);
  for (const Event& e : config.events) {
    const std::string prefix = fmt::format("outbox[{}]", e.name);
    for (const char* column :
         {"published", "owner", "token", "lease", "completed_token"}) {
      add(fmt::format("{}.{}", prefix, column), "outbox",
          fmt::format("{}/{}", e.name, column));
    }
  }
  for (const Event& e : config.events) {
    add(fmt::format("broker.offered[{}]", e.name), "broker_accepted", e.name);
  }
  for (const Group& g : config.groups) {
    for (const Event& e : config.events) {
      add(fmt::format("broker.ready[{}][{}]", g.name, e.name), "broker_ready",
          g.name + "/" + e.name);
    }
  }
  for (std::size_t gi = 0; gi < config.groups.size(); ++gi) {
    const Group& g = config.groups[gi];
    switch (FamilyOf(g.strategy)) {
      case StrategyFamily::kCredit:
        for (const std::string& account :
             AccountsOf(config, static_cast<int>(gi))) {
          add(fmt::format("{}.credit_cents[{}]", g.name,
                          account.substr(g.name.size() + 1)),
              "accounts", account);
        }
        if (HasInbox(g.strategy)) {
          for (const Event& e : config.events) {
            add(fmt::format("{}.{}[{}]", g.name,
                            HandlerTableName(HandlerTable::kInbox), e.name),
                InboxTable(g.strategy), g.name + "/" + e.name);
          }
        }
        break;
      case StrategyFamily::kNotification:
        for (const Event& e : config.events) {
          add(fmt::format("{}.{}[{}]", g.name,
                          HandlerTableName(HandlerTable::kLedger), e.name),
              "notification_ledger", g.name + "/" + e.name);
          add(fmt::format("{}.{}[{}]", g.name,
                          HandlerTableName(HandlerTable::kSent), e.name),
              "notifications_sent", g.name + "/" + e.name);
        }
        break;
      case StrategyFamily::kProjection:
        for (const std::string& k : keys) {
          add(fmt::format("{}.{}[{}]", g.name,
                          HandlerTableName(HandlerTable::kVersion), k),
              "projection_versions", g.name + "/" + k);
        }
        break;
      case StrategyFamily::kCache:
        for (const std::string& k : keys) {
          add(fmt::format("{}.{}[{}]", g.name,
                          HandlerTableName(HandlerTable::kCache), k),
              "cache_entries", g.name + "/" + k);
        }
        break;
      case StrategyFamily::kCustom:  // declared: refused before conform
        break;
    }
  }
}

struct TableQuery {
  const char* table;
  const char* sql;
  int key_columns;  // the first columns joined by '/' make the lookup key
};

// Derived columns come first after the key, so the lookup below can read
// them by name; raw columns follow for the report.
constexpr TableQuery kQueries[] = {
    {"outbox",
     "SELECT event_id, "
     "CASE WHEN published_at IS NULL THEN 0 ELSE 1 END AS published, "
     "coalesce(lease_owner, '-') AS owner, lease_token AS token, "
     "CASE WHEN lease_expires_at IS NULL THEN 'none' "
     "WHEN lease_expires_at > now() THEN 'active' ELSE 'expired' END "
     "AS lease, coalesce(completed_token, 0) AS completed_token, id, "
     "lease_expires_at - now() AS lease_left, published_at "
     "FROM outbox ORDER BY id",
     1},
    {"broker_accepted",
     "SELECT event_id, count(*) AS copies FROM broker_accepted "
     "GROUP BY event_id ORDER BY event_id",
     1},
    {"broker_ready",
     "SELECT consumer, event_id, copies FROM broker_ready "
     "ORDER BY consumer, event_id",
     2},
    {"accounts", "SELECT id, credit_cents FROM accounts ORDER BY id", 1},
    {"consumed_events",
     "SELECT consumer, event_id, count(*) AS rows FROM consumed_events "
     "GROUP BY 1, 2 ORDER BY 1, 2",
     2},
    {"consumed_events_unkeyed",
     "SELECT consumer, event_id, count(*) AS rows "
     "FROM consumed_events_unkeyed GROUP BY 1, 2 ORDER BY 1, 2",
     2},
    {"notification_ledger",
     "SELECT consumer, event_id, count(*) AS rows FROM notification_ledger "
     "GROUP BY 1, 2 ORDER BY 1, 2",
     2},
    {"notifications_sent",
     "SELECT consumer, event_id, count(*) AS sent FROM notifications_sent "
     "GROUP BY 1, 2 ORDER BY 1, 2",
     2},
    {"projection_versions",
     "SELECT consumer, key, version FROM projection_versions "
     "ORDER BY consumer, key",
     2},
    {"cache_entries",
     "SELECT consumer, key, state FROM cache_entries ORDER BY consumer, key",
     2},
};

// The cell value a table's row gives, by table.
std::string ValueOf(std::string_view table,
                    const std::optional<std::string>& raw) {
  const std::string v = raw.value_or("NULL");
  if (table == "consumed_events" || table == "consumed_events_unkeyed" ||
      table == "notification_ledger") {
    return v == "0" ? "0" : "1";  // a row is there or not
  }
  return v;
}

}  // namespace

std::vector<DurableCell> ModelDurableCells(const OutboxModel& model,
                                           const State& s) {
  const Config& config = model.config();
  std::map<std::string, std::string> cells;
  for (Cell& c : Cells(model, s)) cells[c.name] = std::move(c.value);
  // credit_cents: the sum, over the events crediting the account, of
  // effects times amount.
  std::map<std::string, std::int64_t> cents;
  for (std::size_t g = 0; g < config.groups.size(); ++g) {
    if (FamilyOf(config.groups[g].strategy) != StrategyFamily::kCredit) {
      continue;
    }
    for (std::size_t e = 0; e < config.events.size(); ++e) {
      const std::int64_t effects =
          s.group_events[g * config.events.size() + e].effects;
      cents[AccountId(config, static_cast<int>(g), static_cast<int>(e))] +=
          effects * AmountCents(config, static_cast<int>(e));
    }
  }
  std::vector<DurableCell> out;
  ForEachDurableCell(
      config, [&](std::string name, std::string table, const std::string& key) {
        std::string value;
        if (table == "accounts") {
          value = std::to_string(cents[key]);
        } else if (auto it = cells.find(name); it != cells.end()) {
          value = it->second;
        } else {
          value = std::string(kMissing);
        }
        out.push_back(
            DurableCell{std::move(name), std::move(value), std::move(table)});
      });
  return out;
}

Result<DatabaseCells> ReadDurableCells(PgConnection& conn,
                                       const Config& config) {
  DatabaseCells db;
  // (table, lookup key) -> the value of the table's value column; for
  // outbox, the key carries the column.
  std::map<std::pair<std::string, std::string>, std::string> values;
  for (const TableQuery& q : kQueries) {
    Result<PgRows> rows = conn.Exec(q.sql);
    if (!rows.ok()) {
      return Status::Error(fmt::format("reading table {}: {}", q.table,
                                       rows.status().message()));
    }
    const PgRows& r = rows.value();
    for (const auto& row : r.rows) {
      std::string key;
      for (int c = 0; c < q.key_columns; ++c) {
        if (c > 0) key += "/";
        key += row[c].value_or("NULL");
      }
      if (std::string_view(q.table) == "outbox") {
        for (std::size_t c = 1; c <= 5; ++c) {
          values[{q.table, key + "/" + r.columns[c]}] =
              ValueOf(q.table, row[c]);
        }
      } else {
        const std::size_t c = static_cast<std::size_t>(q.key_columns);
        values[{q.table, key}] = ValueOf(q.table, row[c]);
      }
    }
    db.tables.emplace_back(q.table, std::move(rows).value());
  }
  ForEachDurableCell(
      config, [&](std::string name, std::string table, const std::string& key) {
        // A seeded row must be there; a counted one may be absent (zero).
        const bool seeded = table == "outbox" || table == "accounts" ||
                            table == "broker_ready" ||
                            table == "projection_versions" ||
                            table == "cache_entries";
        const auto it = values.find({table, key});
        std::string value = it != values.end() ? it->second
                            : seeded           ? std::string(kMissing)
                                               : std::string(1, '0');
        db.cells.push_back(
            DurableCell{std::move(name), std::move(value), std::move(table)});
      });
  return db;
}

std::vector<CellDifference> CompareCells(
    const std::vector<DurableCell>& model,
    const std::vector<DurableCell>& database) {
  std::map<std::string, const DurableCell*> by_name;
  for (const DurableCell& c : database) by_name[c.name] = &c;
  std::vector<CellDifference> out;
  for (const DurableCell& m : model) {
    auto it = by_name.find(m.name);
    const std::string db_value =
        it == by_name.end() ? std::string(kMissing) : it->second->value;
    if (db_value != m.value) {
      out.push_back(CellDifference{m.name, m.table, m.value, db_value});
    }
  }
  for (const DurableCell& d : database) {
    const bool in_model =
        std::any_of(model.begin(), model.end(),
                    [&](const DurableCell& m) { return m.name == d.name; });
    if (!in_model) {
      out.push_back(
          CellDifference{d.name, d.table, std::string(kMissing), d.value});
    }
  }
  return out;
}

}  // namespace oc::conform
