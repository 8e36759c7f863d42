// A simulated Kafka broker (docs/world.md "Brokers" and conventions 5 and 8): its registration incarnation,
// inbound control requests applied in order, the metadata cache, the replicas it hosts (and those
// whose log directory failed), the StopReplica and LeaderAndIsr responses on their way back, and
// its controller module. A plain value.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "impl/controller/kafka_controller.hpp"
#include "spec/vocabulary/bounded_list.hpp"
#include "spec/vocabulary/bounded_vector.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/requests.hpp"

namespace kcspec::impl {

class SimulatedBroker {
 public:
  bool alive() const { return alive_; }
  std::int64_t brokerEpoch() const { return broker_epoch_; }
  const HostedReplica& hosted(TopicPartition tp) const { return replicas_[static_cast<std::size_t>(partitionIndex(tp))]; }
  const BoundedList<ControlRequest, kMaxRequestsPerBroker>& inbox() const { return inbox_; }
  const BoundedVector<StopReplicaResponse, kMaxResponsesPerBroker>& outbox() const { return outbox_; }
  const BoundedVector<LeaderAndIsrResponse, kMaxLeaderAndIsrResponsesPerBroker>& leaderAndIsrResponses() const {
    return leader_and_isr_responses_;
  }
  // Its replicas whose log directory failed (HostedPartition.Offline) since it started.
  PartitionSet offlineLogDirReplicas() const { return offline_log_dir_replicas_; }
  KafkaControllerState& controller() { return controller_; }
  const KafkaControllerState& controller() const { return controller_; }

  // Crash: every piece of broker state goes, the controller module too (world.md §8); its
  // server.properties stay.
  void crash() {
    const bool upgraded = ibp_upgraded_;
    *this = SimulatedBroker{};
    ibp_upgraded_ = upgraded;
  }
  // A rolling upgrade's step on the stopped broker: its next start runs with the configuration's
  // upgrade inter.broker.protocol.version (world.md 14).
  void upgradeInterBrokerProtocolVersion() { ibp_upgraded_ = true; }
  bool ibpUpgraded() const { return ibp_upgraded_; }
  // Start: a new incarnation with the epoch its registration got.
  void start(std::int64_t broker_epoch);
  // Registered again after its session expired (RegisterBrokerAndReelect): the same incarnation,
  // going by its new broker epoch (KafkaServer's brokerEpochSupplier reads the controller's).
  void registeredAgain(std::int64_t broker_epoch) { broker_epoch_ = broker_epoch; }

  void receive(const ControlRequest& request) { inbox_.push_back(request); }
  // deliver-request: apply the head of the inbox (§5).
  void handleNextRequest(BrokerId self);
  // deliver-stop-replica-response: the head of the outbox leaves the broker.
  StopReplicaResponse takeResponse();
  // deliver-leader-and-isr-response: the head of the LeaderAndIsr responses leaves the broker.
  LeaderAndIsrResponse takeLeaderAndIsrResponse();
  // fail-log-dir: ReplicaManager.handleLogDirFailure for the directory holding `tp`'s log — the
  // partition becomes HostedPartition.Offline (it leads and follows nothing, and every request
  // naming it is answered KAFKA_STORAGE_ERROR) until the broker restarts. The caller writes the
  // notification (KafkaZkClient::propagateLogDirEvent).
  void handleLogDirFailure(TopicPartition tp);
  // The AlterPartition response (§7), Kafka's Partition.submitAlterPartition callback: for the
  // pending change it answers, an accepted state is adopted (handleAlterPartitionUpdate) and an
  // INELIGIBLE_REPLICA ends the pending change (handleAlterPartitionError); other errors keep it.
  // A refused change is not proposed again until an UpdateMetadata comes from a newer controller
  // or names other live brokers.
  void handleAlterPartitionResponse(TopicPartition tp, const AlterPartitionResponse& response);
  // The leader sent an AlterPartition for `tp`: no further proposal until it is accepted or a
  // LeaderAndIsr replaces the replica's state (docs/world.md §7).
  void proposeIsrChange(TopicPartition tp);
  // ZkAlterPartitionManager.submit (inter.broker.protocol.version < 2.7-IV2): the leader writes
  // the proposed ISR to the state znode itself, with the epoch of the controller whose leadership
  // it holds (Partition.controllerEpoch). Written: the ISR and partition epoch are committed and the
  // partition joins isrChangeSet, for the propagation task. Refused: the change stays pending
  // ("awaiting new the latest metadata") until a LeaderAndIsr.
  void submitIsrChangeToZooKeeper(zk::KafkaZkClient& zk, TopicPartition tp, const LeaderAndIsr& proposed);
  // ZkAlterPartitionManager.maybePropagateIsrChanges (propagate-isr-changes): isrChangeSet, when
  // not empty, written as one /isr_change_notification child and cleared. The scheduler's timing
  // (every 2.5 s, after 5 s without a change or 60 s since the last write) is not modelled: any
  // moment after a change will do.
  void maybePropagateIsrChanges(zk::KafkaZkClient& zk);
  PartitionSet isrChangeSet() const { return isr_change_set_; }

  BrokerData toObservation() const {
    BrokerData out;
    toObservation(out);
    return out;
  }
  void toObservation(BrokerData& out) const;  // into `out`, a default value (no temporaries)
  // Broker `self` as toObservation shows it (a stated world, issue 28): it shows everything.
  static SimulatedBroker fromObservation(const BrokerData& given, BrokerId self);

 private:
  void handleLeaderAndIsr(BrokerId self, const ControlRequest& request);
  void handleUpdateMetadata(const ControlRequest& request, bool newerController);
  void handleStopReplica(const ControlRequest& request);

  bool alive_ = false;
  std::int64_t broker_epoch_ = -1;
  std::int32_t known_controller_epoch_ = 0;
  BoundedList<ControlRequest, kMaxRequestsPerBroker> inbox_;
  std::array<std::optional<UpdateMetadataPartitionState>, kMaxPartitions> metadata_cache_{};
  BrokerSet metadata_live_brokers_;
  std::array<HostedReplica, kMaxPartitions> replicas_{};
  BoundedVector<StopReplicaResponse, kMaxResponsesPerBroker> outbox_;
  BoundedVector<LeaderAndIsrResponse, kMaxLeaderAndIsrResponsesPerBroker> leader_and_isr_responses_;
  PartitionSet offline_log_dir_replicas_;
  PartitionSet isr_change_set_;  // ZkAlterPartitionManager.isrChangeSet
  bool ibp_upgraded_ = false;    // inter.broker.protocol.version in its server.properties: the upgrade's
  // Per hosted replica, the controller epoch of the leadership its LeaderAndIsr carried
  // (Partition.controllerEpoch); −1 when unknown (a broker restored from an observation, which
  // does not show it).
  std::array<std::int32_t, kMaxPartitions> leadership_controller_epochs_ = [] {
    std::array<std::int32_t, kMaxPartitions> unknown{};
    unknown.fill(-1);
    return unknown;
  }();
  KafkaControllerState controller_;
};

}  // namespace kcspec::impl
