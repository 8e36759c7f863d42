// Facts Appendix B's four flows through the reference controller, with exact values on the
// observation. B.2 and B.3 run with the controller on broker 2, as the appendix notes.
#include <gtest/gtest.h>

#include "impl_scenario.hpp"

namespace kcspec::impl {
namespace {

using testing::appendixBConfig;
using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};

void createTopic(ImplRun& run, BrokerId controller) {
  run.step("elect-controller " + std::to_string(controller)).drain();
  run.step("create-topic t").drain();
}

TEST(ImplAppendixB1, TopicCreationWritesLeader1Epoch0AndBringsEverythingOnline) {
  ImplRun run(appendixBConfig());
  run.step("elect-controller 1");
  EXPECT_EQ(run.world().zk.controller, 1);
  EXPECT_EQ(run.world().zk.controller_epoch, 1);
  EXPECT_EQ(run.world().zk.controller_epoch_zk_version, 1);
  EXPECT_EQ(run.context(1).epoch, 1);
  EXPECT_EQ(run.context(1).epoch_zk_version, 1);
  run.drain();
  run.step("create-topic t");
  ASSERT_EQ(run.broker(1).controller.events.size(), 1u);
  EXPECT_EQ(run.broker(1).controller.events[0].kind, ControllerEventKind::TopicChange);
  run.step("process-event 1");

  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr, LeaderAndIsr::make(1, BrokerList{1, 2, 3}));
  EXPECT_EQ(znode->controller_epoch, 1);
  const PartitionContext p = run.partitionContext(1, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(p.replica_states[static_cast<std::size_t>(r)], ReplicaState::OnlineReplica);
  EXPECT_EQ(p.leadership, (LeaderIsrAndControllerEpoch{LeaderAndIsr::make(1, BrokerList{1, 2, 3}), 1}));
  EXPECT_EQ(run.context(1).offline_partition_count, 0);
  for (BrokerId b : {1, 2, 3}) {
    const BrokerData broker = run.broker(b);
    ASSERT_EQ(broker.inbox.size(), 2u) << "broker " << b;  // LeaderAndIsr, then UpdateMetadata
    const ControlRequest& lai = broker.inbox[0];
    EXPECT_EQ(lai.kind, RequestKind::LeaderAndIsr);
    ASSERT_EQ(lai.leader_and_isr.size(), 1u);
    EXPECT_TRUE(lai.leader_and_isr[0].is_new);
    EXPECT_EQ(lai.leader_and_isr[0].assignment, ReplicaAssignment(BrokerList{1, 2, 3}));
    EXPECT_EQ(lai.controller_epoch, 1);
    EXPECT_EQ(lai.broker_epoch, b);  // registered in id order: epochs 1, 2, 3
    EXPECT_EQ(broker.inbox[1].kind, RequestKind::UpdateMetadata);
    EXPECT_EQ(broker.inbox[1].live_brokers, (BrokerSet{1, 2, 3}));
  }
  run.drain();
  EXPECT_TRUE(run.broker(1).replicas[0].is_leader);
  EXPECT_EQ(run.broker(1).replicas[0].isr, (BrokerList{1, 2, 3}));
  EXPECT_FALSE(run.broker(2).replicas[0].is_leader);
  EXPECT_TRUE(run.broker(3).metadata_cache[0].has_value());
  EXPECT_EQ(run.broker(3).metadata_cache[0]->leader, 1);
}

TEST(ImplAppendixB2, HardFailureOfTheLeaderElects2WithIsr23Epoch1) {
  ImplRun run(appendixBConfig());
  createTopic(run, 2);
  run.step("crash 1");
  EXPECT_FALSE(run.world().zk.brokers[1].registered);
  run.step("process-event 2");  // BrokerChange: onBrokerFailure([1])

  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 1);  // 1 was no longer in the ISR: no second write
  const PartitionContext p = run.partitionContext(2, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  EXPECT_EQ(p.replica_states[1], ReplicaState::OfflineReplica);
  EXPECT_EQ(p.leadership->controller_epoch, 1);
  EXPECT_EQ(run.context(2).offline_partition_count, 0);
  EXPECT_EQ(run.context(2).live_broker_epochs[1], -1);
  // LeaderAndIsr epoch 1 to [2,3] twice (election, then the OfflineReplica re-send), nothing to 1.
  int leader_and_isr = 0;
  for (const ControlRequest& r : run.broker(3).inbox) {
    if (r.kind != RequestKind::LeaderAndIsr) continue;
    ++leader_and_isr;
    EXPECT_EQ(r.leader_and_isr[0].leadership.leader_and_isr.leader_epoch, 1);
  }
  EXPECT_EQ(leader_and_isr, 4 - 2);  // creation (1) was delivered; election + re-send
  run.drain();
  EXPECT_TRUE(run.broker(2).replicas[0].is_leader);
  EXPECT_EQ(run.broker(2).replicas[0].isr, (BrokerList{2, 3}));
  EXPECT_EQ(run.broker(3).metadata_cache[0]->offline_replicas, (BrokerList{1}));
}

TEST(ImplAppendixB2, SoleIsrMemberDiesLeavesLeaderMinus1IsrKeptEpoch1) {
  // Shrink the ISR to [1] through AlterPartition requests from the leader.
  Config with_shrinks = appendixBConfig();
  with_shrinks.bounds.isr_shrinks = 2;
  ImplRun shrunk(with_shrinks);
  createTopic(shrunk, 2);
  shrunk.step("shrink-isr t-0 leader 1 remove 2").drain();
  shrunk.step("shrink-isr t-0 leader 1 remove 3").drain();
  ASSERT_EQ(shrunk.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1}));
  EXPECT_EQ(shrunk.stateZnode(kT0)->leader_and_isr.leader_epoch, 0);
  EXPECT_EQ(shrunk.stateZnode(kT0)->leader_and_isr.partition_epoch, 2);
  shrunk.step("crash 1").step("process-event 2");
  const auto znode = shrunk.stateZnode(kT0);
  EXPECT_EQ(znode->leader_and_isr.leader, kNoLeader);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{1}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 3);
  EXPECT_EQ(shrunk.partitionContext(2, kT0).state, PartitionState::OfflinePartition);
  EXPECT_EQ(shrunk.context(2).offline_partition_count, 1);
}

