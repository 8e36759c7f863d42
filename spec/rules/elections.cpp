// The four leader elections, read off kafka.md §2.7 and §2.8 rule by rule.
#include "spec/rules/elections.hpp"

namespace kcspec::spec {
namespace {

// The first broker of `list` (in its order) that satisfies `holds`.
template <class Predicate>
std::optional<BrokerId> first(const BrokerList& list, Predicate holds) {
  for (BrokerId r : list) {
    if (holds(r)) return r;
  }
  return std::nullopt;
}

// [r in list where holds(r)], order kept.
template <class Predicate>
BrokerList filter(const BrokerList& list, Predicate holds) {
  BrokerList kept;
  for (BrokerId r : list) {
    if (holds(r)) kept.push_back(r);
  }
  return kept;
}

}  // namespace

// ---- PartitionLeaderElectionAlgorithms ----------------------------------------------------------

std::optional<BrokerId> offlinePartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                       BrokerSet live, bool allow_unclean) {
  if (auto clean = first(assignment, [&](BrokerId r) { return live.contains(r) && isr.contains(r); })) return clean;
  if (allow_unclean) return first(assignment, [&](BrokerId r) { return live.contains(r); });
  return std::nullopt;
}

std::optional<BrokerId> reassignPartitionLeaderElection(const BrokerList& target_replicas, const BrokerList& isr,
                                                        BrokerSet live) {
  return first(target_replicas, [&](BrokerId r) { return live.contains(r) && isr.contains(r); });
}

std::optional<BrokerId> preferredReplicaPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                BrokerSet live) {
  if (!assignment.empty() && live.contains(assignment.front()) && isr.contains(assignment.front())) {
    return assignment.front();
  }
  return std::nullopt;
}

std::optional<BrokerId> controlledShutdownPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                  BrokerSet live_or_shutting_down,
                                                                  BrokerSet shutting_down) {
  return first(assignment, [&](BrokerId r) {
    return live_or_shutting_down.contains(r) && isr.contains(r) && !shutting_down.contains(r);
  });
}

// ---- Strategies ---------------------------------------------------------------------------------

std::string toKafkaString(const ElectionStrategy& strategy) {
  switch (strategy.kind) {
    case ElectionStrategyKind::OfflinePartition:
      return strategy.allow_unclean ? "OfflinePartitionLeaderElectionStrategy(true)"
                                    : "OfflinePartitionLeaderElectionStrategy(false)";
    case ElectionStrategyKind::ReassignPartition:
      return "ReassignPartitionLeaderElectionStrategy";
    case ElectionStrategyKind::PreferredReplicaPartition:
      return "PreferredReplicaPartitionLeaderElectionStrategy";
    case ElectionStrategyKind::ControlledShutdownPartition:
      return "ControlledShutdownPartitionLeaderElectionStrategy";
  }
  KCSPEC_ASSERT(false);
  return {};
}

namespace {

// leaderForOffline, after collectUncleanLeaderElectionState (§2.7) has fixed the unclean flag.
std::optional<ElectionDecision> leaderForOffline(bool allow_unclean, const ElectionInputs& in) {
  const auto online = [&](BrokerId r) { return in.live.contains(r); };
  const bool no_live_isr_member = filter(in.isr, online).empty();
  const bool unclean_enabled = no_live_isr_member && (allow_unclean || in.topic_unclean_enabled);

  const auto leader = offlinePartitionLeaderElection(in.assignment, in.isr, in.live, unclean_enabled);
  if (!leader) return std::nullopt;
  if (in.isr.contains(*leader)) {
    return ElectionDecision{.leader = *leader, .new_isr = filter(in.isr, online), .isr_replaced = true,
                            .recovering = false, .unclean = false};
  }
  // Unclean: the leader recovers its log first, where the protocol knows that state (≥ 3.2-IV0).
  return ElectionDecision{.leader = *leader, .new_isr = BrokerList{*leader}, .isr_replaced = true,
                          .recovering = in.leader_recovery_supported, .unclean = true};
}

std::optional<ElectionDecision> leaderForReassign(const ElectionInputs& in) {
  const auto leader = reassignPartitionLeaderElection(in.target_replicas, in.isr, in.live);
  if (!leader) return std::nullopt;
  return ElectionDecision{.leader = *leader, .new_isr = in.isr, .isr_replaced = false,
                          .recovering = false, .unclean = false};
}

std::optional<ElectionDecision> leaderForPreferredReplica(const ElectionInputs& in) {
  const auto leader = preferredReplicaPartitionLeaderElection(in.assignment, in.isr, in.live);
  if (!leader) return std::nullopt;
  return ElectionDecision{.leader = *leader, .new_isr = in.isr, .isr_replaced = false,
                          .recovering = false, .unclean = false};
}

std::optional<ElectionDecision> leaderForControlledShutdown(const ElectionInputs& in) {
  const auto leader = controlledShutdownPartitionLeaderElection(in.assignment, in.isr, in.live_or_shutting_down,
                                                                in.shutting_down);
  if (!leader) return std::nullopt;
  return ElectionDecision{.leader = *leader,
                          .new_isr = filter(in.isr, [&](BrokerId i) { return !in.shutting_down.contains(i); }),
                          .isr_replaced = true, .recovering = false, .unclean = false};
}

std::optional<ElectionDecision> leaderFor(const ElectionStrategy& strategy, const ElectionInputs& inputs) {
  switch (strategy.kind) {
    case ElectionStrategyKind::OfflinePartition:
      return leaderForOffline(strategy.allow_unclean, inputs);
    case ElectionStrategyKind::ReassignPartition:
      return leaderForReassign(inputs);
    case ElectionStrategyKind::PreferredReplicaPartition:
      return leaderForPreferredReplica(inputs);
    case ElectionStrategyKind::ControlledShutdownPartition:
      return leaderForControlledShutdown(inputs);
  }
  KCSPEC_ASSERT(false);
  return std::nullopt;
}

}  // namespace

BrokerList electionRecipients(const ElectionStrategy& strategy, const ElectionInputs& in) {
  switch (strategy.kind) {
    case ElectionStrategyKind::OfflinePartition:
      return filter(in.assignment, [&](BrokerId r) { return in.live.contains(r); });
    case ElectionStrategyKind::ReassignPartition:
      return in.target_replicas;
    case ElectionStrategyKind::PreferredReplicaPartition:
      return in.assignment;
    case ElectionStrategyKind::ControlledShutdownPartition:
      return filter(in.assignment, [&](BrokerId r) { return in.live_or_shutting_down.contains(r); });
  }
  KCSPEC_ASSERT(false);
  return {};
}

std::optional<ElectionDecision> electLeader(const ElectionStrategy& strategy, const ElectionInputs& inputs) {
  // isReplicaOnline without shutting-down brokers implies it with them, and excludes them.
  KCSPEC_ASSERT((inputs.live - inputs.live_or_shutting_down).empty());
  KCSPEC_ASSERT((inputs.live & inputs.shutting_down).empty());
  std::optional<ElectionDecision> decision = leaderFor(strategy, inputs);
  if (decision) decision->recipients = electionRecipients(strategy, inputs);
  return decision;
}

}  // namespace kcspec::spec
