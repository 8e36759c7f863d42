// Controller → broker requests (kafka.md Appendix A) and the StopReplica responses that come back.
// Partition entries are kept in ascending partition order (Kafka's order is a hash map's).
#pragma once

#include <array>
#include <cstdint>

#include "spec/vocabulary/bounded_list.hpp"
#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/replica_assignment.hpp"
#include "spec/vocabulary/sets.hpp"

namespace kcspec {

inline constexpr int kMaxRequestsPerBroker = 1024;  // a broker's inbound queue; a flapping controller (see docs/spec/rules.md) fills it fastest
inline constexpr int kMaxResponsesPerBroker = 16;  // StopReplica responses on their way back (6 sufficed until the legacy admin paths added reassignments)
inline constexpr int kMaxLeaderAndIsrResponsesPerBroker = 8;  // LeaderAndIsr responses with KAFKA_STORAGE_ERROR on their way back

// LeaderAndIsrPartitionState: the leadership the controller cached (with the epoch of the
// controller that wrote it), the full assignment, and whether the replica is new (sticky).
struct LeaderAndIsrPartitionState {
  TopicPartition tp;
  LeaderIsrAndControllerEpoch leadership;
  ReplicaAssignment assignment;
  bool is_new = false;
  TopicId topic_id = kNoTopicId;  // the request's id of the entry's topic (version 5 and later)
  friend constexpr bool operator==(const LeaderAndIsrPartitionState&, const LeaderAndIsrPartitionState&) = default;
};

// UpdateMetadataPartitionState. For a topic queued for deletion the controller advertises
// leader −2, leader epoch 0, zkVersion 0 (kafka.md Appendix A.4).
struct UpdateMetadataPartitionState {
  TopicPartition tp;
  std::int32_t controller_epoch = 0;
  BrokerId leader = kNoLeader;
  std::int32_t leader_epoch = 0;
  BrokerList isr;
  std::int32_t zk_version = 0;
  BrokerList replicas;
  BrokerList offline_replicas;
  TopicId topic_id = kNoTopicId;  // the request's id of the entry's topic (version 7 and later)
  friend constexpr bool operator==(const UpdateMetadataPartitionState&, const UpdateMetadataPartitionState&) = default;
};

// StopReplicaPartitionState: leader epoch −2 when the topic is queued for deletion (kafka.md Appendix A.3).
struct StopReplicaPartitionState {
  TopicPartition tp;
  std::int32_t leader_epoch = 0;
  bool delete_partition = false;
  friend constexpr bool operator==(const StopReplicaPartitionState&, const StopReplicaPartitionState&) = default;
};

enum class RequestKind : std::uint8_t { LeaderAndIsr, UpdateMetadata, StopReplica };

// The newest version of each request that Kafka 3.8's controller sends (kafka.md Appendix A.6):
// the version of a request when its sender's inter.broker.protocol.version is 3.4-IV0 or later,
// and the default of a request's `version` in observations.
constexpr std::int16_t newestRequestVersion(RequestKind kind) {
  switch (kind) {
    case RequestKind::LeaderAndIsr: return 7;
    case RequestKind::UpdateMetadata: return 8;
    case RequestKind::StopReplica: return 4;
  }
  return 0;
}

// One control request in a broker's inbound queue, as the wire carries it: only the fields its
// version has (kafka.md Appendix A.6 — a field the version lacks holds its default, which is what
// the broker reads). Only the list of its kind is used.
struct ControlRequest {
  RequestKind kind = RequestKind::UpdateMetadata;
  std::int16_t version = newestRequestVersion(kind);  // the request's API version (default: its kind's newest)
  BrokerId controller_id = kNoLeader;
  std::int32_t controller_epoch = 0;
  std::int64_t broker_epoch = -1;  // the recipient's epoch as the controller knows it; −1 when the version has none
  BoundedList<LeaderAndIsrPartitionState, kMaxPartitions> leader_and_isr;
  BoundedList<UpdateMetadataPartitionState, kMaxPartitions> update_metadata;
  BrokerSet live_brokers;  // UpdateMetadata: every live-or-shutting-down broker
  BoundedList<StopReplicaPartitionState, kMaxPartitions> stop_replica;
  // StopReplica: the delete=true partitions, whose response the controller's callback looks at
  // (Kafka's isPartitionDeleted); whether their topic's deletion has started is asked only when
  // the response arrives (kafka.md Appendix A.5, docs/world.md §6).
  PartitionSet response_wanted;
  friend bool operator==(const ControlRequest&, const ControlRequest&) = default;
};

// A StopReplica(delete=true) response on its way back to the controller that sent it.
struct StopReplicaResponse {
  BrokerId controller_id = kNoLeader;
  std::int32_t controller_epoch = 0;
  PartitionSet partitions;  // the partitions the controller asked about
  // Those answered KAFKA_STORAGE_ERROR: the replica's log directory failed (Kafka's
  // HostedPartition.Offline), whatever the delivery adds as its own error.
  PartitionSet storage_errors;
  friend constexpr bool operator==(const StopReplicaResponse&, const StopReplicaResponse&) = default;
};

// A LeaderAndIsr response on its way back to the controller that sent it. Only responses that
// answer some partition with KAFKA_STORAGE_ERROR are kept: the controller's handling of one whose
// partitions are all NONE changes nothing (kafka.md §5.6.1 removes them from
// replicasOnOfflineDirs, which never holds them — docs/world.md §6).
struct LeaderAndIsrResponse {
  BrokerId controller_id = kNoLeader;
  std::int32_t controller_epoch = 0;
  PartitionSet partitions;      // every partition of the request
  PartitionSet storage_errors;  // those answered KAFKA_STORAGE_ERROR (not empty)
  // From version 5 the response names topics by the ids the request gave them (0: none), and the
  // controller drops those it does not know (kafka.md §5.6.1); before, by name.
  bool by_topic_id = false;
  std::array<TopicId, kMaxTopics> topic_ids{};
  friend constexpr bool operator==(const LeaderAndIsrResponse&, const LeaderAndIsrResponse&) = default;
};

// What the queues above hold, for CapacityExceeded's message (capacity.hpp).
template <>
inline constexpr const char* kBoundedElements<ControlRequest> =
    "requests queued for one broker (kMaxRequestsPerBroker, spec/vocabulary/requests.hpp)";
template <>
inline constexpr const char* kBoundedElements<StopReplicaResponse> =
    "StopReplica responses on their way back from one broker (kMaxResponsesPerBroker, spec/vocabulary/requests.hpp)";
template <>
inline constexpr const char* kBoundedElements<LeaderAndIsrResponse> =
    "LeaderAndIsr responses on their way back from one broker (kMaxLeaderAndIsrResponsesPerBroker, "
    "spec/vocabulary/requests.hpp)";

}  // namespace kcspec
