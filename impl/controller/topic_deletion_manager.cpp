// TopicDeletionManager (topic_deletion_manager.hpp; kafka.md §4.1).
#include "impl/controller/topic_deletion_manager.hpp"

#include <algorithm>

namespace kcspec::impl {

namespace {
TopicSet topicsOf(const std::vector<PartitionAndReplica>& replicas) {
  TopicSet out;
  for (const PartitionAndReplica& r : replicas) out.insert(r.tp.topic);
  return out;
}
}  // namespace

void TopicDeletionManager::init(TopicSet initialTopicsToBeDeleted, TopicSet initialTopicsIneligibleForDeletion) {
  // INFO (controller log) "Initializing manager with initial deletions: …, initial ineligible deletions: …"
  if (services_.isDeleteTopicEnabled() || services_.mutant(Mutant::M3)) {
    // Mutant M3 (KAFKA-3175): queues them although deletion is disabled.
    context_.queueTopicDeletion(initialTopicsToBeDeleted);
    context_.topicsIneligibleForDeletion =
        context_.topicsIneligibleForDeletion | (initialTopicsIneligibleForDeletion & context_.topicsToBeDeleted);
  } else {
    // INFO "Removing … since delete topic is disabled"
    client_.deleteTopicDeletions(initialTopicsToBeDeleted, context_.epochZkVersion);
  }
}

void TopicDeletionManager::tryTopicDeletion() {
  if (services_.isDeleteTopicEnabled()) resumeDeletions();
}

void TopicDeletionManager::enqueueTopicsForDeletion(TopicSet topics) {
  if (!services_.isDeleteTopicEnabled()) return;
  if (services_.mutant(Mutant::M6)) {
    // Mutant M6 (KAFKA-8237): partitions of newly queued topics go to NonExistentPartition at once,
    // before deletion has started (and even while the topic is ineligible).
    const std::vector<TopicPartition> partitions = toVector([&] {
      PartitionSet out;
      (topics - context_.topicsToBeDeleted).forEach([&](TopicIndex t) { out = out | context_.partitionsForTopic(t); });
      return out;
    }());
    psm_.handleStateChanges(partitions, PartitionState::OfflinePartition);
    psm_.handleStateChanges(partitions, PartitionState::NonExistentPartition);
  }
  context_.queueTopicDeletion(topics);
  resumeDeletions();
}

void TopicDeletionManager::resumeDeletionForTopics(TopicSet topics) {
  if (!services_.isDeleteTopicEnabled()) return;
  const TopicSet queued = topics & context_.topicsToBeDeleted;
  if (queued.empty()) return;
  context_.topicsIneligibleForDeletion = context_.topicsIneligibleForDeletion - queued;
  resumeDeletions();
}

void TopicDeletionManager::failReplicaDeletion(const std::vector<PartitionAndReplica>& replicas) {
  if (!services_.isDeleteTopicEnabled()) return;
  std::vector<PartitionAndReplica> failed;
  for (const PartitionAndReplica& r : replicas) {
    if (isTopicQueuedUpForDeletion(r.tp.topic)) failed.push_back(r);
  }
  if (failed.empty()) return;
  // DEBUG "Deletion failed for replicas …. Halting deletion for topics …"
  rsm_.handleStateChanges(failed, ReplicaState::ReplicaDeletionIneligible);
  markTopicIneligibleForDeletion(topicsOf(failed), "replica deletion failure");
  resumeDeletions();
}

void TopicDeletionManager::markTopicIneligibleForDeletion(TopicSet topics, std::string_view) {
  if (!services_.isDeleteTopicEnabled()) return;
  const TopicSet newly = context_.topicsToBeDeleted & topics;
  context_.topicsIneligibleForDeletion = context_.topicsIneligibleForDeletion | newly;
  // INFO (controller log) "Halted deletion of topics <…> due to <reason>" when `newly` is non-empty
}

bool TopicDeletionManager::isTopicQueuedUpForDeletion(TopicIndex topic) const {
  return services_.isDeleteTopicEnabled() ? context_.topicsToBeDeleted.contains(topic) : false;
}

bool TopicDeletionManager::isTopicDeletionInProgress(TopicIndex topic) const {
  return context_.isAnyReplicaInState(topic, ReplicaState::ReplicaDeletionStarted);
}

bool TopicDeletionManager::isTopicEligibleForDeletion(TopicIndex topic) const {
  const bool ineligible = !services_.isDeleteTopicEnabled() || context_.topicsIneligibleForDeletion.contains(topic);
  return context_.topicsToBeDeleted.contains(topic) && !isTopicDeletionInProgress(topic) && !ineligible;
}

void TopicDeletionManager::completeReplicaDeletion(const std::vector<PartitionAndReplica>& replicas) {
  std::vector<PartitionAndReplica> successful;
  for (const PartitionAndReplica& r : replicas) {
    if (isTopicQueuedUpForDeletion(r.tp.topic)) successful.push_back(r);
  }
  // DEBUG "Deletion successfully completed for replicas …"
  rsm_.handleStateChanges(successful, ReplicaState::ReplicaDeletionSuccessful);
  if (!services_.mutant(Mutant::M10)) resumeDeletions();  // M10: the resume is missing
}

void TopicDeletionManager::retryDeletionForIneligibleReplicas(TopicSet topics) {
  std::vector<PartitionAndReplica> failed;
  topics.forEach([&](TopicIndex t) {
    for (const PartitionAndReplica& r : context_.replicasInState(t, ReplicaState::ReplicaDeletionIneligible)) failed.push_back(r);
  });
  // DEBUG "Retrying deletion of topics … since replicas … were not successfully deleted"
  rsm_.handleStateChanges(failed, ReplicaState::OfflineReplica);
}

void TopicDeletionManager::completeDeleteTopic(TopicIndex topic) {
  // mutePartitionModifications: a re-created topic of the same name is seen via TopicChange first.
  client_.mutePartitionModifications(topic);
  rsm_.handleStateChanges(context_.replicasInState(topic, ReplicaState::ReplicaDeletionSuccessful),
                          ReplicaState::NonExistentReplica);
  client_.deleteTopic(topic, context_.epochZkVersion);
  context_.removeTopic(topic, services_.mutants);
}

void TopicDeletionManager::onTopicDeletion(TopicSet topics) {
  const TopicSet unseen = topics - context_.topicsWithDeletionStarted;
  if (!unseen.empty()) {
    PartitionSet partitions;
    unseen.forEach([&](TopicIndex t) { partitions = partitions | context_.partitionsForTopic(t); });
    psm_.handleStateChanges(toVector(partitions), PartitionState::OfflinePartition);
    psm_.handleStateChanges(toVector(partitions), PartitionState::NonExistentPartition);
    context_.beginTopicDeletion(unseen);
  }
  PartitionSet all;
  topics.forEach([&](TopicIndex t) { all = all | context_.partitionsForTopic(t); });
  client_.sendMetadataUpdate(all);
  onPartitionDeletion(topics);
}

void TopicDeletionManager::onPartitionDeletion(TopicSet topics) {
  std::vector<PartitionAndReplica> dead, retry;
  TopicSet ineligible;
  topics.forEach([&](TopicIndex t) {
    const std::vector<PartitionAndReplica> successful = context_.replicasInState(t, ReplicaState::ReplicaDeletionSuccessful);
    for (const PartitionAndReplica& r : context_.replicasForTopic(t)) {
      if (!context_.isReplicaOnline(r.replica, r.tp)) {
        dead.push_back(r);
        ineligible.insert(t);  // DEBUG "Dead Replicas (…) found for topic <t>"
      } else if (std::find(successful.begin(), successful.end(), r) == successful.end()) {
        retry.push_back(r);
      }
    }
  });
  rsm_.handleStateChanges(dead, ReplicaState::ReplicaDeletionIneligible);
  rsm_.handleStateChanges(retry, ReplicaState::OfflineReplica);
  rsm_.handleStateChanges(retry, ReplicaState::ReplicaDeletionStarted);
  if (!ineligible.empty()) markTopicIneligibleForDeletion(ineligible, "offline replicas");
}

void TopicDeletionManager::resumeDeletions() {
  const TopicSet queued = context_.topicsToBeDeleted;
  // INFO (controller log) "Handling deletion for topics <…>"
  TopicSet retry, start;
  queued.forEach([&](TopicIndex t) {
    if (context_.areAllReplicasInState(t, ReplicaState::ReplicaDeletionSuccessful)) {
      completeDeleteTopic(t);  // INFO "Deletion of topic <t> successfully completed"
    } else if (!context_.isAnyReplicaInState(t, ReplicaState::ReplicaDeletionStarted) &&
               context_.isAnyReplicaInState(t, ReplicaState::ReplicaDeletionIneligible)) {
      retry.insert(t);
    }
    if (isTopicEligibleForDeletion(t)) start.insert(t);  // INFO "Deletion of topic <t> (re)started"
  });
  if (!retry.empty()) retryDeletionForIneligibleReplicas(retry);
  if (!start.empty()) onTopicDeletion(start);
}

}  // namespace kcspec::impl
