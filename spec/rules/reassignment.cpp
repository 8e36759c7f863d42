// Decision: Kafka aborts onPartitionReassignment with an exception in three cases besides
// ControllerMovedException — updateLeaderEpoch finds the state znode missing
// (IllegalStateException) or written by a newer controller (StateChangeFailedException), and
// moveReassignedPartitionLeaderIfRequired finds no cached leadership (NoSuchElementException).
// These throw KafkaException (controller.hpp) and escape as in Kafka: the steps already taken
// stay; maybeTriggerPartitionReassignment catches it (the API path answers UNKNOWN_SERVER_ERROR);
// other callers' events are abandoned, and during failover the controller moves.
//
// Decision: inter.broker.protocol.version is 3.8 (≥ 2.7-IV2), so no ISR-change watch is
// registered on a reassigning partition's state znode (§5.7.2 step 2) nor unregistered (B7).
//
// Decision: /admin/reassign_partitions lists its partitions in a JSON map, which Kafka iterates in
// hash order; kcspec takes them in ascending partition order (topic, then partition id).
#include "spec/rules/reassignment.hpp"

#include <optional>

#include "spec/rules/broker_membership.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

AllReplicaList replicasOf(TopicPartition tp, const BrokerList& brokers) {
  AllReplicaList replicas;
  for (BrokerId r : brokers) replicas.push_back({tp, r});
  return replicas;
}

// §5.7.3: the target replicas are all in the ISR, as ZooKeeper has it now (not the cache).
bool isReassignmentComplete(Controller& ctl, TopicPartition tp, const ReplicaAssignment& assignment) {
  if (!assignment.isBeingReassigned()) return true;
  const std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
  if (!znode) return false;
  for (BrokerId r : assignment.targetReplicas()) {
    if (!znode->leader_and_isr.isr.contains(r)) return false;
  }
  return true;
}

// §5.7.5 updateLeaderEpoch: read, bump, write conditionally; on BADVERSION (the resend of a write
// whose response was lost, §6.3.8 — nothing else writes the znode within one atomic event) read
// and bump again, which succeeds (asserted).
LeaderIsrAndControllerEpoch updateLeaderEpoch(Controller& ctl, TopicPartition tp) {
  for (int attempt = 1;; ++attempt) {
    KCSPEC_ASSERT(attempt <= kMaxStateWriteAttempts);
    const std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
    if (!znode) throw KafkaException{"Cannot update leader epoch for partition: leaderAndIsr path is empty"};
    if (znode->controller_epoch > ctl.epoch()) {
      throw KafkaException{"Leader and isr path written by another controller"};
    }
    const LeaderAndIsr bumped = znode->leader_and_isr.newEpoch();
    std::int32_t new_version = 0;
    const ZkCode code = updatePartitionState(ctl, tp, bumped, new_version);
    if (code == ZkCode::BADVERSION) continue;
    KCSPEC_ASSERT(code == ZkCode::OK);
    const LeaderIsrAndControllerEpoch leadership{bumped.withPartitionEpoch(new_version), ctl.epoch()};
    partition(ctl.context(), tp).leadership = leadership;
    return leadership;
  }
}

// §5.7.5: KafkaController's own batch. The origin replicas already hold the partition
// (isNew=false); the adding ones are new, so a broker may place them on any good log dir.
void updateLeaderEpochAndSendRequest(Controller& ctl, TopicPartition tp, const ReplicaAssignment& assignment) {
  const LeaderIsrAndControllerEpoch leadership = updateLeaderEpoch(ctl, tp);
  RequestBatch batch;
  addLeaderAndIsrRequestForBrokers(ctl, batch, assignment.originReplicas(), tp, leadership, assignment,
                                   /*is_new=*/false);
  addLeaderAndIsrRequestForBrokers(ctl, batch, assignment.adding_replicas, tp, leadership, assignment,
                                   /*is_new=*/true);
  sendRequestsToBrokers(ctl, batch);
}

void startNewReplicasForReassignedPartition(Controller& ctl, TopicPartition tp, const BrokerList& new_replicas) {
  for (BrokerId r : new_replicas) handleStateChanges(ctl, replicasOf(tp, BrokerList{r}), ReplicaState::NewReplica);
}

