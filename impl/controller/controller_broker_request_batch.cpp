// ControllerBrokerRequestBatch (controller_broker_request_batch.hpp).
#include "impl/controller/controller_broker_request_batch.hpp"

#include <fmt/format.h>

#include "impl/errors.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {

namespace {
std::string javaList(const BrokerList& ids) { return fmt::format("[{}]", fmt::join(ids, ", ")); }

// ControllerChannelManager's request versions: the newest that the controller's own
// inter.broker.protocol.version reaches (kafka.md Appendix A.6).
std::int16_t leaderAndIsrRequestVersion(MetadataVersion v) {
  using enum MetadataVersion;
  if (v >= IBP_3_4_IV0) return 7;
  if (v >= IBP_3_2_IV0) return 6;
  if (v >= IBP_2_8_IV1) return 5;
  if (v >= IBP_2_4_IV1) return 4;
  if (v >= IBP_2_4_IV0) return 3;
  if (v >= IBP_2_2_IV0) return 2;
  if (v >= IBP_1_0_IV0) return 1;
  return 0;
}

std::int16_t updateMetadataRequestVersion(MetadataVersion v) {
  using enum MetadataVersion;
  if (v >= IBP_3_4_IV0) return 8;
  if (v >= IBP_2_8_IV1) return 7;
  if (v >= IBP_2_4_IV1) return 6;
  if (v >= IBP_2_2_IV0) return 5;
  if (v >= IBP_1_0_IV0) return 4;
  if (v >= IBP_0_10_2_IV0) return 3;
  if (v >= IBP_0_10_0_IV1) return 2;
  if (v >= IBP_0_9_0) return 1;
  return 0;
}

std::int16_t stopReplicaRequestVersion(MetadataVersion v) {
  using enum MetadataVersion;
  if (v >= IBP_3_4_IV0) return 4;
  if (v >= IBP_2_6_IV0) return 3;
  if (v >= IBP_2_4_IV1) return 2;
  if (v >= IBP_2_2_IV0) return 1;
  return 0;
}

// The request as the builder serializes it at `version`: the generated message classes write only
// the fields a version has, and the broker reads the others' defaults (LeaderAndIsrRequest.json,
// UpdateMetadataRequest.json, StopReplicaRequest.json).
ControlRequest build(ControlRequest request, std::int16_t version) {
  request.version = version;
  switch (request.kind) {
    case RequestKind::LeaderAndIsr:
      if (version < 2) request.broker_epoch = -1;  // BrokerEpoch: 2+
      for (LeaderAndIsrPartitionState& state : request.leader_and_isr) {
        if (version < 1) state.is_new = false;  // IsNew: 1+
        if (version < 3) {                      // AddingReplicas, RemovingReplicas: 3+
          state.assignment.adding_replicas = BrokerList{};
          state.assignment.removing_replicas = BrokerList{};
        }
        if (version < 6) state.leadership.leader_and_isr.recovery_state = LeaderRecoveryState::RECOVERED;  // 6+
        if (version < 5) state.topic_id = kNoTopicId;  // TopicId: 5+
      }
      break;
    case RequestKind::UpdateMetadata:
      if (version < 5) request.broker_epoch = -1;  // BrokerEpoch: 5+
      for (UpdateMetadataPartitionState& state : request.update_metadata) {
        if (version < 4) state.offline_replicas = BrokerList{};  // OfflineReplicas: 4+
        if (version < 7) state.topic_id = kNoTopicId;        // TopicId: 7+
      }
      break;
    case RequestKind::StopReplica:
      if (version < 1) request.broker_epoch = -1;  // BrokerEpoch: 1+
      break;
  }
  return request;
}
}  // namespace

