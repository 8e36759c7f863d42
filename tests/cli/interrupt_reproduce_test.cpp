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
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "interrupt_run.hpp"
#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

using interrupt_run::runAndInterrupt;
using interrupt_run::runOnTerminal;

fs::path work(const std::string& name) { return interrupt_run::work("interrupt", name); }

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

// SIGTERM and SIGHUP (timeout, a CI runner, a service manager) give drive the same partial report
// as Ctrl-C; they used to stop the SUT and kill the driver with no report.
TEST(Interrupt, DriveGivesThePartialReportOnSigtermAndSighup) {
  for (const int signal_number : {SIGTERM, SIGHUP}) {
    SCOPED_TRACE(signal_number);
    const fs::path dir = work("drive-" + std::to_string(signal_number));
    const RunResult run = runAndInterrupt(
        {"drive", "--histories", "1000000", "--quiet", "--preset", "every-perturbation", "--", KCSPEC_EXE, "sut"}, dir,
        std::chrono::milliseconds(1500), "/dev/null", std::chrono::seconds(60), signal_number);
    ASSERT_FALSE(run.hung) << run.describe();
    ASSERT_FALSE(run.signalled) << run.describe();
    EXPECT_EQ(run.status, 130) << run.describe();
    EXPECT_NE(run.err.find("kcspec drive: interrupted; partial report"), std::string::npos) << run.describe();
    EXPECT_NE(run.out.find("interrupted: no finding so far"), std::string::npos) << run.describe();
  }
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
  // The two-perturbations preset's unreduced exploration takes 20 s and more: the interrupt lands inside it.
  const RunResult run =
      runAndInterrupt({"prove", "--only", "two-perturbations", "--out", "page.md"}, dir, std::chrono::milliseconds(2500));
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.err.find("kcspec prove: interrupted; partial report"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("(interrupted: the others were not run)"), std::string::npos) << run.describe();
  EXPECT_FALSE(fs::exists(dir / "page.md"));
}

// SIGTERM and SIGHUP (what `timeout`, CI runners and service managers send) give the partial
// report of Ctrl-C.
TEST(Interrupt, SigtermGivesMutantsPartialReport) {
  const fs::path dir = work("mutants-term");
  const RunResult run = runAndInterrupt({"mutants", "--budget", "100000"}, dir, std::chrono::milliseconds(1500),
                                        "/dev/null", std::chrono::seconds(60), SIGTERM);
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.err.find("kcspec mutants: interrupted; partial report"), std::string::npos) << run.describe();
}

TEST(Interrupt, SighupGivesProvePartialReportAndWritesNothing) {
  const fs::path dir = work("prove-hup");
  const RunResult run = runAndInterrupt({"prove", "--only", "two-perturbations", "--out", "page.md"}, dir,
                                        std::chrono::milliseconds(2500), "/dev/null", std::chrono::seconds(60), SIGHUP);
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
  EXPECT_NE(run.out.find("(interrupted: the others were not run)"), std::string::npos) << run.describe();
  EXPECT_FALSE(fs::exists(dir / "page.md"));
}

TEST(Progress, MutantsShowsProgressOnATerminal) {
  const RunResult run = runOnTerminal({"mutants", "--budget", "100000"}, work("mutants-tty"), std::chrono::milliseconds(2600));
  KCSPEC_SKIP_WITHOUT_TERMINAL(run);
  ASSERT_FALSE(run.hung) << run.describe();
  // Twice a second: at least 3 lines in 2.6 s (the first at once).
  EXPECT_GE(count(run.out, "\r\033[Kmutants: "), 3u) << run.describe();
  EXPECT_EQ(run.status, 130) << run.describe();
}

TEST(Progress, ProveShowsTheRunInProgressOnATerminal) {
  const RunResult run = runOnTerminal({"prove", "--only", "two-perturbations"}, work("prove-tty"), std::chrono::milliseconds(3000));
  KCSPEC_SKIP_WITHOUT_TERMINAL(run);
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
  // The first step of seed 1's history elects a controller (which one depends on the candidates).
  ASSERT_NE(run.out.find("FINDING (malformed): the reply to step \"elect-controller "), std::string::npos)
      << run.describe();
  ASSERT_NE(run.out.find("\" is longer than 1024 bytes"), std::string::npos) << run.describe();
  std::vector<std::string> again = reproduceArgs(run.out);
  ASSERT_FALSE(again.empty()) << run.describe();
  EXPECT_NE(run.out.find(" --max-line-bytes 1024 "), std::string::npos) << run.describe();
  again.insert(again.begin() + 1, {"--quiet", "--out", ""});
  const RunResult second = runKcspec(again, dir);
  EXPECT_EQ(second.status, 1) << second.describe();
  EXPECT_NE(second.out.find("FINDING (malformed): the reply to step \"elect-controller "), std::string::npos)
      << second.describe();
  EXPECT_NE(second.out.find("\" is longer than 1024 bytes"), std::string::npos) << second.describe();
}

}  // namespace
}  // namespace kcspec::cli_test
