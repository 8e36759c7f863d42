// Running kcspec the way a user at a terminal does and pressing Ctrl-C, for the tests of
// tests/cli (interrupt_reproduce_test.cpp, long_checks_interrupt_test.cpp): posix_spawn with the
// output in files, or forkpty for a terminal; SIGINT after a delay; a run that does not end is
// killed and reported as hung.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "run_kcspec.hpp"

// A test of terminal behaviour skips, saying why, where the machine has no pseudo-terminals.
#define KCSPEC_SKIP_WITHOUT_TERMINAL(run) \
  do {                                    \
    if ((run).no_terminal) GTEST_SKIP() << (run).err; \
  } while (false)

namespace kcspec::cli_test::interrupt_run {

namespace fs = std::filesystem;

// A fresh folder for one test: <tmp>/kcspec-<prefix>-<pid>/<name>.
inline fs::path work(const std::string& prefix, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-" + prefix + "-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline std::vector<char*> argvOf(std::vector<std::string>& strings) {
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  return argv;
}

// Runs kcspec in `dir` with its output in files (run.stdout, run.stderr: not a terminal) and
// `stdin_file` as its input, sends SIGINT after `after`, and waits (at most `limit`) for it to end.
inline RunResult runAndInterrupt(const std::vector<std::string>& args, const fs::path& dir,
                                 std::chrono::milliseconds after, const fs::path& stdin_file = "/dev/null",
                                 std::chrono::milliseconds limit = std::chrono::seconds(60), int signal_number = SIGINT) {
  const pid_t pid = spawnKcspec(args, dir, stdin_file);
  if (pid < 0) {
    RunResult failed;
    failed.err = "cannot run kcspec";
    return failed;
  }
  std::this_thread::sleep_for(after);
  ::kill(pid, signal_number);
  RunResult result = reap(pid, limit);
  result.out = slurp(dir / "run.stdout");
  result.err = slurp(dir / "run.stderr");
  return result;
}

// Runs kcspec on a pseudo-terminal (stdout and stderr both) for `duration`, then sends SIGINT;
// `out` holds everything it wrote to the terminal.
inline RunResult runOnTerminal(const std::vector<std::string>& args, const fs::path& dir,
                               std::chrono::milliseconds duration) {
  std::vector<std::string> strings{KCSPEC_EXE};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv = argvOf(strings);
  int master = -1;
  // KCSPEC_TEST_NO_PTY=1 stands for a machine without pseudo-terminals (the skip's own test).
  const bool simulate_none = std::getenv("KCSPEC_TEST_NO_PTY") != nullptr;
  if (simulate_none) errno = ENOENT;
  const pid_t pid = simulate_none ? -1 : ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    RunResult failed;
    failed.no_terminal = true;
    failed.err = std::string("this machine gives no pseudo-terminal (forkpty: ") + std::strerror(errno) +
                 "; a container without /dev/pts?): the terminal behaviour is not tested here";
    return failed;
  }
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) _exit(127);
    ::execv(KCSPEC_EXE, argv.data());
    _exit(127);
  }
  std::string text;
  const auto stop_at = std::chrono::steady_clock::now() + duration;
  bool interrupted = false;
  for (;;) {
    if (!interrupted && std::chrono::steady_clock::now() > stop_at) {
      ::kill(pid, SIGINT);
      interrupted = true;
    }
    pollfd fds[1] = {{master, POLLIN, 0}};
    if (::poll(fds, 1, 50) > 0) {
      char chunk[4096];
      const ssize_t n = ::read(master, chunk, sizeof chunk);
      if (n > 0) {
        text.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      break;  // EIO: the child is gone
    }
    if (interrupted && ::waitpid(pid, nullptr, WNOHANG | WNOWAIT) == pid) break;
  }
  RunResult result = reap(pid, std::chrono::seconds(60));
  ::close(master);
  result.out = text;
  return result;
}

}  // namespace kcspec::cli_test::interrupt_run
