// Topic deletion beyond the happy path: a replica's broker is dead when deletion starts and comes
// back later; the controller fails over in the middle of a deletion.
#include <gtest/gtest.h>

#include "scenario_support.hpp"

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

}  // namespace
}  // namespace kcspec::spec
