// Leader election algorithms and helpers (election.hpp).
#include "impl/controller/election.hpp"

namespace kcspec::impl {

namespace PartitionLeaderElectionAlgorithms {

std::optional<BrokerId> offlinePartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                       BrokerSet liveReplicas, bool uncleanLeaderElectionEnabled) {
  for (BrokerId r : assignment) {
    if (liveReplicas.contains(r) && isr.contains(r)) return r;
  }
  if (uncleanLeaderElectionEnabled) {
    for (BrokerId r : assignment) {
      if (liveReplicas.contains(r)) return r;  // Kafka marks UncleanLeaderElectionsPerSec here
    }
  }
  return std::nullopt;
}

std::optional<BrokerId> reassignPartitionLeaderElection(const BrokerList& reassignment, const BrokerList& isr,
                                                        BrokerSet liveReplicas) {
  for (BrokerId r : reassignment) {
    if (liveReplicas.contains(r) && isr.contains(r)) return r;
  }
  return std::nullopt;
}

std::optional<BrokerId> preferredReplicaPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                BrokerSet liveReplicas) {
  if (!assignment.empty() && liveReplicas.contains(assignment.front()) && isr.contains(assignment.front())) {
    return assignment.front();
  }
  return std::nullopt;
}

std::optional<BrokerId> controlledShutdownPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                  BrokerSet liveOrShuttingDownReplicas,
                                                                  BrokerSet shuttingDownBrokers) {
  for (BrokerId r : assignment) {
    if (liveOrShuttingDownReplicas.contains(r) && isr.contains(r) && !shuttingDownBrokers.contains(r)) return r;
  }
  return std::nullopt;
}

}  // namespace PartitionLeaderElectionAlgorithms

std::string toKafkaString(PartitionLeaderElectionStrategy strategy) {
  switch (strategy.kind) {
    case PartitionLeaderElectionStrategy::Kind::Offline:
      return strategy.allow_unclean ? "OfflinePartitionLeaderElectionStrategy(true)"
                                    : "OfflinePartitionLeaderElectionStrategy(false)";
    case PartitionLeaderElectionStrategy::Kind::Reassign: return "ReassignPartitionLeaderElectionStrategy";
    case PartitionLeaderElectionStrategy::Kind::PreferredReplica: return "PreferredReplicaPartitionLeaderElectionStrategy";
    case PartitionLeaderElectionStrategy::Kind::ControlledShutdown: return "ControlledShutdownPartitionLeaderElectionStrategy";
  }
  return "";
}

namespace {

BrokerList filtered(const BrokerList& replicas, auto keep) {
  BrokerList out;
  for (BrokerId r : replicas) {
    if (keep(r)) out.push_back(r);
  }
  return out;
}

BrokerSet asSet(const BrokerList& replicas) {
  BrokerSet out;
  for (BrokerId r : replicas) out.insert(r);
  return out;
}

}  // namespace

namespace Election {

std::vector<ElectionResult> leaderForOffline(const ControllerContext& context, bool isLeaderRecoverySupported,
                                             const std::vector<UncleanElectionInput>& inputs, Mutants mutants) {
  std::vector<ElectionResult> results;
  for (const UncleanElectionInput& input : inputs) {
    const TopicPartition tp = input.tp;
    const BrokerList assignment = context.partitionReplicaAssignment(tp);
    const BrokerList live = filtered(assignment, [&context, &tp = tp](BrokerId r) { return context.isReplicaOnline(r, tp); });
    if (!input.leader_and_isr) {
      results.push_back(ElectionResult{tp, std::nullopt, live});
      continue;
    }
    const LeaderAndIsr& lai = *input.leader_and_isr;
    const std::optional<BrokerId> leader =
        PartitionLeaderElectionAlgorithms::offlinePartitionLeaderElection(
            assignment, mutants.has(Mutant::M9) ? assignment : lai.isr, asSet(live), input.unclean);  // M9: ISR ignored
    std::optional<LeaderAndIsr> next;
    if (leader) {
      if (lai.isr.contains(*leader)) {
        next = lai.newLeaderAndIsr(*leader, filtered(lai.isr, [&context, &tp = tp](BrokerId r) { return context.isReplicaOnline(r, tp); }));
      } else if (isLeaderRecoverySupported) {
        next = lai.newRecoveringLeaderAndIsr(*leader, BrokerList{*leader});
      } else {
        next = lai.newLeaderAndIsr(*leader, BrokerList{*leader});
      }
    }
    results.push_back(ElectionResult{tp, next, live});
  }
  return results;
}

std::vector<ElectionResult> leaderForReassign(const ControllerContext& context,
                                              const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs) {
  std::vector<ElectionResult> results;
  for (const auto& [tp, lai] : inputs) {
    const BrokerList target = context.partitionFullReplicaAssignment(tp).targetReplicas();
    const BrokerList live = filtered(target, [&context, &tp = tp](BrokerId r) { return context.isReplicaOnline(r, tp); });
    const auto leader = PartitionLeaderElectionAlgorithms::reassignPartitionLeaderElection(target, lai.isr, asSet(live));
    results.push_back(ElectionResult{tp, leader ? std::optional(lai.newLeader(*leader)) : std::nullopt, target});
  }
  return results;
}

std::vector<ElectionResult> leaderForPreferredReplica(const ControllerContext& context,
                                                      const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs) {
  std::vector<ElectionResult> results;
  for (const auto& [tp, lai] : inputs) {
    const BrokerList assignment = context.partitionReplicaAssignment(tp);
    const BrokerList live = filtered(assignment, [&context, &tp = tp](BrokerId r) { return context.isReplicaOnline(r, tp); });
    const auto leader = PartitionLeaderElectionAlgorithms::preferredReplicaPartitionLeaderElection(assignment, lai.isr, asSet(live));
    results.push_back(ElectionResult{tp, leader ? std::optional(lai.newLeader(*leader)) : std::nullopt, assignment});
  }
  return results;
}

std::vector<ElectionResult> leaderForControlledShutdown(const ControllerContext& context,
                                                        const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& inputs,
                                                        Mutants mutants) {
  std::vector<ElectionResult> results;
  const BrokerSet shutting_down = context.shuttingDownBrokerIds;
  for (const auto& [tp, lai] : inputs) {
    const BrokerList assignment = context.partitionReplicaAssignment(tp);
    const BrokerList live_or_sd = filtered(assignment, [&context, &tp = tp](BrokerId r) { return context.isReplicaOnline(r, tp, true); });
    const auto leader = PartitionLeaderElectionAlgorithms::controlledShutdownPartitionLeaderElection(
        assignment, lai.isr, asSet(live_or_sd), mutants.has(Mutant::M15) ? BrokerSet{} : shutting_down);  // M15
    const BrokerList new_isr = filtered(lai.isr, [&](BrokerId r) { return !shutting_down.contains(r); });
    results.push_back(
        ElectionResult{tp, leader ? std::optional(lai.newLeaderAndIsr(*leader, new_isr)) : std::nullopt, live_or_sd});
  }
  return results;
}

}  // namespace Election
}  // namespace kcspec::impl
