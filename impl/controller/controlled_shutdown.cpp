// KafkaController: ControlledShutdown (kafka.md §5.9).
#include "impl/controller/kafka_controller.hpp"

#include <fmt/format.h>

namespace kcspec::impl {

void KafkaController::processControlledShutdown(BrokerId id, std::int64_t brokerEpoch) {
  // Kafka wraps the work in a Try and hands the outcome to the broker's callback: every
  // throwable, ControllerMovedException included, becomes the response (no maybeResign).
  // kcspec's broker does not act on the response (docs/world.md).
  try {
    doControlledShutdown(id, brokerEpoch);
  } catch (const KafkaThrowable&) {
  }
}

PartitionSet KafkaController::doControlledShutdown(BrokerId id, std::int64_t brokerEpoch) {
  if (!isActive()) throw ControllerMovedException("Controller moved to another broker. Aborting controlled shutdown");
  if (brokerEpoch != -1 && !services_.mutant(Mutant::M13)) {  // M13: the broker epoch is not checked
    const std::optional<std::int64_t> cached = context_.liveBrokerEpoch(id);
    if (!cached) throw NoSuchElementException(fmt::format("key not found: {}", id));
    if (brokerEpoch < *cached) {
      throw KafkaThrowable("org.apache.kafka.common.errors.StaleBrokerEpochException",
                           fmt::format("Received controlled shutdown request from an old broker epoch {} for broker {}. "
                                       "Current broker epoch is {}.",
                                       brokerEpoch, id, *cached));
    }
  }
  // INFO "Shutting down broker <id>"
  if (!context_.liveOrShuttingDownBrokerIds().contains(id)) {
    throw KafkaThrowable("org.apache.kafka.common.errors.BrokerNotAvailableException",
                         fmt::format("Broker id {} does not exist.", id));
  }
  context_.shuttingDownBrokerIds.insert(id);
  PartitionSet led, followed;
  context_.partitionsOnBroker(id).forEach([&](TopicPartition tp) {
    // Mutant M6 (KAFKA-6753): partitions of topics queued for deletion are acted on too.
    const bool queued = tdm_.isTopicQueuedUpForDeletion(tp.topic) && !services_.mutant(Mutant::M6);
    const auto& leadership = context_.partitionLeadershipInfo(tp);
    // Mutant M17: single-replica partitions are not skipped (their election can only fail).
    const bool single_replica = context_.partitionReplicaAssignment(tp).size() <= 1 && !services_.mutant(Mutant::M17);
    if (single_replica || !leadership || queued) return;
    if (leadership->leader_and_isr.leader == id) {
      led.insert(tp);
    } else {
      followed.insert(tp);
    }
  });
  psm_.handleStateChanges(toVector(led), PartitionState::OnlinePartition,
                          PartitionLeaderElectionStrategy::controlledShutdown());
  try {
    state_.controller_batch.newBatch();
    followed.forEach([&](TopicPartition tp) {
      state_.controller_batch.addStopReplicaRequestForBrokers(BrokerList{id}, tp, /*deletePartition=*/false, context_);
    });
    state_.controller_batch.sendRequestsToBrokers(context_.epoch, id_, context_, services_.channel, services_.logger,
                                                  services_.config,
                                 services_.interBrokerProtocolVersion());
  } catch (const IllegalStateException& e) {
    handleIllegalState(e);
  }
  std::vector<PartitionAndReplica> followers;
  followed.forEach([&](TopicPartition tp) { followers.push_back(PartitionAndReplica{tp, id}); });
  rsm_.handleStateChanges(followers, ReplicaState::OfflineReplica);
  return context_.partitionLeadersOnBroker(id);
}

}  // namespace kcspec::impl
