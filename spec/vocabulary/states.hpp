// The two lifecycles' states, spelled as Kafka spells them (kafka.md §1.1, §1.2).
//
// Enumerator values are dense indexes in Kafka's declaration order, so a state can index an
// array; Kafka's own byte codes are given by kafkaByteCode().
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kcspec {

enum class PartitionState : std::uint8_t {
  NewPartition,
  OnlinePartition,
  OfflinePartition,
  NonExistentPartition,
};

enum class ReplicaState : std::uint8_t {
  NewReplica,
  OnlineReplica,
  OfflineReplica,
  ReplicaDeletionStarted,
  ReplicaDeletionSuccessful,
  ReplicaDeletionIneligible,
  NonExistentReplica,
};

// StateTraits<S>: how many states, all of them in declaration order, their names and byte codes,
// and the state every entry starts in (the insert-if-absent state of kafka.md §1.3).
template <class State>
struct StateTraits;

template <>
struct StateTraits<PartitionState> {
  static constexpr std::size_t count = 4;
  static constexpr std::string_view machine_name = "partition";
  static constexpr PartitionState initial = PartitionState::NonExistentPartition;
  static constexpr std::array<PartitionState, count> all = {
      PartitionState::NewPartition, PartitionState::OnlinePartition,
      PartitionState::OfflinePartition, PartitionState::NonExistentPartition};
  static constexpr std::array<std::string_view, count> names = {
      "NewPartition", "OnlinePartition", "OfflinePartition", "NonExistentPartition"};
  // PartitionState.state in Kafka: 0, 1, 2, 3.
  static constexpr std::array<std::uint8_t, count> kafka_byte_codes = {0, 1, 2, 3};
};

template <>
struct StateTraits<ReplicaState> {
  static constexpr std::size_t count = 7;
  static constexpr std::string_view machine_name = "replica";
  static constexpr ReplicaState initial = ReplicaState::NonExistentReplica;
  static constexpr std::array<ReplicaState, count> all = {
      ReplicaState::NewReplica,
      ReplicaState::OnlineReplica,
      ReplicaState::OfflineReplica,
      ReplicaState::ReplicaDeletionStarted,
      ReplicaState::ReplicaDeletionSuccessful,
      ReplicaState::ReplicaDeletionIneligible,
      ReplicaState::NonExistentReplica};
  static constexpr std::array<std::string_view, count> names = {
      "NewReplica",
      "OnlineReplica",
      "OfflineReplica",
      "ReplicaDeletionStarted",
      "ReplicaDeletionSuccessful",
      "ReplicaDeletionIneligible",
      "NonExistentReplica"};
  // ReplicaState.state in Kafka: 1 … 7.
  static constexpr std::array<std::uint8_t, count> kafka_byte_codes = {1, 2, 3, 4, 5, 6, 7};
};

template <class State>
constexpr std::size_t stateIndex(State state) {
  return static_cast<std::size_t>(state);
}

template <class State>
constexpr std::string_view stateName(State state) {
  return StateTraits<State>::names[stateIndex(state)];
}

template <class State>
constexpr std::uint8_t kafkaByteCode(State state) {
  return StateTraits<State>::kafka_byte_codes[stateIndex(state)];
}

// The state whose Kafka name is `name`, if any.
template <class State>
constexpr std::optional<State> stateFromName(std::string_view name) {
  for (State state : StateTraits<State>::all) {
    if (stateName(state) == name) return state;
  }
  return std::nullopt;
}

// One edge of a lifecycle: `from` is a valid previous state of `to`.
template <class State>
struct Transition {
  State from;
  State to;
  friend constexpr bool operator==(const Transition&, const Transition&) = default;
};

}  // namespace kcspec
