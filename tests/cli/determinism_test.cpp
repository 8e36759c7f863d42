// Determinism: the same input and seed give byte-identical output, run after run and for every
// thread count — `kcspec explore --json` (but its timing and thread-count fields) and the
// counterexample files it writes, `kcspec mutants`, `kcspec replay` (text, JSON, --impl),
// `kcspec check-log` and `kcspec docs`. A difference names the command and the first differing
// line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

fs::path work(const std::string& name) {
  return fs::temp_directory_path() / ("kcspec-determinism-" + std::to_string(::getpid())) / name;
}

// Every file under `dir` (relative path → contents).
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), dir).generic_string()] = slurp(entry.path());
  }
  return files;
}

// The first line where a and b differ, for the failure message.
std::string firstDifference(const std::string& a, const std::string& b) {
  std::size_t line = 1, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) line += a[i++] == '\n';
  auto lineAt = [](const std::string& s, std::size_t at) {
    const std::size_t start = s.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    return s.substr(from, s.find('\n', from) - from);
  };
  return "line " + std::to_string(line) + ":\n  " + lineAt(a, i) + "\n  " + lineAt(b, i);
}

void expectSameTrees(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::vector<std::string> names_a, names_b;
  for (const auto& [name, contents] : a) names_a.push_back(name);
  for (const auto& [name, contents] : b) names_b.push_back(name);
  ASSERT_EQ(names_a, names_b);
  for (const auto& [name, contents] : a) {
    EXPECT_TRUE(contents == b.at(name)) << name << " differs at " << firstDifference(contents, b.at(name));
  }
}

// Runs `args` twice (in two folders) and expects the same exit status, stdout and written files
// (and some output, unless `may_be_silent`).
void expectRepeatable(const std::string& name, const std::vector<std::string>& args, int expected_status,
                      bool may_be_silent = false) {
  SCOPED_TRACE(name);
  const RunResult first = runKcspec(args, work(name + "-1"));
  const RunResult second = runKcspec(args, work(name + "-2"));
  ASSERT_EQ(first.status, expected_status) << first.describe();
  ASSERT_EQ(second.status, expected_status) << second.describe();
  EXPECT_TRUE(first.out == second.out) << firstDifference(first.out, second.out);
  EXPECT_TRUE(first.err == second.err) << firstDifference(first.err, second.err);
  if (!may_be_silent) {
    EXPECT_FALSE(first.out.empty() && first.err.empty());
  }
}

// A configuration whose exploration is complete in a moment and still finds known Kafka
// deviations (so counterexamples are written and compared too).
constexpr std::string_view kSmallConfig = R"(name determinism
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound topic-deletions 1
bound stop-replica-errors 1
)";

// `explore --json` without the fields that measure the run rather than describe its result.
std::string withoutMeasurements(const std::string& json_text) {
  nlohmann::ordered_json report = nlohmann::ordered_json::parse(json_text);
  for (const char* field : {"seconds", "threads", "memory_bytes"}) report.erase(field);
  return report.dump(2);
}

class Determinism : public testing::Test {
 protected:
  static void TearDownTestSuite() { fs::remove_all(work("")); }
};

TEST_F(Determinism, ExploreGivesTheSameReportAndFilesForEveryThreadCount) {
  const fs::path config = work("small.conf");
  fs::create_directories(config.parent_path());
  std::ofstream(config) << kSmallConfig;
  for (const std::string system : {"spec", "both"}) {
    SCOPED_TRACE("--system " + system);
    std::string reference;
    std::map<std::string, std::string> reference_files;
    for (const std::string threads : {"1", "2", "4", "1"}) {
      SCOPED_TRACE("--threads " + threads);
      // Each run in its own folder, writing to the same relative --out (paths are in the report).
      const fs::path dir = work("explore-" + system + "-" + threads + "-" + std::to_string(reference.size()));
      const RunResult run = runKcspec({"explore", "--config", config.string(), "--system", system, "--threads", threads,
                                       "--keep-going", "--json", "--out", "out"},
                                      dir);
      ASSERT_FALSE(run.signalled || run.hung) << run.describe();
      ASSERT_TRUE(run.status == 0 || run.status == 1) << run.describe();
      const std::string report = withoutMeasurements(run.out);
      const std::map<std::string, std::string> files = tree(dir / "out");
      if (reference.empty()) {
        reference = report;
        reference_files = files;
        EXPECT_NE(report.find("\"violations\""), std::string::npos);
        continue;
      }
      EXPECT_TRUE(report == reference) << firstDifference(reference, report);
      expectSameTrees(reference_files, files);
    }
    EXPECT_FALSE(reference_files.empty()) << "the configuration should give counterexample files to compare";
  }
}

