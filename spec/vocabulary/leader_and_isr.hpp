// LeaderAndIsr and LeaderIsrAndControllerEpoch: a partition's leadership as the controller
// stores it in the partition-state znode (kafka.md §0.1, §0.2), with Kafka 3.8's renderings (§7.6).
//
// Every derivation returns a new value and leaves partitionEpoch alone: only a successful ZK
// write moves the partition epoch (it is the znode's data version), and the caller applies
// that with withPartitionEpoch.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "spec/vocabulary/ids.hpp"

namespace kcspec {

enum class LeaderRecoveryState : std::uint8_t { RECOVERED = 0, RECOVERING = 1 };

struct LeaderAndIsr {
  static constexpr std::int32_t kInitialLeaderEpoch = 0;
  static constexpr std::int32_t kInitialPartitionEpoch = 0;
  static constexpr std::int32_t kNoEpoch = -1;
  static constexpr std::int32_t kEpochDuringDelete = -2;

  BrokerId leader = kNoLeader;
  std::int32_t leader_epoch = kInitialLeaderEpoch;
  LeaderRecoveryState recovery_state = LeaderRecoveryState::RECOVERED;
  BrokerList isr;
  std::int32_t partition_epoch = kInitialPartitionEpoch;  // the ZK data version (zkVersion before 3.3)

  // LeaderAndIsr(leader, isr): a first leadership, as written when a partition comes online.
  static constexpr LeaderAndIsr make(BrokerId new_leader, const BrokerList& new_isr) {
    return LeaderAndIsr{new_leader, kInitialLeaderEpoch, LeaderRecoveryState::RECOVERED, new_isr,
                        kInitialPartitionEpoch};
  }

  // What a topic deletion writes: a leader no broker can be, so no broker serves the partition.
  static constexpr LeaderAndIsr duringDelete(const BrokerList& new_isr) {
    return make(kLeaderDuringDelete, new_isr);
  }

  constexpr LeaderAndIsr newLeader(BrokerId new_leader) const {
    return newLeaderAndIsr(new_leader, isr);
  }

  constexpr LeaderAndIsr newLeaderAndIsr(BrokerId new_leader, const BrokerList& new_isr) const {
    return LeaderAndIsr{new_leader, leader_epoch + 1, recovery_state, new_isr, partition_epoch};
  }

  // An unclean election: the new leader must recover its log before it is trusted (KIP-704).
  constexpr LeaderAndIsr newRecoveringLeaderAndIsr(BrokerId new_leader,
                                                   const BrokerList& new_isr) const {
    LeaderAndIsr next = newLeaderAndIsr(new_leader, new_isr);
    next.recovery_state = LeaderRecoveryState::RECOVERING;
    return next;
  }

  // Bumps the leader epoch alone, so that brokers accept a request that changes nothing else.
  constexpr LeaderAndIsr newEpoch() const { return newLeaderAndIsr(leader, isr); }

  constexpr LeaderAndIsr withPartitionEpoch(std::int32_t new_partition_epoch) const {
    LeaderAndIsr next = *this;
    next.partition_epoch = new_partition_epoch;
    return next;
  }

  // Equal except that `this` may carry an older partition epoch than `other`: a value read back
  // before a later write of the same leadership still describes it.
  constexpr bool equalsAllowStalePartitionEpoch(const LeaderAndIsr& other) const {
    return leader == other.leader && leader_epoch == other.leader_epoch &&
           isr == other.isr && recovery_state == other.recovery_state &&
           partition_epoch <= other.partition_epoch;
  }

  friend constexpr bool operator==(const LeaderAndIsr&, const LeaderAndIsr&) = default;
  friend constexpr auto operator<=>(const LeaderAndIsr&, const LeaderAndIsr&) = default;
};

// The partition state plus the epoch of the controller that last wrote it.
struct LeaderIsrAndControllerEpoch {
  LeaderAndIsr leader_and_isr;
  std::int32_t controller_epoch = 0;

  friend constexpr bool operator==(const LeaderIsrAndControllerEpoch&,
                                   const LeaderIsrAndControllerEpoch&) = default;
  friend constexpr auto operator<=>(const LeaderIsrAndControllerEpoch&,
                                    const LeaderIsrAndControllerEpoch&) = default;
};

// The Java enum's name, as Kafka prints it.
constexpr std::string_view toKafkaString(LeaderRecoveryState state) {
  return state == LeaderRecoveryState::RECOVERED ? "RECOVERED" : "RECOVERING";
}

// Kafka 3.5–3.8: `LeaderAndIsr(leader=1, leaderEpoch=2, isrWithBrokerEpoch=List(BrokerState(
// brokerId=1, brokerEpoch=-1), …), leaderRecoveryState=RECOVERED, partitionEpoch=3)`.
std::string toKafkaString(const LeaderAndIsr& leader_and_isr);

// Kafka 3.2+: `(Leader:1,ISR:1,2,LeaderRecoveryState:RECOVERED,LeaderEpoch:2,ZkVersion:3,ControllerEpoch:5)`.
std::string toKafkaString(const LeaderIsrAndControllerEpoch& leader_isr_and_controller_epoch);

// Scala's `ids.mkString(separator)`: the ids in order, nothing for an empty list.
std::string joinIds(const BrokerList& ids, std::string_view separator);

}  // namespace kcspec