void electReassignedPartitionLeader(Controller& ctl, TopicPartition tp) {
  handleStateChanges(ctl, PartitionSet{tp}, PartitionState::OnlinePartition,
                     ElectionStrategy{ElectionStrategyKind::ReassignPartition, false});
}

// §5.7.5; new_assignment.replicas are the target replicas.
void moveReassignedPartitionLeaderIfRequired(Controller& ctl, TopicPartition tp, const ReplicaAssignment& new_assignment) {
  const auto& leadership = partition(ctl.context(), tp).leadership;
  if (!leadership) throw KafkaException{"NoSuchElementException: partitionLeadershipInfo(tp).get"};
  const BrokerId current_leader = leadership->leader_and_isr.leader;
  if (!new_assignment.replicas.contains(current_leader)) {
    electReassignedPartitionLeader(ctl, tp);  // "… is not in the new list of replicas …. Re-electing leader"
  } else if (isReplicaOnline(ctl.context(), current_leader, tp)) {
    // "… is already in the new list of replicas … and is alive": the epoch bump makes the brokers
    // accept the shrunk replica set.
    updateLeaderEpochAndSendRequest(ctl, tp, new_assignment);
  } else {
    electReassignedPartitionLeader(ctl, tp);  // "… is already in the new list of replicas … but is dead"
  }
}

// §5.7.5: four separate calls. No StopReplica response is awaited: a failed deletion on a broker
// is not tracked.
void stopRemovedReplicasOfReassignedPartition(Controller& ctl, TopicPartition tp, const BrokerList& removed) {
  const AllReplicaList replicas = replicasOf(tp, removed);
  handleStateChanges(ctl, replicas, ReplicaState::OfflineReplica);
  handleStateChanges(ctl, replicas, ReplicaState::ReplicaDeletionStarted);
  handleStateChanges(ctl, replicas, ReplicaState::ReplicaDeletionSuccessful);
  handleStateChanges(ctl, replicas, ReplicaState::NonExistentReplica);
}

// §5.7.5 maybeRemoveFromZkReassignment: drops the entries of /admin/reassign_partitions that
// `remove(tp, target)` selects; the znode is deleted when none remain, and the controller queues
// ZkPartitionReassignment for itself, which re-arms the creation watch the deletion consumed.
template <class Remove>
void maybeRemoveFromZkReassignment(Controller& ctl, Remove remove) {
  if (!ctl.zk().reassign_partitions.exists) return;
  const ReassignPartitionsZnode& znode = ctl.zk().reassign_partitions;
  PartitionSet remaining;
  partitionReassignmentEntries(ctl.zk()).forEach([&](TopicPartition tp) {
    if (!remove(tp, znode.targets[static_cast<std::size_t>(partitionIndex(tp))])) remaining.insert(tp);
  });
  // "Removing partitions … from the list of reassigned partitions in zookeeper"
  if (remaining.empty()) {
    deletePartitionReassignment(ctl);  // "No more partitions need to be reassigned. Deleting zk path …"
    ctl.put(ControllerEvent{.kind = ControllerEventKind::ZkPartitionReassignment});
  } else {
    setPartitionReassignment(ctl, remaining);
  }
}

// B7: the entry of a ZooKeeper reassignment to exactly these replicas is done.
void removePartitionFromReassigningPartitions(Controller& ctl, TopicPartition tp, const ReplicaAssignment& completed) {
  PartitionSet& reassigning = ctl.context().partitions_being_reassigned;
  // Kafka throws IllegalStateException otherwise; updateCurrentReassignment added it this event.
  KCSPEC_ASSERT(reassigning.contains(tp));
  ctl.context().reassignment_isr_watches.erase(tp);  // unregisterZNodeChangeHandler, whatever the protocol
  maybeRemoveFromZkReassignment(ctl, [&](TopicPartition entry, const BrokerList& target) {
    return entry == tp && target == completed.replicas;
  });
  reassigning.erase(tp);
}

