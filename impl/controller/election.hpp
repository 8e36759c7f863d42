// Leader election (Kafka's Election.scala and PartitionLeaderElectionAlgorithms, kafka.md §0.5,
// §2.7–2.8): the four algorithms over plain values, the strategies with their toString, and
// the leaderFor* helpers that turn a partition's ZK state into an ElectionResult.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "impl/controller/controller_context.hpp"
#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"

namespace kcspec::impl {

namespace PartitionLeaderElectionAlgorithms {
// first r in assignment with r live ∧ r ∈ isr; else, if unclean, first live r
std::optional<BrokerId> offlinePartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                       BrokerSet liveReplicas, bool uncleanLeaderElectionEnabled);
// first r in the target replicas with r live ∧ r ∈ isr
std::optional<BrokerId> reassignPartitionLeaderElection(const BrokerList& reassignment, const BrokerList& isr,
                                                        BrokerSet liveReplicas);
// the head of the assignment if it is live and in the ISR; no fallback
std::optional<BrokerId> preferredReplicaPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                BrokerSet liveReplicas);
// first r in assignment with r live-or-shutting-down ∧ r ∈ isr ∧ r not shutting down
std::optional<BrokerId> controlledShutdownPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                  BrokerSet liveOrShuttingDownReplicas,
                                                                  BrokerSet shuttingDownBrokers);
}  // namespace PartitionLeaderElectionAlgorithms

struct PartitionLeaderElectionStrategy {
  enum class Kind : std::uint8_t { Offline, Reassign, PreferredReplica, ControlledShutdown };
  Kind kind = Kind::Offline;
  bool allow_unclean = false;  // Offline only

  static PartitionLeaderElectionStrategy offline(bool allowUnclean) { return {Kind::Offline, allowUnclean}; }
  static PartitionLeaderElectionStrategy reassign() { return {Kind::Reassign, false}; }
  static PartitionLeaderElectionStrategy preferredReplica() { return {Kind::PreferredReplica, false}; }
  static PartitionLeaderElectionStrategy controlledShutdown() { return {Kind::ControlledShutdown, false}; }
};

// `OfflinePartitionLeaderElectionStrategy(false)`, `ReassignPartitionLeaderElectionStrategy`, …
std::string toKafkaString(PartitionLeaderElectionStrategy strategy);

struct ElectionResult {
  TopicPartition tp;
  std::optional<LeaderAndIsr> leader_and_isr;
  BrokerList recipients;  // Kafka's `liveReplicas`: who receives the LeaderAndIsr request
};

// One partition as collectUncleanLeaderElectionState hands it to leaderForOffline.
struct UncleanElectionInput {
  TopicPartition tp;
  std::optional<LeaderAndIsr> leader_and_isr;
  bool unclean = false;
};

namespace Election {
// isLeaderRecoverySupported (inter.broker.protocol.version ≥ 3.2-IV0): an unclean leader starts RECOVERING.
std::vector<ElectionResult> leaderForOffline(const ControllerContext& context, bool isLeaderRecoverySupported,
                                             const std::vector<UncleanElectionInput>& inputs, Mutants mutants = {});
std::vector<ElectionResult> leaderForReassign(const ControllerContext& context,
                                              const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs);
std::vector<ElectionResult> leaderForPreferredReplica(const ControllerContext& context,
                                                      const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs);
std::vector<ElectionResult> leaderForControlledShutdown(const ControllerContext& context,
                                                        const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs,
                                                        Mutants mutants = {});
}  // namespace Election

}  // namespace kcspec::impl
