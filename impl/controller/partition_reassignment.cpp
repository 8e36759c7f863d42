// KafkaController: partition reassignment, KIP-455 model (kafka.md §5.7).
#include "impl/controller/kafka_controller.hpp"

#include <fmt/format.h>

#include <map>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

namespace {
constexpr int kMaxRetryRounds = 100;  // updateLeaderEpoch's BADVERSION loop (kafka.md Appendix D.7)
}  // namespace

// kafka.md §5.7.6: /admin/reassign_partitions (its creation, the controller re-arming its watch,
// and failover step 12).
PartitionSet KafkaController::processZkPartitionReassignment() {
  // registerZNodeChangeHandlerAndCheckExistence: the watch stays registered (kcspec's watches are
  // not one-shot), the existence check decides.
  if (!isActive() || !services_.zk.reassignPartitionsInProgress()) return PartitionSet{};
  // Kafka's maps iterate in hash order; kcspec's fixed order is ascending partitions.
  std::map<TopicPartition, ReplicaAssignment> partitions_to_reassign;
  for (const auto& [tp, target] : services_.zk.getPartitionReassignment()) {
    // maybeBuildReassignment with a target always builds one; the target is not validated.
    partitions_to_reassign.emplace(tp, *maybeBuildReassignment(tp, target));
  }
  PartitionSet reassigned, failed;
  for (const auto& [tp, reassignment] : partitions_to_reassign) {
    (maybeTriggerPartitionReassignment(tp, reassignment) ? reassigned : failed).insert(tp);
  }
  if (!failed.empty()) {
    // WARN "Failed reassignment through zk with the following errors: <map>"
    maybeRemoveFromZkReassignment([&](TopicPartition tp, const BrokerList&) { return failed.contains(tp); });
  }
  return reassigned;
}

// kafka.md §5.7.7: one partition per request in kcspec.
void KafkaController::processApiPartitionReassignment(TopicPartition tp, std::optional<BrokerList> targetReplicas) {
  if (!isActive()) return;  // NOT_CONTROLLER
  std::optional<ReplicaAssignment> reassignment;
  if (!targetReplicas || validateReplicas(tp, *targetReplicas)) {  // else INVALID_REPLICA_ASSIGNMENT
    reassignment = maybeBuildReassignment(tp, targetReplicas);      // nullopt: NO_REASSIGNMENT_IN_PROGRESS
  }
  // The latest reassignment (by API or through ZooKeeper) wins: it leaves the ZooKeeper one.
  // Called whatever the request held: with nothing to remove it still rewrites (or, holding no
  // entry, deletes) an existing /admin/reassign_partitions.
  PartitionSet partitions_to_reassign;
  if (reassignment) partitions_to_reassign.insert(tp);
  maybeRemoveFromZkReassignment(
      [&](TopicPartition p, const BrokerList&) { return partitions_to_reassign.contains(p); });
  if (reassignment) maybeTriggerPartitionReassignment(tp, *reassignment);
}

std::optional<ReplicaAssignment> KafkaController::maybeBuildReassignment(TopicPartition tp,
                                                                         std::optional<BrokerList> targetReplicas) const {
  const ReplicaAssignment current = context_.partitionFullReplicaAssignment(tp);
  if (current.isBeingReassigned()) return current.reassignTo(targetReplicas.value_or(current.originReplicas()));
  if (targetReplicas) return current.reassignTo(*targetReplicas);
  return std::nullopt;
}

bool KafkaController::validateReplicas(TopicPartition tp, const BrokerList& replicas) const {
  if (replicas.empty()) return false;  // "Empty replica list specified in partition reassignment."
  BrokerSet distinct;
  for (BrokerId r : replicas) {
    if (r < 0) return false;  // "Invalid broker id in replica list: …"
    if (distinct.contains(r)) return false;  // "Duplicate replica ids in partition reassignment replica list: …"
    distinct.insert(r);
  }
  // "Replica assignment has brokers that are not alive. Replica list: …, live broker list: …"
  const BrokerSet live = context_.liveBrokerIds();
  for (BrokerId r : context_.partitionFullReplicaAssignment(tp).reassignTo(replicas).adding_replicas) {
    if (!live.contains(r)) return false;
  }
  return true;
}

