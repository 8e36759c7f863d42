// KafkaController: ElectLeaders (facts §5.8.1–2) and a topic's unclean flag being enabled.
#include "impl/controller/kafka_controller.hpp"

namespace kcspec::impl {

void KafkaController::processReplicaLeaderElection(PartitionSet partitions, ElectionType type) {
  if (!isActive()) return;  // every partition → NOT_CONTROLLER
  // AdminClientTriggered: no /admin/preferred_replica_election check.
  const PartitionSet known = partitions & context_.allPartitions();
  // INFO "Skipping replica leader election (<type>) for partition <tp> by AdminClientTriggered since it doesn't exist."
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
  // WARN "Skipping replica leader election (<type>) for partitions … since the respective topics are being deleted"
  PartitionSet electable;
  live.forEach([&](TopicPartition tp) {
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
  onReplicaElection(electable, type);
  // DEBUG "Waiting for any successful result for election type (<type>) by AdminClientTriggered for partitions: …"
}

ElectionOutcomes KafkaController::onReplicaElection(PartitionSet partitions, ElectionType type) {
  // INFO "Starting replica leader election (<type>) for partitions <…> triggered by AdminClientTriggered"
  const PartitionLeaderElectionStrategy strategy = type == ElectionType::PREFERRED
                                                       ? PartitionLeaderElectionStrategy::preferredReplica()
                                                       : PartitionLeaderElectionStrategy::offline(/*allowUnclean=*/true);
  return psm_.handleStateChanges(toVector(partitions), PartitionState::OnlinePartition, strategy);
}

void KafkaController::processTopicUncleanLeaderElectionEnable(TopicIndex topic) {
  if (!isActive()) return;
  // INFO "Unclean leader election has been enabled for topic <t>"
  psm_.triggerOnlinePartitionStateChange(topic);
}

}  // namespace kcspec::impl
