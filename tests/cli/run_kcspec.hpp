// Runs the kcspec executable as a user would, for the tests of tests/cli: arguments in, exit
// status and both output streams out. Output goes through files (no pipe can fill up), and a run
// that does not end within `hang_limit_ms` is killed and reported as hung (a guard against a test
// that never ends, not a measurement: nothing asserts on time).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace kcspec::cli_test {

struct RunResult {
  bool hung = false;        // killed after hang_limit_ms
  bool signalled = false;   // ended by a signal (a crash: abort, segfault, sanitizer)
  int signal = 0;
  int status = -1;          // the exit status when it exited
  bool no_terminal = false; // runOnTerminal: the machine has no pseudo-terminals (err says why)
  std::string out;
  std::string err;

  std::string describe() const {
    std::ostringstream text;
    if (hung) text << "hung (killed)";
    else if (signalled) text << "killed by signal " << signal;
    else text << "exit status " << status;
    text << "\n--- stdout (first 2000 bytes) ---\n" << out.substr(0, 2000) << "\n--- stderr (first 2000 bytes) ---\n"
         << err.substr(0, 2000);
    return text.str();
  }
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// How often `what` occurs in `text` (not overlapping).
inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Starts `program args...` with `work_dir` (created if missing) as its working directory,
// `stdin_file` as its standard input and its output in the files run.stdout and run.stderr there.
// The child's pid, or -1 when it cannot be started.
// With `stdout_fd` (≥ 0), the child's standard output is that descriptor (e.g. a pipe the test
// reads as it comes) instead of run.stdout.
inline pid_t spawnProgram(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& work_dir, const std::filesystem::path& stdin_file = "/dev/null",
                          int stdout_fd = -1) {
  std::filesystem::create_directories(work_dir);
  const std::filesystem::path out_file = work_dir / "run.stdout", err_file = work_dir / "run.stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdin_file.c_str(), O_RDONLY, 0);
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, work_dir.c_str());
  std::vector<std::string> argv_strings{program};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_strings) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

// spawnProgram for the kcspec executable (KCSPEC_EXE).
inline pid_t spawnKcspec(const std::vector<std::string>& args, const std::filesystem::path& work_dir,
                         const std::filesystem::path& stdin_file = "/dev/null", int stdout_fd = -1) {
  return spawnProgram(KCSPEC_EXE, args, work_dir, stdin_file, stdout_fd);
}

// Waits for `pid` at most `limit`; kills it (SIGKILL) past that and says so (`hung`).
inline RunResult reap(pid_t pid, std::chrono::milliseconds limit) {
  RunResult result;
  int wait_status = 0;
  const auto give_up = std::chrono::steady_clock::now() + limit;
  for (;;) {  // bounded by `limit`
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

// Runs `KCSPEC_EXE args...` as spawnKcspec starts it and waits for it (at most hang_limit_ms);
// its output files run.stdout and run.stderr stay in `work_dir`.
inline RunResult runKcspec(const std::vector<std::string>& args, const std::filesystem::path& work_dir,
                           int hang_limit_ms = 300000, const std::filesystem::path& stdin_file = "/dev/null") {
  const pid_t pid = spawnKcspec(args, work_dir, stdin_file);
  if (pid < 0) {
    RunResult failed;
    failed.err = "cannot run " + std::string(KCSPEC_EXE);
    return failed;
  }
  RunResult result = reap(pid, std::chrono::milliseconds(hang_limit_ms));
  result.out = slurp(work_dir / "run.stdout");
  result.err = slurp(work_dir / "run.stderr");
  return result;
}

}  // namespace kcspec::cli_test
