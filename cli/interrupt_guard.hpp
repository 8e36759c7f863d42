// Ctrl-C for the long commands (explore, prove, mutants, check-log, check-trace). While an
// InterruptGuard lives, the first SIGINT, SIGTERM or SIGHUP (what `timeout`, CI runners and service
// managers send) only raises interruptFlag(): the command stops at its next check of the flag and
// prints a partial report (exit 130). The handler then resets itself, so a second signal of the
// same kind kills at once.
// (drive has its own: its SUT children must be killed too, proofs/conformance/driver_child.hpp.)
#pragma once

#include <signal.h>

#include <atomic>

namespace kcspec::cli {

// Raised by the first SIGINT under an InterruptGuard; cleared when a guard is made.
const std::atomic<bool>& interruptFlag();  // (SIGINT, SIGTERM or SIGHUP)

class InterruptGuard {
 public:
  InterruptGuard();   // clears the flag and installs the handler
  ~InterruptGuard();  // puts the previous handler back
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[3] {};
};

}  // namespace kcspec::cli
