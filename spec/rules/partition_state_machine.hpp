// PartitionStateMachine (kafka.md §2): moves partitions between NewPartition, OnlinePartition,
// OfflinePartition and NonExistentPartition, electing leaders on the way to OnlinePartition.
#pragma once

#include <optional>

#include "spec/rules/controller.hpp"
#include "spec/rules/elections.hpp"

namespace kcspec::spec {

// Which partitions went through an election, and how it ended (kafka.md §2.3: partitions that
// were initialized from NewPartition are in neither set).
struct ElectionResults {
  PartitionSet elected;
  PartitionSet failed;
  bool empty() const { return elected.empty() && failed.empty(); }
};

// §2.7, §2.8: what Election.leaderFor* reads for one partition whose state znode holds `current` —
// the context's assignment and broker sets, the ISR read from ZooKeeper, the topic's
// unclean.leader.election.enable read from /config/topics/<t>.
ElectionInputs electionInputs(Controller& ctl, TopicPartition tp, const LeaderAndIsr& current);

// The LeaderAndIsr an election makes of `current`: leader epoch + 1, partition epoch unchanged
// (the ZooKeeper write sets it).
LeaderAndIsr electedLeaderAndIsr(const LeaderAndIsr& current, const ElectionDecision& decision);

// PartitionStateMachine.startup (§2.1): initializePartitionState, then triggerOnlinePartitionStateChange.
void partitionStateMachineStartup(Controller& ctl);

// handleStateChanges (§2.3): one batch, flushed at the end.
ElectionResults handleStateChanges(Controller& ctl, PartitionSet partitions, PartitionState target,
                                   std::optional<ElectionStrategy> strategy = std::nullopt);

// triggerOnlinePartitionStateChange (§2.2): New and Offline partitions of topics not queued for
// deletion → OnlinePartition with OfflinePartitionLeaderElectionStrategy(false). With a topic,
// only that topic's partitions.
ElectionResults triggerOnlinePartitionStateChange(Controller& ctl, std::optional<TopicIndex> topic = std::nullopt);

}  // namespace kcspec::spec
