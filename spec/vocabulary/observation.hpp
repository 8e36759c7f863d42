// The observation: everything a version of the controller world shows from outside — ZooKeeper's
// contents, each controller's context and event queue, every broker's metadata cache, hosted
// replicas and pending requests. spec/ and impl/ both produce it; equality after every step is
// the conformance relation (DESIGN.md "Comparing the two versions").
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/events.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/replica_assignment.hpp"
#include "spec/vocabulary/requests.hpp"
#include "spec/vocabulary/sets.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec {

// ---------------------------------------------------------------- ZooKeeper (kafka.md §6.1)

// /brokers/topics/<t>/partitions/<p>/state. The znode's data version is leader_and_isr.partition_epoch.
struct PartitionStateZnode {
  LeaderAndIsr leader_and_isr;
  std::int32_t controller_epoch = 0;
  friend constexpr bool operator==(const PartitionStateZnode&, const PartitionStateZnode&) = default;
};

// A topic's partition assignments by partition id; an id the topic does not have is empty.
using PartitionAssignments = std::array<std::optional<ReplicaAssignment>, kMaxPartitionsPerTopic>;

struct TopicZnodes {
  bool exists = false;  // /brokers/topics/<t>
  // Its "partitions", "adding_replicas" and "removing_replicas", by partition id (the JSON keys).
  // The ids are 0…n−1, except where the controller restored the assignment of a topic queued for
  // deletion: it keeps only the partitions that have a /brokers/topics/<t>/partitions/<p> znode,
  // so ids can be missing, e.g. {"1":[2]} (kafka.md §5.10.2).
  PartitionAssignments partitions;
  std::array<std::optional<PartitionStateZnode>, kMaxPartitionsPerTopic> states;
  bool unclean_leader_election_enable = false;  // /config/topics/<t>
  TopicId topic_id = kNoTopicId;  // its "topic_id" (absent: written by an older protocol, or no id yet)

  // Whether the topic znode lists partition p.
  constexpr bool lists(int p) const { return p >= 0 && p < kMaxPartitionsPerTopic && partitions[static_cast<std::size_t>(p)]; }
  // How many partitions it lists.
  constexpr int partitionCount() const {
    int count = 0;
    for (const auto& assignment : partitions) count += assignment ? 1 : 0;
    return count;
  }
  friend constexpr bool operator==(const TopicZnodes&, const TopicZnodes&) = default;
};

// /feature (kafka.md §5.4 failover step 1): written by each controller at failover — Enabled when
// its inter.broker.protocol.version is 2.7-IV0 or later, Disabled before — in FeatureZNode's
// format 1, or 2 from 3.3-IV0. The finalized features it holds are not modeled (world.md 14).
enum class FeatureZnodeStatus : std::uint8_t { Absent, Disabled, Enabled };

struct FeatureZnode {
  FeatureZnodeStatus status = FeatureZnodeStatus::Absent;
  std::uint8_t format_version = 0;  // FeatureZNode.V1 or V2; 0 while absent
  friend constexpr bool operator==(const FeatureZnode&, const FeatureZnode&) = default;
};

struct BrokerRegistration {  // /brokers/ids/<id>, ephemeral
  bool registered = false;
  std::int64_t broker_epoch = -1;  // the znode's czxid
  friend constexpr bool operator==(const BrokerRegistration&, const BrokerRegistration&) = default;
};

// /admin/reassign_partitions (legacy admin path, kafka.md §6.1): written by an admin tool, trimmed and
// deleted by the controller (§5.7.5–5.7.6). {"version":1,"partitions":[{"topic":…,"partition":…,"replicas":[…]},…]}.
struct ReassignPartitionsZnode {
  bool exists = false;
  // Its data does not parse as that JSON: the controller WARNs and reads it as empty.
  bool invalid_json = false;
  PartitionSet partitions;                              // the partitions it lists
  std::array<BrokerList, kMaxPartitions> targets;       // by partition index: the listed target replicas
  friend constexpr bool operator==(const ReassignPartitionsZnode&, const ReassignPartitionsZnode&) = default;
};

// /admin/preferred_replica_election (legacy admin path): written by an admin tool, deleted by the
// controller after the election (§5.8.1–5.8.2). {"version":1,"partitions":[{"topic":…,"partition":…},…]}.
struct PreferredReplicaElectionZnode {
  bool exists = false;
  PartitionSet partitions;
  friend constexpr bool operator==(const PreferredReplicaElectionZnode&, const PreferredReplicaElectionZnode&) = default;
};

