// KafkaController: brokers joining, leaving and bouncing (kafka.md §5.5).
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processBrokerChange() {
  if (!isActive()) return;
  const zk::BrokerEpochs current = services_.zk.getAllBrokerAndEpochsInCluster();
  BrokerSet current_ids;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (current[static_cast<std::size_t>(b)] >= 0) current_ids.insert(b);
  }
  const BrokerSet known = context_.liveOrShuttingDownBrokerIds();
  const BrokerSet new_ids = current_ids - known;
  const BrokerSet dead_ids = known - current_ids;
  BrokerSet bounced_ids;
  if (!services_.mutant(Mutant::M8)) {  // Mutant M8 (KAFKA-1120): ids alone, a bounce goes unnoticed
    (current_ids & known).forEach([&](BrokerId b) {
      if (current[static_cast<std::size_t>(b)] > *context_.liveBrokerEpoch(b)) bounced_ids.insert(b);
    });
  }
  // INFO "Newly added brokers: …, deleted brokers: …, bounced brokers: …, all live brokers: …"
  if (!new_ids.empty()) {
    new_ids.forEach([&](BrokerId b) { context_.addLiveBroker(b, current[static_cast<std::size_t>(b)]); });
    onBrokerStartup(new_ids);
  }
  if (!bounced_ids.empty()) {
    context_.removeLiveBrokers(bounced_ids);
    onBrokerFailure(bounced_ids);
    bounced_ids.forEach([&](BrokerId b) { context_.addLiveBroker(b, current[static_cast<std::size_t>(b)]); });
    onBrokerStartup(bounced_ids);
  }
  if (!dead_ids.empty()) {
    context_.removeLiveBrokers(dead_ids);
    onBrokerFailure(dead_ids);
  }
}

void KafkaController::onBrokerStartup(BrokerSet newBrokers) {
  // INFO "New broker startup callback for <ids>"
  context_.removeReplicasOnOfflineDirs(newBrokers);
  const BrokerSet existing = context_.liveOrShuttingDownBrokerIds() - newBrokers;
  sendUpdateMetadataRequest(existing, PartitionSet{});
  sendUpdateMetadataRequest(newBrokers, context_.partitionsWithLeaders());
  const std::vector<PartitionAndReplica> replicas_on_new = context_.replicasOnBrokers(newBrokers);
  rsm_.handleStateChanges(replicas_on_new, ReplicaState::OnlineReplica);
  psm_.triggerOnlinePartitionStateChange();
  maybeResumeReassignments([&](TopicPartition, const ReplicaAssignment& assignment) {
    for (BrokerId r : assignment.targetReplicas()) {
      if (newBrokers.contains(r)) return true;
    }
    return false;
  });
  TopicSet queued;
  for (const PartitionAndReplica& r : replicas_on_new) {
    if (tdm_.isTopicQueuedUpForDeletion(r.tp.topic)) queued.insert(r.tp.topic);
  }
  // INFO "Some replicas … for topics scheduled for deletion … are on the newly restarted brokers …"
  if (!queued.empty()) tdm_.resumeDeletionForTopics(queued);
  // registerBrokerModificationsHandler: BrokerModifications is not modeled (docs/world.md), but
  // registerZNodeChangeHandlerAndCheckExistence's check of each /brokers/ids/<b> is a request,
  // which fails once the session has expired (docs/world.md convention 15).
  newBrokers.forEach([&](BrokerId b) { static_cast<void>(services_.zk.pathExists(zk::paths::brokerId(b))); });
}

void KafkaController::onBrokerFailure(BrokerSet deadBrokers) {
  // INFO "Broker failure callback for <ids>"
  context_.removeReplicasOnOfflineDirs(deadBrokers);
  // INFO "Removed <ids> from list of shutting down brokers." when any were shutting down
  context_.shuttingDownBrokerIds = context_.shuttingDownBrokerIds - deadBrokers;
  onReplicasBecomeOffline(context_.replicasOnBrokers(deadBrokers));
}

void KafkaController::onReplicasBecomeOffline(const std::vector<PartitionAndReplica>& newOfflineReplicas) {
  std::vector<PartitionAndReplica> for_deletion, not_for_deletion;
  for (const PartitionAndReplica& r : newOfflineReplicas) {
    (tdm_.isTopicQueuedUpForDeletion(r.tp.topic) ? for_deletion : not_for_deletion).push_back(r);
  }
  const PartitionSet offline_leaders = context_.partitionsWithOfflineLeader();
  psm_.handleStateChanges(toVector(offline_leaders), PartitionState::OfflinePartition);
  const ElectionOutcomes results = psm_.triggerOnlinePartitionStateChange();
  rsm_.handleStateChanges(not_for_deletion, ReplicaState::OfflineReplica);
  // Mutant M7 (KAFKA-10548): replicas of topics being deleted are left where they are.
  if (!for_deletion.empty() && !services_.mutant(Mutant::M7)) tdm_.failReplicaDeletion(for_deletion);
  bool all_failed = true;
  for (const auto& [_, outcome] : results) all_failed = all_failed && std::holds_alternative<Failure>(outcome);
  if (not_for_deletion.empty() && all_failed) {
    sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), PartitionSet{});
  }
}

}  // namespace kcspec::impl
