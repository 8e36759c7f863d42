#include "spec/rules/topic_deletion_manager.hpp"

#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

bool deletionEnabled(Controller& ctl) { return ctl.config.delete_topic_enable; }

AllReplicaList toAll(const ReplicaList& replicas) {
  AllReplicaList all;
  for (const PartitionAndReplica& r : replicas) all.push_back(r);
  return all;
}

// The TDM's private notion of "in progress": some replica is ReplicaDeletionStarted.
bool isTopicDeletionInProgress(Controller& ctl, TopicIndex topic) {
  return isAnyReplicaInState(ctl.context(), topic, ReplicaState::ReplicaDeletionStarted);
}

bool isTopicEligibleForDeletion(Controller& ctl, TopicIndex topic) {
  const Context& ctx = ctl.context();
  return ctx.topics_to_be_deleted.contains(topic) && !isTopicDeletionInProgress(ctl, topic) &&
         !ctx.topics_ineligible_for_deletion.contains(topic);
}

void retryDeletionForIneligibleReplicas(Controller& ctl, TopicSet topics) {
  AllReplicaList ineligible;
  topics.forEach([&](TopicIndex topic) {
    for (const auto& r : replicasInState(ctl.context(), topic, ReplicaState::ReplicaDeletionIneligible)) {
      ineligible.push_back(r);
    }
  });
  handleStateChanges(ctl, ineligible, ReplicaState::OfflineReplica);
}

void completeDeleteTopic(Controller& ctl, TopicIndex topic) {
  // mutePartitionModifications: nothing to model (no event is pending for a muted watch).
  handleStateChanges(ctl, toAll(replicasInState(ctl.context(), topic, ReplicaState::ReplicaDeletionSuccessful)),
                     ReplicaState::NonExistentReplica);
  deleteTopic(ctl, topic);
  removeTopic(ctl.context(), topic);
}

void onPartitionDeletion(Controller& ctl, TopicSet topics) {
  AllReplicaList dead, retry;
  TopicSet ineligible_topics;
  topics.forEach([&](TopicIndex topic) {
    const Context& ctx = ctl.context();
    bool any_dead = false;
    for (const PartitionAndReplica& r : replicasForTopic(ctx, topic)) {
      if (!isReplicaOnline(ctx, r.replica, r.tp)) {
        dead.push_back(r);
        any_dead = true;
      } else if (replicaState(ctx, r.tp, r.replica) != ReplicaState::ReplicaDeletionSuccessful) {
        retry.push_back(r);
      }
    }
    if (any_dead) ineligible_topics.insert(topic);
  });
  handleStateChanges(ctl, dead, ReplicaState::ReplicaDeletionIneligible);
  handleStateChanges(ctl, retry, ReplicaState::OfflineReplica);
  handleStateChanges(ctl, retry, ReplicaState::ReplicaDeletionStarted);
  if (!ineligible_topics.empty()) markTopicIneligibleForDeletion(ctl, ineligible_topics);
}

void onTopicDeletion(Controller& ctl, TopicSet topics) {
  Context& ctx = ctl.context();
  const TopicSet unseen = topics - ctx.topics_with_deletion_started;
  if (!unseen.empty()) {
    PartitionSet partitions;
    unseen.forEach([&](TopicIndex topic) { partitions = partitions | partitionsForTopic(ctx, topic); });
    handleStateChanges(ctl, partitions, PartitionState::OfflinePartition);
    handleStateChanges(ctl, partitions, PartitionState::NonExistentPartition);
    ctl.context().topics_with_deletion_started = ctl.context().topics_with_deletion_started | unseen;
  }
  PartitionSet all_partitions;  // sendMetadataUpdate: leader −2 for every partition of the topics
  topics.forEach([&](TopicIndex topic) { all_partitions = all_partitions | partitionsForTopic(ctl.context(), topic); });
  RequestBatch batch;
  addUpdateMetadataRequestForBrokers(ctl, batch, liveOrShuttingDownBrokerIds(ctl.context()), all_partitions);
  sendRequestsToBrokers(ctl, batch);
  onPartitionDeletion(ctl, topics);
}

