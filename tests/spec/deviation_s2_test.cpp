// Kafka 3.8's S2 deviation (docs/spec/rules.md "Findings so far"): each regression history of
// tests/scenarios/deviation_s2_*.scenario keeps S2 IsrWithinAssignment up to its last step and
// breaks it with that step — so a change that makes the spec stop reaching the finding, or reach
// it earlier by another way, shows here. The shared-scenario test (tests/impl) replays the same
// files through the reference controller, which must agree after every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::spec {
namespace {

std::vector<std::filesystem::path> s2Histories() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/scenarios")) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("deviation_s2_") && entry.path().extension() == ".scenario") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool breaksS2(const Config& config, const ClusterState& state) {
  const std::vector<std::string_view> violated = violatedStateProperties(config, state);
  return std::find(violated.begin(), violated.end(), "S2") != violated.end();
}

TEST(DeviationS2, IsAKnownKafkaDeviationWithItsStory) {
  ASSERT_TRUE(isKnownKafkaDeviation("S2"));
  const std::string_view why = catalogProperty("S2")->kafka_deviation;
  EXPECT_NE(why.find("controlled shutdown"), std::string_view::npos);
  EXPECT_NE(why.find("KAFKA-12315"), std::string_view::npos);
}

TEST(DeviationS2, EveryRegressionHistoryBreaksS2AtItsLastStepOnly) {
  const auto files = s2Histories();
  ASSERT_GE(files.size(), 4u);  // the cancel-during-shutdown path, mutants seeds 1 and 3, KAFKA-12315
  for (const auto& file : files) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const Scenario scenario = parseScenario(text.str(), file.string());
    ASSERT_FALSE(scenario.steps.empty()) << file;
    ClusterState state = initialState(scenario.config);
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
      const std::string where = file.filename().string() + ":" + std::to_string(scenario.step_lines[i]);
      ASSERT_FALSE(breaksS2(scenario.config, state)) << where << ": S2 breaks before the last step";
      ASSERT_TRUE(isEnabled(scenario.config, state, scenario.steps[i])) << where;
      state = next(scenario.config, state, scenario.steps[i]);
    }
    EXPECT_TRUE(breaksS2(scenario.config, state)) << file.filename() << ": the last step no longer breaks S2";
  }
}

}  // namespace
}  // namespace kcspec::spec
