// ControllerContext (controller_context.hpp).
#include "impl/controller/controller_context.hpp"

#include <algorithm>

#include "impl/errors.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

namespace {
template <class Visit>
void forEachPartition(Visit visit) {
  for (int i = 0; i < kMaxPartitions; ++i) visit(partitionAt(i));
}
}  // namespace

// ------------------------------------------------------------------ brokers

BrokerSet ControllerContext::liveOrShuttingDownBrokerIds() const {
  BrokerSet out;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (live_broker_epochs_[static_cast<std::size_t>(b)] >= 0) out.insert(b);
  }
  return out;
}

std::optional<std::int64_t> ControllerContext::liveBrokerEpoch(BrokerId id) const {
  if (!isBrokerId(id) || live_broker_epochs_[static_cast<std::size_t>(id)] < 0) return std::nullopt;
  return live_broker_epochs_[static_cast<std::size_t>(id)];
}

void ControllerContext::addLiveBroker(BrokerId id, std::int64_t epoch_) {
  KCSPEC_ASSERT(epoch_ >= 0);
  live_broker_epochs_[static_cast<std::size_t>(id)] = epoch_;
}

void ControllerContext::removeLiveBrokers(BrokerSet ids) {
  ids.forEach([&](BrokerId id) { live_broker_epochs_[static_cast<std::size_t>(id)] = -1; });
}

void ControllerContext::setLiveBrokers(const std::array<std::int64_t, kMaxBrokers>& epochs) { live_broker_epochs_ = epochs; }

bool ControllerContext::isReplicaOnline(BrokerId broker, TopicPartition tp, bool includeShuttingDownBrokers) const {
  const bool broker_online =
      includeShuttingDownBrokers ? liveOrShuttingDownBrokerIds().contains(broker) : liveBrokerIds().contains(broker);
  return broker_online && !(isBrokerId(broker) && replicasOnOfflineDirs[static_cast<std::size_t>(broker)].contains(tp));
}

// ------------------------------------------------------------------ assignments

BrokerList ControllerContext::partitionReplicaAssignment(TopicPartition tp) const {
  const auto& a = entry(tp).assignment;
  return a ? a->replicas : BrokerList{};
}

ReplicaAssignment ControllerContext::partitionFullReplicaAssignment(TopicPartition tp) const {
  const auto& a = entry(tp).assignment;
  return a ? *a : ReplicaAssignment{};
}

void ControllerContext::updatePartitionFullReplicaAssignment(TopicPartition tp, const ReplicaAssignment& assignment) {
  entry(tp).assignment = assignment;
}

PartitionSet ControllerContext::allPartitions() const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    if (entry(tp).assignment) out.insert(tp);
  });
  return out;
}

PartitionSet ControllerContext::partitionsForTopic(TopicIndex topic) const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    if (tp.topic == topic && entry(tp).assignment) out.insert(tp);
  });
  return out;
}

PartitionSet ControllerContext::partitionsOnBroker(BrokerId broker) const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    if (entry(tp).assignment && entry(tp).assignment->replicas.contains(broker)) out.insert(tp);
  });
  return out;
}

std::vector<PartitionAndReplica> ControllerContext::replicasForPartition(PartitionSet partitions) const {
  std::vector<PartitionAndReplica> out;
  partitions.forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(tp)) out.push_back(PartitionAndReplica{tp, r});
  });
  return out;
}

std::vector<PartitionAndReplica> ControllerContext::replicasForTopic(TopicIndex topic) const {
  return replicasForPartition(partitionsForTopic(topic));
}

std::vector<PartitionAndReplica> ControllerContext::replicasOnBrokers(BrokerSet brokers) const {
  std::vector<PartitionAndReplica> out;
  for (const PartitionAndReplica& r : replicasForPartition(allPartitions())) {
    if (brokers.contains(r.replica)) out.push_back(r);
  }
  return out;
}

// ------------------------------------------------------------------ leadership

void ControllerContext::putPartitionLeadershipInfo(TopicPartition tp, const LeaderIsrAndControllerEpoch& leadership) {
  entry(tp).leadership = leadership;
}

std::int32_t ControllerContext::leaderEpoch(TopicPartition tp) const {
  if (isTopicQueuedUpForDeletion(tp.topic)) return LeaderAndIsr::kEpochDuringDelete;
  const auto& leadership = entry(tp).leadership;
  return leadership ? leadership->leader_and_isr.leader_epoch : LeaderAndIsr::kNoEpoch;
}

