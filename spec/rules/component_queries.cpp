// The context getters a component action may ask, each answered in the contract's canonical form:
// sets as sets, replicas ascending by (partition, broker).
#include "spec/rules/component_queries.hpp"

#include <algorithm>
#include <vector>

#include "spec/rules/controller.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::spec {
namespace {

using Kind = ComponentAnswer::Kind;

ComponentAnswer boolean(bool value) { return ComponentAnswer{.kind = Kind::Boolean, .boolean = value}; }

ComponentAnswer count(std::int64_t value) { return ComponentAnswer{.kind = Kind::Count, .count = value}; }

ComponentAnswer brokers(BrokerSet value) { return ComponentAnswer{.kind = Kind::Brokers, .brokers = value}; }

ComponentAnswer partitions(PartitionSet value) {
  return ComponentAnswer{.kind = Kind::Partitions, .partitions = value};
}

template <class Replicas>
ComponentAnswer replicas(const Replicas& value) {
  ComponentAnswer answer{.kind = Kind::Replicas};
  answer.replicas.assign(value.begin(), value.end());
  std::sort(answer.replicas.begin(), answer.replicas.end());
  return answer;
}

// The one topic or partition a query names.
TopicIndex theTopic(const ComponentCall& call) {
  KCSPEC_ASSERT(call.topics.size() == 1);
  TopicIndex topic = 0;
  call.topics.forEach([&](TopicIndex t) { topic = t; });
  return topic;
}

TopicPartition thePartition(const ComponentCall& call) {
  KCSPEC_ASSERT(call.partitions.size() == 1);
  TopicPartition tp{};
  call.partitions.forEach([&](TopicPartition p) { tp = p; });
  return tp;
}

// partitionsInStates(states), or with a topic partitionsInStates(topic, states).
PartitionSet partitionsInStatesAsked(const Context& ctx, const ComponentCall& call) {
  if (call.topics.empty()) return partitionsInStates(ctx, call.partition_states);
  return partitionsInStates(ctx, theTopic(call), call.partition_states);
}

}  // namespace

ComponentAnswer askControllerContext(const Context& ctx, const ComponentCall& call) {
  switch (call.query) {
    case ContextQuery::LiveBrokerIds: return brokers(liveBrokerIds(ctx));
    case ContextQuery::LiveOrShuttingDownBrokerIds: return brokers(liveOrShuttingDownBrokerIds(ctx));
    case ContextQuery::IsReplicaOnline:
      return boolean(isReplicaOnline(ctx, call.broker, thePartition(call), call.include_shutting_down));
    case ContextQuery::PartitionReplicaAssignment:
      return ComponentAnswer{.kind = Kind::Brokers_in_order,
                             .broker_list = partitionReplicaAssignment(ctx, thePartition(call))};
    case ContextQuery::PartitionFullReplicaAssignment:
      return ComponentAnswer{.kind = Kind::Assignment,
                             .assignment = partitionFullReplicaAssignment(ctx, thePartition(call))};
    case ContextQuery::AllPartitions: return partitions(allPartitions(ctx));
    case ContextQuery::PartitionsForTopic: return partitions(partitionsForTopic(ctx, theTopic(call)));
    case ContextQuery::PartitionsOnBroker: return partitions(partitionsOnBroker(ctx, call.broker));
    case ContextQuery::ReplicasForTopic: return replicas(replicasForTopic(ctx, theTopic(call)));
    case ContextQuery::ReplicasOnBrokers: return replicas(replicasOnBrokers(ctx, call.brokers));
    case ContextQuery::ReplicasForPartition: return replicas(replicasForPartition(ctx, call.partitions));
    case ContextQuery::PartitionsInStates: return partitions(partitionsInStatesAsked(ctx, call));
    case ContextQuery::ReplicasInState: return replicas(replicasInState(ctx, theTopic(call), call.replica_target));
    case ContextQuery::AreAllReplicasInState:
      return boolean(areAllReplicasInState(ctx, theTopic(call), call.replica_target));
    case ContextQuery::IsAnyReplicaInState:
      return boolean(isAnyReplicaInState(ctx, theTopic(call), call.replica_target));
    case ContextQuery::LeaderEpoch: return count(leaderEpoch(ctx, thePartition(call)));
    case ContextQuery::PartitionsWithLeaders: return partitions(partitionsWithLeaders(ctx));
    case ContextQuery::PartitionsWithOfflineLeader: return partitions(partitionsWithOfflineLeader(ctx));
    case ContextQuery::PartitionLeadersOnBroker: return partitions(partitionLeadersOnBroker(ctx, call.broker));
    case ContextQuery::PartitionsBeingReassigned: return partitions(ctx.partitions_being_reassigned);
    case ContextQuery::OfflinePartitionCount: return count(ctx.offline_partition_count);
    case ContextQuery::PartitionWithLeadersCount: return count(partitionWithLeadersCount(ctx));
    case ContextQuery::IsTopicQueuedUpForDeletion: return boolean(isTopicQueuedUpForDeletion(ctx, theTopic(call)));
    case ContextQuery::IsTopicDeletionInProgress: return boolean(isTopicDeletionInProgress(ctx, theTopic(call)));
    case ContextQuery::IsTopicEligibleForDeletion: return boolean(isTopicEligibleForDeletion(ctx, theTopic(call)));
  }
  KCSPEC_ASSERT(false);
  return {};
}

}  // namespace kcspec::spec
