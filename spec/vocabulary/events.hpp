// The controller's events (kafka.md §5.6): what the single event thread processes, one at a time.
// Only the events within kcspec's scope are modeled (DESIGN.md); each carries the fields its
// handler reads, the rest stay at their defaults.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/sets.hpp"

namespace kcspec {

inline constexpr int kMaxControllerEvents = 64;

enum class ControllerEventKind : std::uint8_t {
  Expire,                                    // the controller's session expired: resign
  BrokerChange,                              // /brokers/ids children changed
  TopicChange,                               // /brokers/topics children changed
  PartitionModifications,                    // /brokers/topics/<t> data changed (expansion)
  TopicDeletion,                             // /admin/delete_topics children changed
  TopicDeletionStopReplicaResponseReceived,  // a StopReplica(delete=true) response
  ApiPartitionReassignment,                  // AlterPartitionReassignments (one partition)
  AlterPartitionReceived,                    // a leader proposes a new ISR
  ControlledShutdown,                        // a broker asks to shut down
  ReplicaLeaderElection,                     // ElectLeaders (PREFERRED or UNCLEAN)
  AutoPreferredReplicaLeaderElection,        // the rebalance scheduler fired
  TopicUncleanLeaderElectionEnable,          // a topic's unclean flag was turned on
  ZkPartitionReassignment,                   // /admin/reassign_partitions was created (or the controller re-arms its watch)
  LogDirEventNotification,                   // /log_dir_event_notification children changed
  LeaderAndIsrResponseReceived,              // a LeaderAndIsr response (kcspec keeps those with KAFKA_STORAGE_ERROR)
  RegisterBrokerAndReelect,                  // a new session after an expiry: register the broker again
  IsrChangeNotification,                     // /isr_change_notification children changed (IBP < 2.7-IV2)
  PartitionReassignmentIsrChange,            // a reassigning partition's state znode changed (IBP < 2.7-IV2)
};

inline constexpr std::string_view kControllerEventNames[] = {
    "Expire", "BrokerChange", "TopicChange", "PartitionModifications", "TopicDeletion",
    "TopicDeletionStopReplicaResponseReceived", "ApiPartitionReassignment", "AlterPartitionReceived",
    "ControlledShutdown", "ReplicaLeaderElection", "AutoPreferredReplicaLeaderElection",
    "TopicUncleanLeaderElectionEnable", "ZkPartitionReassignment", "LogDirEventNotification",
    "LeaderAndIsrResponseReceived", "RegisterBrokerAndReelect", "IsrChangeNotification",
    "PartitionReassignmentIsrChange"};

constexpr std::string_view eventName(ControllerEventKind kind) {
  return kControllerEventNames[static_cast<int>(kind)];
}

enum class ElectionType : std::uint8_t { PREFERRED, UNCLEAN };

struct ControllerEvent {
  ControllerEventKind kind = ControllerEventKind::BrokerChange;
  BrokerId broker = kNoLeader;      // ControlledShutdown, AlterPartition, StopReplica and LeaderAndIsr responses
  std::int64_t broker_epoch = -1;   // ControlledShutdown, AlterPartition
  TopicIndex topic = -1;            // PartitionModifications, TopicUncleanLeaderElectionEnable
  TopicPartition tp;                // ApiPartitionReassignment, AlterPartition, PartitionReassignmentIsrChange
  PartitionSet partitions;          // ReplicaLeaderElection; StopReplica and LeaderAndIsr responses: all partitions
  PartitionSet partition_errors;    // StopReplica response: partitions answered with an error; LeaderAndIsr: KAFKA_STORAGE_ERROR
  ElectionType election_type = ElectionType::PREFERRED;
  // ReplicaLeaderElection(None, PREFERRED, ZkTriggered): the partitions are read from
  // /admin/preferred_replica_election (created by an admin, or the controller re-arming its watch);
  // false: AdminClientTriggered, the partitions are `partitions`.
  bool zk_triggered = false;
  bool cancel = false;              // ApiPartitionReassignment: revert to the origin replicas
  BrokerList target_replicas;       // ApiPartitionReassignment
  LeaderAndIsr proposed;            // AlterPartition: leader, leader epoch, ISR, partition epoch
  // AlterPartition (version 2 and later) and LeaderAndIsr responses (version 5 and later) name
  // topics by id: the ids they carry, by topic; the controller resolves them with its topicNames.
  bool by_topic_id = false;
  std::array<TopicId, kMaxTopics> topic_ids{};
  friend constexpr bool operator==(const ControllerEvent&, const ControllerEvent&) = default;
};

// What a controller's queue holds, for CapacityExceeded's message (capacity.hpp).
template <>
inline constexpr const char* kBoundedElements<ControllerEvent> =
    "events queued for one controller (kMaxControllerEvents, spec/vocabulary/events.hpp)";

}  // namespace kcspec
