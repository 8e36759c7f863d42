// TopicDeletionManager (kafka.md §4): queues topics for deletion, walks their replicas through
// OfflineReplica → ReplicaDeletionStarted → ReplicaDeletionSuccessful, halts a topic while a
// replica cannot be deleted, and removes the topic once every replica is gone.
#pragma once

#include "spec/rules/controller.hpp"
#include "spec/rules/controller_context.hpp"

namespace kcspec::spec {

// init (§4.1): at failover, queue what /admin/delete_topics holds (or remove it when disabled).
void topicDeletionManagerInit(Controller& ctl, TopicSet initial_to_delete, TopicSet initial_ineligible);

// tryTopicDeletion: at the end of failover.
void tryTopicDeletion(Controller& ctl);

// enqueueTopicsForDeletion: the TopicDeletion event.
void enqueueTopicsForDeletion(Controller& ctl, TopicSet topics);

// resumeDeletionForTopics: broker startup, reassignment completion.
void resumeDeletionForTopics(Controller& ctl, TopicSet topics);

// failReplicaDeletion: broker failure, StopReplica errors.
void failReplicaDeletion(Controller& ctl, const AllReplicaList& replicas);

// completeReplicaDeletion: StopReplica(delete=true) answered without error.
void completeReplicaDeletion(Controller& ctl, const AllReplicaList& replicas);

void markTopicIneligibleForDeletion(Controller& ctl, TopicSet topics);

// The public isTopicQueuedUpForDeletion: false whenever delete.topic.enable is false.
bool isTopicQueuedUpForDeletion(Controller& ctl, TopicIndex topic);

}  // namespace kcspec::spec
