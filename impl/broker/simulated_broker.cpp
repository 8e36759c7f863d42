// A simulated broker (simulated_broker.hpp).
#include "impl/broker/simulated_broker.hpp"

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

void SimulatedBroker::start(std::int64_t broker_epoch) {
  const bool upgraded = ibp_upgraded_;  // its server.properties
  *this = SimulatedBroker{};
  ibp_upgraded_ = upgraded;
  alive_ = true;
  broker_epoch_ = broker_epoch;
}

void SimulatedBroker::handleNextRequest(BrokerId self) {
  KCSPEC_ASSERT(!inbox_.empty());
  const ControlRequest request = inbox_.front();
  inbox_.erase_at(0);
  if (request.controller_epoch < known_controller_epoch_) return;  // a stale controller
  if (request.broker_epoch >= 0 && request.broker_epoch < broker_epoch_) return;  // for an older incarnation
  const bool newer_controller = request.controller_epoch > known_controller_epoch_;
  known_controller_epoch_ = request.controller_epoch;
  switch (request.kind) {
    case RequestKind::LeaderAndIsr: handleLeaderAndIsr(self, request); return;
    case RequestKind::UpdateMetadata: handleUpdateMetadata(request, newer_controller); return;
    case RequestKind::StopReplica: handleStopReplica(request); return;
  }
}

// ReplicaManager.becomeLeaderOrFollower in ZooKeeper mode: a partition whose log directory failed
// is answered KAFKA_STORAGE_ERROR and left as it is (checked first); otherwise only a higher leader
// epoch than the partition's (−1 when not held) is taken, and only by a broker among the entry's
// replicas. The response goes back only when some partition has KAFKA_STORAGE_ERROR: the
// controller's handling of one whose partitions are all NONE (or errors it disregards) changes
// nothing (docs/world.md §6).
void SimulatedBroker::handleLeaderAndIsr(BrokerId self, const ControlRequest& request) {
  PartitionSet partitions;
  PartitionSet storage_errors;
  for (const LeaderAndIsrPartitionState& entry : request.leader_and_isr) {
    partitions.insert(entry.tp);
    if (offline_log_dir_replicas_.contains(entry.tp)) {
      // WARN "Ignoring LeaderAndIsr request … as the local replica for the partition is in an offline log directory"
      storage_errors.insert(entry.tp);
      continue;
    }
    HostedReplica& hosted = replicas_[static_cast<std::size_t>(partitionIndex(entry.tp))];
    const LeaderAndIsr& lai = entry.leadership.leader_and_isr;
    // hasConsistentTopicId, checked first: a request's id (none when ZERO_UUID) against the log's.
    if (entry.topic_id != kNoTopicId && hosted.topic_id != kNoTopicId && entry.topic_id != hosted.topic_id) {
      continue;  // ERROR "Topic ID in memory: … does not match the topic ID for partition … received: …"; INCONSISTENT_TOPIC_ID
    }
    if (lai.leader_epoch == hosted.leader_epoch && entry.topic_id != kNoTopicId && hosted.topic_id == kNoTopicId) {
      hosted.topic_id = entry.topic_id;  // INFO "Updating log for <tp> to assign topic ID …" (log.assignTopicId)
      continue;
    }
    if (lai.leader_epoch <= hosted.leader_epoch) continue;             // "matches" or "is smaller than"
    if (!entry.assignment.replicas.contains(self)) continue;            // "not in assigned replica list"
    const bool leader = lai.leader == self;
    // A follower keeps no ISR (Kafka's Partition.makeFollower clears it). The log keeps its topic
    // id; one without gets the request's (createLogIfNotExists / LogManager.getOrCreateLog).
    const TopicId log_topic_id = hosted.topic_id != kNoTopicId ? hosted.topic_id : entry.topic_id;
    hosted = HostedReplica{true, leader, lai.leader_epoch, lai.partition_epoch, leader ? lai.isr : BrokerList{}};
    hosted.topic_id = log_topic_id;
    // "record the epoch of the controller that made the leadership decision" (Partition.makeLeader)
    leadership_controller_epochs_[static_cast<std::size_t>(partitionIndex(entry.tp))] = entry.leadership.controller_epoch;
  }
  if (!storage_errors.empty()) {
    LeaderAndIsrResponse response{request.controller_id, request.controller_epoch, partitions, storage_errors};
    if (request.version >= 5) {  // LeaderAndIsrTopicError: by the request's topic ids
      response.by_topic_id = true;
      for (const LeaderAndIsrPartitionState& entry : request.leader_and_isr) {
        response.topic_ids[static_cast<std::size_t>(entry.tp.topic)] = entry.topic_id;
      }
    }
    leader_and_isr_responses_.push_back(response);
  }
}

