#include "conform/pg_connection.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <algorithm>
#include <utility>

#include "common/text.h"

namespace oc::conform {
namespace {

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

// The server's words for a failed statement, with its SQLSTATE so that a
// reader can look the condition up ("42501" is a missing privilege).
std::string ResultError(const PGresult* res, PGconn* conn) {
  if (res == nullptr) return Trimmed(PQerrorMessage(conn));
  std::string text = Trimmed(PQresultErrorMessage(res));
  if (const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE)) {
    text += fmt::format(" (SQLSTATE {})", state);
  }
  return text;
}

// Takes ownership of `res` and turns it into rows or an error.
Result<PgRows> Collect(PGresult* res, PGconn* conn) {
  const ExecStatusType status =
      res == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(res);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string error = ResultError(res, conn);
    PQclear(res);
    return Status::Error(error);
  }
  PgRows rows;
  const int columns = PQnfields(res);
  for (int c = 0; c < columns; ++c) rows.columns.emplace_back(PQfname(res, c));
  for (int r = 0; r < PQntuples(res); ++r) {
    std::vector<std::optional<std::string>>& row = rows.rows.emplace_back();
    for (int c = 0; c < columns; ++c) {
      if (PQgetisnull(res, r, c)) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(PQgetvalue(res, r, c));
      }
    }
  }
  const std::string affected = PQcmdTuples(res);
  PQclear(res);
  if (!affected.empty()) {
    const std::optional<std::int64_t> n = ParseInteger(affected);
    if (!n || *n < 0) {
      return Status::Error(fmt::format(
          "PostgreSQL reported '{}' rows affected, not a count", affected));
    }
    rows.affected = *n;
  }
  return rows;
}

// libpq prints server notices ("drop cascades to ...") on standard error
// unless told otherwise; the tool's output is its own.
void IgnoreNotice(void*, const char*) {}

struct ParamArrays {
  std::vector<const char*> values;
  explicit ParamArrays(const std::vector<std::string>& params) {
    for (const std::string& p : params) values.push_back(p.c_str());
  }
  int count() const { return static_cast<int>(values.size()); }
  const char* const* data() const {
    return values.empty() ? nullptr : values.data();
  }
};

}  // namespace

Result<PgConnection> PgConnection::Open(const std::string& conninfo) {
  // A default connect timeout, so that an unreachable host fails in
  // seconds; a connect_timeout in `conninfo` is processed later and wins.
  const char* keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {"10", conninfo.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) {
    return Status::Error("cannot connect: libpq is out of memory");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return Status::Error(fmt::format("cannot connect to PostgreSQL: {}", why));
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  return PgConnection(conn);
}

PgConnection::PgConnection(PgConnection&& other) noexcept
    : conn_(std::exchange(other.conn_, nullptr)) {}

PgConnection& PgConnection::operator=(PgConnection&& other) noexcept {
  if (this != &other) {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = std::exchange(other.conn_, nullptr);
  }
  return *this;
}

PgConnection::~PgConnection() {
  if (conn_ != nullptr) PQfinish(conn_);
}

Result<PgRows> PgConnection::Exec(std::string_view sql,
                                  const std::vector<std::string>& params) {
  const std::string text(sql);
  const ParamArrays p(params);
  return Collect(PQexecParams(conn_, text.c_str(), p.count(), nullptr, p.data(),
                              nullptr, nullptr, 0),
                 conn_);
}

Status PgConnection::Send(std::string_view sql,
                          const std::vector<std::string>& params) {
  const std::string text(sql);
  const ParamArrays p(params);
  if (PQsendQueryParams(conn_, text.c_str(), p.count(), nullptr, p.data(),
                        nullptr, nullptr, 0) == 0) {
    return Status::Error(Trimmed(PQerrorMessage(conn_)));
  }
  return Status::Ok();
}

Result<bool> PgConnection::Busy() {
  if (PQconsumeInput(conn_) == 0) {
    return Status::Error(Trimmed(PQerrorMessage(conn_)));
  }
  return PQisBusy(conn_) != 0;
}

Result<PgRows> PgConnection::Finish() {
  // PQgetResult returns the statement's result, then nullptr once done.
  PGresult* res = PQgetResult(conn_);
  Result<PgRows> rows = Collect(res, conn_);
  while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
  return rows;
}

int PgConnection::BackendPid() const { return PQbackendPID(conn_); }

std::string PgConnection::ServerVersion() const {
  const int v = PQserverVersion(conn_);  // 150018 for 15.18
  return fmt::format("{}.{}", v / 10000, v % 10000);
}

std::string FormatRows(const PgRows& rows) {
  std::vector<std::size_t> width;
  for (const std::string& c : rows.columns) width.push_back(c.size());
  auto cell = [](const std::optional<std::string>& v) {
    return v ? *v : std::string("NULL");
  };
  for (const auto& row : rows.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], cell(row[c]).size());
    }
  }
  std::string out;
  auto line = [&](auto value_of) {
    std::string text;
    for (std::size_t c = 0; c < width.size(); ++c) {
      if (c > 0) text += " | ";
      text += fmt::format("{:<{}}", value_of(c), width[c]);
    }
    out += Trimmed(text) + "\n";
  };
  line([&](std::size_t c) { return rows.columns[c]; });
  for (const auto& row : rows.rows) {
    line([&](std::size_t c) { return cell(row[c]); });
  }
  return out;
}

}  // namespace oc::conform
