// The broker rules of docs/world.md §5 as test cases, shared by the spec's broker
// (tests/spec/brokers_test.cpp) and the reference controller's SimulatedBroker
// (tests/impl/simulated_broker_test.cpp): which LeaderAndIsr and StopReplica entries a broker
// takes, as Kafka's ReplicaManager does in ZooKeeper mode. A test file defines
// `HostedReplica after(std::initializer_list<ControlRequest>)` (a live broker kSelf receives the
// requests in order; its view of t-0 afterwards), then writes KCSPEC_BROKER_RULE_TESTS(Suite).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>

#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/requests.hpp"

namespace kcspec::broker_rule_cases {

inline constexpr TopicPartition kT0{0, 0};
inline constexpr BrokerId kSelf = 2;

inline ControlRequest leaderAndIsr(BrokerId leader, std::int32_t leader_epoch, std::int32_t partition_epoch,
                                   const BrokerList& replicas) {
  ControlRequest request{.kind = RequestKind::LeaderAndIsr};
  request.controller_id = 1;
  request.controller_epoch = 1;
  const LeaderAndIsr lai{leader, leader_epoch, LeaderRecoveryState::RECOVERED, BrokerList{leader}, partition_epoch};
  request.leader_and_isr.push_back(
      LeaderAndIsrPartitionState{kT0, LeaderIsrAndControllerEpoch{lai, 1}, ReplicaAssignment(replicas), false});
  return request;
}

inline ControlRequest stopReplica(std::int32_t leader_epoch, bool delete_partition) {
  ControlRequest request{.kind = RequestKind::StopReplica};
  request.controller_id = 1;
  request.controller_epoch = 1;
  request.stop_replica.push_back(StopReplicaPartitionState{kT0, leader_epoch, delete_partition});
  return request;
}

}  // namespace kcspec::broker_rule_cases

// clang-format off
#define KCSPEC_BROKER_RULE_TESTS(Suite) \
TEST(Suite, LeaderAndIsrStartsAReplicaTheBrokerDoesNotHold) {                                                         \
  const HostedReplica r = after({leaderAndIsr(1, 0, 0, BrokerList{1, 2})});                                           \
  EXPECT_TRUE(r.present);                                                                                             \
  EXPECT_FALSE(r.is_leader);                                                                                          \
  EXPECT_EQ(r.leader_epoch, 0);                                                                                       \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, TheSameLeaderEpochIsIgnoredWhateverThePartitionEpoch) {                                                   \
  /* "… since its associated leader epoch 1 matches the current leader epoch": a higher partition */                  \
  /* epoch does not make the entry newer (a reassignment's cancellation re-sends epoch 1). */                         \
  const HostedReplica r = after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), leaderAndIsr(kSelf, 1, 3, BrokerList{1, 2})});\
  EXPECT_FALSE(r.is_leader);                                                                                          \
  EXPECT_EQ(r.partition_epoch, 1);                                                                                    \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, AHigherLeaderEpochReplacesTheReplica) {                                                                   \
  const HostedReplica r = after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), leaderAndIsr(kSelf, 2, 2, BrokerList{1, 2})});\
  EXPECT_TRUE(r.is_leader);                                                                                           \
  EXPECT_EQ(r.leader_epoch, 2);                                                                                       \
  EXPECT_EQ(r.isr, BrokerList{kSelf});                                                                                \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, AnEntryWhoseReplicasLeaveTheBrokerOutIsIgnored) {                                                         \
  /* "… as itself is not in assigned replica list" */                                                                 \
  EXPECT_EQ(after({leaderAndIsr(1, 0, 0, BrokerList{1, 3})}), HostedReplica{});                                       \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, StopReplicaWithoutDeleteKeepsTheLeaderEpoch) {                                                            \
  const HostedReplica stopped = after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), stopReplica(1, false)});              \
  EXPECT_FALSE(stopped.present);                                                                                      \
  EXPECT_EQ(stopped.leader_epoch, 1);                                                                                 \
  /* Kafka keeps the Partition: a LeaderAndIsr of the same epoch does not start it again … */                         \
  EXPECT_FALSE(after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), stopReplica(1, false), leaderAndIsr(1, 1, 1, BrokerList{1, 2})})\
                   .present);                                                                                         \
  /* … a higher one does. */                                                                                          \
  EXPECT_TRUE(after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), stopReplica(1, false), leaderAndIsr(1, 2, 2, BrokerList{1, 2})})\
                  .present);                                                                                          \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, StopReplicaWithDeleteForgetsThePartition) {                                                               \
  EXPECT_EQ(after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), stopReplica(1, true)}), HostedReplica{});                 \
  EXPECT_TRUE(after({leaderAndIsr(1, 1, 1, BrokerList{1, 2}), stopReplica(1, true), leaderAndIsr(1, 1, 1, BrokerList{1, 2})})\
                  .present);                                                                                          \
}                                                                                                                     \
                                                                                                                      \
TEST(Suite, AStopReplicaOlderThanTheReplicaIsIgnored) {                                                               \
  EXPECT_TRUE(after({leaderAndIsr(1, 2, 2, BrokerList{1, 2}), stopReplica(1, false)}).present);                       \
  EXPECT_EQ(after({leaderAndIsr(1, 2, 2, BrokerList{1, 2}), stopReplica(LeaderAndIsr::kEpochDuringDelete, true)}),    \
            HostedReplica{});                                                                                         \
}                                                                                                                     \
  static_assert(true, "")
// clang-format on
