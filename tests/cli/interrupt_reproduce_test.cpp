// The long-running commands as a user sees them: Ctrl-C (SIGINT) gives a partial report and a
// documented exit status (130) instead of dying silently, a terminal shows progress, and the
// command a finding prints to reproduce it does reproduce it.
//
// - `drive`: Ctrl-C stops at the SUT's next reply and reports the histories checked so far; the
//   reproduce line keeps `--max-line-bytes` (without it, a reply too long for the limit given is
//   no finding at all).
// - `mutants`: Ctrl-C prints the mutants finished so far; on a terminal a progress line is
//   rewritten twice a second.
// - `prove`: Ctrl-C prints the theorems decided so far and writes no page; on a terminal a progress
//   line shows how far the run in progress is.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

fs::path work(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-interrupt-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<char*> argvOf(std::vector<std::string>& strings) {
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  return argv;
}

// Waits for `pid` at most `limit`; kills it (SIGKILL) past that and says so.
RunResult reap(pid_t pid, std::chrono::milliseconds limit) {
  RunResult result;
  int wait_status = 0;
  const auto give_up = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (::waitpid(pid, &wait_status, WNOHANG) == pid) break;
    if (std::chrono::steady_clock::now() > give_up) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &wait_status, 0);
      result.hung = true;
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(wait_status)) {
    result.signalled = true;
    result.signal = WTERMSIG(wait_status);
  } else {
    result.status = WEXITSTATUS(wait_status);
  }
  return result;
}

// Runs kcspec with its output in files, sends SIGINT after `after`, and waits for it to end.
RunResult runAndInterrupt(const std::vector<std::string>& args, const fs::path& dir, std::chrono::milliseconds after) {
  const fs::path out_file = dir / "run.stdout", err_file = dir / "run.stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  std::vector<std::string> strings{KCSPEC_EXE};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv = argvOf(strings);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, KCSPEC_EXE, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    RunResult failed;
    failed.err = "cannot run kcspec";
    return failed;
  }
  std::this_thread::sleep_for(after);
  ::kill(pid, SIGINT);
  RunResult result = reap(pid, std::chrono::seconds(60));
  result.out = slurp(out_file);
  result.err = slurp(err_file);
  return result;
}

// Runs kcspec on a pseudo-terminal (stdout and stderr both) for `duration`, then sends SIGINT;
// `out` holds everything it wrote to the terminal.
RunResult runOnTerminal(const std::vector<std::string>& args, const fs::path& dir, std::chrono::milliseconds duration) {
  std::vector<std::string> strings{KCSPEC_EXE};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv = argvOf(strings);
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    RunResult failed;
    failed.err = "forkpty failed";
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

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The words of a reproduce line ("kcspec drive …"), with `kcspec` replaced by the executable.
std::vector<std::string> reproduceArgs(const std::string& out) {
  const std::size_t at = out.find("reproduce: kcspec ");
  if (at == std::string::npos) return {};
  std::istringstream line(out.substr(at + 18, out.find('\n', at) - at - 18));
  std::vector<std::string> words;
  for (std::string word; line >> word;) words.push_back(word);
  return words;
}

TEST(Interrupt, DriveReportsWhatItCheckedAndExits130) {
  const fs::path dir = work("drive");
  const RunResult run = runAndInterrupt(
      {"drive", "--histories", "1000000", "--quiet", "--preset", "every-perturbation", "--", KCSPEC_EXE, "sut"}, dir,
      std::chrono::milliseconds(1500));
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.err.find("kcspec drive: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("(interrupted: 1000000 asked for)"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("interrupted: no finding so far"), std::string::npos) << run.describe();
}

TEST(Interrupt, MutantsReportsTheMutantsFinishedAndExits130) {
  const fs::path dir = work("mutants");
  const RunResult run = runAndInterrupt({"mutants", "--budget", "100000"}, dir, std::chrono::milliseconds(1500));
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.err.find("kcspec mutants: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("; interrupted: "), std::string::npos) << run.describe();
  // Not a terminal: no progress line.
  EXPECT_EQ(run.err.find("mutants: the impl without mutants"), std::string::npos) << run.describe();
}

TEST(Interrupt, ProveReportsTheTheoremsDecidedWritesNothingAndExits130) {
  const fs::path dir = work("prove");
  // The default preset's exploration takes 20 s and more: the interrupt lands inside it.
  const RunResult run =
      runAndInterrupt({"prove", "--only", "default", "--out", "page.md"}, dir, std::chrono::milliseconds(2500));
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.err.find("kcspec prove: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("(interrupted: the others were not run)"), std::string::npos) << run.describe();
  EXPECT_FALSE(fs::exists(dir / "page.md"));
}

TEST(Progress, MutantsShowsProgressOnATerminal) {
  const RunResult run = runOnTerminal({"mutants", "--budget", "100000"}, work("mutants-tty"), std::chrono::milliseconds(2600));
  ASSERT_FALSE(run.hung) << run.describe();
  // Twice a second: at least 3 lines in 2.6 s (the first at once).
  EXPECT_GE(count(run.out, "\r\033[Kmutants: "), 3u) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
}

TEST(Progress, ProveShowsTheRunInProgressOnATerminal) {
  const RunResult run = runOnTerminal({"prove", "--only", "default"}, work("prove-tty"), std::chrono::milliseconds(3000));
  ASSERT_FALSE(run.hung) << run.describe();
  EXPECT_GE(count(run.out, "\r\033[Kprove:   "), 3u) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
}

// A reply longer than --max-line-bytes is a finding; the reproduce line must keep the limit, or
// the command it prints finds nothing.
TEST(Reproduce, DriveReproduceLineKeepsMaxLineBytesAndReproduces) {
  const fs::path dir = work("drive-reproduce");
  const RunResult run =
      runKcspec({"drive", "--max-line-bytes", "1024", "--histories", "2", "--quiet", "--out", "", "--", KCSPEC_EXE, "sut"},
                dir);
  ASSERT_EQ(run.status, 1) << run.describe();
  ASSERT_NE(run.out.find("FINDING (malformed): the reply to step \"elect-controller 1\" is longer than 1024 bytes"),
            std::string::npos)
      << run.describe();
  std::vector<std::string> again = reproduceArgs(run.out);
  ASSERT_FALSE(again.empty()) << run.describe();
  EXPECT_NE(run.out.find(" --max-line-bytes 1024 "), std::string::npos) << run.describe();
  again.insert(again.begin() + 1, {"--quiet", "--out", ""});
  const RunResult second = runKcspec(again, dir);
  EXPECT_EQ(second.status, 1) << second.describe();
  EXPECT_NE(second.out.find("FINDING (malformed): the reply to step \"elect-controller 1\" is longer than 1024 bytes"),
            std::string::npos)
      << second.describe();
}

}  // namespace
}  // namespace kcspec::cli_test
