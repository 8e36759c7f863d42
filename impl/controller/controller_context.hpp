// ControllerContext (kafka.md §5.1–5.3): the controller's in-memory view of the cluster. Kafka's
// maps are kept as small arrays indexed by partition (topic-major) and broker id, so the whole
// context is a value. Every partition and replica state lives in a model::Lifecycle and changes
// only through its Boost.MSM machine.
#pragma once

#include <array>
#include <map>
#include <cstdint>
#include <optional>
#include <vector>

#include "impl/uuid.hpp"
#include "impl/mutants.hpp"
#include "model/lifecycle.hpp"
#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/replica_assignment.hpp"
#include "spec/vocabulary/sets.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::impl {

using PartitionLifecycle = model::Lifecycle<PartitionState>;
using ReplicaLifecycle = model::Lifecycle<ReplicaState>;

class ControllerContext {
 public:
  std::int32_t epoch = 0;
  std::int32_t epochZkVersion = 0;

  // ---- brokers
  BrokerSet liveOrShuttingDownBrokerIds() const;
  BrokerSet liveBrokerIds() const { return liveOrShuttingDownBrokerIds() - shuttingDownBrokerIds; }
  // liveBrokerIdAndEpochs(id); nullopt when not registered
  std::optional<std::int64_t> liveBrokerEpoch(BrokerId id) const;
  void addLiveBroker(BrokerId id, std::int64_t epoch_);
  void removeLiveBrokers(BrokerSet ids);
  void setLiveBrokers(const std::array<std::int64_t, kMaxBrokers>& epochs);
  BrokerSet shuttingDownBrokerIds;

  // replicasOnOfflineDirs: broker → the partitions it answered LeaderAndIsr with
  // KAFKA_STORAGE_ERROR (kafka.md §5.6.1); a broker's entry goes when it starts or fails (§5.5.2–3).
  std::array<PartitionSet, kMaxBrokers> replicasOnOfflineDirs{};
  PartitionSet replicasOnOfflineDirsOf(BrokerId broker) const {
    return replicasOnOfflineDirs[static_cast<std::size_t>(broker)];  // getOrElse(broker, Set.empty)
  }
  void removeReplicasOnOfflineDirs(BrokerSet brokers) {
    brokers.forEach([&](BrokerId b) { replicasOnOfflineDirs[static_cast<std::size_t>(b)] = PartitionSet{}; });
  }

  // kafka.md §5.2: registered (and not shutting down, unless included), and tp not on an offline dir.
  bool isReplicaOnline(BrokerId broker, TopicPartition tp, bool includeShuttingDownBrokers = false) const;

  // ---- topics and assignments
  TopicSet allTopics;
  void setAllTopics(TopicSet topics) { allTopics = topics; }
  // topicIds and topicNames (IBP ≥ 2.8: read from the topic znodes or given by the controller).
  std::map<TopicIndex, Uuid> topicIds;
  std::map<Uuid, TopicIndex> topicNames;
  // Throws IllegalStateException for a topic outside allTopics or an id/name pair that conflicts.
  void addTopicId(TopicIndex topic, const Uuid& id);
  std::optional<Uuid> topicIdOf(TopicIndex topic) const {
    const auto it = topicIds.find(topic);
    return it == topicIds.end() ? std::nullopt : std::optional<Uuid>(it->second);
  }
  BrokerList partitionReplicaAssignment(TopicPartition tp) const;
  ReplicaAssignment partitionFullReplicaAssignment(TopicPartition tp) const;
  bool hasAssignment(TopicPartition tp) const { return entry(tp).assignment.has_value(); }
  void updatePartitionFullReplicaAssignment(TopicPartition tp, const ReplicaAssignment& assignment);
  PartitionSet allPartitions() const;
  PartitionSet partitionsForTopic(TopicIndex topic) const;
  PartitionSet partitionsOnBroker(BrokerId broker) const;
  std::vector<PartitionAndReplica> replicasForTopic(TopicIndex topic) const;
  std::vector<PartitionAndReplica> replicasOnBrokers(BrokerSet brokers) const;
  std::vector<PartitionAndReplica> replicasForPartition(PartitionSet partitions) const;
  PartitionSet partitionsBeingReassigned;

