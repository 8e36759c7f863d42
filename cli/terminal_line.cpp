// TerminalLine (terminal_line.hpp).
#include "cli/terminal_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace kcspec::cli {

TerminalLine::TerminalLine() : on_(isatty(STDERR_FILENO) != 0) {}

bool TerminalLine::due() {
  if (!on_) return false;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(500)) return false;
  shown_ = true;
  last_ = now;
  return true;
}

void TerminalLine::show(const std::string& text) {
  if (!on_) return;
  visible_ = true;
  fmt::print(stderr, "\r\033[K{}", text);
  std::fflush(stderr);
}

void TerminalLine::clear() {
  if (!visible_) return;
  visible_ = false;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace kcspec::cli
