#include "spec/rules/request_batch.hpp"

#include <algorithm>

#include "spec/rules/controller_context.hpp"

namespace kcspec::spec {
namespace {

// The entry of `tp` in `entries`, added if absent; entries stay in ascending partition order.
template <class Entry>
Entry& entryFor(BoundedList<Entry, kMaxPartitions>& entries, TopicPartition tp, bool& added) {
  for (Entry& entry : entries) {
    if (entry.tp == tp) {
      added = false;
      return entry;
    }
  }
  added = true;
  entries.push_back(Entry{});
  entries[entries.size() - 1].tp = tp;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.tp < b.tp; });
  for (Entry& entry : entries) {
    if (entry.tp == tp) return entry;
  }
  KCSPEC_ASSERT(false);
  return entries[0];
}

// The version ControllerChannelManager gives a request: the newest one whose protocol the
// controller's inter.broker.protocol.version reaches (kafka.md Appendix A.6).
std::int16_t requestVersion(RequestKind kind, MetadataVersion ibp) {
  using enum MetadataVersion;
  switch (kind) {
    case RequestKind::LeaderAndIsr:
      for (const auto& [from, version] : {std::pair{IBP_3_4_IV0, 7}, {IBP_3_2_IV0, 6}, {IBP_2_8_IV1, 5},
                                          {IBP_2_4_IV1, 4}, {IBP_2_4_IV0, 3}, {IBP_2_2_IV0, 2}, {IBP_1_0_IV0, 1}}) {
        if (ibp >= from) return static_cast<std::int16_t>(version);
      }
      return 0;
    case RequestKind::UpdateMetadata:
      for (const auto& [from, version] : {std::pair{IBP_3_4_IV0, 8}, {IBP_2_8_IV1, 7}, {IBP_2_4_IV1, 6},
                                          {IBP_2_2_IV0, 5}, {IBP_1_0_IV0, 4}, {IBP_0_10_2_IV0, 3},
                                          {IBP_0_10_0_IV1, 2}, {IBP_0_9_0, 1}}) {
        if (ibp >= from) return static_cast<std::int16_t>(version);
      }
      return 0;
    case RequestKind::StopReplica:
      for (const auto& [from, version] :
           {std::pair{IBP_3_4_IV0, 4}, {IBP_2_6_IV0, 3}, {IBP_2_4_IV1, 2}, {IBP_2_2_IV0, 1}}) {
        if (ibp >= from) return static_cast<std::int16_t>(version);
      }
      return 0;
  }
  return 0;
}

// What the wire carries of a request at its version: a field that the version lacks reaches the
// broker as its default. The broker epoch comes with LeaderAndIsr v2, UpdateMetadata v5 and
// StopReplica v1 (without it the broker cannot tell a request for an earlier incarnation: −1 is
// never stale); LeaderAndIsr's isNew with v1, its adding and removing replicas with v3, its leader
// recovery state with v6, its topic ids with v5; UpdateMetadata's offline replicas with v4, its
// topic ids with v7. StopReplica's per-partition
// leader epochs come with v3, whose absence decides the requests themselves (below).
void keepFieldsOfItsVersion(ControlRequest& request) {
  const std::int16_t v = request.version;
  switch (request.kind) {
    case RequestKind::LeaderAndIsr:
      if (v < 2) request.broker_epoch = -1;
      for (LeaderAndIsrPartitionState& entry : request.leader_and_isr) {
        if (v < 5) entry.topic_id = kNoTopicId;
        if (v < 1) entry.is_new = false;
        if (v < 3) entry.assignment = ReplicaAssignment{entry.assignment.replicas};
        if (v < 6) entry.leadership.leader_and_isr.recovery_state = LeaderRecoveryState::RECOVERED;
      }
      return;
    case RequestKind::UpdateMetadata:
      if (v < 5) request.broker_epoch = -1;
      for (UpdateMetadataPartitionState& entry : request.update_metadata) {
        if (v < 7) entry.topic_id = kNoTopicId;
        if (v < 4) entry.offline_replicas = BrokerList{};
      }
      return;
    case RequestKind::StopReplica:
      if (v < 1) request.broker_epoch = -1;
      return;
  }
}

void enqueue(Controller& ctl, BrokerId broker, const ControlRequest& request) {
  BrokerData& recipient = ctl.world.brokers[static_cast<std::size_t>(broker)];
  // A broker that is down (its death not yet processed) never receives it: the send thread
  // fails to connect and is replaced when BrokerChange sees the broker again.
  if (!recipient.alive) return;
  recipient.inbox.push_back(request);
  ControlRequest& sent = recipient.inbox.back();
  sent.version = requestVersion(sent.kind, ctl.interBrokerProtocolVersion());
  sent.controller_id = ctl.id;
  sent.controller_epoch = ctl.epoch();
  sent.broker_epoch = ctl.context().live_broker_epochs[static_cast<std::size_t>(broker)];
  // The topic ids of the context when the request is sent (Uuid.ZERO_UUID for a topic it has none of).
  for (LeaderAndIsrPartitionState& entry : sent.leader_and_isr) entry.topic_id = ctl.context().topic_ids[static_cast<std::size_t>(entry.tp.topic)];
  for (UpdateMetadataPartitionState& entry : sent.update_metadata) entry.topic_id = ctl.context().topic_ids[static_cast<std::size_t>(entry.tp.topic)];
  keepFieldsOfItsVersion(sent);
}

using StopReplicaEntries = BoundedList<StopReplicaPartitionState, kMaxPartitions>;

