// Facts Appendix B's four worked flows, to the exact leader, ISR, leader epoch and partition
// epoch. Setup: brokers 1,2,3 live, controller epoch 1 (epochZkVersion 1), topic t with
// t-0 = [1,2,3]. B.2 and B.3 stop broker 1, so — as the appendix says — they run with the
// controller on broker 2.
#include <gtest/gtest.h>

#include "scenario_support.hpp"

namespace kcspec::spec {
namespace {

using testing::act;
using testing::onTopic;
using testing::ScenarioRun;

constexpr TopicPartition kT0{0, 0};

// B.1's setup and flow: the controller on `controller` wins with epoch 1, then topic t is created.
ScenarioRun createdTopic(BrokerId controller) {
  ScenarioRun run(testing::threeBrokersOneTopic());
  run.step(act(ActionKind::ElectController, controller)).drain();
  run.step(onTopic(ActionKind::CreateTopic, 0)).drain();
  return run;
}

TEST(AppendixB1, TopicCreationWritesLeader1Epoch0AndBringsEverythingOnline) {
  ScenarioRun run(testing::threeBrokersOneTopic());
  run.step(act(ActionKind::ElectController, 1));
  EXPECT_EQ(run.world().zk.controller, 1);
  EXPECT_EQ(run.world().zk.controller_epoch, 1);
  EXPECT_EQ(run.world().zk.controller_epoch_zk_version, 1);
  run.drain();
  run.step(onTopic(ActionKind::CreateTopic, 0));
  run.step(act(ActionKind::ProcessEvent, 1));  // TopicChange

  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr, LeaderAndIsr::make(1, BrokerList{1, 2, 3}));
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 0);
  EXPECT_EQ(znode->controller_epoch, 1);
  const PartitionContext& p = run.partitionContext(1, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(p.replica_states[static_cast<std::size_t>(r)], ReplicaState::OnlineReplica);
  EXPECT_EQ(run.context(1).offline_partition_count, 0);
  // LeaderAndIsr(isNew=true) to 1 (become-leader), 2 and 3 (become-follower), then UpdateMetadata.
  for (BrokerId b : {1, 2, 3}) {
    bool saw_leader_and_isr = false;
    for (const ControlRequest& request : run.broker(b).inbox) {
      if (request.kind != RequestKind::LeaderAndIsr) continue;
      saw_leader_and_isr = true;
      ASSERT_EQ(request.leader_and_isr.size(), 1u);
      EXPECT_TRUE(request.leader_and_isr[0].is_new);
      EXPECT_EQ(request.leader_and_isr[0].leadership.leader_and_isr.leader, 1);
      EXPECT_EQ(request.leader_and_isr[0].assignment.replicas, (BrokerList{1, 2, 3}));
    }
    EXPECT_TRUE(saw_leader_and_isr) << "broker " << b;
  }
  run.drain();
  EXPECT_TRUE(run.broker(1).replicas[0].is_leader);
  EXPECT_FALSE(run.broker(2).replicas[0].is_leader);
  EXPECT_TRUE(run.broker(3).metadata_cache[0].has_value());
}

TEST(AppendixB2, HardFailureOfTheLeaderElects2WithIsr23Epoch1) {
  ScenarioRun run = createdTopic(/*controller=*/2);
  run.step(act(ActionKind::CrashBroker, 1));
  run.step(act(ActionKind::ProcessEvent, 2));  // BrokerChange: onBrokerFailure([1])

  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 1);  // 1 was no longer in the ISR: no second write
  const PartitionContext& p = run.partitionContext(2, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  EXPECT_EQ(p.replica_states[1], ReplicaState::OfflineReplica);
  EXPECT_EQ(run.context(2).offline_partition_count, 0);
  run.drain();
  EXPECT_TRUE(run.broker(2).replicas[0].is_leader);
  EXPECT_EQ(run.broker(3).metadata_cache[0]->offline_replicas, (BrokerList{1}));
}

TEST(AppendixB4, HealthyDeletionRemovesEverythingAndLeavesNonExistentPartitionState) {
  ScenarioRun run = createdTopic(/*controller=*/1);
  run.step(onTopic(ActionKind::DeleteTopic, 0));
  run.step(act(ActionKind::ProcessEvent, 1));  // TopicDeletion

  const PartitionContext& p = run.partitionContext(1, kT0);
  EXPECT_EQ(p.state, PartitionState::NonExistentPartition);
  EXPECT_TRUE(run.context(1).topics_with_deletion_started.contains(0));
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(p.replica_states[static_cast<std::size_t>(r)], ReplicaState::ReplicaDeletionStarted);
  // ISR removal in ascending broker order; each write bumps the leader epoch; the last, sole ISR
  // member stays.
  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, kNoLeader);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 3);  // one write per replica, the sole member's too
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 3);
  // No LeaderAndIsr for a queued topic; StopReplica(delete=false) then (delete=true) to each replica.
  for (BrokerId b : {1, 2, 3}) {
    int stop_replica_delete = 0;
    for (const ControlRequest& request : run.broker(b).inbox) {
      EXPECT_NE(request.kind, RequestKind::LeaderAndIsr);
      if (request.kind == RequestKind::StopReplica) {
        for (const auto& entry : request.stop_replica) {
          EXPECT_EQ(entry.leader_epoch, LeaderAndIsr::kEpochDuringDelete);
          stop_replica_delete += entry.delete_partition ? 1 : 0;
        }
      }
    }
    EXPECT_EQ(stop_replica_delete, 1) << "broker " << b;
  }

  run.drain();  // responses come back without error: Successful, then completeDeleteTopic
  EXPECT_FALSE(run.world().zk.topics[0].exists);
  EXPECT_FALSE(run.world().zk.delete_topics.contains(0));
  EXPECT_FALSE(run.context(1).all_topics.contains(0));
  EXPECT_TRUE(run.context(1).topics_to_be_deleted.empty());
  const PartitionContext& gone = run.partitionContext(1, kT0);
  EXPECT_EQ(gone.state, PartitionState::NonExistentPartition);  // Kafka keeps this entry (kafka.md Appendix D.3)
  EXPECT_FALSE(gone.assignment.has_value());
  EXPECT_FALSE(gone.leadership.has_value());
  for (const auto& replica : gone.replica_states) EXPECT_FALSE(replica.has_value());
  for (BrokerId b : {1, 2, 3}) {
    EXPECT_FALSE(run.broker(b).replicas[0].present);
    EXPECT_FALSE(run.broker(b).metadata_cache[0].has_value());
  }
}

}  // namespace
}  // namespace kcspec::spec
