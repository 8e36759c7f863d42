#include "spec/rules/broker_membership.hpp"

#include <array>

#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

using BrokerEpochs = std::array<std::int64_t, kMaxBrokers>;

// addLiveBrokers with the epochs processBrokerChange read (getAllBrokerAndEpochsInCluster, once).
void addLiveBrokers(Controller& ctl, BrokerSet brokers, const BrokerEpochs& epochs) {
  brokers.forEach([&](BrokerId b) {
    ctl.context().live_broker_epochs[static_cast<std::size_t>(b)] = epochs[static_cast<std::size_t>(b)];
  });
}

void removeLiveBrokers(Controller& ctl, BrokerSet brokers) {
  brokers.forEach([&](BrokerId b) { ctl.context().live_broker_epochs[static_cast<std::size_t>(b)] = -1; });
}

// replicasOnOfflineDirs −= brokers (§5.5.2 and §5.5.3, step 2).
void forgetOfflineDirs(Controller& ctl, BrokerSet brokers) {
  brokers.forEach([&](BrokerId b) { ctl.context().replicas_on_offline_dirs[static_cast<std::size_t>(b)] = PartitionSet{}; });
}

// onBrokerLogDirFailure: "send LeaderAndIsrRequest for all replicas on those brokers to see if
// they are still online".
void onBrokerLogDirFailure(Controller& ctl, BrokerSet brokers) {
  handleStateChanges(ctl, replicasOnBrokers(ctl.context(), brokers), ReplicaState::OnlineReplica);
}

}  // namespace

void sendUpdateMetadataRequest(Controller& ctl, BrokerSet brokers, PartitionSet partitions) {
  RequestBatch batch;
  addUpdateMetadataRequestForBrokers(ctl, batch, brokers, partitions);
  sendRequestsToBrokers(ctl, batch);
}

void processBrokerChange(Controller& ctl) {
  const Context& ctx = ctl.context();
  // getAllBrokerAndEpochsInCluster: read once; the handlers below go by what it read.
  BrokerSet current;
  BrokerEpochs epochs{};
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const BrokerRegistration& registration = ctl.zk().brokers[static_cast<std::size_t>(b)];
    if (registration.registered) current.insert(b);
    epochs[static_cast<std::size_t>(b)] = registration.broker_epoch;
  }
  const BrokerSet known = liveOrShuttingDownBrokerIds(ctx);
  const BrokerSet added = current - known;
  const BrokerSet dead = known - current;
  BrokerSet bounced;
  (current & known).forEach([&](BrokerId b) {
    if (epochs[static_cast<std::size_t>(b)] > ctx.live_broker_epochs[static_cast<std::size_t>(b)]) bounced.insert(b);
  });
  if (!added.empty()) {
    addLiveBrokers(ctl, added, epochs);
    onBrokerStartup(ctl, added);
  }
  if (!bounced.empty()) {
    removeLiveBrokers(ctl, bounced);
    onBrokerFailure(ctl, bounced);
    addLiveBrokers(ctl, bounced, epochs);
    onBrokerStartup(ctl, bounced);
  }
  if (!dead.empty()) {
    removeLiveBrokers(ctl, dead);
    onBrokerFailure(ctl, dead);
  }
}

void processLogDirEventNotification(Controller& ctl) {
  if (!ctl.module().active) return;
  const BrokerSet brokers = ctl.zk().log_dir_event_notifications;  // getBrokerIdsFromLogDirEvents
  try {
    onBrokerLogDirFailure(ctl, brokers);
  } catch (...) {
    deleteLogDirEventNotifications(ctl, brokers);  // finally
    throw;
  }
  deleteLogDirEventNotifications(ctl, brokers);
}

void processLeaderAndIsrResponseReceived(Controller& ctl, BrokerId broker, PartitionSet partitions,
                                         PartitionSet storage_errors, const std::array<TopicId, kMaxTopics>* topic_ids) {
  if (!ctl.module().active) return;
  Context& ctx = ctl.context();
  // partitionErrors(topicNames): from version 5 by topic id, and an id the context does not map
  // to a topic (none, or one of a deleted topic) drops that topic's partitions; before, by name.
  PartitionSet known;
  partitions.forEach([&](TopicPartition tp) {
    const auto t = static_cast<std::size_t>(tp.topic);
    if (topic_ids == nullptr || ((*topic_ids)[t] != kNoTopicId && ctx.topic_ids[t] == (*topic_ids)[t])) known.insert(tp);
  });
  const PartitionSet offline = known & storage_errors;
  const PartitionSet online = known - storage_errors;
  PartitionSet& current = ctx.replicas_on_offline_dirs[static_cast<std::size_t>(broker)];
  const PartitionSet previous = current;
  current = (previous - online) | offline;
  const PartitionSet newly_offline = current - previous;
  if (newly_offline.empty()) return;
  AllReplicaList replicas;  // "Mark replicas <…> on broker <b> as offline"
  newly_offline.forEach([&](TopicPartition tp) { replicas.push_back({tp, broker}); });
  onReplicasBecomeOffline(ctl, replicas);
}

void onBrokerStartup(Controller& ctl, BrokerSet new_brokers) {
  forgetOfflineDirs(ctl, new_brokers);
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
  // registerBrokerModificationsHandler: BrokerModifications is not modeled (docs/world.md), but the
  // existence check it makes of each /brokers/ids/<b> is a request, which fails once the session
  // has expired (convention 15).
  if (!new_brokers.empty()) static_cast<void>(ctl.zk());
}

void onBrokerFailure(Controller& ctl, BrokerSet dead_brokers) {
  forgetOfflineDirs(ctl, dead_brokers);
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