struct ZooKeeperData {
  std::array<BrokerRegistration, kMaxBrokers> brokers;
  std::array<TopicZnodes, kMaxTopics> topics;
  BrokerId controller = kNoLeader;              // /controller "brokerid"; −1 = absent
  std::int32_t controller_epoch = 0;            // /controller_epoch
  std::int32_t controller_epoch_zk_version = -1;  // its data version; −1 = absent
  TopicSet delete_topics;                       // /admin/delete_topics/<t>
  std::int64_t last_zxid = 0;                   // creation order, the source of broker epochs
  ReassignPartitionsZnode reassign_partitions;  // /admin/reassign_partitions
  PreferredReplicaElectionZnode preferred_replica_election;  // /admin/preferred_replica_election
  // /log_dir_event_notification/log_dir_event_<seq>, by the broker each names: a broker whose log
  // directory failed writes one; the controller reads them all and deletes them (kafka.md §5.5.6).
  BrokerSet log_dir_event_notifications;
  // Not data but the controller's connection to it (`zk-connection-loss t-p`, kafka.md §6.3.8): the
  // partitions whose state znode's next applied write loses its response — the connection drops,
  // KafkaZkClient resends the write on reconnection and returns the resend's answer.
  PartitionSet lost_write_responses;
  // /isr_change_notification/isr_change_<seq>, by the partitions they name: a leader that wrote its
  // ISR to ZooKeeper itself (inter.broker.protocol.version < 2.7-IV2) records the change there; the
  // controller reads them all and deletes them (kafka.md §5.6.4).
  PartitionSet isr_change_notifications;
  FeatureZnode feature;  // /feature
  // Not data but the connection, like lost_write_responses (`zk-connection-loss-feature`): the next
  // write ZooKeeper applies to /feature loses its response.
  bool lost_feature_write_response = false;
  // Not data but the sessions (`zk-session-expiry t-p`, docs/world.md convention 15): the
  // partitions whose state znode's next write by a controller meets that controller's session
  // expired — the call fails with SESSIONEXPIRED, and so does every later request of the event.
  PartitionSet session_expiring_writes;
  friend constexpr bool operator==(const ZooKeeperData&, const ZooKeeperData&) = default;
};

// ---------------------------------------------------------------- controller (kafka.md §5.1)

struct PartitionContext {
  std::optional<ReplicaAssignment> assignment;              // partitionAssignments
  std::optional<LeaderIsrAndControllerEpoch> leadership;    // partitionLeadershipInfo
  std::optional<PartitionState> state;                      // partitionStates
  std::array<std::optional<ReplicaState>, kMaxBrokers> replica_states;  // replicaStates, by replica id
  friend constexpr bool operator==(const PartitionContext&, const PartitionContext&) = default;
};

struct ControllerContextData {
  std::int32_t epoch = 0;
  std::int32_t epoch_zk_version = 0;
  std::array<std::int64_t, kMaxBrokers> live_broker_epochs{-1, -1, -1, -1, -1, -1, -1, -1};  // −1 = not live
  BrokerSet shutting_down_broker_ids;
  TopicSet all_topics;
  std::array<PartitionContext, kMaxPartitions> partitions;
  PartitionSet partitions_being_reassigned;
  TopicSet topics_to_be_deleted;
  TopicSet topics_with_deletion_started;
  TopicSet topics_ineligible_for_deletion;
  std::int32_t offline_partition_count = 0;
  // replicasOnOfflineDirs, by broker: the partitions it answered LeaderAndIsr with KAFKA_STORAGE_ERROR.
  std::array<PartitionSet, kMaxBrokers> replicas_on_offline_dirs{};
  // Not the context's but the controller's ZooKeeper handlers, kept here because resigning drops
  // them with it: the reassigning partitions whose state znode the controller watches
  // (PartitionReassignmentIsrChangeHandler, registered when inter.broker.protocol.version < 2.7-IV2;
  // kafka.md §5.7.2 step 2).
  PartitionSet reassignment_isr_watches;
  // topicIds (and its inverse topicNames), by topic: the id the controller read or gave (0: none).
  std::array<TopicId, kMaxTopics> topic_ids{};
  friend constexpr bool operator==(const ControllerContextData&, const ControllerContextData&) = default;
};
static_assert(kMaxBrokers == 8, "live_broker_epochs' initializer lists one −1 per broker");

// The KafkaController module of one broker: active or not, its context and its event queue.
struct ControllerData {
  bool active = false;        // activeControllerId == this broker
  bool session_lost = false;  // /controller is gone but the Expire event has not been queued yet
  // The partition / replica state machine's request batch was left non-empty by an exception
  // between newBatch() and the flush (kafka.md §2.3, §3.2, A.1, Appendix D.8). Its next newBatch()
  // throws IllegalStateException, so every later non-empty call on that machine fails, until
  // the broker restarts: Kafka 3.8 keeps the batches across resignation (KAFKA-12315).
  bool psm_batch_unflushed = false;
  bool rsm_batch_unflushed = false;
  ControllerContextData context;
  BoundedList<ControllerEvent, kMaxControllerEvents> events;
  friend bool operator==(const ControllerData&, const ControllerData&) = default;
};