PartitionSet ControllerContext::partitionsWithLeaders() const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    if (entry(tp).leadership && !isTopicQueuedUpForDeletion(tp.topic)) out.insert(tp);
  });
  return out;
}

PartitionSet ControllerContext::partitionsWithOfflineLeader() const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    const auto& leadership = entry(tp).leadership;
    if (leadership && !isReplicaOnline(leadership->leader_and_isr.leader, tp) && !isTopicQueuedUpForDeletion(tp.topic)) {
      out.insert(tp);
    }
  });
  return out;
}

PartitionSet ControllerContext::partitionLeadersOnBroker(BrokerId broker) const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    const auto& leadership = entry(tp).leadership;
    if (leadership && leadership->leader_and_isr.leader == broker && !isTopicQueuedUpForDeletion(tp.topic) &&
        partitionReplicaAssignment(tp).size() > 1) {
      out.insert(tp);
    }
  });
  return out;
}

// ------------------------------------------------------------------ partition states

PartitionState ControllerContext::partitionState(TopicPartition tp) const {
  const auto& state = entry(tp).state;
  KCSPEC_ASSERT(state.has_value());  // Kafka's partitionStates(tp): callers insert first
  return state->current();
}

void ControllerContext::putPartitionStateIfNotExists(TopicPartition tp) {
  if (!entry(tp).state) entry(tp).state = PartitionLifecycle{};
}

void ControllerContext::countPartitionStateChange(TopicPartition tp, PartitionState before, PartitionState after) {
  if (isTopicDeletionInProgress(tp.topic)) return;
  if (before != PartitionState::OfflinePartition && after == PartitionState::OfflinePartition) ++offlinePartitionCount;
  if (before == PartitionState::OfflinePartition && after != PartitionState::OfflinePartition) --offlinePartitionCount;
}

bool ControllerContext::transitionPartition(TopicPartition tp, PartitionState target) {
  putPartitionStateIfNotExists(tp);
  const model::MoveOutcome<PartitionState> outcome = entry(tp).state->request(target);
  if (outcome.accepted) countPartitionStateChange(tp, outcome.before, outcome.after);
  return outcome.accepted;
}

void ControllerContext::restorePartitionState(TopicPartition tp, PartitionState state) {
  // Only initializePartitionState calls this, at failover, on a context that is new or that
  // resetContext emptied at the resignation before: the partition has no state yet, and Kafka's
  // putPartitionState counts the change from NonExistentPartition.
  KCSPEC_ASSERT(!entry(tp).state);
  entry(tp).state = PartitionLifecycle::restoredAt(state);
  countPartitionStateChange(tp, PartitionState::NonExistentPartition, state);
}

PartitionSet ControllerContext::partitionsInStates(std::initializer_list<PartitionState> states) const {
  PartitionSet out;
  forEachPartition([&](TopicPartition tp) {
    const auto& state = entry(tp).state;
    if (state && std::find(states.begin(), states.end(), state->current()) != states.end()) out.insert(tp);
  });
  return out;
}

PartitionSet ControllerContext::partitionsInStates(TopicIndex topic, std::initializer_list<PartitionState> states) const {
  PartitionSet out;
  partitionsForTopic(topic).forEach([&](TopicPartition tp) {
    const auto& state = entry(tp).state;
    if (state && std::find(states.begin(), states.end(), state->current()) != states.end()) out.insert(tp);
  });
  return out;
}

// ------------------------------------------------------------------ replica states

bool ControllerContext::hasReplicaState(PartitionAndReplica r) const {
  return entry(r.tp).replicas[static_cast<std::size_t>(r.replica)].has_value();
}

ReplicaState ControllerContext::replicaState(PartitionAndReplica r) const {
  const auto& state = entry(r.tp).replicas[static_cast<std::size_t>(r.replica)];
  KCSPEC_ASSERT(state.has_value());
  return state->current();
}

void ControllerContext::putReplicaStateIfNotExists(PartitionAndReplica r) {
  auto& state = entry(r.tp).replicas[static_cast<std::size_t>(r.replica)];
  if (!state) state = ReplicaLifecycle{};
}

bool ControllerContext::transitionReplica(PartitionAndReplica r, ReplicaState target) {
  putReplicaStateIfNotExists(r);
  return entry(r.tp).replicas[static_cast<std::size_t>(r.replica)]->request(target).accepted;
}

