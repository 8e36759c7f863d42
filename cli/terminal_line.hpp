// The progress line of a long command on a terminal: one line on stderr, rewritten in place at
// most twice a second, and taken off before other output. When stderr is not a terminal it
// prints nothing at all, so redirected output stays byte-identical (docs/reliability.md "Long
// runs"). Used by mutants, check-log, check-trace and prove (explore has its own, which can also
// write a line of its own every N seconds off a terminal).
#pragma once

#include <chrono>
#include <string>

namespace kcspec::cli {

class TerminalLine {
 public:
  TerminalLine();

  bool on() const { return on_; }
  // Whether a new line is due: true on the first call, then at most every 500 ms (always false
  // off a terminal). The caller builds the text only then.
  bool due();
  // Replaces the line on the terminal by `text` (no newline).
  void show(const std::string& text);
  // Takes the line off the terminal, if one is shown.
  void clear();

 private:
  bool on_;
  bool shown_ = false;    // a line was shown at least once (due() then throttles)
  bool visible_ = false;  // a line is on the terminal now
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace kcspec::cli