std::string toKafkaString(const Config& config, const LeaderAndIsrPartitionState& s) {
  const LeaderAndIsr& lai = s.leadership.leader_and_isr;
  return fmt::format(
      "LeaderAndIsrPartitionState(topicName='{}', partitionIndex={}, controllerEpoch={}, leader={}, leaderEpoch={}, "
      "isr={}, partitionEpoch={}, replicas={}, addingReplicas={}, removingReplicas={}, isNew={}, leaderRecoveryState={})",
      topicName(config, s.tp.topic), s.tp.partition, s.leadership.controller_epoch, lai.leader, lai.leader_epoch,
      javaList(lai.isr), lai.partition_epoch, javaList(s.assignment.replicas), javaList(s.assignment.adding_replicas),
      javaList(s.assignment.removing_replicas), s.is_new, static_cast<int>(lai.recovery_state));
}

std::string toKafkaString(const StopReplicaPartitionState& s) {
  return fmt::format("StopReplicaPartitionState(partitionIndex={}, leaderEpoch={}, deletePartition={})", s.tp.partition,
                     s.leader_epoch, s.delete_partition);
}

void ControllerBrokerRequestBatch::newBatch() const {
  if (!leader_and_isr_.empty()) {
    throw IllegalStateException(
        "Controller to broker state change requests batch is not empty while creating a new one. Some LeaderAndIsr "
        "state changes might be lost ");
  }
  if (!stop_replica_.empty()) {
    throw IllegalStateException(
        "Controller to broker state change requests batch is not empty while creating a new one. Some StopReplica "
        "state changes might be lost ");
  }
  if (!update_metadata_brokers_.empty()) {
    throw IllegalStateException(
        "Controller to broker state change requests batch is not empty while creating a new one. Some UpdateMetadata "
        "state changes might be lost ");
  }
}

void ControllerBrokerRequestBatch::clear() { *this = ControllerBrokerRequestBatch{}; }

void ControllerBrokerRequestBatch::addLeaderAndIsrRequestForBrokers(const BrokerList& brokers, TopicPartition tp,
                                                                   const LeaderIsrAndControllerEpoch& leadership,
                                                                   const ReplicaAssignment& assignment, bool isNew,
                                                                   const ControllerContext& context) {
  for (BrokerId broker : brokers) {
    if (broker < 0) continue;
    const auto key = std::make_pair(broker, partitionIndex(tp));
    const auto existing = leader_and_isr_.find(key);
    const bool already_new = existing != leader_and_isr_.end() && existing->second.is_new;
    leader_and_isr_[key] = LeaderAndIsrPartitionState{tp, leadership, assignment, isNew || already_new};
  }
  addUpdateMetadataRequestForBrokers(context.liveOrShuttingDownBrokerIds(), PartitionSet{tp}, context);
}

void ControllerBrokerRequestBatch::addStopReplicaRequestForBrokers(const BrokerList& brokers, TopicPartition tp,
                                                                  bool deletePartition, const ControllerContext& context) {
  const std::int32_t leader_epoch = context.leaderEpoch(tp);
  for (BrokerId broker : brokers) {
    if (broker < 0) continue;
    const auto key = std::make_pair(broker, partitionIndex(tp));
    const auto existing = stop_replica_.find(key);
    const bool already_delete = existing != stop_replica_.end() && existing->second.delete_partition;
    stop_replica_[key] = StopReplicaPartitionState{tp, leader_epoch, deletePartition || already_delete};
  }
}

void ControllerBrokerRequestBatch::addUpdateMetadataRequestForBrokers(BrokerSet brokers, PartitionSet partitions,
                                                                     const ControllerContext& context) {
  update_metadata_brokers_ = update_metadata_brokers_ | brokers;
  partitions.forEach([&](TopicPartition tp) {
    const auto& leadership = context.partitionLeadershipInfo(tp);
    if (!leadership) return;  // INFO (controller log) "Leader not yet assigned for partition …"
    const BrokerList replicas = context.partitionReplicaAssignment(tp);
    BrokerList offline;
    for (BrokerId r : replicas) {
      if (!context.isReplicaOnline(r, tp)) offline.push_back(r);
    }
    LeaderAndIsr advertised = leadership->leader_and_isr;
    if (context.isTopicQueuedUpForDeletion(tp.topic)) advertised = LeaderAndIsr::duringDelete(advertised.isr);
    update_metadata_partitions_[partitionIndex(tp)] =
        UpdateMetadataPartitionState{tp,       leadership->controller_epoch, advertised.leader, advertised.leader_epoch,
                                     advertised.isr, advertised.partition_epoch, replicas,        offline};
  });
}

