// ZkReplicaStateMachine (kafka.md §3): replica states, ISR removal with ZK conditional writes,
// LeaderAndIsr/StopReplica/UpdateMetadata queued on its own batch. A per-use view.
#pragma once

#include <map>
#include <variant>
#include <vector>

#include "impl/controller/controller_broker_request_batch.hpp"
#include "impl/controller/controller_context.hpp"
#include "impl/controller/controller_services.hpp"

namespace kcspec::impl {

class ReplicaStateMachine {
 public:
  ReplicaStateMachine(ControllerContext& context, ControllerBrokerRequestBatch& batch, ControllerServices& services)
      : context_(context), batch_(batch), services_(services) {}

  void startup();
  void handleStateChanges(const std::vector<PartitionAndReplica>& replicas, ReplicaState target);

 private:
  using RemovalOutcome = std::variant<Failure, LeaderIsrAndControllerEpoch>;
  void doHandleStateChanges(BrokerId replicaId, const std::vector<PartitionAndReplica>& replicas, ReplicaState target);
  void toOfflineReplica(BrokerId replicaId, const std::vector<PartitionAndReplica>& valid);
  std::map<TopicPartition, LeaderIsrAndControllerEpoch> removeReplicasFromIsr(BrokerId replicaId,
                                                                              const std::vector<TopicPartition>& partitions);
  std::pair<std::map<TopicPartition, RemovalOutcome>, std::vector<TopicPartition>> doRemoveReplicasFromIsr(
      BrokerId replicaId, const std::vector<TopicPartition>& partitions);

  void move(PartitionAndReplica replica, ReplicaState target);  // R1 (TRACE) then the MSM move
  void logInvalidTransition(PartitionAndReplica replica, ReplicaState target) const;
  void logFailedStateChange(PartitionAndReplica replica, ReplicaState current, ReplicaState target,
                            const Failure& failure) const;
  StateChangeLogger stateChangeLog() const { return services_.logger.withControllerEpoch(context_.epoch); }
  std::string name(TopicPartition tp) const { return renderTopicPartition(services_.config, tp); }

  ControllerContext& context_;
  ControllerBrokerRequestBatch& batch_;
  ControllerServices& services_;
};

}  // namespace kcspec::impl
