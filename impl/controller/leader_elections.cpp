// KafkaController: ElectLeaders and /admin/preferred_replica_election (kafka.md §5.8.1–2), the
// auto leader rebalance (§5.8.3) and a topic's unclean flag being enabled.
#include <map>
#include <optional>
#include <variant>
#include <vector>

#include "impl/controller/election.hpp"
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processReplicaLeaderElection(std::optional<PartitionSet> partitionsFromAdminClient,
                                                   ElectionType type, ElectionTrigger trigger) {
  if (!isActive()) return;  // every given partition → NOT_CONTROLLER
  // registerZNodeChangeHandlerAndCheckExistence(preferredReplicaElectionHandler): a ZooKeeper-
  // triggered election goes on only while /admin/preferred_replica_election exists (the watch
  // stays registered in kcspec).
  if (trigger != ElectionTrigger::AdminClientTriggered && !services_.zk.preferredReplicaElectionExists()) return;
  const PartitionSet partitions =
      partitionsFromAdminClient ? *partitionsFromAdminClient : services_.zk.getPreferredReplicaElection();
  const PartitionSet known = partitions & context_.allPartitions();
  // INFO "Skipping replica leader election (<type>) for partition <tp> by <trigger> since it doesn't exist."
  PartitionSet being_deleted, live;
  known.forEach([&](TopicPartition tp) {
    (tdm_.isTopicQueuedUpForDeletion(tp.topic) ? being_deleted : live).insert(tp);
  });
  if (services_.mutant(Mutant::M4) && type == ElectionType::PREFERRED) {
    // Mutant M4 (KAFKA-5107): the election goes ahead for topics being deleted and marks them
    // ineligible for deletion; nothing resumes them afterwards.
    live = known;
    TopicSet topics;
    known.forEach([&](TopicPartition tp) { topics.insert(tp.topic); });
    tdm_.markTopicIneligibleForDeletion(topics, "preferred replica election in progress");
  }
  // WARN "Skipping replica leader election (<type>) for partitions … by <trigger> since the respective
  // topics are being deleted"
  PartitionSet electable;
  live.forEach([&](TopicPartition tp) {
    // A known partition without cached leadership: NoSuchElementException, the whole event is
    // abandoned before onReplicaElection (so a ZooKeeper request's znode stays).
    const auto& leadership = context_.partitionLeadershipInfo(tp);
    if (!leadership) throw NoSuchElementException("None.get");
    const BrokerId leader = leadership->leader_and_isr.leader;
    if (type == ElectionType::PREFERRED) {
      const BrokerList assigned = context_.partitionReplicaAssignment(tp);
      if (assigned.empty()) throw NoSuchElementException("head of empty list");
      if (leader != assigned.front()) electable.insert(tp);
    } else if (leader == kNoLeader || !context_.liveBrokerIds().contains(leader)) {
      electable.insert(tp);
    }
    // otherwise ELECTION_NOT_NEEDED
  });
  onReplicaElection(electable, type, trigger);
  // DEBUG "Waiting for any successful result for election type (<type>) by <trigger> for partitions: …"
}

ElectionOutcomes KafkaController::onReplicaElection(PartitionSet partitions, ElectionType type, ElectionTrigger trigger) {
  // INFO "Starting replica leader election (<type>) for partitions <…> triggered by <trigger>"
  ElectionOutcomes results;
  try {
    const PartitionLeaderElectionStrategy strategy =
        type == ElectionType::PREFERRED
            ? PartitionLeaderElectionStrategy::preferredReplica()
            : PartitionLeaderElectionStrategy::offline(/*allowUnclean=*/trigger == ElectionTrigger::AdminClientTriggered);
    results = psm_.handleStateChanges(toVector(partitions), PartitionState::OnlinePartition, strategy);
    if (trigger != ElectionTrigger::AdminClientTriggered) {
      for (const auto& [tp, outcome] : results) {
        const Failure* failure = std::get_if<Failure>(&outcome);
        if (failure == nullptr) continue;
        if (failure->exception_class == kControllerMovedExceptionClass) {
          // INFO "Error completing replica leader election (<type>) for partition <tp> because
          // controller has moved to another broker."
          throw ControllerMovedException(failure->message);
        }
        // ERROR "Error completing replica leader election (<type>) for partition <tp>"
      }
    }
  } catch (const KafkaThrowable&) {
    // The finally-block runs with the exception in flight; one it throws replaces it.
    if (trigger != ElectionTrigger::AdminClientTriggered) {
      removePartitionsFromPreferredReplicaElection(partitions, trigger == ElectionTrigger::AutoTriggered);
    }
    throw;
  }
  if (trigger != ElectionTrigger::AdminClientTriggered) {
    removePartitionsFromPreferredReplicaElection(partitions, trigger == ElectionTrigger::AutoTriggered);
  }
  return results;
}

