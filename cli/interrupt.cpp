#include "cli/interrupt.h"

#include <pthread.h>

#include <csignal>

namespace oc {
namespace {

// A signal handler can reach only process-wide objects; these two are the
// whole of it. A lock-free atomic and a sig_atomic_t are safe to write
// from a handler.
std::atomic<bool> g_interrupted{false};
volatile std::sig_atomic_t g_signal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void OnInterrupt(int signal) {
  if (g_signal == 0) g_signal = signal;
  g_interrupted.store(true);
}

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

InterruptFlag::InterruptFlag() {
  g_interrupted.store(false);
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // Restart interrupted system calls: the flag is polled, never waited on.
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

InterruptFlag::~InterruptFlag() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

const std::atomic<bool>* InterruptFlag::flag() const { return &g_interrupted; }

std::string InterruptFlag::SignalName() const {
  switch (g_signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "";
  }
}

SignalBlock::SignalBlock() {
  const sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, &old_);
}

SignalBlock::~SignalBlock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

}  // namespace oc
