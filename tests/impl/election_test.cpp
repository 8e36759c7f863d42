// The four leader-election algorithms (kafka.md §2.8) and the strategies' renderings.
#include <gtest/gtest.h>

#include "impl/controller/election.hpp"

namespace kcspec::impl {
namespace {

namespace algo = PartitionLeaderElectionAlgorithms;

TEST(ImplElection, OfflinePrefersTheFirstLiveInSyncReplicaInAssignmentOrder) {
  EXPECT_EQ(algo::offlinePartitionLeaderElection({1, 2, 3}, {3, 2}, BrokerSet{2, 3}, false), 2);
  EXPECT_EQ(algo::offlinePartitionLeaderElection({1, 2, 3}, {1}, BrokerSet{2, 3}, false), std::nullopt);
  EXPECT_EQ(algo::offlinePartitionLeaderElection({1, 2, 3}, {1}, BrokerSet{3, 2}, true), 2);  // unclean
  EXPECT_EQ(algo::offlinePartitionLeaderElection({1, 2, 3}, {1}, BrokerSet{}, true), std::nullopt);
  EXPECT_EQ(algo::offlinePartitionLeaderElection({}, {}, BrokerSet{1}, true), std::nullopt);
}

TEST(ImplElection, ReassignLooksOnlyAtTheTargetReplicas) {
  EXPECT_EQ(algo::reassignPartitionLeaderElection({4, 5}, {1, 5, 4}, BrokerSet{1, 4, 5}), 4);
  EXPECT_EQ(algo::reassignPartitionLeaderElection({4, 5}, {1}, BrokerSet{1, 4, 5}), std::nullopt);
  EXPECT_EQ(algo::reassignPartitionLeaderElection({4, 5}, {4, 5}, BrokerSet{5}), 5);
}

TEST(ImplElection, PreferredHasNoFallback) {
  EXPECT_EQ(algo::preferredReplicaPartitionLeaderElection({1, 2}, {1, 2}, BrokerSet{1, 2}), 1);
  EXPECT_EQ(algo::preferredReplicaPartitionLeaderElection({1, 2}, {2}, BrokerSet{1, 2}), std::nullopt);
  EXPECT_EQ(algo::preferredReplicaPartitionLeaderElection({1, 2}, {1, 2}, BrokerSet{2}), std::nullopt);
  EXPECT_EQ(algo::preferredReplicaPartitionLeaderElection({}, {1}, BrokerSet{1}), std::nullopt);
}

TEST(ImplElection, ControlledShutdownSkipsEveryShuttingDownBroker) {
  EXPECT_EQ(algo::controlledShutdownPartitionLeaderElection({1, 2, 3}, {1, 2, 3}, BrokerSet{1, 2, 3}, BrokerSet{1}), 2);
  EXPECT_EQ(algo::controlledShutdownPartitionLeaderElection({1, 2, 3}, {1, 2, 3}, BrokerSet{1, 2, 3}, BrokerSet{1, 2}), 3);
  EXPECT_EQ(algo::controlledShutdownPartitionLeaderElection({1, 2}, {1}, BrokerSet{1, 2}, BrokerSet{1}), std::nullopt);
}

TEST(ImplElection, StrategiesPrintAsKafka38) {
  EXPECT_EQ(toKafkaString(PartitionLeaderElectionStrategy::offline(false)), "OfflinePartitionLeaderElectionStrategy(false)");
  EXPECT_EQ(toKafkaString(PartitionLeaderElectionStrategy::offline(true)), "OfflinePartitionLeaderElectionStrategy(true)");
  EXPECT_EQ(toKafkaString(PartitionLeaderElectionStrategy::reassign()), "ReassignPartitionLeaderElectionStrategy");
  EXPECT_EQ(toKafkaString(PartitionLeaderElectionStrategy::preferredReplica()),
            "PreferredReplicaPartitionLeaderElectionStrategy");
  EXPECT_EQ(toKafkaString(PartitionLeaderElectionStrategy::controlledShutdown()),
            "ControlledShutdownPartitionLeaderElectionStrategy");
}

ControllerContext contextWith(BrokerSet live, BrokerSet shutting_down, const BrokerList& replicas) {
  ControllerContext context;
  live.forEach([&](BrokerId b) { context.addLiveBroker(b, b); });
  context.shuttingDownBrokerIds = shutting_down;
  context.updatePartitionFullReplicaAssignment(TopicPartition{0, 0}, ReplicaAssignment(replicas));
  return context;
}

TEST(ImplElection, LeaderForOfflineShrinksTheIsrOrStartsRecoveringWhenUnclean) {
  const TopicPartition tp{0, 0};
  ControllerContext context = contextWith(BrokerSet{2, 3}, BrokerSet{}, {1, 2, 3});
  const LeaderAndIsr lai = LeaderAndIsr::make(1, BrokerList{1, 2, 3}).withPartitionEpoch(4);
  auto results = Election::leaderForOffline(context, true, {UncleanElectionInput{tp, lai, false}});
  ASSERT_TRUE(results[0].leader_and_isr.has_value());
  EXPECT_EQ(*results[0].leader_and_isr, (LeaderAndIsr{2, 1, LeaderRecoveryState::RECOVERED, BrokerList{2, 3}, 4}));
  EXPECT_EQ(results[0].recipients, (BrokerList{2, 3}));
  const LeaderAndIsr stale = LeaderAndIsr::make(1, BrokerList{1});
  results = Election::leaderForOffline(context, true, {UncleanElectionInput{tp, stale, true}});
  EXPECT_EQ(*results[0].leader_and_isr, (LeaderAndIsr{2, 1, LeaderRecoveryState::RECOVERING, BrokerList{2}, 0}));
  // Below inter.broker.protocol.version 3.2-IV0 the unclean leader is simply the ISR.
  results = Election::leaderForOffline(context, false, {UncleanElectionInput{tp, stale, true}});
  EXPECT_EQ(*results[0].leader_and_isr, (LeaderAndIsr{2, 1, LeaderRecoveryState::RECOVERED, BrokerList{2}, 0}));
}

TEST(ImplElection, LeaderForControlledShutdownTellsTheShuttingDownBroker) {
  const TopicPartition tp{0, 0};
  ControllerContext context = contextWith(BrokerSet{1, 2, 3}, BrokerSet{1}, {1, 2, 3});
  const auto results = Election::leaderForControlledShutdown(context, {{tp, LeaderAndIsr::make(1, BrokerList{1, 2, 3})}});
  EXPECT_EQ(results[0].leader_and_isr->leader, 2);
  EXPECT_EQ(results[0].leader_and_isr->isr, (BrokerList{2, 3}));
  EXPECT_EQ(results[0].recipients, (BrokerList{1, 2, 3}));
}

TEST(ImplElection, LeaderForPreferredAndReassignSendToEveryAssignedReplica) {
  const TopicPartition tp{0, 0};
  ControllerContext context = contextWith(BrokerSet{1, 2}, BrokerSet{}, {1, 2, 3});
  auto preferred = Election::leaderForPreferredReplica(context, {{tp, LeaderAndIsr::make(2, BrokerList{2, 1})}});
  EXPECT_EQ(preferred[0].leader_and_isr->leader, 1);
  EXPECT_EQ(preferred[0].leader_and_isr->isr, (BrokerList{2, 1}));
  EXPECT_EQ(preferred[0].recipients, (BrokerList{1, 2, 3}));
  context.updatePartitionFullReplicaAssignment(tp, ReplicaAssignment(BrokerList{3, 2, 1}, BrokerList{3}, BrokerList{1}));
  auto reassign = Election::leaderForReassign(context, {{tp, LeaderAndIsr::make(1, BrokerList{1, 2})}});
  EXPECT_EQ(reassign[0].leader_and_isr->leader, 2);
  EXPECT_EQ(reassign[0].recipients, (BrokerList{3, 2}));  // all of TRS, offline 3 too
}

}  // namespace
}  // namespace kcspec::impl
