// KafkaController: the TopicDeletion and StopReplica-response events (kafka.md §5.6.2, §5.6.3).
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processTopicDeletion() {
  if (!isActive()) return;
  TopicSet topics = services_.zk.getTopicDeletions();
  // DEBUG "Delete topics listener fired for topics <…> to be deleted"
  const TopicSet non_existent = topics - context_.allTopics;
  if (!non_existent.empty()) {
    // WARN "Ignoring request to delete non-existing topics <…>"
    services_.zk.deleteTopicDeletions(non_existent, context_.epochZkVersion);
  }
  topics = topics - non_existent;
  if (services_.isDeleteTopicEnabled()) {
    if (topics.empty()) return;
    // INFO "Starting topic deletion for topics <…>"
    topics.forEach([&](TopicIndex t) {
      bool reassigning = false;
      context_.partitionsBeingReassigned.forEach([&](TopicPartition tp) { reassigning = reassigning || tp.topic == t; });
      if (reassigning) tdm_.markTopicIneligibleForDeletion(TopicSet{t}, "topic reassignment in progress");
    });
    tdm_.enqueueTopicsForDeletion(topics);
  } else {
    // INFO "Removing <…> since delete topic is disabled"
    services_.zk.deleteTopicDeletions(topics, context_.epochZkVersion);
  }
}

void KafkaController::processTopicDeletionStopReplicaResponseReceived(BrokerId replicaId, PartitionSet partitions,
                                                                       PartitionSet partitionsInError) {
  if (!isActive()) return;
  // DEBUG "Delete topic callback invoked on StopReplica response received from broker <b>: …"
  std::vector<PartitionAndReplica> in_error, deleted;
  partitions.forEach([&](TopicPartition tp) {
    (partitionsInError.contains(tp) ? in_error : deleted).push_back(PartitionAndReplica{tp, replicaId});
  });
  tdm_.failReplicaDeletion(in_error);
  if (!deleted.empty()) tdm_.completeReplicaDeletion(deleted);
}

}  // namespace kcspec::impl
