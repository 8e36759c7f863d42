// KafkaController: ISR changes that leaders write to ZooKeeper themselves when
// inter.broker.protocol.version is below 2.7-IV2 (kafka.md §5.6.4, §5.7.2 step 2).
#include <string>
#include <vector>

#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

std::string KafkaController::statePath(TopicPartition tp) const {
  return zk::paths::topicPartitionState(services_.zk.topicName(tp.topic), tp.partition);
}

void KafkaController::processIsrChangeNotification() {
  if (!isActive()) return;
  const std::vector<std::string> sequence_numbers = services_.zk.getAllIsrChangeNotifications();
  try {
    const PartitionSet partitions = services_.zk.getPartitionsFromIsrChangeNotifications(sequence_numbers);
    if (!partitions.empty()) {
      updateLeaderAndIsrCache(partitions);
      // DEBUG "Sending MetadataRequest to Brokers: … for TopicPartitions: …"
      sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), partitions);
      // A controller on a newer protocol has no watch on the state znodes: this completes
      // reassignments too.
      (partitions & context_.partitionsBeingReassigned).forEach([&](TopicPartition tp) { maybeCompleteReassignment(tp); });
    }
  } catch (const KafkaThrowable&) {
    // finally: delete the notifications (fenced); an exception it throws replaces this one.
    services_.zk.deleteIsrChangeNotifications(sequence_numbers, context_.epochZkVersion);
    throw;
  }
  services_.zk.deleteIsrChangeNotifications(sequence_numbers, context_.epochZkVersion);
}

void KafkaController::processPartitionReassignmentIsrChange(TopicPartition tp) {
  if (!isActive()) return;
  if (context_.partitionsBeingReassigned.contains(tp)) maybeCompleteReassignment(tp);
}

}  // namespace kcspec::impl