void ControllerBrokerRequestBatch::sendRequestsToBrokers(std::int32_t controllerEpoch, BrokerId controllerId,
                                                         const ControllerContext& context, ControllerChannel& channel,
                                                         const StateChangeLogger& logger, const Config& config,
                                                         MetadataVersion interBrokerProtocolVersion) {
  const StateChangeLogger log = logger.withControllerEpoch(controllerEpoch);
  sendLeaderAndIsrRequests(controllerEpoch, controllerId, context, channel, log, config, interBrokerProtocolVersion);
  sendUpdateMetadataRequests(controllerEpoch, controllerId, context, channel, log, interBrokerProtocolVersion);
  sendStopReplicaRequests(controllerEpoch, controllerId, context, channel, log, config, interBrokerProtocolVersion);
}

void ControllerBrokerRequestBatch::sendLeaderAndIsrRequests(std::int32_t epoch, BrokerId id, const ControllerContext& context,
                                                            ControllerChannel& channel, const StateChangeLogger& log,
                                                            const Config& config, MetadataVersion ibp) {
  const BrokerSet recipients = context.liveOrShuttingDownBrokerIds();
  auto it = leader_and_isr_.begin();
  while (it != leader_and_isr_.end()) {  // one request per broker, brokers ascending
    const BrokerId broker = it->first.first;
    ControlRequest request{.kind = RequestKind::LeaderAndIsr, .controller_id = id, .controller_epoch = epoch,
                           .broker_epoch = context.liveBrokerEpoch(broker).value_or(-1)};
    int become_leaders = 0;
    for (; it != leader_and_isr_.end() && it->first.first == broker; ++it) {
      const LeaderAndIsrPartitionState& state = it->second;
      LeaderAndIsrPartitionState sent = state;
      // topicIds.getOrElse(topic, Uuid.ZERO_UUID)
      sent.topic_id = topicIdNumber(context.topicIdOf(state.tp.topic));
      request.leader_and_isr.push_back(sent);
      const bool leader = state.leadership.leader_and_isr.leader == broker;
      become_leaders += leader ? 1 : 0;
      if (recipients.contains(broker)) {
        log.trace([&] {
          return fmt::format("Sending {} LeaderAndIsr request {} to broker {} for partition {}",
                             leader ? "become-leader" : "become-follower", toKafkaString(config, state), broker,
                             renderTopicPartition(config, state.tp));
        });
      }
    }
    if (!recipients.contains(broker)) continue;  // not live-or-shutting-down: dropped
    const int partitions = static_cast<int>(request.leader_and_isr.size());
    log.info([&] {
      return fmt::format("Sending LeaderAndIsr request to broker {} with {} become-leader and {} become-follower partitions",
                         broker, become_leaders, partitions - become_leaders);
    });
    channel.sendRequest(broker, build(request, leaderAndIsrRequestVersion(ibp)));
  }
  leader_and_isr_.clear();
}

