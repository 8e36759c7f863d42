// Leader elections asked for by operators, brokers and the controller's own rebalance scheduler
// (kafka.md §5.8, §5.9, §5.12).
#pragma once

#include <optional>

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// §5.8.1 ReplicaLeaderElection(partitions, type, AdminClientTriggered) — the ElectLeaders API.
void processReplicaLeaderElection(Controller& ctl, PartitionSet partitions, ElectionType type);

// §5.8.1 ReplicaLeaderElection(None, PREFERRED, ZkTriggered): the partitions that
// /admin/preferred_replica_election names, when it exists; then the znode is deleted.
void processZkTriggeredReplicaLeaderElection(Controller& ctl);

// §5.4 failover step 14: the elections /admin/preferred_replica_election still asks for (those not
// completed, of topics not being deleted) run, and the znode is deleted — also when it is absent,
// so every failover ends by queueing ReplicaLeaderElection(None, PREFERRED, ZkTriggered).
void resumePreferredReplicaElections(Controller& ctl);

// §5.8.3 AutoPreferredReplicaLeaderElection — checkAndTriggerAutoLeaderRebalance: for each broker,
// when more than leader.imbalance.per.broker.percentage (10) of the partitions it is preferred for
// are led by someone else, elect the preferred replica of those whose preferred replica can lead.
void processAutoPreferredReplicaLeaderElection(Controller& ctl);

// §5.9 ControlledShutdown(id, brokerEpoch): moves leadership off the broker and removes it from
// the ISRs it follows. The broker learns the partitions it still leads (not modeled further).
// Kafka runs it in a Try, so a ControllerMovedException goes to the broker and does not escape.
void processControlledShutdown(Controller& ctl, BrokerId broker, std::int64_t broker_epoch);

// §5.12 AlterPartitionReceived: a leader's proposed ISR for one partition. The response reaches
// the leader at once (its HostedReplica takes the new ISR and partition epoch). A
// ControllerMovedException from the write becomes UNKNOWN_SERVER_ERROR and does not escape.
// `topic_id`: the id the request names the topic by (version 2 and later), nothing when by name.
void processAlterPartition(Controller& ctl, BrokerId broker, std::int64_t broker_epoch, TopicPartition tp,
                           const LeaderAndIsr& proposed, std::optional<TopicId> topic_id);

// updateLeaderAndIsrCache: the partition's cached leadership is reloaded from its state znode
// (kept when the znode is gone), not taken from what was written.
void updateLeaderAndIsrCache(Controller& ctl, TopicPartition tp);

}  // namespace kcspec::spec
