// The four leader elections of Kafka's ZooKeeper-mode controller (kafka.md §2.7, §2.8).
//
// Part one: PartitionLeaderElectionAlgorithms — which broker leads, nothing else.
// Part two: what each strategy (`leaderFor*` in Election.scala) makes of that leader for one
// partition: the new ISR, the recovery state and the brokers told about it.
//
// Sets of brokers are per partition: `live` holds every r for which isReplicaOnline(r, tp) holds
// (registered, not shutting down, partition not on an offline log dir of r); `live_or_shutting_down`
// holds every r for which isReplicaOnline(r, tp, includeShuttingDownBrokers = true) holds (kafka.md §5.2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec::spec {

// ---- PartitionLeaderElectionAlgorithms (kafka.md §2.8, pseudo-code) -------------------------------

// The first replica of `assignment` that is live and in the ISR; failing that, when unclean
// election is enabled, the first live replica of `assignment`; else none.
std::optional<BrokerId> offlinePartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                       BrokerSet live, bool allow_unclean);

// The first replica of the target replicas that is live and in the ISR; else none.
std::optional<BrokerId> reassignPartitionLeaderElection(const BrokerList& target_replicas, const BrokerList& isr,
                                                        BrokerSet live);

// The head of `assignment` if it is live and in the ISR; else none (there is no fallback).
std::optional<BrokerId> preferredReplicaPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                BrokerSet live);

// The first replica of `assignment` that is live-or-shutting-down, in the ISR and not shutting down.
std::optional<BrokerId> controlledShutdownPartitionLeaderElection(const BrokerList& assignment, const BrokerList& isr,
                                                                  BrokerSet live_or_shutting_down,
                                                                  BrokerSet shutting_down);

// ---- PartitionLeaderElectionStrategy (kafka.md §0.5) -------------------------------------------

enum class ElectionStrategyKind : std::uint8_t {
  OfflinePartition,
  ReassignPartition,
  PreferredReplicaPartition,
  ControlledShutdownPartition,
};

struct ElectionStrategy {
  ElectionStrategyKind kind = ElectionStrategyKind::OfflinePartition;
  bool allow_unclean = false;  // OfflinePartitionLeaderElectionStrategy(allowUnclean); ignored by the other kinds
  friend constexpr bool operator==(const ElectionStrategy&, const ElectionStrategy&) = default;
};

// Kafka's toString, e.g. "OfflinePartitionLeaderElectionStrategy(false)", "ReassignPartitionLeaderElectionStrategy".
std::string toKafkaString(const ElectionStrategy& strategy);

// ---- One partition's election (kafka.md §2.7 and the table of §2.8) -------------------------------

struct ElectionInputs {
  BrokerList assignment;       // the full replica list (ReplicaAssignment.replicas), in preference order
  BrokerList target_replicas;  // ReplicaAssignment.targetReplicas (== assignment when not reassigning); Reassign only
  BrokerList isr;              // the ISR read from the partition's state znode
  BrokerSet live;                   // isReplicaOnline(r, tp)
  BrokerSet live_or_shutting_down;  // isReplicaOnline(r, tp, includeShuttingDownBrokers = true)
  BrokerSet shutting_down;          // shuttingDownBrokerIds
  bool topic_unclean_enabled = false;  // the topic's unclean.leader.election.enable (override over broker default)
  // isLeaderRecoverySupported: inter.broker.protocol.version ≥ 3.2-IV0 (KIP-704).
  bool leader_recovery_supported = true;
};

struct ElectionDecision {
  BrokerId leader = kNoLeader;  // the elected leader; the new LeaderAndIsr has leaderEpoch + 1
  BrokerList new_isr;           // the new LeaderAndIsr's ISR (== the old ISR when !isr_replaced)
  bool isr_replaced = false;    // newLeaderAndIsr / newRecoveringLeaderAndIsr (true) or newLeader (false)
  bool recovering = false;      // true: recovery state := RECOVERING (newRecoveringLeaderAndIsr, unclean
                                // election when leader recovery is supported); false: recovery state copied unchanged
                                // from the LeaderAndIsr read from ZK (it is not reset to RECOVERED)
  bool unclean = false;         // the leader was not in the old ISR (the UncleanLeaderElectionsPerSec meter ticks)
  BrokerList recipients;        // the brokers the LeaderAndIsr request is queued to, in assignment order
  friend constexpr bool operator==(const ElectionDecision&, const ElectionDecision&) = default;
};

// ElectionResult.liveReplicas: the brokers the partition's LeaderAndIsr request goes to after an
// election under `strategy` (the table of §2.8), which Kafka computes whether or not a leader is
// found — the live replicas for Offline, every target replica for Reassign, every replica for
// PreferredReplica, the live-or-shutting-down replicas for ControlledShutdown; in assignment order.
BrokerList electionRecipients(const ElectionStrategy& strategy, const ElectionInputs& inputs);

// The election of one partition under `strategy`, or none when no leader can be elected
// ("Failed to elect leader for partition <tp> under strategy <S>"; the partition is left as it was).
// For the Offline strategy, unclean election is enabled only when no ISR member is live, and then
// iff strategy.allow_unclean or inputs.topic_unclean_enabled (collectUncleanLeaderElectionState).
std::optional<ElectionDecision> electLeader(const ElectionStrategy& strategy, const ElectionInputs& inputs);

}  // namespace kcspec::spec
