// KafkaController: topic creation and partition expansion (kafka.md §5.10).
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processTopicChange() {
  if (!isActive()) return;
  const TopicSet topics = services_.zk.getAllTopicsInCluster();
  const TopicSet new_topics = topics - context_.allTopics;
  const TopicSet deleted_topics = context_.allTopics - topics;
  context_.setAllTopics(topics);
  registerPartitionModificationsHandlers(new_topics);
  std::vector<std::pair<TopicIndex, zk::TopicAssignment>> added;
  new_topics.forEach([&](TopicIndex t) {
    if (auto assignment = services_.zk.getFullReplicaAssignmentForTopic(t)) added.emplace_back(t, *assignment);
  });
  deleted_topics.forEach([&](TopicIndex t) { context_.removeTopic(t, services_.mutants); });
  processTopicIds(new_topics);
  PartitionSet new_partitions;
  for (const auto& [t, assignment] : added) {
    for (const auto& [p, a] : assignment) {
      context_.updatePartitionFullReplicaAssignment(TopicPartition{t, p}, a);
      new_partitions.insert(TopicPartition{t, p});
    }
  }
  // INFO "New topics: [<set>], deleted topics: [<set>], new partition replica assignment [<…>]"
  if (!added.empty()) onNewPartitionCreation(new_partitions);
}

void KafkaController::processPartitionModifications(TopicIndex topic) {
  if (!isActive()) return;
  const std::optional<zk::TopicAssignment> assignment = services_.zk.getFullReplicaAssignmentForTopic(topic);
  if (!assignment) return;
  std::vector<std::pair<TopicPartition, ReplicaAssignment>> to_add;
  for (const auto& [p, a] : *assignment) {
    const TopicPartition tp{topic, p};
    if (context_.partitionReplicaAssignment(tp).empty()) to_add.emplace_back(tp, a);
  }
  if (tdm_.isTopicQueuedUpForDeletion(topic)) {
    if (to_add.empty()) return;  // INFO "Ignoring partition change during topic deletion as no new partitions are added"
    // WARN "Skipping adding partitions … since it is currently being deleted"
    // INFO "Restoring the partition replica assignment for topic <t>": only the partitions whose
    // /brokers/topics/<t>/partitions/<p> exists, with the context's assignment.
    zk::TopicAssignment restored;
    for (int p : services_.zk.getTopicPartitionChildren(topic)) {
      if (assignment->contains(p)) restored.emplace(p, context_.partitionFullReplicaAssignment(TopicPartition{topic, p}));
    }
    services_.zk.setTopicAssignment(topic, context_.topicIdOf(topic), restored, context_.epochZkVersion);
    return;
  }
  if (to_add.empty()) return;
  // INFO "New partitions to be added <map>"
  PartitionSet added;
  for (const auto& [tp, a] : to_add) {
    context_.updatePartitionFullReplicaAssignment(tp, a);
    added.insert(tp);
  }
  onNewPartitionCreation(added);
}

void KafkaController::onNewPartitionCreation(PartitionSet newPartitions) {
  // INFO "New partition creation callback for <tp1,tp2>"
  const std::vector<TopicPartition> partitions = toVector(newPartitions);
  psm_.handleStateChanges(partitions, PartitionState::NewPartition);
  rsm_.handleStateChanges(context_.replicasForPartition(newPartitions), ReplicaState::NewReplica);
  psm_.handleStateChanges(partitions, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::offline(false));
  rsm_.handleStateChanges(context_.replicasForPartition(newPartitions), ReplicaState::OnlineReplica);
}

}  // namespace kcspec::impl
