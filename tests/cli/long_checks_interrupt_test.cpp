// `kcspec check-log` and `kcspec check-trace` as a user at a terminal sees them: Ctrl-C (SIGINT)
// stops the check and prints a partial report — what was checked so far, saying "interrupted"
// (--json: "interrupted": true) — with exit status 130, or 1 when a finding was already found; a
// terminal shows a progress line rewritten twice a second, and nothing else shows one.
//
// The inputs are made here, big enough to be still running when SIGINT comes: a clean
// state-change.log (tests/conformance/logs/) repeated with a new controller epoch each time, given
// 400 times on the command line (about 9 GB to read); a trace of a crash-and-restart cycle
// written by `kcspec trace` and repeated 5,000 times (45,000 steps).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "interrupt_run.hpp"
#include "proofs/conformance/log_checker.hpp"
#include "proofs/conformance/trace_checker.hpp"
#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

using namespace std::chrono_literals;
using interrupt_run::runAndInterrupt;
using interrupt_run::runOnTerminal;
namespace fs = std::filesystem;

fs::path work(const std::string& name) { return interrupt_run::work("long-checks", name); }

// The inputs are tens of MB: this process's folder goes when its tests end.
class RemoveWorkFolder : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(fs::temp_directory_path() / ("kcspec-long-checks-" + std::to_string(::getpid())), ignored);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveWorkFolder =
    ::testing::AddGlobalTestEnvironment(new RemoveWorkFolder);

const fs::path kLogs = fs::path(KCSPEC_SOURCE_DIR) / "tests" / "conformance" / "logs";

std::string replaceAll(std::string text, const std::string& what, const std::string& with) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
  return text;
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// About 24 MB of clean log: the controlled-shutdown log 3,000 times, each copy logged by a
// controller of a new epoch (so that no copy contradicts the one before it: 0 findings).
const fs::path& bigLog() {
  static const fs::path path = [] {
    const fs::path dir = work("inputs-log");
    const std::string one = slurp(kLogs / "clean_3.8_controlled_shutdown.log");
    std::ofstream out(dir / "big.log", std::ios::binary);
    for (int epoch = 1; epoch <= 3000; ++epoch) out << replaceAll(one, "epoch=1]", "epoch=" + std::to_string(epoch) + "]");
    return dir / "big.log";
  }();
  return path;
}

// check-log's arguments: `first` (if any), then the big log 400 times (one stream of ~9 GB).
std::vector<std::string> manyLogs(std::vector<std::string> args, const std::string& first = "") {
  if (!first.empty()) args.push_back(first);
  for (int i = 0; i < 400; ++i) args.push_back(bigLog().string());
  return args;
}

// A trace of 45,001 steps that conforms: broker 3 crashes and restarts, over and over, observing
// the controller. The cycle's lines, written by `kcspec trace`, are repeated.
const fs::path& longTrace() {
  static const fs::path path = [] {
    const fs::path dir = work("inputs-trace");
    writeFile(dir / "cycle.scenario",
              "# kcspec scenario v1\n"
              "name cycle\nbrokers 1 2 3\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1,2,3\n"
              "bound crashes 1000000\n"
              "steps\nelect-controller 2\n"
              "crash 3\nprocess-event 2\ndeliver-request 1\ndeliver-request 2\n"
              "start 3\nprocess-event 2\ndeliver-request 1\ndeliver-request 2\ndeliver-request 3\n");
    const RunResult written =
        runKcspec({"trace", "cycle.scenario", "--fields", "/zookeeper/controller", "--out", "cycle.trace"}, dir);
    EXPECT_EQ(written.status, 0) << written.describe();
    std::istringstream in(slurp(dir / "cycle.trace"));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
    EXPECT_EQ(lines.size(), 11u);  // the header, elect-controller, the cycle's 9 steps
    std::string text;
    for (std::size_t i = 0; i < std::min<std::size_t>(lines.size(), 2); ++i) text += lines[i];
    std::string cycle;
    for (std::size_t i = 2; i < lines.size(); ++i) cycle += lines[i];
    for (int i = 0; i < 5000; ++i) text += cycle;
    writeFile(dir / "long.trace", text);
    return dir / "long.trace";
  }();
  return path;
}

// Exited by itself (not killed, not hung).
#define ASSERT_ENDED(run)                        \
  ASSERT_FALSE((run).hung) << (run).describe(); \
  ASSERT_FALSE((run).signalled) << (run).describe()

