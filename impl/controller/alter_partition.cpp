// KafkaController: AlterPartitionReceived, ISR changes proposed by partition leaders (kafka.md §5.12).
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processAlterPartition(BrokerId brokerId, std::int64_t brokerEpoch, TopicPartition tp,
                                            const LeaderAndIsr& proposed, std::optional<TopicId> topicId) {
  // tryProcessAlterPartition's short-circuits
  if (!isActive()) return;  // NOT_CONTROLLER
  const std::optional<std::int64_t> cached_epoch = context_.liveBrokerEpoch(brokerId);
  if (!cached_epoch) return;  // INFO "Ignoring AlterPartition due to unknown broker <id>"; STALE_BROKER_EPOCH
  if (*cached_epoch != brokerEpoch) return;  // STALE_BROKER_EPOCH

  LeaderAndIsr request = proposed;
  request.leader = brokerId;
  AlterPartitionError error = AlterPartitionError::NONE;
  std::optional<LeaderAndIsr> accepted;  // Right(...) in partitionResponses
  bool write = false;
  const auto& leadership = context_.partitionLeadershipInfo(tp);
  // useTopicsIds (version > 1): controllerContext.topicName(topicId); by name before.
  const bool unknown_topic_id = topicId && context_.topicNames.find(topicUuid(tp.topic, *topicId)) == context_.topicNames.end();
  if (unknown_topic_id) {
    error = AlterPartitionError::UNKNOWN_TOPIC_ID;  // not among partitionsToAlter
  } else if (!leadership) {
    error = AlterPartitionError::UNKNOWN_TOPIC_OR_PARTITION;
  } else {
    const LeaderAndIsr& current = leadership->leader_and_isr;
    if (request.partition_epoch > current.partition_epoch || request.leader_epoch > current.leader_epoch) {
      error = AlterPartitionError::NOT_CONTROLLER;
    } else if (request.leader_epoch < current.leader_epoch) {
      error = AlterPartitionError::FENCED_LEADER_EPOCH;
    } else if (request.equalsAllowStalePartitionEpoch(current)) {
      accepted = current;  // already in the desired state
    } else if (request.partition_epoch < current.partition_epoch) {
      error = AlterPartitionError::INVALID_UPDATE_VERSION;
    } else if (request.recovery_state == LeaderRecoveryState::RECOVERING && request.isr.size() > 1) {
      error = AlterPartitionError::INVALID_REQUEST;
    } else if (current.recovery_state == LeaderRecoveryState::RECOVERED &&
               request.recovery_state == LeaderRecoveryState::RECOVERING) {
      error = AlterPartitionError::INVALID_REQUEST;
    } else {
      const BrokerSet live = context_.liveBrokerIds();
      bool ineligible = false;
      for (BrokerId r : request.isr) ineligible = ineligible || !live.contains(r);
      if (ineligible) {
        error = AlterPartitionError::INELIGIBLE_REPLICA;
      } else {
        write = true;
      }
    }
  }
  // processAlterPartition catches every Throwable around tryProcessAlterPartition (the write,
  // the cache reload, the UpdateMetadata and the response), ControllerMovedException included:
  // the leader gets UNKNOWN_SERVER_ERROR and the controller does not resign here.
  try {
    if (write) {
      const zk::UpdateLeaderAndIsrResult update =
          services_.zk.updateLeaderAndIsr({{tp, request}}, context_.epoch, context_.epochZkVersion);
      const auto finished = update.finished.find(tp);
      if (finished == update.finished.end()) {
        error = AlterPartitionError::INVALID_UPDATE_VERSION;  // INFO "Failed to update ISR … bad ZK version."
      } else if (const auto* lai = std::get_if<LeaderAndIsr>(&finished->second)) {
        accepted = *lai;
        updateLeaderAndIsrCache(PartitionSet{tp});  // the successful partitions, re-read from ZK
      } else {
        error = AlterPartitionError::UNKNOWN_TOPIC_OR_PARTITION;  // ERROR "Failed to update ISR for partition <tp>"
      }
    }
    sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), unknown_topic_id ? PartitionSet{} : PartitionSet{tp});
    // The response reaches the leader now (docs/world.md §7).
    if (error != AlterPartitionError::NONE) {
      services_.channel.respondAlterPartition(brokerId, tp, {.proposed = request, .error = error, .accepted = {}});
    } else if (accepted) {
      services_.channel.respondAlterPartition(brokerId, tp, {.proposed = request, .error = error, .accepted = *accepted});
    }
  } catch (const KafkaThrowable&) {
    return;  // ERROR "Error when processing AlterPartition"; no partition responses
  }
  if (accepted && context_.partitionsBeingReassigned.contains(tp)) maybeCompleteReassignment(tp);
}

}  // namespace kcspec::impl