void ControllerBrokerRequestBatch::sendUpdateMetadataRequests(std::int32_t epoch, BrokerId id,
                                                              const ControllerContext& context, ControllerChannel& channel,
                                                              const StateChangeLogger& log, MetadataVersion ibp) {
  log.info([&] {
    return fmt::format("Sending UpdateMetadata request to brokers {} for {} partitions",
                       renderScalaMutableSet(update_metadata_brokers_), update_metadata_partitions_.size());
  });
  const BrokerSet live = context.liveOrShuttingDownBrokerIds();
  (update_metadata_brokers_ & live).forEach([&](BrokerId broker) {
    ControlRequest request{.kind = RequestKind::UpdateMetadata, .controller_id = id, .controller_epoch = epoch,
                           .broker_epoch = context.liveBrokerEpoch(broker).value_or(-1)};
    for (const auto& [_, state] : update_metadata_partitions_) {
      UpdateMetadataPartitionState sent = state;
      sent.topic_id = topicIdNumber(context.topicIdOf(state.tp.topic));  // the topics topicIds contains
      request.update_metadata.push_back(sent);
    }
    request.live_brokers = live;
    channel.sendRequest(broker, build(request, updateMetadataRequestVersion(ibp)));
  });
  update_metadata_brokers_ = BrokerSet{};
  update_metadata_partitions_.clear();
}

void ControllerBrokerRequestBatch::sendStopReplicaRequests(std::int32_t epoch, BrokerId id, const ControllerContext& context,
                                                           ControllerChannel& channel, const StateChangeLogger& log,
                                                           const Config& config, MetadataVersion ibp) {
  const BrokerSet recipients = context.liveOrShuttingDownBrokerIds();
  auto it = stop_replica_.begin();
  while (it != stop_replica_.end()) {
    const BrokerId broker = it->first.first;
    ControlRequest request{.kind = RequestKind::StopReplica, .controller_id = id, .controller_epoch = epoch,
                           .broker_epoch = context.liveBrokerEpoch(broker).value_or(-1)};
    for (; it != stop_replica_.end() && it->first.first == broker; ++it) {
      const StopReplicaPartitionState& state = it->second;
      request.stop_replica.push_back(state);
      // isPartitionDeleted: the callback is armed for every delete=true partition; whether its
      // topic's deletion has started is asked when the response arrives (kafka.md Appendix A.5).
      if (state.delete_partition) request.response_wanted.insert(state.tp);
      if (recipients.contains(broker)) {
        log.trace([&] {
          return fmt::format("Sending StopReplica request {} to broker {} for partition {}", toKafkaString(state), broker,
                             renderTopicPartition(config, state.tp));
        });
      }
    }
    if (!recipients.contains(broker)) continue;
    if (ibp >= MetadataVersion::IBP_2_6_IV0) {  // StopReplica v3+
      log.info([&] { return fmt::format("Sending StopReplica request for {} replicas to broker {}", request.stop_replica.size(), broker); });
      channel.sendRequest(broker, build(request, stopReplicaRequestVersion(ibp)));
      continue;
    }
    // StopReplica v0–v2: deletePartitions is the request's, so the delete=true partitions go in a
    // request of their own, first and with the response callback (isPartitionDeleted = _ => true);
    // the rest follow without one. The wire carries no leader epoch: the broker reads −1.
    for (const bool deletePartitions : {true, false}) {
      ControlRequest split{.kind = RequestKind::StopReplica, .controller_id = id, .controller_epoch = epoch,
                           .broker_epoch = request.broker_epoch};
      for (const StopReplicaPartitionState& state : request.stop_replica) {
        if (state.delete_partition != deletePartitions) continue;
        split.stop_replica.push_back(StopReplicaPartitionState{state.tp, LeaderAndIsr::kNoEpoch, deletePartitions});
        if (deletePartitions) split.response_wanted.insert(state.tp);
      }
      if (split.stop_replica.empty()) continue;
      log.info([&] {
        return fmt::format("Sending StopReplica request (delete = {}) for {} replicas to broker {}",
                           deletePartitions ? "true" : "false", split.stop_replica.size(), broker);
      });
      channel.sendRequest(broker, build(split, stopReplicaRequestVersion(ibp)));
    }
  }
  stop_replica_.clear();
}

}  // namespace kcspec::impl