// KafkaController.updateReplicaAssignmentForPartition (U1, B6): the topic znode is rewritten from
// the context's assignments of the topic (partitionFullReplicaAssignmentForTopic) with `tp`
// replaced — so a partition added in ZooKeeper that the controller has not seen yet (its
// PartitionModifications still queued) is dropped from the znode, as in Kafka.
void updateReplicaAssignmentForPartition(Controller& ctl, TopicPartition tp, const ReplicaAssignment& assignment) {
  PartitionAssignments partitions;
  partitionsForTopic(ctl.context(), tp.topic).forEach([&](TopicPartition p) {
    partitions[static_cast<std::size_t>(p.partition)] = p == tp ? assignment : *partition(ctl.context(), p).assignment;
  });
  setTopicAssignment(ctl, tp.topic, partitions);
}

// §5.7.2 phase U.
void updateCurrentReassignment(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment) {
  const ReplicaAssignment current = partitionFullReplicaAssignment(ctl.context(), tp);
  if (current != reassignment) {
    updateReplicaAssignmentForPartition(ctl, tp, reassignment);  // U1
    partition(ctl.context(), tp).assignment = reassignment;  // U2
    BrokerList unneeded;  // U3: replicas of an earlier reassignment that this one replaces or cancels
    for (BrokerId r : current.replicas) {
      if (!reassignment.replicas.contains(r)) unneeded.push_back(r);
    }
    if (!unneeded.empty()) stopRemovedReplicasOfReassignedPartition(ctl, tp, unneeded);
  }
  // Before AlterPartition (< 2.7-IV2) leaders write their ISR themselves: the controller watches
  // the state znode to see the target replicas join (PartitionReassignmentIsrChange).
  if (ctl.interBrokerProtocolVersion() < MetadataVersion::IBP_2_7_IV2) {
    ctl.context().reassignment_isr_watches.insert(tp);
  }
  ctl.context().partitions_being_reassigned.insert(tp);
}

// §5.7.1.
void reassignPartition(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment) {
  markTopicIneligibleForDeletion(ctl, TopicSet{tp.topic});  // "topic reassignment in progress"
  updateCurrentReassignment(ctl, tp, reassignment);
  if (!isReassignmentComplete(ctl, tp, reassignment)) {
    updateLeaderEpochAndSendRequest(ctl, tp, reassignment);                        // A1
    startNewReplicasForReassignedPartition(ctl, tp, reassignment.adding_replicas);  // A2
    return;
  }
  handleStateChanges(ctl, replicasOf(tp, reassignment.adding_replicas), ReplicaState::OnlineReplica);  // B1
  const ReplicaAssignment completed(reassignment.targetReplicas());
  partition(ctl.context(), tp).assignment = completed;                            // B2
  moveReassignedPartitionLeaderIfRequired(ctl, tp, completed);                    // B3
  stopRemovedReplicasOfReassignedPartition(ctl, tp, reassignment.removing_replicas);  // B4, B5
  updateReplicaAssignmentForPartition(ctl, tp, completed);                        // B6
  removePartitionFromReassigningPartitions(ctl, tp, completed);                   // B7
  sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()), PartitionSet{tp});  // B8
  resumeDeletionForTopics(ctl, TopicSet{tp.topic});
}

// §5.7.7 validateReplicas: whether the target passes (else INVALID_REPLICA_ASSIGNMENT).
bool validateReplicas(Controller& ctl, TopicPartition tp, const BrokerList& replicas) {
  if (replicas.empty()) return false;  // "Empty replica list specified in partition reassignment."
  BrokerList seen;
  for (BrokerId r : replicas) {
    if (seen.contains(r)) return false;  // "Duplicate replica ids in partition reassignment replica list: …"
    seen.push_back(r);
  }
  for (BrokerId r : replicas) {
    if (r < 0) return false;  // "Invalid broker id in replica list: …"
  }
  const Context& ctx = ctl.context();
  const BrokerSet live = liveBrokerIds(ctx);
  for (BrokerId r : partitionFullReplicaAssignment(ctx, tp).reassignTo(replicas).adding_replicas) {
    if (!live.contains(r)) return false;  // "Replica assignment has brokers that are not alive. …"
  }
  return true;
}