bool KafkaController::maybeTriggerPartitionReassignment(TopicPartition tp, const ReplicaAssignment& reassignment) {
  // INFO "Skipping reassignment of <tp> since the topic is currently being deleted"
  if (tdm_.isTopicQueuedUpForDeletion(tp.topic)) return false;  // UNKNOWN_TOPIC_OR_PARTITION
  if (context_.partitionReplicaAssignment(tp).empty()) return false;  // UNKNOWN_TOPIC_OR_PARTITION
  try {
    onPartitionReassignment(tp, reassignment);
    return true;  // ApiError.NONE
  } catch (const ControllerMovedException&) {
    // INFO "Failed completing reassignment of partition <tp> because controller has moved to another broker"
    throw;
  } catch (const KafkaThrowable&) {
    // ERROR "Error completing reassignment of partition <tp>"; UNKNOWN_SERVER_ERROR
    return false;
  }
}

void KafkaController::onPartitionReassignment(TopicPartition tp, const ReplicaAssignment& reassignment) {
  tdm_.markTopicIneligibleForDeletion(TopicSet{tp.topic}, "topic reassignment in progress");
  updateCurrentReassignment(tp, reassignment);
  if (!isReassignmentComplete(tp, reassignment)) {
    // A1: LeaderAndIsr with the new RS/AR/RR to ORS + AR, by bumping the leader epoch.
    updateLeaderEpochAndSendRequest(tp, reassignment);
    // A2: AR → NewReplica, one call per replica.
    for (BrokerId r : reassignment.adding_replicas) {
      rsm_.handleStateChanges({PartitionAndReplica{tp, r}}, ReplicaState::NewReplica);
    }
    return;
  }
  // B1
  std::vector<PartitionAndReplica> adding;
  for (BrokerId r : reassignment.adding_replicas) adding.push_back(PartitionAndReplica{tp, r});
  rsm_.handleStateChanges(adding, ReplicaState::OnlineReplica);
  // B2
  const ReplicaAssignment completed(reassignment.targetReplicas());
  context_.updatePartitionFullReplicaAssignment(tp, completed);
  // B3
  moveReassignedPartitionLeaderIfRequired(tp, completed);
  // B4, B5
  stopRemovedReplicasOfReassignedPartition(tp, reassignment.removing_replicas);
  // B6
  updateReplicaAssignmentForPartition(tp, completed);
  // B7
  removePartitionFromReassigningPartitions(tp, completed);
  // B8
  sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), PartitionSet{tp});
  tdm_.resumeDeletionForTopics(TopicSet{tp.topic});
}

void KafkaController::updateCurrentReassignment(TopicPartition tp, const ReplicaAssignment& reassignment) {
  const ReplicaAssignment current = context_.partitionFullReplicaAssignment(tp);
  if (current != reassignment) {
    // DEBUG "Updating assignment of partition <tp> from <current> to <new>"
    updateReplicaAssignmentForPartition(tp, reassignment);  // U1
    context_.updatePartitionFullReplicaAssignment(tp, reassignment);  // U2
    BrokerList unneeded;  // U3: current.replicas diff new.replicas
    for (BrokerId r : current.replicas) {
      if (!reassignment.replicas.contains(r)) unneeded.push_back(r);
    }
    if (!unneeded.empty()) stopRemovedReplicasOfReassignedPartition(tp, unneeded);
  }
  if (!services_.isAlterPartitionEnabled()) {
    // registerZNodeChangeHandler(new PartitionReassignmentIsrChangeHandler(tp)): leaders write
    // their ISR changes to the state znode themselves.
    services_.zk.registerZNodeChangeHandler(id_, statePath(tp));
  }
  context_.partitionsBeingReassigned.insert(tp);
}

void KafkaController::updateReplicaAssignmentForPartition(TopicPartition tp, const ReplicaAssignment& assignment) {
  zk::TopicAssignment topic_assignment;
  context_.partitionsForTopic(tp.topic).forEach([&](TopicPartition p) {
    topic_assignment.emplace(p.partition, context_.partitionFullReplicaAssignment(p));
  });
  topic_assignment[tp.partition] = assignment;
  const zk::Code code =
      services_.zk.setTopicAssignment(tp.topic, context_.topicIdOf(tp.topic), topic_assignment, context_.epochZkVersion);
  if (code == zk::Code::OK) return;  // INFO "Successfully updated assignment of partition <tp> to <assignment>"
  if (code == zk::Code::NONODE) {
    throw IllegalStateException(fmt::format("Failed to update assignment for {} since the topic has no current assignment",
                                            name(tp)));
  }
  throw KafkaException(keeperFailure(code).message);
}

