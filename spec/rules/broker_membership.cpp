#include "spec/rules/broker_membership.hpp"

#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/topic_deletion_manager.hpp"

namespace kcspec::spec {
namespace {

void addLiveBrokers(Controller& ctl, BrokerSet brokers) {
  brokers.forEach([&](BrokerId b) {
    ctl.context().live_broker_epochs[static_cast<std::size_t>(b)] =
        ctl.zk().brokers[static_cast<std::size_t>(b)].broker_epoch;
  });
}

void removeLiveBrokers(Controller& ctl, BrokerSet brokers) {
  brokers.forEach([&](BrokerId b) { ctl.context().live_broker_epochs[static_cast<std::size_t>(b)] = -1; });
}

}  // namespace

void sendUpdateMetadataRequest(Controller& ctl, BrokerSet brokers, PartitionSet partitions) {
  RequestBatch batch;
  addUpdateMetadataRequestForBrokers(ctl, batch, brokers, partitions);
  sendRequestsToBrokers(ctl, batch);
}

void processBrokerChange(Controller& ctl) {
  const Context& ctx = ctl.context();
  BrokerSet current;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (ctl.zk().brokers[static_cast<std::size_t>(b)].registered) current.insert(b);
  }
  const BrokerSet known = liveOrShuttingDownBrokerIds(ctx);
  const BrokerSet added = current - known;
  const BrokerSet dead = known - current;
  BrokerSet bounced;
  (current & known).forEach([&](BrokerId b) {
    if (ctl.zk().brokers[static_cast<std::size_t>(b)].broker_epoch > ctx.live_broker_epochs[static_cast<std::size_t>(b)]) {
      bounced.insert(b);
    }
  });
  if (!added.empty()) {
    addLiveBrokers(ctl, added);
    onBrokerStartup(ctl, added);
  }
  if (!bounced.empty()) {
    removeLiveBrokers(ctl, bounced);
    onBrokerFailure(ctl, bounced);
    addLiveBrokers(ctl, bounced);
    onBrokerStartup(ctl, bounced);
  }
  if (!dead.empty()) {
    removeLiveBrokers(ctl, dead);
    onBrokerFailure(ctl, dead);
  }
}

void onBrokerStartup(Controller& ctl, BrokerSet new_brokers) {
  sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()) - new_brokers, PartitionSet{});
  sendUpdateMetadataRequest(ctl, new_brokers, partitionsWithLeaders(ctl.context()));
  const AllReplicaList on_new_brokers = replicasOnBrokers(ctl.context(), new_brokers);
  handleStateChanges(ctl, on_new_brokers, ReplicaState::OnlineReplica);
  triggerOnlinePartitionStateChange(ctl);
  ctl.context().partitions_being_reassigned.forEach([&](TopicPartition tp) {
    // partitionFullReplicaAssignment: empty for a partition whose topic was deleted meanwhile
    const ReplicaAssignment assignment = partition(ctl.context(), tp).assignment.value_or(ReplicaAssignment{});
    bool targets_new_broker = false;
    for (BrokerId r : assignment.targetReplicas()) targets_new_broker |= new_brokers.contains(r);
    if (targets_new_broker) onPartitionReassignment(ctl, tp, assignment);
  });
  TopicSet queued_with_replicas_here;
  for (const PartitionAndReplica& r : on_new_brokers) {
    if (isTopicQueuedUpForDeletion(ctl, r.tp.topic)) queued_with_replicas_here.insert(r.tp.topic);
  }
  if (!queued_with_replicas_here.empty()) resumeDeletionForTopics(ctl, queued_with_replicas_here);
}

void onBrokerFailure(Controller& ctl, BrokerSet dead_brokers) {
  Context& ctx = ctl.context();
  ctx.shutting_down_broker_ids = ctx.shutting_down_broker_ids - dead_brokers;
  onReplicasBecomeOffline(ctl, replicasOnBrokers(ctx, dead_brokers));
}

void onReplicasBecomeOffline(Controller& ctl, const AllReplicaList& replicas) {
  AllReplicaList for_deletion, not_for_deletion;
  for (const PartitionAndReplica& r : replicas) {
    (isTopicQueuedUpForDeletion(ctl, r.tp.topic) ? for_deletion : not_for_deletion).push_back(r);
  }
  handleStateChanges(ctl, partitionsWithOfflineLeader(ctl.context()), PartitionState::OfflinePartition);
  const ElectionResults results = triggerOnlinePartitionStateChange(ctl);
  handleStateChanges(ctl, not_for_deletion, ReplicaState::OfflineReplica);
  if (!for_deletion.empty()) failReplicaDeletion(ctl, for_deletion);
  if (not_for_deletion.empty() && results.elected.empty()) {
    sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()), PartitionSet{});
  }
}

}  // namespace kcspec::spec
