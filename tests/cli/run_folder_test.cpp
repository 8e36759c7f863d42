// `--run-folder DIR` (explore, drive, mutants) keeps a run's complete record in one folder a person
// can keep (issue "A tool that CI and operators can trust", item 8): the command line, the
// configuration, the report as printed, every counterexample's scenario and sequence diagram, the
// SUT's complete stderr for drive, and an index.html that shows the counterexamples' diagrams.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

fs::path work(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-run-folder-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> filesIn(const fs::path& folder, const std::string& extension) {
  std::vector<std::string> names;
  if (!fs::exists(folder)) return names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == extension) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Each scenario has its diagram, and the index shows the diagram and links the scenario.
void expectCounterexamplesShown(const fs::path& run, std::size_t expected) {
  const std::vector<std::string> scenarios = filesIn(run / "counterexamples", ".scenario");
  ASSERT_EQ(scenarios.size(), expected);
  const std::string index = slurp(run / "index.html");
  for (const std::string& scenario : scenarios) {
    const std::string svg = fs::path(scenario).replace_extension(".svg").string();
    EXPECT_TRUE(fs::exists(run / "counterexamples" / svg)) << svg;
    EXPECT_NE(slurp(run / "counterexamples" / svg).find("<svg"), std::string::npos) << svg;
    EXPECT_NE(index.find("<img src=\"counterexamples/" + svg + "\""), std::string::npos) << svg;
    EXPECT_NE(index.find("<a href=\"counterexamples/" + scenario + "\""), std::string::npos) << scenario;
  }
}

TEST(RunFolder, ExploreKeepsTheCommandConfigurationReportAndCounterexamples) {
  const fs::path dir = work("explore");
  const RunResult run = runKcspec({"explore", "--preset", "default", "--system", "impl", "--mutant", "M16",
                                   "--no-liveness", "--threads", "1", "--run-folder", "run"},
                                  dir);
  ASSERT_EQ(run.status, 1) << run.describe();  // M16 breaks a safety property
  const fs::path folder = dir / "run";
  EXPECT_EQ(slurp(folder / "report.txt"), run.out);  // the report as printed, byte for byte
  EXPECT_NE(slurp(folder / "command.txt").find("explore --preset default --system impl --mutant M16"), std::string::npos);
  EXPECT_EQ(slurp(folder / "config.txt").rfind("name default\n", 0), 0u);
  // M16's S3, and the known deviation T3, which `default` reaches in four steps since the legacy
  // reassignment znode is modeled (zk-reassign, a failover that starts it, a second failover that
  // starts it again: NewReplica for a replica already online).
  expectCounterexamplesShown(folder, 2);
  const std::string index = slurp(folder / "index.html");
  EXPECT_NE(index.find("exit status 1: a violation or finding"), std::string::npos);
  EXPECT_NE(index.find("<h2>Configuration</h2>"), std::string::npos);
  // The counterexample replays from the folder, as the report says.
  const std::string scenario = (folder / "counterexamples" / filesIn(folder / "counterexamples", ".scenario")[0]).string();
  const RunResult replay = runKcspec({"replay", "--impl", "--mutant", "M16", scenario}, dir);
  EXPECT_EQ(replay.status, 0) << replay.describe();
}

TEST(RunFolder, DriveKeepsTheSutsWholeStandardError) {
  const fs::path dir = work("drive");
  // A SUT that writes 10,000 bytes to stderr whenever it starts: more than drive's 4 KiB tail.
  const std::string sut = std::string("head -c 10000 /dev/zero | tr '\\0' x >&2; exec ") + KCSPEC_EXE + " sut --mutant M16";
  const RunResult run = runKcspec({"drive", "--quiet", "--run-folder", "run", "--", "sh", "-c", sut}, dir);
  ASSERT_EQ(run.status, 1) << run.describe();
  const fs::path folder = dir / "run";
  const std::string sut_stderr = slurp(folder / "sut-stderr.log");
  EXPECT_NE(sut_stderr.find("--- SUT process "), std::string::npos);
  EXPECT_NE(sut_stderr.find(std::string(10000, 'x')), std::string::npos) << "the stderr is not complete";
  EXPECT_EQ(slurp(folder / "report.txt"), run.out);
  expectCounterexamplesShown(folder, 1);
  EXPECT_NE(slurp(folder / "index.html").find("<a href=\"sut-stderr.log\">"), std::string::npos);
}

TEST(RunFolder, MutantsDrawsEveryCounterexampleAndKeepsAJsonReport) {
  const fs::path dir = work("mutants");
  const RunResult run =
      runKcspec({"mutants", "--mutant", "M16", "--mutant", "M3", "--budget", "20", "--json", "--run-folder", "run"}, dir);
  ASSERT_EQ(run.status, 0) << run.describe();
  const fs::path folder = dir / "run";
  EXPECT_EQ(slurp(folder / "report.json"), run.out);
  EXPECT_TRUE(nlohmann::json::accept(slurp(folder / "report.json")));
  expectCounterexamplesShown(folder, 2);
  EXPECT_NE(slurp(folder / "index.html").find("exit status 0: checked to the end"), std::string::npos);
}

TEST(RunFolder, IsRefusedBeforeTheWorkWhenItHoldsAnotherRunOrWithOut) {
  const fs::path dir = work("refused");
  fs::create_directories(dir / "old");
  std::ofstream(dir / "old" / "index.html") << "an older run";
  const RunResult taken = runKcspec({"explore", "--preset", "large", "--run-folder", "old"}, dir);
  EXPECT_EQ(taken.status, 2) << taken.describe();
  EXPECT_NE(taken.err.find("--run-folder: old exists and is not empty"), std::string::npos) << taken.describe();
  EXPECT_EQ(slurp(dir / "old" / "index.html"), "an older run");
  const RunResult both = runKcspec({"mutants", "--run-folder", "new", "--out", "x"}, dir);
  EXPECT_EQ(both.status, 2) << both.describe();
  EXPECT_FALSE(fs::exists(dir / "new"));
}

}  // namespace
}  // namespace kcspec::cli_test
