// ControllerBrokerRequestBatch (kafka.md Appendix A): requests are queued per broker while a state
// machine works, then flushed — LeaderAndIsr, then UpdateMetadata, then StopReplica — to every
// recipient that is registered (live or shutting down); the rest are silently dropped.
#pragma once

#include <array>

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

struct RequestBatch {
  std::array<BoundedList<LeaderAndIsrPartitionState, kMaxPartitions>, kMaxBrokers> leader_and_isr;
  BrokerSet update_metadata_brokers;
  BoundedList<UpdateMetadataPartitionState, kMaxPartitions> update_metadata;
  std::array<BoundedList<StopReplicaPartitionState, kMaxPartitions>, kMaxBrokers> stop_replica;

  // A.1: what newBatch() checks — LeaderAndIsr or StopReplica entries, or UpdateMetadata recipients.
  bool empty() const {
    for (const auto& entries : leader_and_isr) {
      if (!entries.empty()) return false;
    }
    for (const auto& entries : stop_replica) {
      if (!entries.empty()) return false;
    }
    return update_metadata_brokers.empty();
  }
};

// A.2: LeaderAndIsr for `tp` to each broker (isNew sticky), then UpdateMetadata for `tp` to all
// registered brokers.
void addLeaderAndIsrRequestForBrokers(Controller& ctl, RequestBatch& batch, const BrokerList& brokers,
                                      TopicPartition tp, const LeaderIsrAndControllerEpoch& leadership,
                                      const ReplicaAssignment& assignment, bool is_new);

// A.3: StopReplica for `tp` to each broker, leader epoch evaluated now, deletePartition sticky.
void addStopReplicaRequestForBrokers(Controller& ctl, RequestBatch& batch, const BrokerList& brokers,
                                     TopicPartition tp, bool delete_partition);

// A.4: the brokers join the UpdateMetadata recipients; partitions with cached leadership get an
// entry (topics queued for deletion are advertised with leader −2).
void addUpdateMetadataRequestForBrokers(Controller& ctl, RequestBatch& batch, BrokerSet brokers,
                                        PartitionSet partitions);

// A.5: appends the requests to the brokers' queues. UpdateMetadata goes out on every flush to the
// recipients that are registered (possibly none).
void sendRequestsToBrokers(Controller& ctl, RequestBatch& batch);

}  // namespace kcspec::spec
