// SIGINT and SIGTERM as a request to stop: while an InterruptFlag is alive,
// either signal only sets a flag, which the search polls (see
// explorer::Options::cancel) and the command checks before it writes
// anything, so that an interrupted run ends with its statistics, exit code
// 3, and no partial or temporary file.

#ifndef OUTBOX_CHECK_CLI_INTERRUPT_H_
#define OUTBOX_CHECK_CLI_INTERRUPT_H_

#include <signal.h>

#include <atomic>
#include <string>

namespace oc {

// Installs the handlers on construction and restores the previous ones on
// destruction. REQUIRES: at most one alive at a time (the flag a signal
// handler sets is necessarily process-wide). Not copyable.
class InterruptFlag {
 public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  // Set once SIGINT or SIGTERM arrived since construction; valid while
  // this object is.
  const std::atomic<bool>* flag() const;
  bool raised() const { return flag()->load(); }
  // "SIGINT" or "SIGTERM": the first signal that arrived; "" before one.
  std::string SignalName() const;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// Blocks SIGINT and SIGTERM in the calling thread while alive, so that a
// few renames that must happen together are not cut short; a signal that
// arrives meanwhile is delivered afterwards.
class SignalBlock {
 public:
  SignalBlock();
  ~SignalBlock();
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

 private:
  sigset_t old_{};
};

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_INTERRUPT_H_
