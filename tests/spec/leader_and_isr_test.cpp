// LeaderAndIsr's derivations (kafka.md §0.1) and the renderings of §0.2 and §7.6.
#include <gtest/gtest.h>

#include "spec/vocabulary/leader_and_isr.hpp"

namespace kcspec {
namespace {

// A leadership that has been through a few elections and writes, so that every field differs
// from its initial value and a derivation that resets one is caught.
LeaderAndIsr written() {
  return LeaderAndIsr{3, 7, LeaderRecoveryState::RECOVERING, BrokerList{3, 1, 2}, 11};
}

TEST(LeaderAndIsr, MakeStartsAtInitialEpochsAndRecovered) {
  const LeaderAndIsr lai = LeaderAndIsr::make(2, BrokerList{2, 0});
  EXPECT_EQ(lai.leader, 2);
  EXPECT_EQ(lai.leader_epoch, LeaderAndIsr::kInitialLeaderEpoch);
  EXPECT_EQ(lai.recovery_state, LeaderRecoveryState::RECOVERED);
  EXPECT_EQ(lai.isr, (BrokerList{2, 0}));
  EXPECT_EQ(lai.partition_epoch, LeaderAndIsr::kInitialPartitionEpoch);
}

TEST(LeaderAndIsr, ConstantsAreKafkas) {
  EXPECT_EQ(LeaderAndIsr::kInitialLeaderEpoch, 0);
  EXPECT_EQ(LeaderAndIsr::kInitialPartitionEpoch, 0);
  EXPECT_EQ(LeaderAndIsr::kNoEpoch, -1);
  EXPECT_EQ(LeaderAndIsr::kEpochDuringDelete, -2);
  EXPECT_EQ(static_cast<int>(LeaderRecoveryState::RECOVERED), 0);
  EXPECT_EQ(static_cast<int>(LeaderRecoveryState::RECOVERING), 1);
}

TEST(LeaderAndIsr, DuringDeleteIsMakeWithLeaderMinusTwo) {
  const LeaderAndIsr lai = LeaderAndIsr::duringDelete(BrokerList{1, 4});
  EXPECT_EQ(lai, (LeaderAndIsr{-2, 0, LeaderRecoveryState::RECOVERED, BrokerList{1, 4}, 0}));
  EXPECT_EQ(lai.leader, kLeaderDuringDelete);
}

TEST(LeaderAndIsr, NewLeaderBumpsLeaderEpochOnly) {
  EXPECT_EQ(written().newLeader(1),
            (LeaderAndIsr{1, 8, LeaderRecoveryState::RECOVERING, BrokerList{3, 1, 2}, 11}));
}

TEST(LeaderAndIsr, NewLeaderAndIsrReplacesTheIsrAndKeepsRecoveryState) {
  EXPECT_EQ(written().newLeaderAndIsr(2, BrokerList{2}),
            (LeaderAndIsr{2, 8, LeaderRecoveryState::RECOVERING, BrokerList{2}, 11}));
  const LeaderAndIsr recovered = LeaderAndIsr::make(0, BrokerList{0, 1});
  EXPECT_EQ(recovered.newLeaderAndIsr(kNoLeader, BrokerList{1}),
            (LeaderAndIsr{-1, 1, LeaderRecoveryState::RECOVERED, BrokerList{1}, 0}));
}

TEST(LeaderAndIsr, NewRecoveringLeaderAndIsrMarksRecovering) {
  const LeaderAndIsr recovered = LeaderAndIsr::make(0, BrokerList{0}).withPartitionEpoch(4);
  EXPECT_EQ(recovered.newRecoveringLeaderAndIsr(5, BrokerList{5}),
            (LeaderAndIsr{5, 1, LeaderRecoveryState::RECOVERING, BrokerList{5}, 4}));
}

TEST(LeaderAndIsr, NewEpochBumpsLeaderEpochOnly) {
  EXPECT_EQ(written().newEpoch(),
            (LeaderAndIsr{3, 8, LeaderRecoveryState::RECOVERING, BrokerList{3, 1, 2}, 11}));
}

TEST(LeaderAndIsr, WithPartitionEpochChangesOnlyThePartitionEpoch) {
  EXPECT_EQ(written().withPartitionEpoch(12),
            (LeaderAndIsr{3, 7, LeaderRecoveryState::RECOVERING, BrokerList{3, 1, 2}, 12}));
}

TEST(LeaderAndIsr, EqualityCoversEveryField) {
  const LeaderAndIsr base = written();
  LeaderAndIsr other = base;
  EXPECT_EQ(base, other);
  other.isr = BrokerList{3, 2, 1};  // order matters
  EXPECT_NE(base, other);
  other = base;
  other.recovery_state = LeaderRecoveryState::RECOVERED;
  EXPECT_NE(base, other);
  EXPECT_NE(base, base.withPartitionEpoch(10));
}

TEST(LeaderAndIsr, EqualsAllowStalePartitionEpochOnlyForAnOlderThis) {
  const LeaderAndIsr older = written().withPartitionEpoch(5);
  const LeaderAndIsr newer = written().withPartitionEpoch(6);
  EXPECT_TRUE(older.equalsAllowStalePartitionEpoch(newer));
  EXPECT_FALSE(newer.equalsAllowStalePartitionEpoch(older));
  EXPECT_TRUE(newer.equalsAllowStalePartitionEpoch(newer));
}

TEST(LeaderAndIsr, EqualsAllowStalePartitionEpochStillComparesTheRest) {
  const LeaderAndIsr base = written().withPartitionEpoch(5);
  const LeaderAndIsr later = base.withPartitionEpoch(9);
  EXPECT_FALSE(base.equalsAllowStalePartitionEpoch(later.newLeader(3)));  // leader epoch
  EXPECT_FALSE(base.equalsAllowStalePartitionEpoch(
      LeaderAndIsr{2, 7, LeaderRecoveryState::RECOVERING, BrokerList{3, 1, 2}, 9}));  // leader
  EXPECT_FALSE(base.equalsAllowStalePartitionEpoch(
      LeaderAndIsr{3, 7, LeaderRecoveryState::RECOVERING, BrokerList{3, 1}, 9}));  // ISR
  EXPECT_FALSE(base.equalsAllowStalePartitionEpoch(
      LeaderAndIsr{3, 7, LeaderRecoveryState::RECOVERED, BrokerList{3, 1, 2}, 9}));  // recovery
}

TEST(LeaderAndIsr, RendersAsKafka38) {
  const LeaderAndIsr lai{1, 2, LeaderRecoveryState::RECOVERED, BrokerList{1, 2}, 3};
  EXPECT_EQ(toKafkaString(lai),
            "LeaderAndIsr(leader=1, leaderEpoch=2, isrWithBrokerEpoch=List(BrokerState(brokerId=1, "
            "brokerEpoch=-1), BrokerState(brokerId=2, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, "
            "partitionEpoch=3)");
}

TEST(LeaderAndIsr, RendersAnEmptyIsrAndRecovering) {
  const LeaderAndIsr lai{kNoLeader, 4, LeaderRecoveryState::RECOVERING, BrokerList{}, 0};
  EXPECT_EQ(toKafkaString(lai),
            "LeaderAndIsr(leader=-1, leaderEpoch=4, isrWithBrokerEpoch=List(), "
            "leaderRecoveryState=RECOVERING, partitionEpoch=0)");
}

TEST(LeaderIsrAndControllerEpoch, EqualityCoversTheControllerEpoch) {
  const LeaderIsrAndControllerEpoch a{written(), 5};
  EXPECT_EQ(a, (LeaderIsrAndControllerEpoch{written(), 5}));
  EXPECT_NE(a, (LeaderIsrAndControllerEpoch{written(), 6}));
  EXPECT_NE(a, (LeaderIsrAndControllerEpoch{written().newEpoch(), 5}));
}

TEST(LeaderIsrAndControllerEpoch, RendersAsKafka32Onwards) {
  const LeaderIsrAndControllerEpoch lice{
      LeaderAndIsr{1, 2, LeaderRecoveryState::RECOVERED, BrokerList{1, 2}, 3}, 5};
  EXPECT_EQ(toKafkaString(lice),
            "(Leader:1,ISR:1,2,LeaderRecoveryState:RECOVERED,LeaderEpoch:2,ZkVersion:3,ControllerEpoch:5)");
  const LeaderIsrAndControllerEpoch deleting{LeaderAndIsr::duringDelete(BrokerList{}), 1};
  EXPECT_EQ(toKafkaString(deleting),
            "(Leader:-2,ISR:,LeaderRecoveryState:RECOVERED,LeaderEpoch:0,ZkVersion:0,ControllerEpoch:1)");
}

TEST(JoinIds, JoinsInOrderAndPrintsNothingForNone) {
  EXPECT_EQ(joinIds(BrokerList{4, 0, 2}, ","), "4,0,2");
  EXPECT_EQ(joinIds(BrokerList{4, 0}, ", "), "4, 0");
  EXPECT_EQ(joinIds(BrokerList{}, ","), "");
}

// The derivations are constexpr, so a model's constants can be built from them.
static_assert(LeaderAndIsr::make(1, BrokerList{1}).newLeader(2).leader_epoch == 1);

}  // namespace
}  // namespace kcspec
