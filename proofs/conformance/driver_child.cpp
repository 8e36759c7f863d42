// ChildProcess: fork/exec with three pipes, non-blocking descriptors and poll(2) deadlines.
//
// The child leads its own process group, so that killing it also kills whatever it started (a
// shell's children, an interpreter's helpers). The group is killed while the leader is still a
// zombie or alive (waitid with WNOWAIT), so its id cannot have been reused.
#include "proofs/conformance/driver_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <thread>

namespace kcspec::conformance {
namespace {

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > 1'000'000 ? 1'000'000 : static_cast<int>(left);
}

// The process groups of the children alive now, so that a driver stopped by SIGINT, SIGTERM or
// SIGHUP (Ctrl-C, a CTest timeout) takes them along instead of leaving a hung SUT behind.
constexpr int kMaxTrackedGroups = 16;
std::atomic<pid_t> tracked_groups[kMaxTrackedGroups];

// setInterruptFlag's flag: while set, a first SIGINT, SIGTERM or SIGHUP only raises it (the driver
// stops at the SUT's next reply and prints its partial report); a second one kills.
std::atomic<std::atomic<bool>*> interrupt_flag{nullptr};

void killTrackedGroupsAndDie(int signal_number) {
  {
    std::atomic<bool>* flag = interrupt_flag.load();
    if (flag != nullptr && !flag->exchange(true)) return;  // the first signal: stop and report
  }
  for (auto& group : tracked_groups) {
    const pid_t pgid = group.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

void installHandlers() {
  static std::atomic<bool> handlers_installed{false};
  if (!handlers_installed.exchange(true)) {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::signal(signal_number, killTrackedGroupsAndDie);
  }
}

void track(pid_t pgid) {
  installHandlers();
  for (auto& group : tracked_groups) {
    pid_t expected = 0;
    if (group.compare_exchange_strong(expected, pgid)) return;
  }
}

void untrack(pid_t pgid) {
  for (auto& group : tracked_groups) {
    pid_t expected = pgid;
    if (group.compare_exchange_strong(expected, 0)) return;
  }
}

void setNonBlocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

}  // namespace

void setInterruptFlag(std::atomic<bool>* flag) {
  interrupt_flag.store(flag);
  if (flag != nullptr) installHandlers();
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, std::size_t max_line_bytes,
                           std::size_t stderr_tail_bytes, const std::string& stderr_log)
    : max_line_bytes_(max_line_bytes), stderr_tail_bytes_(stderr_tail_bytes) {
  if (argv.empty()) throw std::runtime_error("no command to run");
  if (!stderr_log.empty()) {
    stderr_log_fd_ = ::open(stderr_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (stderr_log_fd_ < 0) {
      throw std::runtime_error(fmt::format("cannot write {}: {}", stderr_log, std::strerror(errno)));
    }
  }
  ::signal(SIGPIPE, SIG_IGN);

  int in[2], out[2], err[2], exec_status[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
      pipe2(exec_status, O_CLOEXEC) != 0) {
    closeFd(stderr_log_fd_);
    throw std::runtime_error(fmt::format("cannot create pipes: {}", std::strerror(errno)));
  }
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) {
    closeFd(stderr_log_fd_);
    throw std::runtime_error(fmt::format("cannot fork: {}", std::strerror(errno)));
  }
  if (pid_ == 0) {
    // The child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the driver killed outright: the child goes too
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execvp(args[0], args.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t written = write(exec_status[1], &error, sizeof error);
    _exit(127);
  }
  setpgid(pid_, pid_);  // also from here, so the group exists before we might signal it
  track(pid_);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  close(exec_status[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];

  // exec succeeded iff the status pipe closes without data (it is close-on-exec).
  int error = 0;
  ssize_t got;
  do {
    got = read(exec_status[0], &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  close(exec_status[0]);
  if (got == static_cast<ssize_t>(sizeof error)) {
    reap(true);
    closeFd(stdin_fd_);
    closeFd(stdout_fd_);
    closeFd(stderr_fd_);
    closeFd(stderr_log_fd_);
    throw std::runtime_error(fmt::format("cannot run {}: {}", argv[0], std::strerror(error)));
  }
  if (stderr_log_fd_ >= 0) {
    const std::string header = fmt::format("--- SUT process {} ({}) ---\n", pid_, argv[0]);
    if (::write(stderr_log_fd_, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
      closeFd(stderr_log_fd_);
    }
  }
  setNonBlocking(stdin_fd_);
  setNonBlocking(stdout_fd_);
  setNonBlocking(stderr_fd_);
}

ChildProcess::~ChildProcess() {
  kill();
  if (stderr_log_fd_ >= 0) drainStderr();  // what the child wrote before it ended, for the log
  closeFd(stderr_log_fd_);
  closeFd(stdin_fd_);
  closeFd(stdout_fd_);
  closeFd(stderr_fd_);
}

void ChildProcess::closeFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

void ChildProcess::drainStderr() {
  if (stderr_fd_ < 0) return;
  char chunk[4096];
  for (int i = 0; i < 64; ++i) {  // at most 256 KiB per call; the rest waits for the next poll
    const ssize_t n = read(stderr_fd_, chunk, sizeof chunk);
    if (n > 0) {
      if (stderr_log_fd_ >= 0 && ::write(stderr_log_fd_, chunk, static_cast<std::size_t>(n)) != n) {
        closeFd(stderr_log_fd_);  // a full disk ends the log, not the drive
      }
      stderr_tail_.append(chunk, static_cast<std::size_t>(n));
      if (stderr_tail_.size() > stderr_tail_bytes_) stderr_tail_.erase(0, stderr_tail_.size() - stderr_tail_bytes_);
      continue;
    }
    if (n == 0) closeFd(stderr_fd_);
    return;  // EOF, EAGAIN or an error
  }
}

// Reads what stdout has, without blocking, up to one byte past the longest allowed line.
static void readAvailable(int& fd, std::string& buffer, bool& closed, std::size_t limit) {
  char chunk[65536];
  while (fd >= 0 && buffer.size() <= limit) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n > 0) {
      buffer.append(chunk, static_cast<std::size_t>(n));
    } else {
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) closed = true;
      return;
    }
  }
}

bool ChildProcess::writeLine(std::string_view line, std::chrono::milliseconds timeout) {
  if (stdin_fd_ < 0) return false;
  std::string data(line);
  data += '\n';
  std::size_t written = 0;
  const auto deadline = Clock::now() + timeout;
  while (written < data.size()) {
    const ssize_t n = write(stdin_fd_, data.data() + written, data.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;  // EPIPE: the child stopped reading
    const int wait_ms = remainingMs(deadline);
    if (wait_ms == 0) return false;
    // While waiting, keep the child's outputs flowing so that it cannot block on them.
    pollfd fds[3] = {{stdin_fd_, POLLOUT, 0}, {stdout_fd_, POLLIN, 0}, {stderr_fd_, POLLIN, 0}};
    if (stdout_buffer_.size() > max_line_bytes_) fds[1].fd = -1;
    if (poll(fds, 3, wait_ms) < 0 && errno != EINTR) return false;
    if (fds[1].revents != 0) readAvailable(stdout_fd_, stdout_buffer_, stdout_closed_, max_line_bytes_);
    if (fds[2].revents != 0) drainStderr();
  }
  return true;
}

LineResult ChildProcess::readLine(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const std::size_t newline = stdout_buffer_.find('\n');
    if (newline != std::string::npos && newline <= max_line_bytes_) {
      LineResult result{LineStatus::Line, stdout_buffer_.substr(0, newline)};
      stdout_buffer_.erase(0, newline + 1);
      if (!result.line.empty() && result.line.back() == '\r') result.line.pop_back();
      return result;
    }
    if (stdout_buffer_.size() > max_line_bytes_) {
      LineResult result{LineStatus::TooLong, stdout_buffer_.substr(0, 200)};
      stdout_buffer_.clear();
      return result;
    }
    if (stdout_closed_ || stdout_fd_ < 0) {
      LineResult result{LineStatus::Closed, stdout_buffer_};
      stdout_buffer_.clear();
      return result;
    }
    const int wait_ms = remainingMs(deadline);
    if (wait_ms == 0) return LineResult{LineStatus::Timeout, {}};
    pollfd fds[2] = {{stdout_fd_, POLLIN, 0}, {stderr_fd_, POLLIN, 0}};
    const int ready = poll(fds, 2, wait_ms);
    if (ready < 0 && errno != EINTR) {
      stdout_closed_ = true;
      continue;
    }
    if (fds[1].revents != 0) drainStderr();
    if (fds[0].revents != 0) readAvailable(stdout_fd_, stdout_buffer_, stdout_closed_, max_line_bytes_);
  }
}

void ChildProcess::reap(bool block) {
  if (pid_ <= 0 || wait_status_) return;
  // Kill the group while the leader is unreaped (alive or a zombie), then reap it.
  siginfo_t info{};
  const int options = WEXITED | WNOWAIT | (block ? 0 : WNOHANG);
  int rc;
  do {
    rc = waitid(P_PID, static_cast<id_t>(pid_), &info, options);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    wait_status_ = -1;  // not our child any more (cannot happen): stop asking
    untrack(pid_);
    return;
  }
  if (info.si_pid == 0) return;  // still running (WNOHANG)
  ::kill(-pid_, SIGKILL);        // leftovers of the group, if any
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  wait_status_ = status;
  untrack(pid_);
}

bool ChildProcess::running() {
  reap(false);
  return !wait_status_;
}

void ChildProcess::kill() {
  if (pid_ <= 0 || wait_status_) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  // SIGKILL cannot be caught: the leader dies promptly. Bound the wait all the same.
  for (int i = 0; i < 500 && !wait_status_; ++i) {
    reap(false);
    if (!wait_status_) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void ChildProcess::finish(std::chrono::milliseconds grace) {
  closeFd(stdin_fd_);
  const auto deadline = Clock::now() + grace;
  while (running() && Clock::now() < deadline) {
    if (stderr_fd_ >= 0) {
      pollfd fds[1] = {{stderr_fd_, POLLIN, 0}};
      if (poll(fds, 1, 5) > 0) drainStderr();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  kill();
  drainStderr();
}

std::string ChildProcess::exitDescription() {
  reap(false);
  if (!wait_status_) return "still running";
  const int status = *wait_status_;
  if (status == -1) return "gone";
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "stopped";
}

}  // namespace kcspec::conformance