void ControllerContext::restoreReplicaState(PartitionAndReplica r, ReplicaState state) {
  entry(r.tp).replicas[static_cast<std::size_t>(r.replica)] = ReplicaLifecycle::restoredAt(state);
}

void ControllerContext::removeReplicaState(PartitionAndReplica r) {
  entry(r.tp).replicas[static_cast<std::size_t>(r.replica)].reset();
}

std::vector<PartitionAndReplica> ControllerContext::replicasInState(TopicIndex topic, ReplicaState state) const {
  std::vector<PartitionAndReplica> out;
  for (const PartitionAndReplica& r : replicasForTopic(topic)) {
    if (hasReplicaState(r) && replicaState(r) == state) out.push_back(r);
  }
  return out;
}

bool ControllerContext::areAllReplicasInState(TopicIndex topic, ReplicaState state) const {
  for (const PartitionAndReplica& r : replicasForTopic(topic)) {
    if (!hasReplicaState(r) || replicaState(r) != state) return false;
  }
  return true;
}

bool ControllerContext::isAnyReplicaInState(TopicIndex topic, ReplicaState state) const {
  return !replicasInState(topic, state).empty();
}

// ------------------------------------------------------------------ deletion

void ControllerContext::addTopicId(TopicIndex topic, const Uuid& id) {
  if (!allTopics.contains(topic)) throw IllegalStateException("topic is not contained in all topics.");
  const auto known = topicIds.find(topic);
  if (known != topicIds.end() && known->second != id) {
    throw IllegalStateException("topic ID map already contained ID for topic and new ID did not match existing ID");
  }
  const auto named = topicNames.find(id);
  if (named != topicNames.end() && named->second != topic) {
    throw IllegalStateException("topic name map already contained ID and new name did not match existing name");
  }
  topicIds[topic] = id;
  topicNames[id] = topic;
}

void ControllerContext::removeTopic(TopicIndex topic, Mutants mutants) {
  topicsToBeDeleted.erase(topic);
  topicsWithDeletionStarted.erase(topic);
  allTopics.erase(topic);
  if (const auto id = topicIds.find(topic); id != topicIds.end()) {
    topicNames.erase(id->second);
    topicIds.erase(id);
  }
  if (!mutants.has(Mutant::M1)) {
    partitionsForTopic(topic).forEach([&](TopicPartition tp) {
      entry(tp).assignment.reset();
      entry(tp).leadership.reset();
    });
  } else {
    // KAFKA-1742: a "drop while matching" walk over the maps in their hash order (modeled as
    // partition-major), which stops at the first entry of another topic.
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      for (TopicIndex t = 0; t < kMaxTopics; ++t) {
        PartitionEntry& e = entry(TopicPartition{t, p});
        if (!e.assignment) continue;
        if (t != topic) return;
        e.assignment.reset();
        e.leadership.reset();
      }
    }
  }
}

// ------------------------------------------------------------------ observation

void ControllerContext::toObservation(ControllerContextData& out) const {
  out.epoch = epoch;
  out.epoch_zk_version = epochZkVersion;
  out.live_broker_epochs = live_broker_epochs_;
  out.shutting_down_broker_ids = shuttingDownBrokerIds;
  out.all_topics = allTopics;
  for (std::size_t i = 0; i < partitions_.size(); ++i) {
    const PartitionEntry& e = partitions_[i];
    PartitionContext& p = out.partitions[i];
    p.assignment = e.assignment;
    p.leadership = e.leadership;
    if (e.state) p.state = e.state->current();
    for (std::size_t r = 0; r < e.replicas.size(); ++r) {
      if (e.replicas[r]) p.replica_states[r] = e.replicas[r]->current();
    }
  }
  out.partitions_being_reassigned = partitionsBeingReassigned;
  out.topics_to_be_deleted = topicsToBeDeleted;
  out.topics_with_deletion_started = topicsWithDeletionStarted;
  out.topics_ineligible_for_deletion = topicsIneligibleForDeletion;
  out.offline_partition_count = offlinePartitionCount;
  out.replicas_on_offline_dirs = replicasOnOfflineDirs;
  for (const auto& [topic, id] : topicIds) out.topic_ids[static_cast<std::size_t>(topic)] = topicIdNumber(id);
}

}  // namespace kcspec::impl