// resumeDeletions (§4.1): the central loop.
void resumeDeletions(Controller& ctl) {
  const TopicSet queued = ctl.context().topics_to_be_deleted;
  TopicSet retry, start;
  queued.forEach([&](TopicIndex topic) {
    if (areAllReplicasInState(ctl.context(), topic, ReplicaState::ReplicaDeletionSuccessful)) {
      completeDeleteTopic(ctl, topic);  // "Deletion of topic t successfully completed"
    } else if (!isAnyReplicaInState(ctl.context(), topic, ReplicaState::ReplicaDeletionStarted) &&
               isAnyReplicaInState(ctl.context(), topic, ReplicaState::ReplicaDeletionIneligible)) {
      retry.insert(topic);
    }
    if (isTopicEligibleForDeletion(ctl, topic)) start.insert(topic);  // "Deletion of topic t (re)started"
  });
  if (!retry.empty()) retryDeletionForIneligibleReplicas(ctl, retry);
  if (!start.empty()) onTopicDeletion(ctl, start);
}

}  // namespace

bool isTopicQueuedUpForDeletion(Controller& ctl, TopicIndex topic) {
  return deletionEnabled(ctl) && ctl.context().topics_to_be_deleted.contains(topic);
}

void topicDeletionManagerInit(Controller& ctl, TopicSet initial_to_delete, TopicSet initial_ineligible) {
  if (!deletionEnabled(ctl)) {
    deleteTopicDeletions(ctl, initial_to_delete);  // "Removing … since delete topic is disabled"
    return;
  }
  Context& ctx = ctl.context();
  ctx.topics_to_be_deleted = ctx.topics_to_be_deleted | initial_to_delete;
  ctx.topics_ineligible_for_deletion =
      ctx.topics_ineligible_for_deletion | (initial_ineligible & ctx.topics_to_be_deleted);
}

void tryTopicDeletion(Controller& ctl) {
  if (deletionEnabled(ctl)) resumeDeletions(ctl);
}

void enqueueTopicsForDeletion(Controller& ctl, TopicSet topics) {
  if (!deletionEnabled(ctl)) return;
  ctl.context().topics_to_be_deleted = ctl.context().topics_to_be_deleted | topics;
  resumeDeletions(ctl);
}

void resumeDeletionForTopics(Controller& ctl, TopicSet topics) {
  if (!deletionEnabled(ctl)) return;
  const TopicSet queued = topics & ctl.context().topics_to_be_deleted;
  if (queued.empty()) return;
  ctl.context().topics_ineligible_for_deletion = ctl.context().topics_ineligible_for_deletion - queued;
  resumeDeletions(ctl);
}

void failReplicaDeletion(Controller& ctl, const AllReplicaList& replicas) {
  if (!deletionEnabled(ctl)) return;
  AllReplicaList of_queued;
  TopicSet topics;
  for (const PartitionAndReplica& r : replicas) {
    if (ctl.context().topics_to_be_deleted.contains(r.tp.topic)) {
      of_queued.push_back(r);
      topics.insert(r.tp.topic);
    }
  }
  if (of_queued.empty()) return;  // "Deletion failed for replicas …. Halting deletion for topics …"
  handleStateChanges(ctl, of_queued, ReplicaState::ReplicaDeletionIneligible);
  markTopicIneligibleForDeletion(ctl, topics);
  resumeDeletions(ctl);
}

void completeReplicaDeletion(Controller& ctl, const AllReplicaList& replicas) {
  AllReplicaList of_queued;
  for (const PartitionAndReplica& r : replicas) {
    if (ctl.context().topics_to_be_deleted.contains(r.tp.topic)) of_queued.push_back(r);
  }
  handleStateChanges(ctl, of_queued, ReplicaState::ReplicaDeletionSuccessful);
  resumeDeletions(ctl);
}

void markTopicIneligibleForDeletion(Controller& ctl, TopicSet topics) {
  if (!deletionEnabled(ctl)) return;
  Context& ctx = ctl.context();
  ctx.topics_ineligible_for_deletion = ctx.topics_ineligible_for_deletion | (ctx.topics_to_be_deleted & topics);
}

}  // namespace kcspec::spec
