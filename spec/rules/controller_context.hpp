// ControllerContext's derived getters (kafka.md §5.1, §5.2), over the context value.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/sets.hpp"

namespace kcspec::spec {

using Context = ControllerContextData;

// Registered brokers (liveOrShuttingDownBrokerIds) and those not shutting down (liveBrokerIds).
BrokerSet liveOrShuttingDownBrokerIds(const Context& ctx);
BrokerSet liveBrokerIds(const Context& ctx);

// isReplicaOnline(b, tp): the broker is live and not shutting down, and has not answered
// KAFKA_STORAGE_ERROR for tp (replicasOnOfflineDirs).
bool isReplicaOnline(const Context& ctx, BrokerId broker, TopicPartition tp, bool include_shutting_down = false);

// The brokers whose replica of tp is online (isReplicaOnline(b, tp, include_shutting_down)).
BrokerSet brokersOnlineFor(const Context& ctx, TopicPartition tp, bool include_shutting_down);

PartitionContext& partition(Context& ctx, TopicPartition tp);
const PartitionContext& partition(const Context& ctx, TopicPartition tp);

// partitionReplicaAssignment(tp): the full replica list, or [] without an assignment.
BrokerList partitionReplicaAssignment(const Context& ctx, TopicPartition tp);
// partitionFullReplicaAssignment(tp): the assignment, or ReplicaAssignment.empty without one.
ReplicaAssignment partitionFullReplicaAssignment(const Context& ctx, TopicPartition tp);

PartitionSet allPartitions(const Context& ctx);
PartitionSet partitionsForTopic(const Context& ctx, TopicIndex topic);
PartitionSet partitionsOnBroker(const Context& ctx, BrokerId broker);

bool isTopicQueuedUpForDeletion(const Context& ctx, TopicIndex topic);

// The context's isTopicDeletionInProgress(t): its partitions were already moved to
// NonExistentPartition (topicsWithDeletionStarted) — not the deletion manager's notion.
bool isTopicDeletionInProgress(const Context& ctx, TopicIndex topic);

// The context's isTopicEligibleForDeletion(t): queued for deletion and not halted.
bool isTopicEligibleForDeletion(const Context& ctx, TopicIndex topic);

// leaderEpoch(tp): −2 while the topic is queued for deletion, else the cached one, else −1.
std::int32_t leaderEpoch(const Context& ctx, TopicPartition tp);

// Partitions with cached leadership whose leader is not online, topic not queued for deletion.
PartitionSet partitionsWithOfflineLeader(const Context& ctx);

// Partitions with cached leadership whose topic is not queued for deletion.
PartitionSet partitionsWithLeaders(const Context& ctx);

// partitionLeadersOnBroker(b): cached leader b, topic not queued, more than one replica.
PartitionSet partitionLeadersOnBroker(const Context& ctx, BrokerId broker);

// partitionsInStates(states): every partition with a partition-state entry in one of `states`.
PartitionSet partitionsInStates(const Context& ctx, std::span<const PartitionState> states);
PartitionSet partitionsInStates(const Context& ctx, std::initializer_list<PartitionState> states);

// partitionsInStates(topic, states): the topic's partitions (partitionsForTopic) in one of
// `states`. Kafka reads each one's entry with partitionStates(tp), so a partition of the topic
// without one throws NoSuchElementException (KafkaException here).
PartitionSet partitionsInStates(const Context& ctx, TopicIndex topic, std::span<const PartitionState> states);

// partitionWithLeadersCount: the size of the leadership cache (partitionLeadershipInfo), topics
// queued for deletion included.
int partitionWithLeadersCount(const Context& ctx);

// The replica state, if the replica has an entry.
std::optional<ReplicaState> replicaState(const Context& ctx, TopicPartition tp, BrokerId replica);

// Every (tp, r) of a topic's assignments, and those in a given state.
using ReplicaList = BoundedVector<PartitionAndReplica, kMaxPartitionsPerTopic * kMaxBrokers>;
ReplicaList replicasForTopic(const Context& ctx, TopicIndex topic);
ReplicaList replicasInState(const Context& ctx, TopicIndex topic, ReplicaState state);
bool areAllReplicasInState(const Context& ctx, TopicIndex topic, ReplicaState state);
bool isAnyReplicaInState(const Context& ctx, TopicIndex topic, ReplicaState state);

// The replicas hosted on a set of brokers, over all partitions with an assignment.
using AllReplicaList = BoundedVector<PartitionAndReplica, kMaxPartitions * kMaxBrokers>;
AllReplicaList replicasOnBrokers(const Context& ctx, BrokerSet brokers);

// replicasForPartition(partitions): every (tp, r) with r in tp's assignment (none without one).
AllReplicaList replicasForPartition(const Context& ctx, PartitionSet partitions);

// Partition-state setter that keeps offlinePartitionCount (kafka.md §5.3).
void putPartitionState(Context& ctx, TopicPartition tp, PartitionState state);

// removeTopic(t): forgets the topic (kafka.md §4.1 completeDeleteTopic step 4), keeping its
// partitionStates (NonExistentPartition) and topicsIneligibleForDeletion entries as Kafka does.
void removeTopic(Context& ctx, TopicIndex topic);

}  // namespace kcspec::spec
