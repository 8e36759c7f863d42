// trace, itf and check-trace process a history in bounded memory (issue "A tool that CI and
// operators can trust", item 4): each runs a history of 100,000 steps while its peak resident set
// (wait4's ru_maxrss) stays under a cap that is smaller than what it writes or reads, so a command
// that held the history's text — as trace and itf did, 8.7 GB for 200,000 steps — cannot pass.
// On a terminal they show progress, and Ctrl-C leaves --out as it was.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "interrupt_run.hpp"
#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr long kCapMib = 48;  // kcspec itself needs about 7 MiB for these histories

fs::path work(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-streaming-" + std::to_string(::getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

// 100,000 steps: the controller's election, then broker 3 crashes and restarts 11,111 times
// (9 steps a cycle), the controller handling each change and the brokers taking its requests.
const fs::path& longScenario() {
  static const fs::path path = [] {
    const fs::path file = work("inputs") / "long.scenario";
    std::ofstream out(file);
    out << "# kcspec scenario v1\n"
           "name cycle\nbrokers 1 2 3\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1,2,3\n"
           "bound crashes 1000000\n"
           "steps\nelect-controller 2\n";
    for (int i = 0; i < 11111; ++i) {
      out << "crash 3\nprocess-event 2\ndeliver-request 1\ndeliver-request 2\n"
             "start 3\nprocess-event 2\ndeliver-request 1\ndeliver-request 2\ndeliver-request 3\n";
    }
    return file;
  }();
  return path;
}
constexpr std::uint64_t kSteps = 100'000;

// A run whose standard output is read here as it comes (never kept whole): its size, its lines,
// how often `marker` occurs, and its last bytes.
struct Streamed {
  int status = -1;
  long peak_resident_kib = 0;
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::uint64_t markers = 0;
  std::string tail;
  std::string err;
};

constexpr std::size_t kTailBytes = 65536;  // more than one ITF state of this history

Streamed runStreamed(const std::vector<std::string>& args, const fs::path& dir, const std::string& marker) {
  Streamed out;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe";
    return out;
  }
  const pid_t pid = spawnKcspec(args, dir, "/dev/null", pipe_fds[1]);
  ::close(pipe_fds[1]);
  if (pid <= 0) {
    ::close(pipe_fds[0]);
    ADD_FAILURE() << "cannot run " << KCSPEC_EXE;
    return out;
  }
  std::string carry;  // the end of the last chunk, so that a marker across two chunks is counted
  std::vector<char> chunk(1 << 16);
  for (;;) {  // bounded by the child's output: it ends when the child does
    const ssize_t n = ::read(pipe_fds[0], chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::string_view piece(chunk.data(), static_cast<std::size_t>(n));
    out.bytes += piece.size();
    for (char c : piece) out.lines += c == '\n' ? 1 : 0;
    std::string window = carry + std::string(piece);
    for (std::size_t at = window.find(marker); at != std::string::npos; at = window.find(marker, at + marker.size())) {
      ++out.markers;
    }
    carry = window.substr(window.size() - std::min(window.size(), marker.size() - 1));  // no whole marker
    out.tail += piece;
    if (out.tail.size() > kTailBytes) out.tail.erase(0, out.tail.size() - kTailBytes);
  }
  ::close(pipe_fds[0]);
  int wait_status = 0;
  rusage usage{};
  ::wait4(pid, &wait_status, 0, &usage);
  out.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  out.peak_resident_kib = usage.ru_maxrss;  // KiB on Linux
  out.err = slurp(dir / "run.stderr");
  return out;
}

TEST(Streaming, TraceWritesAHistoryOf100000StepsInBoundedMemory) {
  const Streamed run = runStreamed({"trace", "--compact", longScenario().string()}, work("trace"), "\n{\"action\":");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.lines, kSteps + 1);    // the header, then a line per step
  EXPECT_EQ(run.markers, kSteps);      // a step line starts each line after the header
  EXPECT_GT(run.bytes, static_cast<std::uint64_t>(kCapMib) << 20);  // more than the cap: it was not held
  EXPECT_LE(run.peak_resident_kib, kCapMib * 1024) << "peak resident " << run.peak_resident_kib / 1024 << " MiB";
}

TEST(Streaming, ItfWritesAHistoryOf100000StepsInBoundedMemory) {
  const Streamed run = runStreamed({"itf", longScenario().string()}, work("itf"), "{\"#meta\":{\"index\":");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.markers, kSteps + 1);  // the initial state, then a state per step
  EXPECT_NE(run.tail.find("{\"#meta\":{\"index\":100000},\"action\":\"deliver-request 3\""), std::string::npos) << run.tail;
  EXPECT_EQ(run.tail.substr(run.tail.size() - 3), "]}\n");
  EXPECT_GT(run.bytes, static_cast<std::uint64_t>(kCapMib) << 20);
  EXPECT_LE(run.peak_resident_kib, kCapMib * 1024) << "peak resident " << run.peak_resident_kib / 1024 << " MiB";
}

TEST(Streaming, CheckTraceChecksAHistoryOf100000StepsInBoundedMemory) {
  const fs::path dir = work("check-trace");
  const RunResult written = runKcspec({"trace", "--compact", longScenario().string(), "--out", "long.trace"}, dir);
  ASSERT_EQ(written.status, 0) << written.describe();
  ASSERT_GT(fs::file_size(dir / "long.trace"), static_cast<std::uintmax_t>(kCapMib) << 20);
  const Streamed run = runStreamed({"check-trace", "long.trace"}, dir, "conforms");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.markers, 1u);
  EXPECT_NE(run.tail.find("conforms (100000 steps, 100001 observations checked, configuration cycle)"),
            std::string::npos)
      << run.tail;
  EXPECT_LE(run.peak_resident_kib, kCapMib * 1024) << "peak resident " << run.peak_resident_kib / 1024 << " MiB";
}

// A terminal sees the progress line; Ctrl-C stops before the next step, says so, and leaves the
// --out file as it was (here: absent), exit 130.
TEST(Streaming, TraceShowsProgressOnATerminalAndCtrlCLeavesOutAsItWas) {
  const fs::path dir = work("trace-tty");
  const RunResult run =
      interrupt_run::runOnTerminal({"itf", longScenario().string(), "--out", "long.itf"}, dir, std::chrono::milliseconds(1500));
  if (run.no_terminal) GTEST_SKIP() << run.err;
  ASSERT_FALSE(run.hung) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.out.find("itf: line "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find(" steps written"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("kcspec itf: interrupted after step "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("nothing written to long.itf"), std::string::npos) << run.describe();
  EXPECT_FALSE(fs::exists(dir / "long.itf"));
  for (const auto& entry : fs::directory_iterator(dir)) {  // nor a temporary file left behind
    EXPECT_EQ(entry.path().filename().string().find("long.itf.tmp"), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace kcspec::cli_test
