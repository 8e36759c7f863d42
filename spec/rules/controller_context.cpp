#include "spec/rules/controller_context.hpp"

#include <algorithm>

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

BrokerSet liveOrShuttingDownBrokerIds(const Context& ctx) {
  BrokerSet registered;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (ctx.live_broker_epochs[static_cast<std::size_t>(b)] >= 0) registered.insert(b);
  }
  return registered;
}

BrokerSet liveBrokerIds(const Context& ctx) {
  return liveOrShuttingDownBrokerIds(ctx) - ctx.shutting_down_broker_ids;
}

bool isReplicaOnline(const Context& ctx, BrokerId broker, TopicPartition tp, bool include_shutting_down) {
  return brokersOnlineFor(ctx, tp, include_shutting_down).contains(broker);
}

BrokerSet brokersOnlineFor(const Context& ctx, TopicPartition tp, bool include_shutting_down) {
  BrokerSet up = include_shutting_down ? liveOrShuttingDownBrokerIds(ctx) : liveBrokerIds(ctx);
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (ctx.replicas_on_offline_dirs[static_cast<std::size_t>(b)].contains(tp)) up.erase(b);
  }
  return up;
}

PartitionContext& partition(Context& ctx, TopicPartition tp) {
  return ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))];
}

const PartitionContext& partition(const Context& ctx, TopicPartition tp) {
  return ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))];
}

BrokerList partitionReplicaAssignment(const Context& ctx, TopicPartition tp) {
  const auto& assignment = partition(ctx, tp).assignment;
  return assignment ? assignment->replicas : BrokerList{};
}

ReplicaAssignment partitionFullReplicaAssignment(const Context& ctx, TopicPartition tp) {
  return partition(ctx, tp).assignment.value_or(ReplicaAssignment{});
}

PartitionSet allPartitions(const Context& ctx) {
  PartitionSet all;
  for (int i = 0; i < kMaxPartitions; ++i) {
    if (ctx.partitions[static_cast<std::size_t>(i)].assignment) all.insert(partitionAt(i));
  }
  return all;
}

PartitionSet partitionsForTopic(const Context& ctx, TopicIndex topic) {
  PartitionSet of_topic;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    if (tp.topic == topic) of_topic.insert(tp);
  });
  return of_topic;
}

PartitionSet partitionsOnBroker(const Context& ctx, BrokerId broker) {
  PartitionSet on_broker;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    if (partitionReplicaAssignment(ctx, tp).contains(broker)) on_broker.insert(tp);
  });
  return on_broker;
}

bool isTopicQueuedUpForDeletion(const Context& ctx, TopicIndex topic) {
  return ctx.topics_to_be_deleted.contains(topic);
}

bool isTopicDeletionInProgress(const Context& ctx, TopicIndex topic) {
  return ctx.topics_with_deletion_started.contains(topic);
}

bool isTopicEligibleForDeletion(const Context& ctx, TopicIndex topic) {
  return ctx.topics_to_be_deleted.contains(topic) && !ctx.topics_ineligible_for_deletion.contains(topic);
}

std::int32_t leaderEpoch(const Context& ctx, TopicPartition tp) {
  if (isTopicQueuedUpForDeletion(ctx, tp.topic)) return LeaderAndIsr::kEpochDuringDelete;
  const auto& leadership = partition(ctx, tp).leadership;
  return leadership ? leadership->leader_and_isr.leader_epoch : LeaderAndIsr::kNoEpoch;
}

PartitionSet partitionsWithOfflineLeader(const Context& ctx) {
  PartitionSet offline;
  for (int i = 0; i < kMaxPartitions; ++i) {
    const TopicPartition tp = partitionAt(i);
    const auto& leadership = partition(ctx, tp).leadership;
    if (leadership && !isReplicaOnline(ctx, leadership->leader_and_isr.leader, tp) &&
        !isTopicQueuedUpForDeletion(ctx, tp.topic)) {
      offline.insert(tp);
    }
  }
  return offline;
}

PartitionSet partitionsWithLeaders(const Context& ctx) {
  PartitionSet led;
  for (int i = 0; i < kMaxPartitions; ++i) {
    const TopicPartition tp = partitionAt(i);
    if (partition(ctx, tp).leadership && !isTopicQueuedUpForDeletion(ctx, tp.topic)) led.insert(tp);
  }
  return led;
}

