// A counterexample that explore writes is reproduced by the command it prints: `kcspec replay`
// names the properties its steps break (each once, at the step that breaks it), and explore's
// reproduce line — in the text report, in --json and as the scenario's comment — names the
// configuration and the system it was found on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

fs::path work(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-replay-violations-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A printed command line "kcspec replay …" as arguments (no quoting: the paths here need none).
std::vector<std::string> argumentsOf(const std::string& command) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start < command.size();) {
    const std::size_t end = std::min(command.find(' ', start), command.size());
    words.push_back(command.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

TEST(ReplayViolations, EachBrokenPropertyIsNamedOnceAtTheStepThatBreaksIt) {
  // tests/cli/deviation_s7.scenario: S8 breaks at step 5 and stays broken; S7 breaks at step 39.
  const RunResult run = runKcspec({"replay", std::string(KCSPEC_SOURCE_DIR) + "/tests/cli/deviation_s7.scenario"},
                                  work("s7"));
  ASSERT_EQ(run.status, 0) << run.describe();
  EXPECT_EQ(count(run.out, "VIOLATES"), 2u) << run.out;
  EXPECT_EQ(count(run.out, "  VIOLATES S8 NoDeletionDuringReassignment (a known Kafka deviation)\n"), 1u);
  EXPECT_EQ(count(run.out, "  VIOLATES S7 NoStaleReassignment (a known Kafka deviation)\n"), 1u);
}

TEST(ReplayViolations, AScenarioThatBreaksNothingNamesNothing) {
  const RunResult run =
      runKcspec({"replay", std::string(KCSPEC_SOURCE_DIR) + "/tests/scenarios/appendix_b4.scenario"}, work("b4"));
  ASSERT_EQ(run.status, 0) << run.describe();
  EXPECT_NE(run.out.find("step 29 "), std::string::npos) << run.describe();
  EXPECT_EQ(run.out.find("VIOLATES"), std::string::npos) << run.out;
}

TEST(ExploreReproduce, TheJsonReportAndTheScenarioNameHowToReproduce) {
  const fs::path dir = work("explore");
  const std::string config = std::string(KCSPEC_SOURCE_DIR) + "/tests/explorer/two_brokers_crash.config";
  const RunResult run =
      runKcspec({"explore", "--system", "both", "--mutant", "M11", "--config", config, "--out", "out", "--json"}, dir);
  ASSERT_EQ(run.status, 1) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_FALSE(report["violations"].empty()) << run.out;
  const nlohmann::json& c1 = report["violations"][0];
  ASSERT_EQ(c1["property"], "C1") << run.out;
  const std::string scenario = c1["scenario"];
  EXPECT_EQ(c1["reproduce"], "kcspec replay --impl --mutant M11 " + scenario);

  const std::string text = slurp(dir / scenario);
  EXPECT_NE(text.find("# found by `kcspec explore --config " + config + " --system both --mutant M11`: C1 SpecImplAgree"),
            std::string::npos)
      << text;

  // The reproduce command runs: the impl with the mutant takes every step of the counterexample
  // (and prints its state-change.log).
  std::vector<std::string> args = argumentsOf(c1["reproduce"]);
  ASSERT_EQ(args.front(), "kcspec");
  args.erase(args.begin());
  const RunResult replayed = runKcspec(args, dir);
  EXPECT_EQ(replayed.status, 0) << replayed.describe();
  EXPECT_NE(replayed.out.find("TRACE"), std::string::npos) << replayed.describe();
}

// With the default reduction (partial-order and symmetry reduction) the counterexamples are still
// histories of the spec: on the one preset with a symmetry, each safety counterexample explore
// writes replays with the command it prints, and the property breaks at its last step.
TEST(ExploreReproduce, ReducedCounterexamplesReplayAndBreakTheirProperty) {
  const fs::path dir = work("explore-full");
  const RunResult run = runKcspec({"explore", "--preset", "spare-brokers", "--keep-going", "--out", "out", "--json"}, dir);
  ASSERT_EQ(run.status, 0) << run.describe();  // only known deviations
  const nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["reduction"], "full") << run.out;
  ASSERT_EQ(report["symmetry_reduced_by"], 1) << run.out;
  std::size_t replayed_safety = 0;
  for (const nlohmann::json& v : report["violations"]) {
    const std::string property = v["property"];
    SCOPED_TRACE(property);
    std::vector<std::string> args = argumentsOf(v["reproduce"]);
    ASSERT_EQ(args.front(), "kcspec");
    args.erase(args.begin());
    const RunResult replayed = runKcspec(args, dir);
    ASSERT_EQ(replayed.status, 0) << replayed.describe();
    if (v["kind"] == "liveness") continue;  // judged over the graph, not at a step
    ++replayed_safety;
    const std::size_t last_step = replayed.out.rfind("\nstep ");
    ASSERT_NE(last_step, std::string::npos) << replayed.out;
    EXPECT_NE(replayed.out.find("  VIOLATES " + property + " ", last_step), std::string::npos) << replayed.out;
  }
  EXPECT_GE(replayed_safety, 1u);  // T3
}

}  // namespace
}  // namespace kcspec::cli_test
