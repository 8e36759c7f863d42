// Every (from, to) pair of both lifecycles, through model/'s Boost.MSM machines, against Kafka
// 3.8's tables as kafka.md (§1.1, §1.2) states them — written out here a third time, by name,
// independent of both model/ and spec/.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/lifecycle.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec {
namespace {

const std::set<std::string> kKafkaPartitionPairs = {
    "NonExistentPartition->NewPartition",
    "NewPartition->OnlinePartition",     "OnlinePartition->OnlinePartition",
    "OfflinePartition->OnlinePartition", "NewPartition->OfflinePartition",
    "OnlinePartition->OfflinePartition", "OfflinePartition->OfflinePartition",
    "OfflinePartition->NonExistentPartition",
};

const std::set<std::string> kKafkaReplicaPairs = {
    "NonExistentReplica->NewReplica",
    "NewReplica->OnlineReplica",
    "OnlineReplica->OnlineReplica",
    "OfflineReplica->OnlineReplica",
    "ReplicaDeletionIneligible->OnlineReplica",
    "NewReplica->OfflineReplica",
    "OnlineReplica->OfflineReplica",
    "OfflineReplica->OfflineReplica",
    "ReplicaDeletionIneligible->OfflineReplica",
    "OfflineReplica->ReplicaDeletionStarted",
    "ReplicaDeletionStarted->ReplicaDeletionSuccessful",
    "OfflineReplica->ReplicaDeletionIneligible",
    "ReplicaDeletionStarted->ReplicaDeletionIneligible",
    "ReplicaDeletionSuccessful->NonExistentReplica",
};

template <class State>
std::string pairName(State from, State to) {
  return std::string(stateName(from)) + "->" + std::string(stateName(to));
}

template <class State>
void checkEveryPair(const std::set<std::string>& kafka_pairs) {
  std::size_t accepted = 0;
  for (State from : StateTraits<State>::all) {
    for (State to : StateTraits<State>::all) {
      const std::string name = pairName(from, to);
      const bool valid_in_kafka = kafka_pairs.count(name) == 1;
      const model::MoveOutcome<State> outcome = model::requestMove(from, to);
      EXPECT_EQ(outcome.before, from) << name;
      EXPECT_EQ(outcome.accepted, valid_in_kafka) << name;
      // A valid request lands on its target; a rejected one leaves the state unchanged.
      EXPECT_EQ(outcome.after, valid_in_kafka ? to : from) << name;
      EXPECT_EQ(isValidTransition(from, to), valid_in_kafka) << name << " (spec's plain table)";
      accepted += outcome.accepted ? 1 : 0;
    }
  }
  EXPECT_EQ(accepted, kafka_pairs.size());
}

TEST(PartitionLifecycle, EveryOneOf16PairsIsValidExactlyWhenKafkaSaysSo) {
  checkEveryPair<PartitionState>(kKafkaPartitionPairs);
}

TEST(ReplicaLifecycle, EveryOneOf49PairsIsValidExactlyWhenKafkaSaysSo) {
  checkEveryPair<ReplicaState>(kKafkaReplicaPairs);
}

TEST(PartitionLifecycle, RejectedRequestIsReportedAndLeavesStateUnchanged) {
  model::Lifecycle<PartitionState> partition;  // NonExistentPartition
  const auto rejected = partition.request(PartitionState::OnlinePartition);
  EXPECT_FALSE(rejected.accepted);
  EXPECT_EQ(partition.current(), PartitionState::NonExistentPartition);
  EXPECT_TRUE(partition.request(PartitionState::NewPartition).accepted);
  EXPECT_FALSE(partition.request(PartitionState::NewPartition).accepted);  // New→New is invalid
  EXPECT_EQ(partition.current(), PartitionState::NewPartition);
  EXPECT_TRUE(partition.request(PartitionState::OnlinePartition).accepted);
  EXPECT_TRUE(partition.request(PartitionState::OnlinePartition).accepted);  // re-election
  EXPECT_EQ(partition.current(), PartitionState::OnlinePartition);
}

TEST(ReplicaLifecycle, DeletionWalkAndRejections) {
  auto replica = model::Lifecycle<ReplicaState>::restoredAt(ReplicaState::OnlineReplica);
  EXPECT_FALSE(replica.request(ReplicaState::ReplicaDeletionStarted).accepted);
  EXPECT_EQ(replica.current(), ReplicaState::OnlineReplica);
  for (ReplicaState step : {ReplicaState::OfflineReplica, ReplicaState::ReplicaDeletionStarted,
                            ReplicaState::ReplicaDeletionSuccessful, ReplicaState::NonExistentReplica}) {
    const auto outcome = replica.request(step);
    EXPECT_TRUE(outcome.accepted) << stateName(step);
    EXPECT_EQ(replica.current(), step);
  }
  EXPECT_FALSE(replica.request(ReplicaState::OnlineReplica).accepted);
  EXPECT_EQ(replica.current(), ReplicaState::NonExistentReplica);
}

}  // namespace
}  // namespace kcspec