// A leader refused with INELIGIBLE_REPLICA proposes again once the controller's view of the
// brokers may have changed: a newer controller, or other live brokers.
void SimulatedBroker::handleUpdateMetadata(const ControlRequest& request, bool newerController) {
  if (newerController || request.live_brokers != metadata_live_brokers_) {
    for (HostedReplica& hosted : replicas_) {
      hosted.refused_expansions = BrokerSet{};
      hosted.refused_shrinks = BrokerSet{};
    }
  }
  for (const UpdateMetadataPartitionState& entry : request.update_metadata) {
    auto& cached = metadata_cache_[static_cast<std::size_t>(partitionIndex(entry.tp))];
    if (entry.leader == kLeaderDuringDelete) {
      cached.reset();
    } else {
      cached = entry;
    }
  }
  metadata_live_brokers_ = request.live_brokers;
}

// ReplicaManager.stopReplicas: a partition whose log directory failed is answered
// KAFKA_STORAGE_ERROR and left as it is; otherwise delete=true removes the partition and
// delete=false only stops it, so its leader epoch stays and still fences LeaderAndIsr requests of
// the same epoch.
void SimulatedBroker::handleStopReplica(const ControlRequest& request) {
  PartitionSet deleted;
  PartitionSet storage_errors;
  for (const StopReplicaPartitionState& entry : request.stop_replica) {
    if (entry.delete_partition) deleted.insert(entry.tp);
    if (offline_log_dir_replicas_.contains(entry.tp)) {
      // WARN "Ignoring StopReplica request (delete=…) … as the local replica for the partition is in an offline log directory"
      if (entry.delete_partition) storage_errors.insert(entry.tp);
      continue;
    }
    HostedReplica& hosted = replicas_[static_cast<std::size_t>(partitionIndex(entry.tp))];
    const bool epoch_ok = entry.leader_epoch == LeaderAndIsr::kEpochDuringDelete ||
                          entry.leader_epoch == LeaderAndIsr::kNoEpoch || entry.leader_epoch >= hosted.leader_epoch;
    if (epoch_ok) {
      const HostedReplica stopped{.leader_epoch = hosted.leader_epoch, .partition_epoch = hosted.partition_epoch,
                                  .topic_id = hosted.topic_id};  // its log stays
      hosted = entry.delete_partition ? HostedReplica{} : stopped;
    }
  }
  if (!deleted.empty()) {
    outbox_.push_back(StopReplicaResponse{request.controller_id, request.controller_epoch, deleted, storage_errors});
  }
}

StopReplicaResponse SimulatedBroker::takeResponse() {
  KCSPEC_ASSERT(!outbox_.empty());
  const StopReplicaResponse response = outbox_.front();
  outbox_.erase_at(0);
  return response;
}

LeaderAndIsrResponse SimulatedBroker::takeLeaderAndIsrResponse() {
  KCSPEC_ASSERT(!leader_and_isr_responses_.empty());
  const LeaderAndIsrResponse response = leader_and_isr_responses_.front();
  leader_and_isr_responses_.erase_at(0);
  return response;
}

void SimulatedBroker::handleLogDirFailure(TopicPartition tp) {
  // WARN "Stopping serving replicas in dir … because the log directory has failed."
  // markPartitionOffline: the Partition (its log, leadership and fetcher) is gone.
  offline_log_dir_replicas_.insert(tp);
  replicas_[static_cast<std::size_t>(partitionIndex(tp))] = HostedReplica{};
}