  // ---- leadership
  const std::optional<LeaderIsrAndControllerEpoch>& partitionLeadershipInfo(TopicPartition tp) const {
    return entry(tp).leadership;
  }
  void putPartitionLeadershipInfo(TopicPartition tp, const LeaderIsrAndControllerEpoch& leadership);
  // −2 for a topic queued for deletion, else the cached leader epoch, else −1 (kafka.md §5.1)
  std::int32_t leaderEpoch(TopicPartition tp) const;
  PartitionSet partitionsWithLeaders() const;
  PartitionSet partitionsWithOfflineLeader() const;
  PartitionSet partitionLeadersOnBroker(BrokerId broker) const;

  // ---- partition states (kafka.md §1.3, §5.3)
  bool hasPartitionState(TopicPartition tp) const { return entry(tp).state.has_value(); }
  PartitionState partitionState(TopicPartition tp) const;
  void putPartitionStateIfNotExists(TopicPartition tp);  // inserts NonExistentPartition
  // The MSM decides; returns whether the move was accepted. Keeps offlinePartitionCount.
  bool transitionPartition(TopicPartition tp, PartitionState target);
  // The startup's silent put (kafka.md §2.1), still counted; the partition has no state before.
  void restorePartitionState(TopicPartition tp, PartitionState state);
  PartitionSet partitionsInStates(std::initializer_list<PartitionState> states) const;
  PartitionSet partitionsInStates(TopicIndex topic, std::initializer_list<PartitionState> states) const;
  std::int32_t offlinePartitionCount = 0;

  // ---- replica states
  bool hasReplicaState(PartitionAndReplica r) const;
  ReplicaState replicaState(PartitionAndReplica r) const;
  void putReplicaStateIfNotExists(PartitionAndReplica r);  // inserts NonExistentReplica
  bool transitionReplica(PartitionAndReplica r, ReplicaState target);
  void restoreReplicaState(PartitionAndReplica r, ReplicaState state);  // the startup's silent put
  void removeReplicaState(PartitionAndReplica r);
  std::vector<PartitionAndReplica> replicasInState(TopicIndex topic, ReplicaState state) const;
  bool areAllReplicasInState(TopicIndex topic, ReplicaState state) const;
  bool isAnyReplicaInState(TopicIndex topic, ReplicaState state) const;

  // ---- deletion
  TopicSet topicsToBeDeleted;
  TopicSet topicsWithDeletionStarted;
  TopicSet topicsIneligibleForDeletion;
  bool isTopicQueuedUpForDeletion(TopicIndex t) const { return topicsToBeDeleted.contains(t); }
  bool isTopicDeletionInProgress(TopicIndex t) const { return topicsWithDeletionStarted.contains(t); }
  void queueTopicDeletion(TopicSet topics) { topicsToBeDeleted = topicsToBeDeleted | topics; }
  void beginTopicDeletion(TopicSet topics) { topicsWithDeletionStarted = topicsWithDeletionStarted | topics; }
  // Facts §4.1 completeDeleteTopic step 4; Mutant M1 removes only a "hash-order" prefix.
  void removeTopic(TopicIndex topic, Mutants mutants = {});

  void resetContext() { *this = ControllerContext{}; }

  void toObservation(ControllerContextData& out) const;  // into `out`, a default value
  // The context toObservation shows (a stated world, issue 28): every field as given, each
  // partition and replica state by the startup's silent put into a fresh Boost.MSM lifecycle.
  // (impl/given_world.cpp.)
  static ControllerContext fromObservation(const ControllerContextData& given);

 private:
  struct PartitionEntry {
    std::optional<ReplicaAssignment> assignment;
    std::optional<LeaderIsrAndControllerEpoch> leadership;
    std::optional<PartitionLifecycle> state;
    std::array<std::optional<ReplicaLifecycle>, kMaxBrokers> replicas;
  };
  PartitionEntry& entry(TopicPartition tp) { return partitions_[static_cast<std::size_t>(partitionIndex(tp))]; }
  const PartitionEntry& entry(TopicPartition tp) const { return partitions_[static_cast<std::size_t>(partitionIndex(tp))]; }
  void countPartitionStateChange(TopicPartition tp, PartitionState before, PartitionState after);

  std::array<std::int64_t, kMaxBrokers> live_broker_epochs_{-1, -1, -1, -1, -1, -1, -1, -1};
  std::array<PartitionEntry, kMaxPartitions> partitions_{};
};

}  // namespace kcspec::impl
