// Kafka 3.8's validPreviousStates tables, written as Kafka writes them: for each target state,
// the states it may be entered from (kafka.md §1.1, §1.2). This is spec/'s plain copy; model/ holds
// the Boost.MSM copy, and proofs/compile_time proves the two equal in both directions.
#pragma once

#include <array>

#include "spec/vocabulary/states.hpp"

namespace kcspec {

// PartitionState: 8 (previous → target) pairs, grouped by target in declaration order.
inline constexpr std::array<Transition<PartitionState>, 8> kPartitionValidPrevious = {{
    // NewPartition ← NonExistentPartition
    {PartitionState::NonExistentPartition, PartitionState::NewPartition},
    // OnlinePartition ← NewPartition, OnlinePartition, OfflinePartition
    {PartitionState::NewPartition, PartitionState::OnlinePartition},
    {PartitionState::OnlinePartition, PartitionState::OnlinePartition},
    {PartitionState::OfflinePartition, PartitionState::OnlinePartition},
    // OfflinePartition ← NewPartition, OnlinePartition, OfflinePartition
    {PartitionState::NewPartition, PartitionState::OfflinePartition},
    {PartitionState::OnlinePartition, PartitionState::OfflinePartition},
    {PartitionState::OfflinePartition, PartitionState::OfflinePartition},
    // NonExistentPartition ← OfflinePartition
    {PartitionState::OfflinePartition, PartitionState::NonExistentPartition},
}};

// ReplicaState: 14 (previous → target) pairs, grouped by target in declaration order.
inline constexpr std::array<Transition<ReplicaState>, 14> kReplicaValidPrevious = {{
    // NewReplica ← NonExistentReplica
    {ReplicaState::NonExistentReplica, ReplicaState::NewReplica},
    // OnlineReplica ← NewReplica, OnlineReplica, OfflineReplica, ReplicaDeletionIneligible
    {ReplicaState::NewReplica, ReplicaState::OnlineReplica},
    {ReplicaState::OnlineReplica, ReplicaState::OnlineReplica},
    {ReplicaState::OfflineReplica, ReplicaState::OnlineReplica},
    {ReplicaState::ReplicaDeletionIneligible, ReplicaState::OnlineReplica},
    // OfflineReplica ← NewReplica, OnlineReplica, OfflineReplica, ReplicaDeletionIneligible
    {ReplicaState::NewReplica, ReplicaState::OfflineReplica},
    {ReplicaState::OnlineReplica, ReplicaState::OfflineReplica},
    {ReplicaState::OfflineReplica, ReplicaState::OfflineReplica},
    {ReplicaState::ReplicaDeletionIneligible, ReplicaState::OfflineReplica},
    // ReplicaDeletionStarted ← OfflineReplica
    {ReplicaState::OfflineReplica, ReplicaState::ReplicaDeletionStarted},
    // ReplicaDeletionSuccessful ← ReplicaDeletionStarted
    {ReplicaState::ReplicaDeletionStarted, ReplicaState::ReplicaDeletionSuccessful},
    // ReplicaDeletionIneligible ← OfflineReplica, ReplicaDeletionStarted
    {ReplicaState::OfflineReplica, ReplicaState::ReplicaDeletionIneligible},
    {ReplicaState::ReplicaDeletionStarted, ReplicaState::ReplicaDeletionIneligible},
    // NonExistentReplica ← ReplicaDeletionSuccessful
    {ReplicaState::ReplicaDeletionSuccessful, ReplicaState::NonExistentReplica},
}};

template <class State>
struct ValidPrevious;
template <>
struct ValidPrevious<PartitionState> {
  static constexpr const auto& table = kPartitionValidPrevious;
};
template <>
struct ValidPrevious<ReplicaState> {
  static constexpr const auto& table = kReplicaValidPrevious;
};

// Kafka's check (kafka.md §1.3 step 3): `target.validPreviousStates` contains `current`.
template <class State>
constexpr bool isValidTransition(State current, State target) {
  for (const Transition<State>& edge : ValidPrevious<State>::table) {
    if (edge.from == current && edge.to == target) return true;
  }
  return false;
}

}  // namespace kcspec