void SimulatedBroker::handleAlterPartitionResponse(TopicPartition tp, const AlterPartitionResponse& response) {
  HostedReplica& hosted = replicas_[static_cast<std::size_t>(partitionIndex(tp))];
  if (!hosted.present || !hosted.is_leader) return;
  switch (response.error) {
    case AlterPartitionError::NONE:
      // Partition.handleAlterPartitionUpdate: "Ignoring new ISR … since we have a stale leader epoch",
      // or an older partition epoch than the one held.
      if (response.accepted.leader_epoch != hosted.leader_epoch ||
          response.accepted.partition_epoch < hosted.partition_epoch) {
        return;
      }
      hosted.isr = response.accepted.isr;
      hosted.partition_epoch = response.accepted.partition_epoch;
      hosted.alter_partition_pending = false;
      return;
    case AlterPartitionError::INELIGIBLE_REPLICA:
      // "the controller is explicitly telling us … that the request was not applied": back to the
      // last committed ISR, which this replica still holds. Only the change still pending: a
      // LeaderAndIsr since then has replaced it.
      if (hosted.alter_partition_pending && hosted.leader_epoch == response.proposed.leader_epoch &&
          hosted.partition_epoch == response.proposed.partition_epoch) {
        hosted.alter_partition_pending = false;
        // Not the same change again until the controller's view may have changed.
        const BrokerList& proposed = response.proposed.isr;
        for (BrokerId r : proposed) {
          if (!hosted.isr.contains(r)) hosted.refused_expansions.insert(r);
        }
        for (BrokerId r : hosted.isr) {
          if (!proposed.contains(r)) hosted.refused_shrinks.insert(r);
        }
      }
      return;
    default:
      return;  // awaiting new metadata: the change stays pending
  }
}

void SimulatedBroker::proposeIsrChange(TopicPartition tp) {
  replicas_[static_cast<std::size_t>(partitionIndex(tp))].alter_partition_pending = true;
}

void SimulatedBroker::submitIsrChangeToZooKeeper(zk::KafkaZkClient& zk, TopicPartition tp, const LeaderAndIsr& proposed) {
  const auto i = static_cast<std::size_t>(partitionIndex(tp));
  HostedReplica& hosted = replicas_[i];
  KCSPEC_ASSERT(hosted.present && hosted.is_leader && !hosted.alter_partition_pending);
  hosted.alter_partition_pending = true;
  std::int32_t controller_epoch = leadership_controller_epochs_[i];
  if (controller_epoch < 0) {
    // Restored without it: the znode at the version the leader holds came with its leadership.
    const zk::PartitionStateRead read = zk.getTopicPartitionState(tp);
    controller_epoch = read.state ? read.state->controller_epoch : 0;
  }
  const auto [succeeded, version] = zk.updateLeaderAndIsrByLeader(tp, proposed, controller_epoch);
  if (!succeeded) return;  // InvalidUpdateVersionException → handleAlterPartitionError: stays pending
  // handleAlterPartitionUpdate: the leader epoch is its own and the version newer.
  hosted.isr = proposed.isr;
  hosted.partition_epoch = version;
  hosted.alter_partition_pending = false;
  isr_change_set_.insert(tp);
}

void SimulatedBroker::maybePropagateIsrChanges(zk::KafkaZkClient& zk) {
  if (isr_change_set_.empty()) return;
  zk.propagateIsrChanges(isr_change_set_);
  isr_change_set_ = PartitionSet{};
}

void SimulatedBroker::toObservation(BrokerData& out) const {
  out.alive = alive_;
  out.broker_epoch = broker_epoch_;
  out.known_controller_epoch = known_controller_epoch_;
  out.inbox = inbox_;
  out.metadata_cache = metadata_cache_;
  out.metadata_live_brokers = metadata_live_brokers_;
  out.replicas = replicas_;
  out.outbox = outbox_;
  out.leader_and_isr_responses = leader_and_isr_responses_;
  out.offline_log_dir_replicas = offline_log_dir_replicas_;
  out.pending_isr_changes = isr_change_set_;
  out.ibp_upgraded = ibp_upgraded_;
  controller_.toObservation(out.controller);
}

SimulatedBroker SimulatedBroker::fromObservation(const BrokerData& given, BrokerId self) {
  SimulatedBroker out;
  out.alive_ = given.alive;
  out.broker_epoch_ = given.broker_epoch;
  out.known_controller_epoch_ = given.known_controller_epoch;
  out.inbox_ = given.inbox;
  out.metadata_cache_ = given.metadata_cache;
  out.metadata_live_brokers_ = given.metadata_live_brokers;
  out.replicas_ = given.replicas;
  out.outbox_ = given.outbox;
  out.leader_and_isr_responses_ = given.leader_and_isr_responses;
  out.offline_log_dir_replicas_ = given.offline_log_dir_replicas;
  out.isr_change_set_ = given.pending_isr_changes;
  out.ibp_upgraded_ = given.ibp_upgraded;
  out.controller_ = KafkaControllerState::fromObservation(given.controller, self);
  return out;
}

}  // namespace kcspec::impl
