// A child process spoken to over pipes, line by line, with a timeout on every read and write:
// the live driver's system under test. It never blocks without a deadline, bounds what it
// buffers (one line of stdout, the tail of stderr), and kills the child's whole process group
// when it is done with it or gives up on it. The first child installs handlers for SIGINT,
// SIGTERM and SIGHUP that kill every live child's group before the driver dies of the signal,
// and each child asks the kernel to kill it if the driver dies outright (PR_SET_PDEATHSIG).
// With setInterruptFlag, the first SIGINT only raises a flag (the driver stops and reports).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcspec::conformance {

enum class LineStatus : std::uint8_t {
  Line,      // a whole line (without its newline)
  Timeout,   // nothing complete within the timeout
  Closed,    // the child closed its stdout (usually: it exited)
  TooLong,   // the line grew past max_line_bytes
};

struct LineResult {
  LineStatus status = LineStatus::Line;
  std::string line;
};

// While `flag` is not null, the first SIGINT (Ctrl-C) only sets *flag, so that the driver can stop
// at its next step and report what it did; a second SIGINT, SIGTERM and SIGHUP still kill every
// live child's group and the driver. Installs the handlers at once. nullptr: back to that alone.
void setInterruptFlag(std::atomic<bool>* flag);

class ChildProcess {
 public:
  // Starts `argv` (argv[0] is looked up in PATH) in its own process group, its stdin and stdout
  // piped to this process and its stderr kept (the last stderr_tail_bytes). Throws
  // std::runtime_error when the program cannot be started (the message says why). Ignores
  // SIGPIPE in this process, so a write to a child that died is an error, not a signal.
  // With `stderr_log`, every byte of the child's stderr is also appended to that file (after a
  // line naming the process), complete — `drive --run-folder`'s sut-stderr.log.
  explicit ChildProcess(const std::vector<std::string>& argv, std::size_t max_line_bytes,
                        std::size_t stderr_tail_bytes = 4096, const std::string& stderr_log = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and a newline; false when the child stopped reading or the timeout passed.
  bool writeLine(std::string_view line, std::chrono::milliseconds timeout);

  // The next line of the child's stdout.
  LineResult readLine(std::chrono::milliseconds timeout);

  // Closes the child's stdin and waits up to `grace` for it to exit, then kills its process group.
  void finish(std::chrono::milliseconds grace);
  // Kills the child's process group now (SIGKILL) and reaps the child.
  void kill();

  bool running();  // not yet exited (reaps the child if it has)
  // "exited with status 3", "killed by signal 9 (Killed)", "still running".
  std::string exitDescription();
  std::string stderrTail() const { return stderr_tail_; }
  pid_t pid() const { return pid_; }

 private:
  void drainStderr();
  void closeFd(int& fd);
  void reap(bool block);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  int stderr_log_fd_ = -1;
  std::size_t max_line_bytes_;
  std::size_t stderr_tail_bytes_;
  std::string stdout_buffer_;  // bytes read past the last returned line
  bool stdout_closed_ = false;
  std::string stderr_tail_;
  std::optional<int> wait_status_;
};

}  // namespace kcspec::conformance