bool KafkaController::isReassignmentComplete(TopicPartition tp, const ReplicaAssignment& assignment) const {
  if (!assignment.isBeingReassigned()) return true;
  const std::optional<LeaderIsrAndControllerEpoch> state = services_.zk.getTopicPartitionStates(tp);
  if (!state) return false;
  for (BrokerId r : assignment.targetReplicas()) {
    if (!state->leader_and_isr.isr.contains(r)) return false;
  }
  return true;
}

void KafkaController::maybeCompleteReassignment(TopicPartition tp) {
  const ReplicaAssignment reassignment = context_.partitionFullReplicaAssignment(tp);
  if (isReassignmentComplete(tp, reassignment)) {
    // INFO "Target replicas <TRS> have all caught up with the leader for reassigning partition <tp>"
    onPartitionReassignment(tp, reassignment);
  }
}

void KafkaController::maybeResumeReassignments(const ShouldResumeReassignment& shouldResume) {
  const PartitionSet reassigning = context_.partitionsBeingReassigned;  // a snapshot: resuming may complete some
  reassigning.forEach([&](TopicPartition tp) {
    const ReplicaAssignment current = context_.partitionFullReplicaAssignment(tp);
    if (shouldResume(tp, current)) onPartitionReassignment(tp, current);
  });
}

void KafkaController::moveReassignedPartitionLeaderIfRequired(TopicPartition tp, const ReplicaAssignment& newAssignment) {
  const auto& leadership = context_.partitionLeadershipInfo(tp);
  if (!leadership) throw NoSuchElementException("None.get");
  const BrokerId leader = leadership->leader_and_isr.leader;
  if (!newAssignment.replicas.contains(leader)) {
    // INFO "Leader <l> for partition <tp> being reassigned, is not in the new list of replicas <TRS>. Re-electing leader"
    psm_.handleStateChanges({tp}, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::reassign());
  } else if (context_.isReplicaOnline(leader, tp)) {
    // INFO "… is already in the new list of replicas <TRS> and is alive"
    updateLeaderEpochAndSendRequest(tp, newAssignment);
  } else {
    // INFO "… is already in the new list of replicas <TRS> but is dead"
    psm_.handleStateChanges({tp}, PartitionState::OnlinePartition, PartitionLeaderElectionStrategy::reassign());
  }
}

void KafkaController::stopRemovedReplicasOfReassignedPartition(TopicPartition tp, const BrokerList& removedReplicas) {
  std::vector<PartitionAndReplica> replicas;
  for (BrokerId r : removedReplicas) replicas.push_back(PartitionAndReplica{tp, r});
  rsm_.handleStateChanges(replicas, ReplicaState::OfflineReplica);
  rsm_.handleStateChanges(replicas, ReplicaState::ReplicaDeletionStarted);
  rsm_.handleStateChanges(replicas, ReplicaState::ReplicaDeletionSuccessful);
  rsm_.handleStateChanges(replicas, ReplicaState::NonExistentReplica);
}

void KafkaController::updateLeaderEpochAndSendRequest(TopicPartition tp, const ReplicaAssignment& assignment) {
  const StateChangeLogger log = stateChangeLog();
  const std::optional<LeaderIsrAndControllerEpoch> updated = updateLeaderEpoch(tp);
  if (!updated) {
    log.error([&] {
      return fmt::format("Failed to send LeaderAndIsr request with new replica assignment {} to leader for partition being "
                         "reassigned {}",
                         toKafkaString(assignment), name(tp));
    });
    return;
  }
  try {
    state_.controller_batch.newBatch();
    state_.controller_batch.addLeaderAndIsrRequestForBrokers(assignment.originReplicas(), tp, *updated, assignment,
                                                             /*isNew=*/false, context_);
    state_.controller_batch.addLeaderAndIsrRequestForBrokers(assignment.adding_replicas, tp, *updated, assignment,
                                                             /*isNew=*/true, context_);
    state_.controller_batch.sendRequestsToBrokers(context_.epoch, id_, context_, services_.channel, services_.logger,
                                                  services_.config,
                                 services_.interBrokerProtocolVersion());
  } catch (const IllegalStateException& e) {
    handleIllegalState(e);
  }
  log.info([&] {
    return fmt::format("Sent LeaderAndIsr request {} with new replica assignment {} to leader {} for partition being "
                       "reassigned {}",
                       toKafkaString(*updated), toKafkaString(assignment), updated->leader_and_isr.leader, name(tp));
  });
}

