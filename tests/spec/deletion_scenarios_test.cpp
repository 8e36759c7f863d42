// Topic deletion beyond the happy path: a replica's broker is dead when deletion starts and comes
// back later; the controller fails over in the middle of a deletion.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario_support.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::spec {
namespace {

using testing::act;
using testing::onTopic;
using testing::ScenarioRun;

constexpr TopicPartition kT0{0, 0};

ScenarioRun createdTopic() {
  ScenarioRun run(testing::threeBrokersOneTopic());
  run.step(act(ActionKind::ElectController, 1)).drain();
  run.step(onTopic(ActionKind::CreateTopic, 0)).drain();
  return run;
}

TEST(DeletionWithDeadBroker, HaltsWhileTheBrokerIsDownAndCompletesAfterItRestarts) {
  ScenarioRun run = createdTopic();
  run.step(act(ActionKind::CrashBroker, 3)).drain();
  EXPECT_EQ(run.partitionContext(1, kT0).replica_states[3], ReplicaState::OfflineReplica);

  run.step(onTopic(ActionKind::DeleteTopic, 0)).drain();
  // Replicas on 1 and 2 were deleted; the one on 3 cannot be, so the topic is halted.
  const PartitionContext& p = run.partitionContext(1, kT0);
  EXPECT_EQ(p.replica_states[1], ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_EQ(p.replica_states[2], ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_EQ(p.replica_states[3], ReplicaState::OfflineReplica);  // Ineligible, then retried → Offline
  EXPECT_TRUE(run.context(1).topics_ineligible_for_deletion.contains(0));
  EXPECT_TRUE(run.world().zk.topics[0].exists);
  EXPECT_TRUE(run.world().zk.delete_topics.contains(0));

  run.step(act(ActionKind::StartBroker, 3)).drain();  // onBrokerStartup resumes the deletion
  EXPECT_FALSE(run.world().zk.topics[0].exists);
  EXPECT_FALSE(run.world().zk.delete_topics.contains(0));
  EXPECT_TRUE(run.context(1).topics_to_be_deleted.empty());
  EXPECT_FALSE(run.broker(3).replicas[0].present);
}

TEST(DeletionAcrossFailover, NewControllerFinishesAndTheOldOnesWritesAreFenced) {
  ScenarioRun run = createdTopic();
  run.step(onTopic(ActionKind::DeleteTopic, 0));
  run.step(act(ActionKind::ProcessEvent, 1));  // deletion starts under epoch 1
  EXPECT_TRUE(run.context(1).topics_with_deletion_started.contains(0));

  run.step(act(ActionKind::LoseControllerSession, 1));
  run.step(act(ActionKind::ElectController, 2));  // epoch 2 restarts the deletion from ZooKeeper
  EXPECT_EQ(run.world().zk.controller_epoch, 2);
  EXPECT_EQ(run.context(2).epoch, 2);
  EXPECT_TRUE(run.context(2).topics_with_deletion_started.contains(0));
  for (BrokerId r : {1, 2, 3}) {
    EXPECT_EQ(run.partitionContext(2, kT0).replica_states[static_cast<std::size_t>(r)],
              ReplicaState::ReplicaDeletionStarted);
  }

  // Every request is delivered; epoch-1 responses go back to the old controller, whose attempt to
  // delete the topic znodes is rejected by the /controller_epoch check (ScenarioRun checks T4).
  run.drain();
  EXPECT_GE(run.rejectedStaleWrites(), 1);
  run.step(act(ActionKind::NoticeSessionExpiry, 1)).drain();
  EXPECT_FALSE(run.broker(1).controller.active);
  EXPECT_FALSE(run.world().zk.topics[0].exists);
  EXPECT_FALSE(run.world().zk.delete_topics.contains(0));
  EXPECT_TRUE(run.context(2).topics_to_be_deleted.empty());
  EXPECT_TRUE(isQuiescent(run.config(), run.state()));
  EXPECT_TRUE(unmetGoals(run.config(), run.state()).empty());
}

// tests/scenarios/partition_gap_after_restore.scenario: the assignment restored during u's
// deletion keeps only the partitions with a /brokers/topics/u/partitions/<p> znode, u-1 — the
// topic znode's ids have a gap (kafka.md §5.10.2); a new controller reads the gap back.
TEST(DeletionWithAddedPartitions, TheRestoredAssignmentKeepsOnlyPartitionsWithAPartitionZnode) {
  const std::filesystem::path file =
      std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/scenarios/partition_gap_after_restore.scenario";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const Scenario scenario = parseScenario(text.str(), file.string());
  const Config& config = scenario.config;
  constexpr TopicIndex kU = 1;
  ClusterState state = initialState(config);
  const auto take = [&](std::size_t steps) {
    for (std::size_t i = 0; i < steps; ++i) {
      const Action& action = scenario.steps.at(i);
      ASSERT_TRUE(isEnabled(config, state, action)) << file << ":" << scenario.step_lines[i];
      state = next(config, state, action);
    }
  };
  take(8);  // up to the PartitionModifications that finds u queued for deletion
  const TopicZnodes before = state.world.zk.topics[kU];
  EXPECT_EQ(before.partitionCount(), 3);  // u-0, u-1 and the added u-2
  EXPECT_FALSE(before.states[0].has_value());  // u-0 never had a leader: no partition znode
  EXPECT_TRUE(before.states[1].has_value());
  const Observation world_before = state.world;
  state = next(config, state, scenario.steps.at(8));
  const TopicZnodes& restored = state.world.zk.topics[kU];
  EXPECT_TRUE(restored.exists);
  EXPECT_FALSE(restored.lists(0));
  EXPECT_EQ(restored.partitions[1], ReplicaAssignment(BrokerList{2}));
  EXPECT_FALSE(restored.lists(2));
  EXPECT_EQ(restored.partitionCount(), 1);
  // The observation shows the gap: {1:[2]}, not {0:[2]}.
  EXPECT_NE(renderChangesText(diffObservations(config, world_before, state.world)).find("partitions={1:[2]}"),
            std::string::npos);
  // The controller still knows u-0 (and deletes it with the topic); partition actions are offered
  // for the partition ids the znode lists: u-1 alone.
  EXPECT_TRUE(state.world.brokers[2].controller.context.partitions[static_cast<std::size_t>(partitionIndex({kU, 0}))].assignment);
  ClusterState with_elections = state;
  with_elections.budget.preferred_elections = 1;
  std::vector<int> elected;
  for (const Action& a : enabledActions(config, with_elections)) {
    if (a.kind == ActionKind::ElectPreferredLeader && a.tp.topic == kU) elected.push_back(a.tp.partition);
  }
  EXPECT_EQ(elected, std::vector<int>{1});

  // The failover (the second elect-controller) rebuilds the context from the gapped znode: u-1 alone.
  std::size_t failover = 0;
  while (scenario.steps.at(failover).kind != ActionKind::ElectController || failover == 0) ++failover;
  state = initialState(config);
  take(failover + 1);
  const ControllerContextData& context = state.world.brokers[2].controller.context;
  EXPECT_EQ(context.epoch, 2);
  EXPECT_FALSE(context.partitions[static_cast<std::size_t>(partitionIndex({kU, 0}))].assignment);
  EXPECT_EQ(context.partitions[static_cast<std::size_t>(partitionIndex({kU, 1}))].assignment, ReplicaAssignment(BrokerList{2}));
  EXPECT_TRUE(context.topics_with_deletion_started.contains(kU));
  EXPECT_FALSE(context.topics_ineligible_for_deletion.contains(kU));  // broker 1 is down, but u-0 is forgotten

  // The rest of the history deletes u.
  state = initialState(config);
  take(scenario.steps.size());
  EXPECT_FALSE(state.world.zk.topics[kU].exists);
  EXPECT_EQ(state.world.zk.topics[kU], TopicZnodes{});
  EXPECT_TRUE(state.world.zk.delete_topics.empty());
}

}  // namespace
}  // namespace kcspec::spec