// ---------------------------------------------------------------- brokers

// A replica as the broker hosting it sees it (set by LeaderAndIsr, removed by StopReplica).
// A partition as one broker holds it. Not present with leader epoch −1: the broker holds nothing
// (never had it, or deleted it). Not present with a leader epoch ≥ 0: stopped by
// StopReplica(delete=false) — Kafka keeps the Partition, so a LeaderAndIsr must still carry a
// higher leader epoch to start it again; a stopped replica neither leads nor follows.
struct HostedReplica {
  bool present = false;
  bool is_leader = false;
  std::int32_t leader_epoch = -1;
  std::int32_t partition_epoch = -1;
  BrokerList isr;  // the leader's view, which it proposes changes to
  // The leader proposed an ISR change (AlterPartition) and has not had it answered: it proposes
  // nothing more until the accepted response, an INELIGIBLE_REPLICA or a new LeaderAndIsr (Kafka's
  // pending ISR state).
  bool alter_partition_pending = false;
  // Proposals the controller answered INELIGIBLE_REPLICA, by the follower they would add to or
  // remove from the committed ISR: the leader does not make them again until an UpdateMetadata
  // from a newer controller or naming other live brokers has reached it, or a LeaderAndIsr has
  // replaced this state (docs/world.md §7).
  BrokerSet refused_expansions;
  BrokerSet refused_shrinks;
  // The topic id of the partition's log (Partition.topicId): the first LeaderAndIsr that carries
  // one sets it, and a later one carrying another is refused INCONSISTENT_TOPIC_ID (0: none yet).
  TopicId topic_id = kNoTopicId;
  friend constexpr bool operator==(const HostedReplica&, const HostedReplica&) = default;
};

struct BrokerData {
  bool alive = false;
  std::int64_t broker_epoch = -1;
  std::int32_t known_controller_epoch = 0;  // requests from an older controller epoch are rejected
  BoundedList<ControlRequest, kMaxRequestsPerBroker> inbox;
  std::array<std::optional<UpdateMetadataPartitionState>, kMaxPartitions> metadata_cache;
  BrokerSet metadata_live_brokers;
  std::array<HostedReplica, kMaxPartitions> replicas;
  BoundedVector<StopReplicaResponse, kMaxResponsesPerBroker> outbox;  // StopReplica(delete) responses
  BoundedVector<LeaderAndIsrResponse, kMaxLeaderAndIsrResponsesPerBroker> leader_and_isr_responses;
  // Its replicas whose log directory failed (HostedPartition.Offline) until it restarts: they lead
  // and follow nothing, and every request naming them is answered KAFKA_STORAGE_ERROR.
  PartitionSet offline_log_dir_replicas;
  // Below inter.broker.protocol.version 2.7-IV2: the partitions whose ISR this broker wrote to
  // ZooKeeper since its propagation task last wrote them as one /isr_change_notification child
  // (ZkAlterPartitionManager.isrChangeSet); in memory, so lost with the broker.
  PartitionSet pending_isr_changes;
  // A rolling upgrade (world.md 14): the broker was restarted with the configuration's `upgrade
  // inter.broker.protocol.version` instead of its `inter.broker.protocol.version`. A setting of the
  // broker's, not of its process: it survives crashes.
  bool ibp_upgraded = false;
  ControllerData controller;
  friend bool operator==(const BrokerData&, const BrokerData&) = default;
};

struct Observation {
  ZooKeeperData zk;
  std::array<BrokerData, kMaxBrokers> brokers;
  friend bool operator==(const Observation&, const Observation&) = default;
};

// The broker whose controller module is active and still has its ZooKeeper session (its watches
// registered: admin requests and watches reach it), or kNoLeader. At most one is (T1).
inline BrokerId activeControllerOf(const Observation& world) {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const BrokerData& broker = world.brokers[static_cast<std::size_t>(b)];
    if (broker.alive && broker.controller.active && !broker.controller.session_lost) return b;
  }
  return kNoLeader;
}

// That broker's controller module, or nullptr when there is none.
inline const ControllerData* activeControllerModule(const Observation& world) {
  const BrokerId b = activeControllerOf(world);
  return b == kNoLeader ? nullptr : &world.brokers[static_cast<std::size_t>(b)].controller;
}

}  // namespace kcspec