// The engines stop at their first check after the cancel flag is raised — here by the first
// progress call — in each way of reading a file: mapped windows on one thread (the first 16 MiB
// window), parsing threads (the first chunk; the threads are joined before checkFile returns),
// read(2) (the first buffer). A later checkFile reads nothing.
TEST(CheckLogEngine, StopsAtTheFirstCheckAfterCancelInEveryWayOfReading) {
  constexpr std::uint64_t kLines = 34 * 3000;  // the whole big log
  const std::vector<std::pair<std::string, conformance::CheckOptions>> ways = {
      {"mapped, one thread", conformance::CheckOptions{.threads = 1}},
      {"mapped, 2 threads", conformance::CheckOptions{.threads = 2}},
      {"mapped, 4 threads, small chunks", conformance::CheckOptions{.threads = 4, .parse_chunk_bytes = 4096}},
      {"read(2)", conformance::CheckOptions{.map_window_bytes = 0}},
  };
  for (const auto& [name, way] : ways) {
    std::atomic<bool> cancel{false};
    int calls = 0;
    conformance::CheckOptions options = way;
    options.cancel = &cancel;
    options.progress = [&, &name = name](const conformance::CheckProgress& p) {
      ++calls;
      EXPECT_EQ(p.file, 0u) << name;
      EXPECT_EQ(p.file_bytes, fs::file_size(bigLog())) << name;
      EXPECT_GT(p.bytes, 0u) << name;
      cancel.store(true);
    };
    conformance::LogChecker checker(options);
    EXPECT_EQ(checker.checkFile(bigLog().string()), std::nullopt) << name;
    EXPECT_TRUE(checker.interrupted()) << name;
    EXPECT_EQ(checker.checkFile(bigLog().string()), std::nullopt) << name;
    const conformance::CheckReport report = checker.finish();
    EXPECT_EQ(calls, 1) << name;
    EXPECT_TRUE(report.interrupted) << name;
    EXPECT_EQ(report.files.size(), 1u) << name;
    EXPECT_GT(report.lines, 0u) << name;
    EXPECT_LT(report.lines, kLines) << name;  // the first window is 16 MiB of the 23 MiB
    EXPECT_EQ(report.last_file_lines, report.lines) << name;
    EXPECT_TRUE(report.findings.empty()) << name;
  }
  // Not cancelled: the whole file, and not `interrupted`.
  std::atomic<bool> never{false};
  conformance::LogChecker checker(conformance::CheckOptions{.threads = 2, .cancel = &never});
  EXPECT_EQ(checker.checkFile(bigLog().string()), std::nullopt);
  const conformance::CheckReport report = checker.finish();
  EXPECT_FALSE(report.interrupted);
  EXPECT_EQ(report.lines, kLines);
}

TEST(CheckTraceEngine, StopsBeforeTheNextLineAfterCancel) {
  const std::string text = slurp(longTrace());
  std::atomic<bool> cancel{false};
  int calls = 0;
  const conformance::TraceVerdict verdict = conformance::checkTrace(
      text, "long.trace",
      conformance::TraceCheckOptions{.cancel = &cancel, .progress = [&](const conformance::TraceProgress& p) {
                                       ++calls;
                                       if (p.steps == 3) cancel.store(true);
                                     }});
  EXPECT_TRUE(verdict.interrupted);
  EXPECT_FALSE(verdict.divergence);
  EXPECT_EQ(verdict.steps, 3);
  EXPECT_EQ(verdict.lines_checked, 4);  // the header and three steps
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(verdict.config_name, "cycle");
}

TEST(CheckLogInterrupt, ReportsWhatWasReadAndExits130) {
  const fs::path dir = work("log-text");
  const RunResult run = runAndInterrupt(manyLogs({"check-log", "--threads", "1"}), dir, 1000ms);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  // Not a terminal: no progress line, only the notice.
  EXPECT_EQ(run.err, "kcspec check-log: interrupted; partial report\n") << run.describe();
  EXPECT_NE(run.out.find("; 0 findings\ninterrupted: checked up to " + bigLog().string() + ":"), std::string::npos)
      << run.describe();
  EXPECT_NE(run.out.find(" of 400); the rest was not read\n"), std::string::npos) << run.describe();
}

// SIGTERM gives the same partial report as Ctrl-C.
TEST(CheckLogInterrupt, SigtermReportsWhatWasReadAndExits130) {
  const fs::path dir = work("log-term");
  const RunResult run = runAndInterrupt(manyLogs({"check-log", "--threads", "1"}), dir, 1000ms, "/dev/null",
                                        std::chrono::seconds(60), SIGTERM);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_EQ(run.err, "kcspec check-log: interrupted; partial report\n") << run.describe();
  EXPECT_NE(run.out.find(" of 400); the rest was not read\n"), std::string::npos) << run.describe();
}

// With parsing threads: they are stopped and joined (no hang, no crash), and --json says so.
TEST(CheckLogInterrupt, ThreadsStopAndJsonSaysInterrupted) {
  const fs::path dir = work("log-json");
  const RunResult run = runAndInterrupt(manyLogs({"check-log", "--json", "--threads", "2"}), dir, 1000ms);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_EQ(run.err, "kcspec check-log: interrupted; partial report\n") << run.describe();
  EXPECT_EQ(run.out.rfind("{\"files\":", 0), 0u) << run.describe();
  EXPECT_NE(run.out.find("\"findings\":[],\"interrupted\":true}\n"), std::string::npos) << run.describe();
  EXPECT_EQ(count(run.out, "\n"), 1u) << run.describe();
}