TEST(ImplAppendixB3, ControlledShutdownOfTheLeaderMovesLeadershipTo2) {
  ImplRun run(appendixBConfig());
  createTopic(run, 2);
  run.step("controlled-shutdown 1");
  run.step("process-event 2");
  EXPECT_EQ(run.context(2).shutting_down_broker_ids, (BrokerSet{1}));
  const auto znode = run.stateZnode(kT0);
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 1);
  // LeaderAndIsr to all of [1,2,3]; UpdateMetadata advertises 1 as offline.
  for (BrokerId b : {1, 2, 3}) {
    const BrokerData broker = run.broker(b);
    ASSERT_EQ(broker.inbox.size(), 2u) << "broker " << b;
    EXPECT_EQ(broker.inbox[0].kind, RequestKind::LeaderAndIsr);
    EXPECT_EQ(broker.inbox[1].update_metadata[0].offline_replicas, (BrokerList{1}));
  }
  EXPECT_EQ(run.partitionContext(2, kT0).replica_states[1], ReplicaState::OnlineReplica);
  run.drain();
  EXPECT_FALSE(run.broker(1).replicas[0].is_leader);
  EXPECT_TRUE(run.broker(2).replicas[0].is_leader);

  // Later the broker stops: no offline leader; OfflineReplica finds 1 outside the ISR.
  run.step("crash 1").step("process-event 2");
  EXPECT_TRUE(run.context(2).shutting_down_broker_ids.empty());
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.partition_epoch, 1);
  EXPECT_EQ(run.partitionContext(2, kT0).replica_states[1], ReplicaState::OfflineReplica);
}

TEST(ImplAppendixB3, ControlledShutdownOfAFollowerShrinksTheIsr) {
  Config config = appendixBConfig();
  config.topics[0].assignment = {BrokerList{2, 1, 3}};
  ImplRun run(config);
  createTopic(run, 2);
  run.step("controlled-shutdown 1").step("process-event 2");
  const auto znode = run.stateZnode(kT0);
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(run.partitionContext(2, kT0).replica_states[1], ReplicaState::OfflineReplica);
  int stop_replica = 0;
  for (const ControlRequest& r : run.broker(1).inbox) stop_replica += r.kind == RequestKind::StopReplica ? 1 : 0;
  EXPECT_EQ(stop_replica, 2);
}

TEST(ImplAppendixB4, HealthyDeletionRemovesEverythingAndLeavesNonExistentPartitionState) {
  ImplRun run(appendixBConfig());
  createTopic(run, 1);
  run.step("delete-topic t");
  run.step("process-event 1");  // TopicDeletion

  const PartitionContext p = run.partitionContext(1, kT0);
  EXPECT_EQ(p.state, PartitionState::NonExistentPartition);
  EXPECT_TRUE(run.context(1).topics_with_deletion_started.contains(0));
  EXPECT_EQ(run.context(1).offline_partition_count, 0);
  for (BrokerId r : {1, 2, 3}) {
    EXPECT_EQ(p.replica_states[static_cast<std::size_t>(r)], ReplicaState::ReplicaDeletionStarted);
  }
  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, kNoLeader);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 3);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 3);
  for (BrokerId b : {1, 2, 3}) {
    int deletes = 0;
    for (const ControlRequest& request : run.broker(b).inbox) {
      EXPECT_NE(request.kind, RequestKind::LeaderAndIsr);
      if (request.kind == RequestKind::UpdateMetadata) {
        EXPECT_EQ(request.update_metadata[0].leader, kLeaderDuringDelete);
      }
      if (request.kind != RequestKind::StopReplica) continue;
      for (const auto& entry : request.stop_replica) {
        EXPECT_EQ(entry.leader_epoch, LeaderAndIsr::kEpochDuringDelete);
        deletes += entry.delete_partition ? 1 : 0;
      }
      if (request.stop_replica[0].delete_partition) {
        EXPECT_TRUE(request.response_wanted.contains(kT0));
      }
    }
    EXPECT_EQ(deletes, 1) << "broker " << b;
  }

  run.drain();
  const Observation world = run.world();
  EXPECT_FALSE(world.zk.topics[0].exists);
  EXPECT_FALSE(world.zk.topics[0].states[0].has_value());
  EXPECT_FALSE(world.zk.delete_topics.contains(0));
  EXPECT_FALSE(run.context(1).all_topics.contains(0));
  EXPECT_TRUE(run.context(1).topics_to_be_deleted.empty());
  const PartitionContext gone = run.partitionContext(1, kT0);
  EXPECT_EQ(gone.state, PartitionState::NonExistentPartition);
  EXPECT_FALSE(gone.assignment.has_value());
  EXPECT_FALSE(gone.leadership.has_value());
  for (const auto& replica : gone.replica_states) EXPECT_FALSE(replica.has_value());
  for (BrokerId b : {1, 2, 3}) {
    EXPECT_FALSE(run.broker(b).replicas[0].present);
    EXPECT_FALSE(run.broker(b).metadata_cache[0].has_value());
  }
}

}  // namespace
}  // namespace kcspec::impl
