// The controller-context component action (component_queries.hpp).
#include "impl/component_queries.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "impl/errors.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {
namespace {

// The one element of a set the parser gives exactly one of (a query's topic or partition).
TopicIndex onlyTopic(TopicSet topics) {
  KCSPEC_ASSERT(topics.size() == 1);
  TopicIndex out = -1;
  topics.forEach([&](TopicIndex t) { out = t; });
  return out;
}

TopicPartition onlyPartition(PartitionSet partitions) {
  KCSPEC_ASSERT(partitions.size() == 1);
  TopicPartition out{};
  partitions.forEach([&](TopicPartition tp) { out = tp; });
  return out;
}

ComponentAnswer boolean(bool value) { return ComponentAnswer{.kind = ComponentAnswer::Kind::Boolean, .boolean = value}; }
ComponentAnswer count(std::int64_t value) { return ComponentAnswer{.kind = ComponentAnswer::Kind::Count, .count = value}; }
ComponentAnswer brokers(BrokerSet value) { return ComponentAnswer{.kind = ComponentAnswer::Kind::Brokers, .brokers = value}; }
ComponentAnswer partitions(PartitionSet value) {
  return ComponentAnswer{.kind = ComponentAnswer::Kind::Partitions, .partitions = value};
}
// Kafka's Set[PartitionAndReplica] in the canonical order: ascending by (partition, broker).
ComponentAnswer replicas(std::vector<PartitionAndReplica> value) {
  std::sort(value.begin(), value.end());
  value.erase(std::unique(value.begin(), value.end()), value.end());
  return ComponentAnswer{.kind = ComponentAnswer::Kind::Replicas, .replicas = std::move(value)};
}

// partitionsInStates(states) / partitionsInStates(topic, states) over the impl's own getters, one
// state at a time (they take an initializer list). Kafka's per-topic variant reads
// partitionState(p) for every partition of the topic, and a missing one is the map's
// NoSuchElementException; the impl's getter (which no history reaches that way) skips it.
PartitionSet partitionsInStates(const ControllerContext& context, const ComponentCall& call) {
  const bool per_topic = !call.topics.empty();
  const TopicIndex topic = per_topic ? onlyTopic(call.topics) : -1;
  if (per_topic) {
    context.partitionsForTopic(topic).forEach([&](TopicPartition tp) {
      if (!context.hasPartitionState(tp)) {
        throw KafkaThrowable("java.util.NoSuchElementException",
                             fmt::format("key not found: partition {} of topic {}", tp.partition, topic));
      }
    });
  }
  PartitionSet out;
  for (PartitionState state : call.partition_states) {
    out = out | (per_topic ? context.partitionsInStates(topic, {state}) : context.partitionsInStates({state}));
  }
  return out;
}

// Kafka's partitionLeadershipInfo.size: every cached leadership (a topic queued for deletion too).
std::int64_t partitionWithLeadersCount(const ControllerContext& context) {
  std::int64_t n = 0;
  for (int i = 0; i < kMaxPartitions; ++i) n += context.partitionLeadershipInfo(partitionAt(i)).has_value() ? 1 : 0;
  return n;
}

}  // namespace

ComponentAnswer answerContextQuery(const ControllerContext& context, const ComponentCall& call) {
  switch (call.query) {
    case ContextQuery::LiveBrokerIds: return brokers(context.liveBrokerIds());
    case ContextQuery::LiveOrShuttingDownBrokerIds: return brokers(context.liveOrShuttingDownBrokerIds());
    case ContextQuery::IsReplicaOnline:
      return boolean(context.isReplicaOnline(call.broker, onlyPartition(call.partitions), call.include_shutting_down));
    case ContextQuery::PartitionReplicaAssignment:
      return ComponentAnswer{.kind = ComponentAnswer::Kind::Brokers_in_order,
                             .broker_list = context.partitionReplicaAssignment(onlyPartition(call.partitions))};
    case ContextQuery::PartitionFullReplicaAssignment:
      return ComponentAnswer{.kind = ComponentAnswer::Kind::Assignment,
                             .assignment = context.partitionFullReplicaAssignment(onlyPartition(call.partitions))};
    case ContextQuery::AllPartitions: return partitions(context.allPartitions());
    case ContextQuery::PartitionsForTopic: return partitions(context.partitionsForTopic(onlyTopic(call.topics)));
    case ContextQuery::PartitionsOnBroker: return partitions(context.partitionsOnBroker(call.broker));
    case ContextQuery::ReplicasForTopic: return replicas(context.replicasForTopic(onlyTopic(call.topics)));
    case ContextQuery::ReplicasOnBrokers: return replicas(context.replicasOnBrokers(call.brokers));
    case ContextQuery::ReplicasForPartition: return replicas(context.replicasForPartition(call.partitions));
    case ContextQuery::PartitionsInStates: return partitions(partitionsInStates(context, call));
    case ContextQuery::ReplicasInState:
      return replicas(context.replicasInState(onlyTopic(call.topics), call.replica_target));
    case ContextQuery::AreAllReplicasInState:
      return boolean(context.areAllReplicasInState(onlyTopic(call.topics), call.replica_target));
    case ContextQuery::IsAnyReplicaInState:
      return boolean(context.isAnyReplicaInState(onlyTopic(call.topics), call.replica_target));
    case ContextQuery::LeaderEpoch: return count(context.leaderEpoch(onlyPartition(call.partitions)));
    case ContextQuery::PartitionsWithLeaders: return partitions(context.partitionsWithLeaders());
    case ContextQuery::PartitionsWithOfflineLeader: return partitions(context.partitionsWithOfflineLeader());
    case ContextQuery::PartitionLeadersOnBroker: return partitions(context.partitionLeadersOnBroker(call.broker));
    case ContextQuery::PartitionsBeingReassigned: return partitions(context.partitionsBeingReassigned);
    case ContextQuery::OfflinePartitionCount: return count(context.offlinePartitionCount);
    case ContextQuery::PartitionWithLeadersCount: return count(partitionWithLeadersCount(context));
    case ContextQuery::IsTopicQueuedUpForDeletion: return boolean(context.isTopicQueuedUpForDeletion(onlyTopic(call.topics)));
    case ContextQuery::IsTopicDeletionInProgress: return boolean(context.isTopicDeletionInProgress(onlyTopic(call.topics)));
    case ContextQuery::IsTopicEligibleForDeletion: {
      // ControllerContext.isTopicEligibleForDeletion: queued and not ineligible (not the TDM's).
      const TopicIndex topic = onlyTopic(call.topics);
      return boolean(context.topicsToBeDeleted.contains(topic) && !context.topicsIneligibleForDeletion.contains(topic));
    }
  }
  KCSPEC_ASSERT(false);
  return {};
}

}  // namespace kcspec::impl