void KafkaController::removePartitionsFromPreferredReplicaElection(PartitionSet partitionsToBeRemoved,
                                                                  bool isTriggeredByAutoRebalance) {
  partitionsToBeRemoved.forEach([&](TopicPartition tp) {
    const auto& leadership = context_.partitionLeadershipInfo(tp);
    if (!leadership) throw NoSuchElementException("None.get");
    const BrokerList assigned = context_.partitionReplicaAssignment(tp);
    if (assigned.empty()) throw NoSuchElementException("head of empty list");
    // leader == preferred: INFO "Partition <tp> completed preferred replica leader election. New
    // leader is <pref>"; else WARN "Partition <tp> failed to complete preferred replica leader
    // election to <pref>. Leader is still <leader>"
  });
  if (isTriggeredByAutoRebalance) return;
  // Fenced (a stale controller gets ControllerMovedException, and nothing is queued); a missing
  // znode is fine (NONODE is not checked).
  services_.zk.deletePreferredReplicaElection(context_.epochZkVersion);
  // "Ensure we detect future preferred replica leader elections": eventManager.put on this
  // controller's own queue.
  putOwnEvent(ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                              .election_type = ElectionType::PREFERRED,
                              .zk_triggered = true});
}

void KafkaController::processAutoPreferredReplicaLeaderElection() {
  if (!isActive()) return;
  // INFO "Processing automatic preferred replica leader election"; the finally-block re-schedules
  // the task (ImplCluster's auto-rebalance-timer action is that task firing).
  checkAndTriggerAutoLeaderRebalance();
}

void KafkaController::checkAndTriggerAutoLeaderRebalance() {
  // TRACE "Checking need to trigger auto leader balancing"
  std::map<BrokerId, std::vector<TopicPartition>> partitions_by_preferred_replica;  // ascending broker ids
  context_.allPartitions().forEach([&](TopicPartition tp) {
    if (tdm_.isTopicQueuedUpForDeletion(tp.topic)) return;
    const BrokerList assigned = context_.partitionReplicaAssignment(tp);
    if (assigned.empty()) throw NoSuchElementException("head of empty list");
    partitions_by_preferred_replica[assigned.front()].push_back(tp);
  });
  constexpr double kLeaderImbalancePerBrokerPercentage = 10.0;  // leader.imbalance.per.broker.percentage
  for (const auto& [leader_broker, partitions] : partitions_by_preferred_replica) {
    std::vector<TopicPartition> not_in_preferred_replica;
    for (TopicPartition tp : partitions) {
      const auto& leadership = context_.partitionLeadershipInfo(tp);
      if (leadership && leadership->leader_and_isr.leader != leader_broker) not_in_preferred_replica.push_back(tp);
    }
    // DEBUG "Topics not in preferred replica for broker <b> <…>"
    const double imbalance_ratio =
        static_cast<double>(not_in_preferred_replica.size()) / static_cast<double>(partitions.size());
    // TRACE "Leader imbalance ratio for broker <b> is <ratio>"
    if (imbalance_ratio <= kLeaderImbalancePerBrokerPercentage / 100.0) continue;
    PartitionSet candidates;
    for (TopicPartition tp : not_in_preferred_replica) {
      if (!tdm_.isTopicQueuedUpForDeletion(tp.topic) && context_.allTopics.contains(tp.topic) &&
          canPreferredReplicaBeLeader(tp)) {
        candidates.insert(tp);
      }
    }
    onReplicaElection(candidates, ElectionType::PREFERRED, ElectionTrigger::AutoTriggered);
  }
}

bool KafkaController::canPreferredReplicaBeLeader(TopicPartition tp) const {
  const BrokerList assignment = context_.partitionReplicaAssignment(tp);
  BrokerSet live_replicas;
  for (BrokerId replica : assignment) {
    if (context_.isReplicaOnline(replica, tp)) live_replicas.insert(replica);
  }
  const BrokerList& isr = context_.partitionLeadershipInfo(tp)->leader_and_isr.isr;
  return PartitionLeaderElectionAlgorithms::preferredReplicaPartitionLeaderElection(assignment, isr, live_replicas)
      .has_value();
}

void KafkaController::processTopicUncleanLeaderElectionEnable(TopicIndex topic) {
  if (!isActive()) return;
  // INFO "Unclean leader election has been enabled for topic <t>"
  psm_.triggerOnlinePartitionStateChange(topic);
}

}  // namespace kcspec::impl
