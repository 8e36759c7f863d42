// InterruptGuard (interrupt_guard.hpp).
#include "cli/interrupt_guard.hpp"

namespace kcspec::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int) { g_interrupted.store(true); }

}  // namespace

const std::atomic<bool>& interruptFlag() { return g_interrupted; }

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second Ctrl-C takes the default action
  sigaction(SIGINT, &action, &previous_);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }

}  // namespace kcspec::cli
