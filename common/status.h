// Status and Result<T>: expected failures as values (STYLE.md, "Errors").
//
// A Status is either ok or carries a message meant for a person. Code that
// can fail returns one early; nothing below main() exits the process.

#ifndef OUTBOX_CHECK_COMMON_STATUS_H_
#define OUTBOX_CHECK_COMMON_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace oc {

class Status {
 public:
  Status() = default;  // ok
  static Status Ok() { return Status(); }
  static Status Error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return !message_.has_value(); }
  // REQUIRES: !ok().
  const std::string& message() const {
    assert(!ok());
    return *message_;
  }

 private:
  std::optional<std::string> message_;
};

// A value or the Status that explains why there is none.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Status error) : v_(std::move(error)) {  // NOLINT
    assert(!std::get<Status>(v_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  // REQUIRES: ok().
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  // REQUIRES: !ok().
  const Status& status() const { return std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_COMMON_STATUS_H_
