// Kafka 3.8's T3 deviation (NoInvalidTransitionAttempted) on a *partition*: the history of
// tests/scenarios/reassignment_completes_after_deletion_started.scenario attempts no invalid
// transition until its last step, and there moveReassignedPartitionLeaderIfRequired asks for t-0's
// NonExistentPartition -> OnlinePartition (a reassignment that onBrokerStartup finds complete after
// its topic's deletion started). A change that stops the spec from attempting it, or makes it
// attempt one earlier, shows here; the shared-scenario test makes the reference controller agree.
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

std::vector<StateChangeRecord> invalidAttempts(const StepRecord& record) {
  std::vector<StateChangeRecord> out;
  for (const StateChangeRecord& change : record.state_changes) {
    if (change.outcome == ChangeOutcome::InvalidTransition) out.push_back(change);
  }
  return out;
}

TEST(DeviationT3Partition, TheLastStepAttemptsNonExistentToOnlineForTheReassignedPartition) {
  const std::filesystem::path file = std::filesystem::path(KCSPEC_SOURCE_DIR) /
                                     "tests/scenarios/reassignment_completes_after_deletion_started.scenario";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const Scenario scenario = parseScenario(text.str(), file.string());
  ASSERT_FALSE(scenario.steps.empty());
  ClusterState state = initialState(scenario.config);
  std::vector<StateChangeRecord> last_invalid;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const std::string where = file.filename().string() + ":" + std::to_string(scenario.step_lines[i]);
    ASSERT_TRUE(isEnabled(scenario.config, state, scenario.steps[i])) << where;
    RecordingObserver observer;
    state = next(scenario.config, state, scenario.steps[i], observer);
    const std::vector<StateChangeRecord> invalid = invalidAttempts(observer.record);
    if (i + 1 < scenario.steps.size()) {
      for (const StateChangeRecord& change : invalid) {
        EXPECT_TRUE(change.is_replica) << where << ": an invalid partition transition before the last step";
      }
    } else {
      last_invalid = invalid;
    }
  }
  const auto partition_attempt = std::find_if(last_invalid.begin(), last_invalid.end(),
                                              [](const StateChangeRecord& c) { return !c.is_replica; });
  ASSERT_NE(partition_attempt, last_invalid.end()) << "the last step no longer attempts an invalid partition transition";
  EXPECT_EQ(partition_attempt->tp, (TopicPartition{0, 0}));
  EXPECT_EQ(static_cast<PartitionState>(partition_attempt->from), PartitionState::NonExistentPartition);
  EXPECT_EQ(static_cast<PartitionState>(partition_attempt->to), PartitionState::OnlinePartition);
}

}  // namespace
}  // namespace kcspec::spec
