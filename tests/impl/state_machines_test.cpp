// PartitionStateMachine and ReplicaStateMachine unit tests: invalid transitions (kafka.md §1.3–1.4),
// initialization, ISR removal (§3.4).
#include <gtest/gtest.h>

#include "controller_fixture.hpp"

namespace kcspec::impl {
namespace {

using testing::ControllerFixture;

constexpr TopicPartition kT0{0, 0};

TEST(ImplPartitionStateMachine, InvalidTargetIsLoggedSkippedAndLeavesANonExistentEntry) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2, 3}));
  const ElectionOutcomes results =
      f.psm().handleStateChanges({kT0}, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::offline(false));
  EXPECT_TRUE(results.empty());
  EXPECT_EQ(f.context.partitionState(kT0), PartitionState::NonExistentPartition);  // kafka.md Appendix D.4
  EXPECT_NE(f.sink.text().find(
                "ERROR [Controller id=1 epoch=1] Controller 1 epoch 1 failed to change state for partition t-0 from "
                "NonExistentPartition to OnlinePartition (state.change.logger)\n"
                "java.lang.IllegalStateException: Partition t-0 should be in one of NewPartition,OnlinePartition,"
                "OfflinePartition states before moving to OnlinePartition state. Instead it is in NonExistentPartition "
                "state\n"),
            std::string::npos)
      << f.sink.text();
  EXPECT_FALSE(f.store.exists("/brokers/topics/t/partitions/0/state"));
}

TEST(ImplPartitionStateMachine, NoLiveReplicaKeepsThePartitionNew) {
  ControllerFixture f;
  f.context.removeLiveBrokers(BrokerSet{1, 2, 3});
  f.context.addLiveBroker(4, 4);
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2, 3}));
  f.psm().handleStateChanges({kT0}, PartitionState::NewPartition);
  f.psm().handleStateChanges({kT0}, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::offline(false));
  EXPECT_EQ(f.context.partitionState(kT0), PartitionState::NewPartition);
  EXPECT_NE(f.sink.text().find("kafka.common.StateChangeFailedException: Controller 1 epoch 1 encountered error during "
                               "state change of partition t-0 from New to Online, assigned replicas are [1,2,3], live "
                               "brokers are [Set(4)]. No assigned replica is alive."),
            std::string::npos)
      << f.sink.text();
}

TEST(ImplPartitionStateMachine, ExistingStateZnodeFailsInitializationWithNodeExists) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2, 3}));
  f.client.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{1, 2, 3})}});
  f.store.create("/brokers/topics/t/partitions", "");
  f.store.create("/brokers/topics/t/partitions/0", "");
  f.store.create("/brokers/topics/t/partitions/0/state", "{}");
  f.psm().handleStateChanges({kT0}, PartitionState::NewPartition);
  f.psm().handleStateChanges({kT0}, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::offline(false));
  EXPECT_EQ(f.context.partitionState(kT0), PartitionState::NewPartition);
  EXPECT_NE(f.sink.text().find("from NewPartition to OnlinePartition (state.change.logger)\n"
                               "org.apache.zookeeper.KeeperException$NodeExistsException: KeeperErrorCode = NodeExists\n"),
            std::string::npos)
      << f.sink.text();
}

TEST(ImplPartitionStateMachine, UnflushedBatchMakesTheNextCallFailForEveryPartition) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2, 3}));
  f.psm_batch.addUpdateMetadataRequestForBrokers(BrokerSet{1}, PartitionSet{}, f.context);
  const ElectionOutcomes results = f.psm().handleStateChanges({kT0}, PartitionState::NewPartition);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(std::get<Failure>(results.at(kT0)).exception_class, "java.lang.IllegalStateException");
  EXPECT_FALSE(f.context.hasPartitionState(kT0));
}

TEST(ImplReplicaStateMachine, RemovingTheLeaderFromATwoMemberIsr) {
  ControllerFixture f;
  f.client.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{5, 6})}});
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
  f.context.putPartitionLeadershipInfo(kT0, LeaderIsrAndControllerEpoch{LeaderAndIsr::make(1, BrokerList{1, 2}), 1});
  f.client.createTopicPartitionStatesRaw({{kT0, *f.context.partitionLeadershipInfo(kT0)}}, 0);
  f.context.restoreReplicaState(PartitionAndReplica{kT0, 1}, ReplicaState::OnlineReplica);
  f.rsm().handleStateChanges({PartitionAndReplica{kT0, 1}}, ReplicaState::OfflineReplica);
  const auto state = f.client.getTopicPartitionState(kT0).state;
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->leader_and_isr.leader, kNoLeader);
  EXPECT_EQ(state->leader_and_isr.isr, (BrokerList{2}));
  EXPECT_EQ(state->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(state->leader_and_isr.partition_epoch, 1);
  EXPECT_EQ(f.context.replicaState(PartitionAndReplica{kT0, 1}), ReplicaState::OfflineReplica);
  // StopReplica(delete=false) to 1, LeaderAndIsr to 2 (the other replica).
  bool stop_to_1 = false, lai_to_2 = false;
  for (const auto& [broker, request] : f.channel.sent) {
    stop_to_1 = stop_to_1 || (broker == 1 && request.kind == RequestKind::StopReplica);
    lai_to_2 = lai_to_2 || (broker == 2 && request.kind == RequestKind::LeaderAndIsr);
  }
  EXPECT_TRUE(stop_to_1);
  EXPECT_TRUE(lai_to_2);
}

TEST(ImplReplicaStateMachine, NewReplicaForTheLeaderIsRefusedAndLoggedAsOffline) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
  f.context.putPartitionLeadershipInfo(kT0, LeaderIsrAndControllerEpoch{LeaderAndIsr::make(1, BrokerList{1, 2}), 1});
  f.rsm().handleStateChanges({PartitionAndReplica{kT0, 1}}, ReplicaState::NewReplica);
  EXPECT_EQ(f.context.replicaState(PartitionAndReplica{kT0, 1}), ReplicaState::NonExistentReplica);
  EXPECT_NE(f.sink.text().find("initiated state change of replica 1 for partition t-0 from NonExistentReplica to "
                               "OfflineReplica failed (state.change.logger)\nkafka.common.StateChangeFailedException: "
                               "Replica 1 for partition t-0 cannot be moved to NewReplica state as it is being requested "
                               "to become leader\n"),
            std::string::npos)
      << f.sink.text();
}

TEST(ImplReplicaStateMachine, InvalidTransitionNamesThePredecessors) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
  f.rsm().handleStateChanges({PartitionAndReplica{kT0, 2}}, ReplicaState::OnlineReplica);
  EXPECT_NE(f.sink.text().find("java.lang.IllegalStateException: Replica [Topic=t,Partition=0,Replica=2] should be in the "
                               "NewReplica,OnlineReplica,OfflineReplica,ReplicaDeletionIneligible states before moving to "
                               "OnlineReplica state. Instead it is in NonExistentReplica state"),
            std::string::npos)
      << f.sink.text();
}

}  // namespace
}  // namespace kcspec::impl
