// `kcspec explore --distributed` under a real `mpirun` (Open MPI) with 1, 2 and 3 ranks on this
// machine: the same report as one process (counts, verdicts, counterexample lengths of the
// unreduced search), and a run that ends cleanly when a rank is killed or mpirun is interrupted.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "failover_loop.hpp"  // tests/common/
#include "run_kcspec.hpp"  // tests/cli/: kcspec run as a user runs it

namespace kcspec::distributed_test {
namespace {

using cli_test::RunResult;

// This process's own folder (two checkouts' suites may run at once on one machine), removed when
// its tests pass and kept for reading when one fails.
const std::filesystem::path kWork =
    std::filesystem::temp_directory_path() / ("kcspec-distributed-test-" + std::to_string(::getpid()));

class RemoveWorkFolder : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    std::error_code ignored;
    std::filesystem::remove_all(kWork, ignored);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveWorkFolder =
    ::testing::AddGlobalTestEnvironment(new RemoveWorkFolder);

// mpirun's flags for this machine: root may run it (CI runs as root), and 3 ranks may share 2 cores.
std::vector<std::string> mpirunArgs(int ranks, const std::vector<std::string>& kcspec_args) {
  std::vector<std::string> args{"--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks), KCSPEC_EXE};
  args.insert(args.end(), kcspec_args.begin(), kcspec_args.end());
  return args;
}

RunResult finish(pid_t pid, const std::filesystem::path& work_dir, int limit_ms) {
  RunResult result = cli_test::reap(pid, std::chrono::milliseconds(limit_ms));
  result.out = cli_test::slurp(work_dir / "run.stdout");
  result.err = cli_test::slurp(work_dir / "run.stderr");
  return result;
}

RunResult mpirun(int ranks, const std::vector<std::string>& kcspec_args, const std::filesystem::path& work_dir) {
  const pid_t pid = cli_test::spawnProgram(KCSPEC_MPIRUN, mpirunArgs(ranks, kcspec_args), work_dir);
  if (pid < 0) {
    RunResult failed;
    failed.err = "cannot run " + std::string(KCSPEC_MPIRUN);
    return failed;
  }
  return finish(pid, work_dir, 600'000);
}

// The part of a JSON report that must not depend on the ranks.
nlohmann::json verdicts(const nlohmann::json& report, bool with_lengths) {
  nlohmann::json out;
  for (const char* key : {"states", "transitions", "max_depth", "complete", "stop", "liveness_checked", "recovery_edges",
                          "chained_steps", "reduced_states", "actions", "reduction"}) {
    out[key] = report.at(key);
  }
  out["violations"] = nlohmann::json::array();
  for (const nlohmann::json& v : report.at("violations")) {
    nlohmann::json entry{{"property", v.at("property")},
                         {"kind", v.at("kind")},
                         {"occurrences", v.at("occurrences")},
                         {"known", v.at("known_kafka_deviation")}};
    if (with_lengths) entry["length"] = v.at("length");
    out["violations"].push_back(entry);
  }
  return out;
}

// The one-process report and the distributed one on 1, 2 and 3 ranks agree.
void expectSameReports(const std::string& name, const std::vector<std::string>& args, bool with_lengths) {
  std::vector<std::string> one = args;
  one.insert(one.end(), {"--json", "--threads", "2"});
  const RunResult single = cli_test::runKcspec(one, kWork / name / "one");
  ASSERT_FALSE(single.hung) << single.describe();
  // A run that printed no report says why (its status and stderr), not only that parsing failed.
  ASSERT_TRUE(nlohmann::json::accept(single.out)) << single.describe();
  const nlohmann::json expected = nlohmann::json::parse(single.out);
  for (int ranks = 1; ranks <= 3; ++ranks) {
    SCOPED_TRACE(::testing::Message() << ranks << " ranks");
    std::vector<std::string> spread = args;
    spread.insert(spread.end(), {"--json", "--threads", "1", "--distributed"});
    const RunResult run = mpirun(ranks, spread, kWork / name / std::to_string(ranks));
    ASSERT_FALSE(run.hung) << run.describe();
    EXPECT_EQ(run.status, single.status) << run.describe();
    ASSERT_TRUE(nlohmann::json::accept(run.out)) << run.describe();
    const nlohmann::json report = nlohmann::json::parse(run.out);  // rank 0's alone: one JSON object
    EXPECT_EQ(verdicts(report, with_lengths), verdicts(expected, with_lengths));
    ASSERT_TRUE(report.contains("distributed")) << run.out;
    EXPECT_EQ(report["distributed"]["ranks"], ranks);
    // Rank 0 wrote every counterexample before any rank ended (mpirun ends the others when one
    // exits non-zero, as a run with a violation does).
    for (const nlohmann::json& v : report["violations"]) {
      EXPECT_TRUE(std::filesystem::exists(kWork / name / std::to_string(ranks) / v["scenario"].get<std::string>()))
          << v["scenario"];
      EXPECT_TRUE(std::filesystem::exists(kWork / name / std::to_string(ranks) / v["sequence_diagram"].get<std::string>()))
          << v["sequence_diagram"];
    }
    std::uint64_t owned = 0;
    for (const nlohmann::json& rank : report["distributed"]["per_rank"]) owned += rank["states"].get<std::uint64_t>();
    EXPECT_EQ(owned, report["states"].get<std::uint64_t>());
  }
}

TEST(Mpirun, TwoPerturbationsGivesTheOneProcessReportOnOneTwoAndThreeRanks) {
  expectSameReports("two-perturbations", {"explore", "--preset", "two-perturbations", "--out", "out"},
                    /*with_lengths=*/false);
}

TEST(Mpirun, UnreducedSearchGivesTheOneProcessCounterexampleLengths) {
  expectSameReports("crash-isr-none", {"explore", "--preset", "crash-isr", "--reduction", "none", "--max-depth",
                                            "14", "--out", "out"},
                    /*with_lengths=*/true);
}

TEST(Mpirun, MutantsAreFoundWithTheSameCounterexampleLengths) {
  for (const char* preset : {"crash-isr", "crash-deletion", "spare-brokers"}) {
    SCOPED_TRACE(preset);
    expectSameReports(std::string("m16-") + preset,
                      {"explore", "--system", "impl", "--mutant", "M16", "--preset", preset, "--reduction", "none",
                       "--out", "out"},
                      /*with_lengths=*/true);
  }
}

// The processes mpirun started (its children).
std::vector<pid_t> childrenOf(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) children.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return children;
}

// Waits (at most 30 s) until mpirun has started `ranks` processes and rank 0 has printed progress.
bool running(pid_t mpirun_pid, const std::filesystem::path& work_dir, std::size_t ranks) {
  for (int i = 0; i < 600; ++i) {
    if (childrenOf(mpirun_pid).size() >= ranks && cli_test::slurp(work_dir / "run.stderr").find("explore:") != std::string::npos) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Starts `default` (minutes long) on `ranks` ranks in `dir`: mpirun's pid, or -1 when it did not
// get going within 30 s.
pid_t startLongRun(const std::filesystem::path& dir, int ranks) {
  const pid_t pid = cli_test::spawnProgram(KCSPEC_MPIRUN,
                          mpirunArgs(ranks, {"explore", "--preset", "default", "--threads", "1", "--distributed",
                                             "--progress-every", "1", "--out", "out"}),
                          dir);
  if (pid <= 0) return -1;
  if (running(pid, dir, static_cast<std::size_t>(ranks))) return pid;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

TEST(Mpirun, AKilledRankEndsTheWholeRun) {
  const std::filesystem::path dir = kWork / "killed";
  const pid_t pid = startLongRun(dir, 3);
  ASSERT_GT(pid, 0) << cli_test::slurp(dir / "run.stderr");
  const std::vector<pid_t> ranks = childrenOf(pid);
  ASSERT_GE(ranks.size(), 3u);
  ::kill(ranks[1], SIGKILL);
  const RunResult run = finish(pid, dir, 60'000);
  ASSERT_FALSE(run.hung) << "the other ranks kept waiting for the killed one\n" << run.describe();
  EXPECT_FALSE(!run.signalled && run.status == 0) << run.describe();
  EXPECT_NE(run.err.find("signal 9"), std::string::npos) << run.describe();
  EXPECT_EQ(run.out.find("every property holds"), std::string::npos) << run.describe();
}

TEST(Mpirun, InterruptingMpirunGivesThePartialReport) {
  const std::filesystem::path dir = kWork / "interrupted";
  const pid_t pid = startLongRun(dir, 2);
  ASSERT_GT(pid, 0) << cli_test::slurp(dir / "run.stderr");
  ::kill(pid, SIGINT);
  const RunResult run = finish(pid, dir, 60'000);
  ASSERT_FALSE(run.hung) << run.describe();
  EXPECT_NE(run.out.find("complete     no (cancelled)"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("interrupted: no violation in the"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("on 2 ranks × 1 thread"), std::string::npos) << run.describe();
}

TEST(Mpirun, BadInputEndsEveryRankWithTheMessage) {
  const RunResult run = mpirun(2, {"explore", "--preset", "no-such-preset", "--distributed"}, kWork / "bad-input");
  ASSERT_FALSE(run.hung) << run.describe();
  EXPECT_NE(run.status, 0) << run.describe();
  EXPECT_NE(run.err.find("no preset named 'no-such-preset'"), std::string::npos) << run.describe();
}

// A configuration beyond the model (tests/common/failover_loop.hpp) on two ranks: rank 0 writes the
// history that outgrows the world and the JSON report's `capacity`, and the run exits 2.
TEST(Mpirun, AHistoryThatOutgrowsTheWorldIsWrittenByRankZero) {
  const std::filesystem::path dir = kWork / "capacity";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "failover_loop.config") << kcspec::test::kFailoverLoopConfig;
  const RunResult run = mpirun(2, {"explore", "--config", "failover_loop.config", "--distributed", "--json", "--out", "out"},
                               dir);
  ASSERT_FALSE(run.hung) << run.describe();
  EXPECT_EQ(run.status, 2) << run.describe();
  ASSERT_TRUE(nlohmann::json::accept(run.out)) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report.at("stop"), "the model's capacity");
  ASSERT_TRUE(report.contains("capacity")) << run.out;
  EXPECT_GT(report["capacity"].at("steps").get<std::size_t>(), 2u);
  EXPECT_TRUE(std::filesystem::exists(dir / report["capacity"].at("scenario").get<std::string>()))
      << report["capacity"];
}

TEST(Distributed, RunFolderIsRefused) {
  const RunResult run =
      cli_test::runKcspec({"explore", "--distributed", "--run-folder", "runs"}, kWork / "run-folder");
  EXPECT_EQ(run.status, 2) << run.describe();
  EXPECT_NE(run.err.find("--run-folder: not with --distributed"), std::string::npos) << run.describe();
}

TEST(Distributed, WithoutMpirunItIsOneRank) {
  const RunResult run = cli_test::runKcspec(
      {"explore", "--preset", "crash-deletion", "--distributed", "--json", "--out", "out"}, kWork / "no-mpirun");
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_TRUE(nlohmann::json::accept(run.out)) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["distributed"]["ranks"], 1);
  EXPECT_EQ(report["distributed"]["bytes_sent"], 0);
}

}  // namespace
}  // namespace kcspec::distributed_test
