// ZkPartitionStateMachine (kafka.md §2): partition states New/Online/Offline/NonExistent, leader
// initialization and election with ZK conditional writes, requests queued on its own batch.
// A view over the controller's state: constructed per use with references, holds nothing.
#pragma once

#include <map>
#include <optional>
#include <variant>
#include <vector>

#include "impl/controller/controller_broker_request_batch.hpp"
#include "impl/controller/controller_context.hpp"
#include "impl/controller/controller_services.hpp"
#include "impl/controller/election.hpp"

namespace kcspec::impl {

using ElectionOutcome = std::variant<Failure, LeaderAndIsr>;  // Either[Throwable, LeaderAndIsr]
using ElectionOutcomes = std::map<TopicPartition, ElectionOutcome>;

std::vector<TopicPartition> toVector(PartitionSet partitions);

class PartitionStateMachine {
 public:
  PartitionStateMachine(ControllerContext& context, ControllerBrokerRequestBatch& batch, ControllerServices& services)
      : context_(context), batch_(batch), services_(services) {}

  void startup();
  ElectionOutcomes triggerOnlinePartitionStateChange();
  ElectionOutcomes triggerOnlinePartitionStateChange(TopicIndex topic);
  ElectionOutcomes handleStateChanges(const std::vector<TopicPartition>& partitions, PartitionState target,
                                      std::optional<PartitionLeaderElectionStrategy> strategy = std::nullopt);
  // kafka.md §2.7: each partition's unclean flag for leaderForOffline — false when some ISR member
  // is live, else allowUnclean || the topic's unclean.leader.election.enable — the partitions
  // without a live ISR member first. Public for the elect component action (component_calls.cpp).
  std::vector<UncleanElectionInput> collectUncleanLeaderElectionState(
      const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& leaderAndIsrs, bool allowUnclean);

 private:
  ElectionOutcomes triggerOnlineStateChangeForPartitions(PartitionSet partitions);
  ElectionOutcomes doHandleStateChanges(const std::vector<TopicPartition>& partitions, PartitionState target,
                                        std::optional<PartitionLeaderElectionStrategy> strategy);
  std::vector<TopicPartition> initializeLeaderAndIsrForPartitions(const std::vector<TopicPartition>& partitions);
  ElectionOutcomes electLeaderForPartitions(const std::vector<TopicPartition>& partitions,
                                            PartitionLeaderElectionStrategy strategy);
  std::pair<ElectionOutcomes, std::vector<TopicPartition>> doElectLeaderForPartitions(
      const std::vector<TopicPartition>& partitions, PartitionLeaderElectionStrategy strategy);

  void logInvalidTransition(TopicPartition tp, PartitionState target) const;
  void logFailedStateChange(TopicPartition tp, PartitionState current, PartitionState target, const Failure& failure) const;
  StateChangeLogger stateChangeLog() const { return services_.logger.withControllerEpoch(context_.epoch); }
  std::string name(TopicPartition tp) const { return renderTopicPartition(services_.config, tp); }

  ControllerContext& context_;
  ControllerBrokerRequestBatch& batch_;
  ControllerServices& services_;
};

}  // namespace kcspec::impl
