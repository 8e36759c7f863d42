#include "spec/rules/topic_events.hpp"

#include "spec/rules/controller_context.hpp"
#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

AllReplicaList replicasOf(const Context& ctx, PartitionSet partitions) {
  AllReplicaList replicas;
  partitions.forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) replicas.push_back({tp, r});
  });
  return replicas;
}

// §5.10.3 onNewPartitionCreation.
void onNewPartitionCreation(Controller& ctl, PartitionSet partitions) {
  handleStateChanges(ctl, partitions, PartitionState::NewPartition);
  handleStateChanges(ctl, replicasOf(ctl.context(), partitions), ReplicaState::NewReplica);
  handleStateChanges(ctl, partitions, PartitionState::OnlinePartition,
                     ElectionStrategy{ElectionStrategyKind::OfflinePartition, false});
  handleStateChanges(ctl, replicasOf(ctl.context(), partitions), ReplicaState::OnlineReplica);
}

}  // namespace

void processTopicIds(Controller& ctl, TopicSet topics) {
  const bool uses_topic_id = ctl.interBrokerProtocolVersion() >= MetadataVersion::IBP_2_8_IV0;
  topics.forEach([&](TopicIndex t) {
    TopicId id = ctl.zk().topics[static_cast<std::size_t>(t)].topic_id;
    if (id == kNoTopicId && uses_topic_id) id = setTopicId(ctl, t);
    if (id != kNoTopicId) ctl.context().topic_ids[static_cast<std::size_t>(t)] = id;  // addTopicId
  });
}

void processTopicChange(Controller& ctl) {
  if (!ctl.module().active) return;
  Context& ctx = ctl.context();
  TopicSet topics;
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    if (ctl.zk().topics[static_cast<std::size_t>(t)].exists) topics.insert(t);
  }
  const TopicSet added = topics - ctx.all_topics;
  const TopicSet deleted = ctx.all_topics - topics;
  ctx.all_topics = topics;
  deleted.forEach([&](TopicIndex t) { removeTopic(ctx, t); });
  processTopicIds(ctl, added);
  PartitionSet new_partitions;
  added.forEach([&](TopicIndex t) {
    const TopicZnodes& topic = ctl.zk().topics[static_cast<std::size_t>(t)];
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      if (!topic.lists(p)) continue;
      partition(ctx, TopicPartition{t, p}).assignment = topic.partitions[static_cast<std::size_t>(p)];
      new_partitions.insert(TopicPartition{t, p});
    }
  });
  if (!new_partitions.empty()) onNewPartitionCreation(ctl, new_partitions);
}

void processPartitionModifications(Controller& ctl, TopicIndex topic) {
  if (!ctl.module().active) return;
  Context& ctx = ctl.context();
  const TopicZnodes& znodes = ctl.zk().topics[static_cast<std::size_t>(topic)];
  if (!znodes.exists || !ctx.all_topics.contains(topic)) return;
  PartitionSet added;
  for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
    if (znodes.lists(p) && !partition(ctx, TopicPartition{topic, p}).assignment) added.insert(TopicPartition{topic, p});
  }
  if (isTopicQueuedUpForDeletion(ctl, topic)) {
    // "Skipping adding partitions … since it is currently being deleted", then
    // restorePartitionReplicaAssignment: the topic znode is rewritten with those of its partitions
    // that have a /brokers/topics/<t>/partitions/<p> znode, each with the context's assignment.
    // A partition that never had a leader (no replica was live when it was created) has none and
    // is left out with the added ones, so the partition ids written can have gaps.
    if (!added.empty()) {
      PartitionAssignments existing;
      for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
        const TopicPartition tp{topic, p};
        if (znodes.lists(p) && partitionZnodeExists(ctl.zk(), tp)) {
          existing[static_cast<std::size_t>(p)] = partitionFullReplicaAssignment(ctx, tp);
        }
      }
      setTopicAssignment(ctl, topic, existing);
    }
    return;
  }
  if (added.empty()) return;
  added.forEach([&](TopicPartition tp) {
    partition(ctx, tp).assignment = znodes.partitions[static_cast<std::size_t>(tp.partition)];
  });
  onNewPartitionCreation(ctl, added);
}

void processTopicDeletion(Controller& ctl) {
  if (!ctl.module().active) return;
  Context& ctx = ctl.context();
  TopicSet topics = ctl.zk().delete_topics;
  const TopicSet non_existent = topics - ctx.all_topics;
  if (!non_existent.empty()) deleteTopicDeletions(ctl, non_existent);  // "Ignoring request to delete non-existing topics"
  topics = topics - non_existent;
  if (!ctl.config.delete_topic_enable) {
    deleteTopicDeletions(ctl, topics);  // "Removing … since delete topic is disabled"
    return;
  }
  if (topics.empty()) return;
  TopicSet reassigning;
  ctx.partitions_being_reassigned.forEach([&](TopicPartition tp) { reassigning.insert(tp.topic); });
  // As in Kafka 3.8, the mark comes before the topic is queued, and marking only applies to
  // queued topics: for a newly requested topic it does nothing (kafka.md §4.1, §4.2; docs/spec/rules.md "Deliberate deviations").
  markTopicIneligibleForDeletion(ctl, topics & reassigning);
  enqueueTopicsForDeletion(ctl, topics);
}

void processTopicDeletionStopReplicaResponseReceived(Controller& ctl, BrokerId broker, PartitionSet partitions,
                                                     PartitionSet partition_errors) {
  if (!ctl.module().active) return;
  AllReplicaList failed, succeeded;
  partitions.forEach([&](TopicPartition tp) {
    (partition_errors.contains(tp) ? failed : succeeded).push_back({tp, broker});
  });
  failReplicaDeletion(ctl, failed);
  if (!succeeded.empty()) completeReplicaDeletion(ctl, succeeded);
}

void processTopicUncleanLeaderElectionEnable(Controller& ctl, TopicIndex topic) {
  if (!ctl.module().active) return;
  triggerOnlinePartitionStateChange(ctl, topic);
}

}  // namespace kcspec::spec