PartitionSet partitionLeadersOnBroker(const Context& ctx, BrokerId broker) {
  PartitionSet led;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    const auto& leadership = partition(ctx, tp).leadership;
    if (leadership && leadership->leader_and_isr.leader == broker &&
        !isTopicQueuedUpForDeletion(ctx, tp.topic) && partitionReplicaAssignment(ctx, tp).size() > 1) {
      led.insert(tp);
    }
  });
  return led;
}

PartitionSet partitionsInStates(const Context& ctx, std::span<const PartitionState> states) {
  PartitionSet in_states;
  for (int i = 0; i < kMaxPartitions; ++i) {
    const auto& state = ctx.partitions[static_cast<std::size_t>(i)].state;
    if (state && std::ranges::find(states, *state) != states.end()) in_states.insert(partitionAt(i));
  }
  return in_states;
}

PartitionSet partitionsInStates(const Context& ctx, std::initializer_list<PartitionState> states) {
  return partitionsInStates(ctx, std::span(states.begin(), states.size()));
}

PartitionSet partitionsInStates(const Context& ctx, TopicIndex topic, std::span<const PartitionState> states) {
  PartitionSet in_states;
  partitionsForTopic(ctx, topic).forEach([&](TopicPartition tp) {
    const auto& state = partition(ctx, tp).state;
    if (!state) throw KafkaException{"NoSuchElementException: key not found in partitionStates"};
    if (std::ranges::find(states, *state) != states.end()) in_states.insert(tp);
  });
  return in_states;
}

int partitionWithLeadersCount(const Context& ctx) {
  return static_cast<int>(std::ranges::count_if(ctx.partitions, [](const PartitionContext& p) {
    return p.leadership.has_value();
  }));
}

std::optional<ReplicaState> replicaState(const Context& ctx, TopicPartition tp, BrokerId replica) {
  return partition(ctx, tp).replica_states[static_cast<std::size_t>(replica)];
}

ReplicaList replicasForTopic(const Context& ctx, TopicIndex topic) {
  ReplicaList replicas;
  partitionsForTopic(ctx, topic).forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) replicas.push_back({tp, r});
  });
  return replicas;
}

ReplicaList replicasInState(const Context& ctx, TopicIndex topic, ReplicaState state) {
  ReplicaList in_state;
  for (const PartitionAndReplica& r : replicasForTopic(ctx, topic)) {
    if (replicaState(ctx, r.tp, r.replica) == state) in_state.push_back(r);
  }
  return in_state;
}

bool areAllReplicasInState(const Context& ctx, TopicIndex topic, ReplicaState state) {
  return replicasInState(ctx, topic, state).size() == replicasForTopic(ctx, topic).size();
}

bool isAnyReplicaInState(const Context& ctx, TopicIndex topic, ReplicaState state) {
  return !replicasInState(ctx, topic, state).empty();
}

AllReplicaList replicasOnBrokers(const Context& ctx, BrokerSet brokers) {
  AllReplicaList replicas;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) {
      if (brokers.contains(r)) replicas.push_back({tp, r});
    }
  });
  return replicas;
}

AllReplicaList replicasForPartition(const Context& ctx, PartitionSet partitions) {
  AllReplicaList replicas;
  partitions.forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) replicas.push_back({tp, r});
  });
  return replicas;
}

void putPartitionState(Context& ctx, TopicPartition tp, PartitionState state) {
  auto& entry = partition(ctx, tp).state;
  const PartitionState old = entry.value_or(PartitionState::NonExistentPartition);
  entry = state;
  if (ctx.topics_with_deletion_started.contains(tp.topic)) return;
  if (old != PartitionState::OfflinePartition && state == PartitionState::OfflinePartition) {
    ++ctx.offline_partition_count;
  } else if (old == PartitionState::OfflinePartition && state != PartitionState::OfflinePartition) {
    --ctx.offline_partition_count;
  }
}

void removeTopic(Context& ctx, TopicIndex topic) {
  ctx.topics_to_be_deleted.erase(topic);
  ctx.topics_with_deletion_started.erase(topic);
  ctx.all_topics.erase(topic);
  ctx.topic_ids[static_cast<std::size_t>(topic)] = kNoTopicId;  // and its topicNames entry
  for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
    PartitionContext& entry = partition(ctx, TopicPartition{topic, p});
    entry.assignment.reset();
    entry.leadership.reset();
  }
}

}  // namespace kcspec::spec