// StopReplica v3 and later (inter.broker.protocol.version ≥ 2.6-IV0): one request with a delete
// flag and a leader epoch per partition; its response is looked at for the delete=true ones.
void sendStopReplicaRequest(Controller& ctl, BrokerId broker, const StopReplicaEntries& entries) {
  ControlRequest request{.kind = RequestKind::StopReplica};
  request.stop_replica = entries;
  for (const StopReplicaPartitionState& entry : entries) {
    if (entry.delete_partition) request.response_wanted.insert(entry.tp);
  }
  enqueue(ctl, broker, request);
}

// StopReplica v0–v2 (older protocols): the delete flag belongs to the request, so the
// delete=true partitions go first, in a request whose response is looked at, and the others in a
// second one without a callback. Neither carries leader epochs: the broker reads −1 for each
// (StopReplicaRequest.partitionStates), which every replica accepts.
void sendStopReplicaRequestsWithoutLeaderEpochs(Controller& ctl, BrokerId broker, const StopReplicaEntries& entries) {
  for (const bool delete_partitions : {true, false}) {
    ControlRequest request{.kind = RequestKind::StopReplica};
    for (const StopReplicaPartitionState& entry : entries) {
      if (entry.delete_partition != delete_partitions) continue;
      request.stop_replica.push_back(StopReplicaPartitionState{entry.tp, LeaderAndIsr::kNoEpoch, delete_partitions});
      if (delete_partitions) request.response_wanted.insert(entry.tp);
    }
    if (!request.stop_replica.empty()) enqueue(ctl, broker, request);
  }
}

}  // namespace

void addLeaderAndIsrRequestForBrokers(Controller& ctl, RequestBatch& batch, const BrokerList& brokers,
                                      TopicPartition tp, const LeaderIsrAndControllerEpoch& leadership,
                                      const ReplicaAssignment& assignment, bool is_new) {
  for (BrokerId broker : brokers) {
    if (broker < 0) continue;
    bool added = false;
    auto& entry = entryFor(batch.leader_and_isr[static_cast<std::size_t>(broker)], tp, added);
    const bool was_new = !added && entry.is_new;
    entry = LeaderAndIsrPartitionState{tp, leadership, assignment, is_new || was_new};
  }
  addUpdateMetadataRequestForBrokers(ctl, batch, liveOrShuttingDownBrokerIds(ctl.context()), PartitionSet{tp});
}

void addStopReplicaRequestForBrokers(Controller& ctl, RequestBatch& batch, const BrokerList& brokers,
                                     TopicPartition tp, bool delete_partition) {
  const std::int32_t epoch_now = leaderEpoch(ctl.context(), tp);
  for (BrokerId broker : brokers) {
    if (broker < 0) continue;
    bool added = false;
    auto& entry = entryFor(batch.stop_replica[static_cast<std::size_t>(broker)], tp, added);
    const bool was_delete = !added && entry.delete_partition;
    entry = StopReplicaPartitionState{tp, epoch_now, delete_partition || was_delete};
  }
}

void addUpdateMetadataRequestForBrokers(Controller& ctl, RequestBatch& batch, BrokerSet brokers,
                                        PartitionSet partitions) {
  const Context& ctx = ctl.context();
  batch.update_metadata_brokers = batch.update_metadata_brokers | brokers;
  partitions.forEach([&](TopicPartition tp) {
    const PartitionContext& p = partition(ctx, tp);
    if (!p.leadership) return;  // "Leader not yet assigned for partition …"
    const BrokerList replicas = partitionReplicaAssignment(ctx, tp);
    BrokerList offline;
    for (BrokerId r : replicas) {
      if (!isReplicaOnline(ctx, r, tp)) offline.push_back(r);
    }
    const LeaderAndIsr& lai = p.leadership->leader_and_isr;
    UpdateMetadataPartitionState state{tp,  p.leadership->controller_epoch, lai.leader, lai.leader_epoch,
                                       lai.isr, lai.partition_epoch, replicas, offline};
    if (isTopicQueuedUpForDeletion(ctx, tp.topic)) {
      state.leader = kLeaderDuringDelete;
      state.leader_epoch = 0;
      state.zk_version = 0;
    }
    bool added = false;
    entryFor(batch.update_metadata, tp, added) = state;
  });
}

void sendRequestsToBrokers(Controller& ctl, RequestBatch& batch) {
  const BrokerSet registered = liveOrShuttingDownBrokerIds(ctl.context());
  registered.forEach([&](BrokerId broker) {
    const auto& entries = batch.leader_and_isr[static_cast<std::size_t>(broker)];
    if (entries.empty()) return;
    ControlRequest request{.kind = RequestKind::LeaderAndIsr};
    request.leader_and_isr = entries;
    enqueue(ctl, broker, request);
  });
  (batch.update_metadata_brokers & registered).forEach([&](BrokerId broker) {
    ControlRequest request{.kind = RequestKind::UpdateMetadata};
    request.update_metadata = batch.update_metadata;
    request.live_brokers = registered;
    enqueue(ctl, broker, request);
  });
  registered.forEach([&](BrokerId broker) {
    const auto& entries = batch.stop_replica[static_cast<std::size_t>(broker)];
    if (entries.empty()) return;
    if (ctl.interBrokerProtocolVersion() >= MetadataVersion::IBP_2_6_IV0) {
      sendStopReplicaRequest(ctl, broker, entries);
    } else {
      sendStopReplicaRequestsWithoutLeaderEpochs(ctl, broker, entries);
    }
  });
  batch = RequestBatch{};
}

}  // namespace kcspec::spec