std::optional<LeaderIsrAndControllerEpoch> KafkaController::updateLeaderEpoch(TopicPartition tp) {
  for (int round = 0;; ++round) {
    KCSPEC_ASSERT(round < kMaxRetryRounds);
    const zk::PartitionStateRead read{zk::Code::OK, services_.zk.getTopicPartitionStates(tp)};
    if (!read.state) {
      throw IllegalStateException(fmt::format("Cannot update leader epoch for partition {} as leaderAndIsr path is empty. "
                                              "This could mean we somehow tried to reassign a partition that doesn't exist",
                                              name(tp)));
    }
    if (read.state->controller_epoch > context_.epoch) {
      throw StateChangeFailedException(fmt::format("Leader and isr path written by another controller. This probably means "
                                                   "the current controller with epoch {} went through a soft failure and "
                                                   "another controller was elected with epoch {}. Aborting state change by "
                                                   "this controller",
                                                   context_.epoch, read.state->controller_epoch));
    }
    const zk::UpdateLeaderAndIsrResult update = services_.zk.updateLeaderAndIsr(
        {{tp, services_.mutant(Mutant::M14) ? read.state->leader_and_isr : read.state->leader_and_isr.newEpoch()}},  // M14
        context_.epoch, context_.epochZkVersion);
    const auto finished = update.finished.find(tp);
    if (finished == update.finished.end()) continue;  // BADVERSION: read again
    if (const auto* failure = std::get_if<Failure>(&finished->second)) throw KafkaThrowable(failure->exception_class, failure->message);
    const LeaderIsrAndControllerEpoch leadership{std::get<LeaderAndIsr>(finished->second), context_.epoch};
    context_.putPartitionLeadershipInfo(tp, leadership);
    // INFO "Updated leader epoch for partition <tp> to <e>, zkVersion=<v>"
    return leadership;
  }
}

void KafkaController::removePartitionFromReassigningPartitions(TopicPartition tp, const ReplicaAssignment& assignment) {
  if (!context_.partitionsBeingReassigned.contains(tp)) {
    throw IllegalStateException("Cannot remove a reassigning partition because it is not present in memory");
  }
  if (!services_.isAlterPartitionEnabled()) {
    // The notifications of this step's earlier writes of the znode (B3's election) reached the
    // handler while it was registered.
    deliverWatchEvents();
    services_.zk.unregisterZNodeChangeHandler(id_, statePath(tp));
  }
  // The ZooKeeper entry goes only if it asked for exactly these replicas (order included).
  maybeRemoveFromZkReassignment(
      [&](TopicPartition p, const BrokerList& replicas) { return p == tp && replicas == assignment.replicas; });
  context_.partitionsBeingReassigned.erase(tp);
}

void KafkaController::maybeRemoveFromZkReassignment(const ShouldRemoveReassignment& shouldRemoveReassignment) {
  if (!services_.zk.reassignPartitionsInProgress()) return;
  zk::PartitionReassignment updated_partitions_being_reassigned;
  for (const auto& [tp, replicas] : services_.zk.getPartitionReassignment()) {
    if (!shouldRemoveReassignment(tp, replicas)) updated_partitions_being_reassigned.emplace(tp, replicas);
  }
  // INFO "Removing partitions <…> from the list of reassigned partitions in zookeeper"
  if (updated_partitions_being_reassigned.empty()) {
    // INFO "No more partitions need to be reassigned. Deleting zk path /admin/reassign_partitions"
    services_.zk.deletePartitionReassignment(context_.epochZkVersion);
    // "Ensure we detect future reassignments": eventManager.put on this controller's own queue.
    putOwnEvent(ControllerEvent{.kind = ControllerEventKind::ZkPartitionReassignment});
    return;
  }
  try {
    services_.zk.setOrCreatePartitionReassignment(updated_partitions_being_reassigned, context_.epochZkVersion);
  } catch (const KeeperException& e) {
    throw AdminOperationException(fmt::format("{}: {}", e.failure().exception_class, e.failure().message));
  }
}

}  // namespace kcspec::impl