// A finding found before Ctrl-C is reported as usual, with its exit status 1.
TEST(CheckLogInterrupt, AFindingBeforeTheInterruptExits1) {
  const fs::path dir = work("log-finding");
  const std::string finding = (kLogs / "finding_leader_not_in_isr.log").string();
  const RunResult run = runAndInterrupt(manyLogs({"check-log"}, finding), dir, 1000ms);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 1) << run.describe();
  EXPECT_NE(run.out.find(finding + ":19: leader-not-in-isr: "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("; 1 finding: leader-not-in-isr 1\ninterrupted: checked up to "), std::string::npos)
      << run.describe();
}

// A pipe that has gone quiet: check-log waits in read(2), and Ctrl-C still ends it with the
// report of every line that came.
TEST(CheckLogInterrupt, AQuietPipeIsInterruptedToo) {
  const fs::path dir = work("log-pipe");
  const fs::path fifo = dir / "log.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for kcspec to open it
    if (fd < 0) return;
    const std::string log = slurp(kLogs / "clean_3.8_controlled_shutdown.log");  // 34 lines, < a pipe's buffer
    if (::write(fd, log.data(), log.size()) != static_cast<ssize_t>(log.size())) ADD_FAILURE() << "short write";
    while (!done.load()) std::this_thread::sleep_for(10ms);  // the pipe stays open, and quiet
    ::close(fd);
  });
  const RunResult run = runAndInterrupt({"check-log", "/dev/stdin"}, dir, 1000ms, fifo, 20s);
  done.store(true);
  writer.join();
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_EQ(run.err, "kcspec check-log: interrupted; partial report\n") << run.describe();
  EXPECT_NE(run.out.find("check-log: 1 file, 34 lines (34 parsed, 0 unparsed, 0 blank), 1 partition; 0 findings\n"
                         "interrupted: checked up to /dev/stdin:34 (file 1 of 1); the rest was not read\n"),
            std::string::npos)
      << run.describe();
}

TEST(CheckLogProgress, ShowsMiBLinesAndTheFileOnATerminal) {
  const RunResult run = runOnTerminal(manyLogs({"check-log"}), work("log-tty"), 2600ms);
  KCSPEC_SKIP_WITHOUT_TERMINAL(run);
  ASSERT_ENDED(run);
  // Twice a second: at least 3 lines in 2.6 s (the first at once).
  EXPECT_GE(count(run.out, "\r\033[Kcheck-log: "), 3u) << run.describe();
  EXPECT_NE(run.out.find(" MiB, "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find(" lines, file "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find(" of 400: " + bigLog().string()), std::string::npos) << run.describe();
  // The line is cleared before the report.
  EXPECT_NE(run.out.find("\r\033[Kkcspec check-log: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
}

TEST(CheckTraceInterrupt, ReportsTheLinesCheckedAndExits130) {
  const fs::path dir = work("trace-text");
  const RunResult run = runAndInterrupt({"check-trace", longTrace().string()}, dir, 1000ms);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_EQ(run.err, "kcspec check-trace: interrupted; partial report\n") << run.describe();
  EXPECT_EQ(run.out.rfind("check-trace: " + longTrace().string() + ": interrupted after line ", 0), 0u) << run.describe();
  EXPECT_NE(run.out.find(" observations checked, configuration cycle); the rest was not checked\n"), std::string::npos)
      << run.describe();
}

TEST(CheckTraceInterrupt, JsonSaysInterrupted) {
  const fs::path dir = work("trace-json");
  const RunResult run = runAndInterrupt({"check-trace", "--json", longTrace().string()}, dir, 1000ms);
  ASSERT_ENDED(run);
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_EQ(run.err, "kcspec check-trace: interrupted; partial report\n") << run.describe();
  EXPECT_NE(run.out.find("\"verdict\":\"interrupted\",\"config\":\"cycle\",\"steps\":"), std::string::npos)
      << run.describe();
  EXPECT_NE(run.out.find(",\"interrupted\":true,\"lines_checked\":"), std::string::npos) << run.describe();
}

TEST(CheckTraceProgress, ShowsLinesAndStepsOnATerminal) {
  const RunResult run = runOnTerminal({"check-trace", longTrace().string()}, work("trace-tty"), 2600ms);
  KCSPEC_SKIP_WITHOUT_TERMINAL(run);
  ASSERT_ENDED(run);
  EXPECT_GE(count(run.out, "\r\033[Kcheck-trace: line "), 3u) << run.describe();
  // Streamed: how far through the file's bytes (the line count is not known before the end).
  EXPECT_NE(run.out.find(" MiB), "), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find(" steps checked"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("\r\033[Kkcspec check-trace: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
}

}  // namespace
}  // namespace kcspec::cli_test
