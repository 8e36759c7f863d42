// InterruptGuard (interrupt_guard.hpp).
#include "cli/interrupt_guard.hpp"

#include <iterator>

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
  action.sa_flags = SA_RESETHAND;  // a second signal of the kind takes the default action
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
}

InterruptGuard::~InterruptGuard() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
}

}  // namespace kcspec::cli