TEST_F(Determinism, MutantsGiveTheSameReportAndCounterexamplesForTheSameSeed) {
  // M11 is killed within this budget (M1, used here before, survives it: the two runs then
  // compared two empty folders).
  const std::vector<std::string> args = {"mutants", "--mutant", "M11", "--budget", "2", "--max-steps", "60",
                                         "--seed", "7", "--json", "--out", "found"};
  const RunResult first = runKcspec(args, work("mutants-1"));
  const RunResult second = runKcspec(args, work("mutants-2"));
  // The mutant is killed (exit 0) and its shortest counterexample is written: two runs that find
  // nothing alike (exit 1, no files) or fail alike (exit 2) compare no counterexample at all.
  ASSERT_EQ(first.status, 0) << first.describe();
  ASSERT_EQ(second.status, 0) << second.describe();
  EXPECT_NE(first.out.find("\"name\": \"M11\""), std::string::npos) << first.describe();
  EXPECT_NE(first.out.find("\"killed\": true"), std::string::npos) << first.describe();
  EXPECT_TRUE(first.out == second.out) << firstDifference(first.out, second.out);
  const std::map<std::string, std::string> found = tree(work("mutants-1") / "found");
  ASSERT_EQ(found.size(), 1u) << "expected found/mutant-M11.scenario\n" << first.describe();
  EXPECT_TRUE(found.contains("mutant-M11.scenario"));
  EXPECT_NE(found.begin()->second.find("\nsteps\n"), std::string::npos) << found.begin()->second;
  expectSameTrees(found, tree(work("mutants-2") / "found"));
}

TEST_F(Determinism, ReplayGivesTheSameOutputForEveryScenario) {
  std::vector<fs::path> scenarios;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(fs::path(KCSPEC_SOURCE_DIR) / "tests")) {
    if (entry.path().extension() == ".scenario" && entry.path().stem() != "syntax_error") scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  ASSERT_GE(scenarios.size(), 4u);
  for (const fs::path& scenario : scenarios) {
    // The scenarios that end in a step not taken (1) or that are bad input (2: a given world that breaks a rule).
    const int status = scenario.stem() == "not_enabled" || scenario.stem() == "component_action_without_controller" ||
                               scenario.stem() == "unexpected_result"
                           ? 1
                       : scenario.stem() == "given_breaks_g1"                                                     ? 2
                                                                                                                   : 0;
    const std::string stem = scenario.stem();
    expectRepeatable("replay-" + stem, {"replay", scenario.string()}, status);
    expectRepeatable("replay-json-" + stem, {"replay", "--json", scenario.string()}, status);
    // A scenario of getters and elections only changes no state: its state-change.log is empty.
    expectRepeatable("replay-impl-" + stem, {"replay", "--impl", scenario.string()}, status, /*may_be_silent=*/true);
  }
}

TEST_F(Determinism, CheckLogGivesTheSameReport) {
  std::vector<std::string> logs;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(KCSPEC_SOURCE_DIR) / "tests/conformance/logs")) {
    if (entry.path().extension() == ".log") logs.push_back(entry.path().string());
  }
  std::sort(logs.begin(), logs.end());
  ASSERT_FALSE(logs.empty());
  std::vector<std::string> args = {"check-log"};
  args.insert(args.end(), logs.begin(), logs.end());
  expectRepeatable("check-log", args, 1);
  args.insert(args.begin() + 1, "--json");
  expectRepeatable("check-log-json", args, 1);
}

TEST_F(Determinism, DocsGenerateTheSameFiles) {
  const RunResult first = runKcspec({"docs", "--dir", "docs"}, work("docs-1"));
  const RunResult second = runKcspec({"docs", "--dir", "docs"}, work("docs-2"));
  ASSERT_EQ(first.status, 0) << first.describe();
  ASSERT_EQ(second.status, 0) << second.describe();
  const auto a = tree(work("docs-1") / "docs"), b = tree(work("docs-2") / "docs");
  EXPECT_GT(a.size(), 10u);
  expectSameTrees(a, b);
}

}  // namespace
}  // namespace kcspec::cli_test
