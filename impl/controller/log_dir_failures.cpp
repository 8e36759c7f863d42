// KafkaController: log-directory failures (kafka.md §5.5.6) and the LeaderAndIsr responses that
// report them (§5.6.1).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processLogDirEventNotification() {
  if (!isActive()) return;
  const std::vector<std::string> sequence_numbers = services_.zk.getAllLogDirEventNotifications();
  try {
    onBrokerLogDirFailure(services_.zk.getBrokerIdsFromLogDirEvents(sequence_numbers));
  } catch (const KafkaThrowable&) {
    // finally: delete the processed children (fenced); an exception it throws replaces this one.
    services_.zk.deleteLogDirEventNotifications(sequence_numbers, context_.epochZkVersion);
    throw;
  }
  services_.zk.deleteLogDirEventNotifications(sequence_numbers, context_.epochZkVersion);
}

void KafkaController::onBrokerLogDirFailure(const std::vector<BrokerId>& brokerIds) {
  // INFO (controller log) "Handling log directory failure for brokers <ids comma-separated>"
  // Send LeaderAndIsr for every replica on those brokers, to see which are still online: the
  // brokers answer KAFKA_STORAGE_ERROR for those on a failed directory.
  BrokerSet brokers;
  for (BrokerId b : brokerIds) {
    if (isBrokerId(b)) brokers.insert(b);
  }
  rsm_.handleStateChanges(context_.replicasOnBrokers(brokers), ReplicaState::OnlineReplica);
}

void KafkaController::processLeaderAndIsrResponseReceived(BrokerId brokerId, PartitionSet partitions,
                                                          PartitionSet storageErrors,
                                                          const std::optional<std::array<TopicId, kMaxTopics>>& topicIds) {
  if (!isActive()) return;
  // A top-level error (STALE_CONTROLLER_EPOCH, STALE_BROKER_EPOCH) would be ERROR "Received error
  // <err> in LeaderAndIsr response <resp> from broker <b>" and nothing more: the broker keeps no
  // such response (it refused the whole request).
  // partitionErrors(controllerContext.topicNames): the v5+ response is keyed by topic id, and an
  // id the context does not know (none, or a deleted topic's) is skipped; before v5, by name.
  PartitionSet known;
  partitions.forEach([&](TopicPartition tp) {
    if (!topicIds) {
      known.insert(tp);
      return;
    }
    const TopicId id = (*topicIds)[static_cast<std::size_t>(tp.topic)];
    if (id != kNoTopicId && context_.topicNames.contains(topicUuid(tp.topic, id))) known.insert(tp);
  });
  const PartitionSet offline_replicas = known & storageErrors;  // KAFKA_STORAGE_ERROR
  const PartitionSet online_replicas = known - storageErrors;   // NONE
  const PartitionSet previous_offline_replicas = context_.replicasOnOfflineDirsOf(brokerId);
  const PartitionSet current_offline_replicas = (previous_offline_replicas - online_replicas) | offline_replicas;
  context_.replicasOnOfflineDirs[static_cast<std::size_t>(brokerId)] = current_offline_replicas;
  const PartitionSet new_offline_replicas = current_offline_replicas - previous_offline_replicas;
  if (new_offline_replicas.empty()) return;
  // Kafka's mutable set iterates in hash order; kcspec's is ascending partitions.
  services_.logger.info([&] {
    std::string names;
    new_offline_replicas.forEach([&](TopicPartition tp) {
      if (!names.empty()) names += ',';
      names += name(tp);
    });
    return fmt::format("Mark replicas {} on broker {} as offline", names, brokerId);
  });
  std::vector<PartitionAndReplica> replicas;
  new_offline_replicas.forEach([&](TopicPartition tp) { replicas.push_back(PartitionAndReplica{tp, brokerId}); });
  onReplicasBecomeOffline(replicas);
}

}  // namespace kcspec::impl