// §5.7.7 maybeBuildReassignment: none when cancelling with nothing in progress.
std::optional<ReplicaAssignment> maybeBuildReassignment(const Context& ctx, TopicPartition tp, bool cancel,
                                                        const BrokerList& target) {
  const ReplicaAssignment current = partitionFullReplicaAssignment(ctx, tp);
  if (current.isBeingReassigned()) return current.reassignTo(cancel ? current.originReplicas() : target);
  if (cancel) return std::nullopt;
  return current.reassignTo(target);
}

// §5.7.6 maybeTriggerPartitionReassignment for one partition: whether it started (ApiError.NONE).
bool maybeTriggerPartitionReassignment(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment) {
  // "Skipping reassignment of … since the topic is currently being deleted"
  if (isTopicQueuedUpForDeletion(ctl, tp.topic)) return false;
  if (partitionReplicaAssignment(ctl.context(), tp).empty()) return false;  // "The partition does not exist."
  try {
    onPartitionReassignment(ctl, tp, reassignment);
  } catch (const KafkaException&) {
    return false;  // "Error completing reassignment of partition …": UNKNOWN_SERVER_ERROR
  }
  return true;
}

}  // namespace

void onPartitionReassignment(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment) {
  // A copy: callers may pass the context's own entry, which U2 and B2 overwrite.
  const ReplicaAssignment requested = reassignment;
  reassignPartition(ctl, tp, requested);
}

void maybeCompleteReassignment(Controller& ctl, TopicPartition tp) {
  const ReplicaAssignment reassignment = partitionFullReplicaAssignment(ctl.context(), tp);
  // "Target replicas … have all caught up with the leader for reassigning partition …"
  if (isReassignmentComplete(ctl, tp, reassignment)) onPartitionReassignment(ctl, tp, reassignment);
}

void processApiPartitionReassignment(Controller& ctl, TopicPartition tp, bool cancel, const BrokerList& target) {
  if (!ctl.module().active) return;  // NOT_CONTROLLER
  std::optional<ReplicaAssignment> reassignment;  // none: INVALID_REPLICA_ASSIGNMENT or NO_REASSIGNMENT_IN_PROGRESS
  if (cancel || validateReplicas(ctl, tp, target)) reassignment = maybeBuildReassignment(ctl.context(), tp, cancel, target);
  // The latest reassignment takes precedence over one through ZooKeeper (also when this request
  // starts none: the znode is then rewritten as it is, or deleted when it lists nothing).
  maybeRemoveFromZkReassignment(ctl, [&](TopicPartition entry, const BrokerList&) {
    return reassignment.has_value() && entry == tp;
  });
  if (reassignment) maybeTriggerPartitionReassignment(ctl, tp, *reassignment);
}

PartitionSet processZkPartitionReassignment(Controller& ctl) {
  // The exists-check registers the creation watch again.
  if (!ctl.module().active || !ctl.zk().reassign_partitions.exists) return PartitionSet{};
  const ReassignPartitionsZnode& znode = ctl.zk().reassign_partitions;
  const PartitionSet entries = partitionReassignmentEntries(ctl.zk());
  // maybeBuildReassignment for every entry first (no validation on this path: a target broker
  // may be dead), then maybeTriggerPartitionReassignment for each.
  std::array<ReplicaAssignment, kMaxPartitions> reassignments{};
  entries.forEach([&](TopicPartition tp) {
    const auto i = static_cast<std::size_t>(partitionIndex(tp));
    reassignments[i] = partitionFullReplicaAssignment(ctl.context(), tp).reassignTo(znode.targets[i]);
  });
  PartitionSet started, failed;
  entries.forEach([&](TopicPartition tp) {
    const ReplicaAssignment& reassignment = reassignments[static_cast<std::size_t>(partitionIndex(tp))];
    (maybeTriggerPartitionReassignment(ctl, tp, reassignment) ? started : failed).insert(tp);
  });
  if (!failed.empty()) {  // "Failed reassignment through zk with the following errors: …"
    maybeRemoveFromZkReassignment(ctl, [&](TopicPartition entry, const BrokerList&) { return failed.contains(entry); });
  }
  return started;
}

}  // namespace kcspec::spec
