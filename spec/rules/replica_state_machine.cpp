#include "spec/rules/replica_state_machine.hpp"

#include <array>
#include <optional>

#include "spec/rules/request_batch.hpp"
#include "spec/rules/zookeeper.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::spec {
namespace {

using ReplicaStates = std::array<std::optional<ReplicaState>, kMaxBrokers>;

std::optional<ReplicaState>& stateEntry(Controller& ctl, TopicPartition tp, BrokerId replica) {
  return partition(ctl.context(), tp).replica_states[static_cast<std::size_t>(replica)];
}

void record(Controller& ctl, TopicPartition tp, BrokerId replica, ReplicaState from, ReplicaState to,
            ChangeOutcome outcome) {
  ctl.observer.stateChange(StateChangeRecord{ctl.id, true, tp, replica, static_cast<std::uint8_t>(from),
                                             static_cast<std::uint8_t>(to), outcome});
}

void changeState(Controller& ctl, TopicPartition tp, BrokerId replica, ReplicaState target) {
  auto& state = stateEntry(ctl, tp, replica);
  record(ctl, tp, replica, *state, target, ChangeOutcome::Applied);
  state = target;
}

BrokerList single(BrokerId replica) { return BrokerList{replica}; }

// The partitions whose ISR no longer holds `replica` (or never did), with their new leadership.
struct IsrRemovals {
  PartitionSet updated;
  std::array<LeaderIsrAndControllerEpoch, kMaxPartitions> leadership{};
};

// §3.4 doRemoveReplicasFromIsr, one round: read each state znode (getTopicPartitionStatesFromZk),
// drop the replica from the ISRs that hold it (a sole ISR member stays; the leader becomes −1 if it
// was the replica), write those in one call (updateLeaderAndIsr), then cache every partition read
// or written. Returns the partitions whose write answered BADVERSION (the resend of a write whose
// response was lost, §6.3.8), to read and remove again. Failures are logged at the round's end: an
// exception from the write (ControllerMovedException, SessionExpiredException) aborts first.
PartitionSet doRemoveReplicasFromIsr(Controller& ctl, BrokerId replica, PartitionSet partitions, IsrRemovals& removals) {
  BoundedVector<std::pair<TopicPartition, ChangeOutcome>, kMaxPartitions> failures;
  const auto failed = [&](TopicPartition tp, ChangeOutcome why) { failures.push_back({tp, why}); };
  PartitionSet read_ok;
  std::array<LeaderAndIsr, kMaxPartitions> current{};
  partitions.forEach([&](TopicPartition tp) {
    const PartitionStateRead read = getTopicPartitionStateRaw(ctl, tp);
    if (read.code == ZkCode::SESSIONEXPIRED) return failed(tp, ChangeOutcome::ZooKeeperError);  // resultException
    const std::optional<PartitionStateZnode>& znode = read.znode;
    if (!znode) {  // missing: a failure, but silently dropped while the topic is queued for deletion (KAFKA-2937)
      if (!isTopicQueuedUpForDeletion(ctl.context(), tp.topic)) failed(tp, ChangeOutcome::NoLeaderAndIsr);
      return;
    }
    if (znode->controller_epoch > ctl.epoch()) {  // "Leader and isr path written by another controller …"
      return failed(tp, ChangeOutcome::WrittenByAnotherController);
    }
    read_ok.insert(tp);
    current[static_cast<std::size_t>(partitionIndex(tp))] = znode->leader_and_isr;
  });
  PartitionSet to_write;
  std::array<LeaderAndIsr, kMaxPartitions> adjusted{};
  read_ok.forEach([&](TopicPartition tp) {
    const std::size_t i = static_cast<std::size_t>(partitionIndex(tp));
    const LeaderAndIsr& leader_and_isr = current[i];
    if (!leader_and_isr.isr.contains(replica)) return;
    const BrokerId new_leader = replica == leader_and_isr.leader ? kNoLeader : leader_and_isr.leader;
    BrokerList new_isr = leader_and_isr.isr;
    if (new_isr.size() > 1) new_isr.remove(replica);
    adjusted[i] = leader_and_isr.newLeaderAndIsr(new_leader, new_isr);
    to_write.insert(tp);
  });
  // updateLeaderAndIsr: one pipelined call.
  PartitionSet retry;
  if (!to_write.empty()) maybeExpireSession(ctl, to_write);
  to_write.forEach([&](TopicPartition tp) {
    const std::size_t i = static_cast<std::size_t>(partitionIndex(tp));
    std::int32_t new_version = 0;
    const ZkCode code = updatePartitionState(ctl, tp, adjusted[i], new_version);
    if (code == ZkCode::BADVERSION) return retry.insert(tp);  // "… failed with bad ZK version. This will be retried."
    KCSPEC_ASSERT(code == ZkCode::OK);
    current[i] = adjusted[i].withPartitionEpoch(new_version);
  });
  (read_ok - retry).forEach([&](TopicPartition tp) {
    const LeaderIsrAndControllerEpoch leadership{current[static_cast<std::size_t>(partitionIndex(tp))], ctl.epoch()};
    partition(ctl.context(), tp).leadership = leadership;
    removals.updated.insert(tp);
    removals.leadership[static_cast<std::size_t>(partitionIndex(tp))] = leadership;
  });
  for (const auto& [tp, why] : failures) {
    record(ctl, tp, replica, *stateEntry(ctl, tp, replica), ReplicaState::OfflineReplica, why);
  }
  return retry;
}

// §3.4 removeReplicasFromIsr: rounds until no write is to be retried.
IsrRemovals removeReplicasFromIsr(Controller& ctl, BrokerId replica, PartitionSet partitions) {
  IsrRemovals removals;
  PartitionSet remaining = partitions;
  for (int round = 1; !remaining.empty(); ++round) {
    KCSPEC_ASSERT(round <= kMaxStateWriteAttempts);
    remaining = doRemoveReplicasFromIsr(ctl, replica, remaining, removals);
  }
  return removals;
}

void toNewReplica(Controller& ctl, RequestBatch& batch, PartitionAndReplica r) {
  const auto& leadership = partition(ctl.context(), r.tp).leadership;
  if (leadership) {
    // "cannot be moved to NewReplica state as it is being requested to become leader", logged with
    // the target OfflineReplica (kafka.md Appendix D.1)
    if (leadership->leader_and_isr.leader == r.replica) {
      record(ctl, r.tp, r.replica, *stateEntry(ctl, r.tp, r.replica), ReplicaState::OfflineReplica,
             ChangeOutcome::ReplicaIsLeader);
      return;
    }
    addLeaderAndIsrRequestForBrokers(ctl, batch, single(r.replica), r.tp, *leadership,
                                     *partition(ctl.context(), r.tp).assignment, /*is_new=*/true);
  }
  changeState(ctl, r.tp, r.replica, ReplicaState::NewReplica);
}

void toOnlineReplica(Controller& ctl, RequestBatch& batch, PartitionAndReplica r) {
  PartitionContext& p = partition(ctl.context(), r.tp);
  if (*stateEntry(ctl, r.tp, r.replica) == ReplicaState::NewReplica) {
    if (!p.assignment) p.assignment = ReplicaAssignment{};
    // "Adding replica (r) that is not part of the assignment …"
    if (!p.assignment->replicas.contains(r.replica)) p.assignment->replicas.push_back(r.replica);
  } else if (p.leadership) {
    addLeaderAndIsrRequestForBrokers(ctl, batch, single(r.replica), r.tp, *p.leadership, *p.assignment,
                                     /*is_new=*/false);
  }
  changeState(ctl, r.tp, r.replica, ReplicaState::OnlineReplica);
}

void toOfflineReplicas(Controller& ctl, RequestBatch& batch, BrokerId replica, PartitionSet partitions) {
  partitions.forEach([&](TopicPartition tp) {
    addStopReplicaRequestForBrokers(ctl, batch, single(replica), tp, /*delete_partition=*/false);
  });
  PartitionSet with_leadership, without_leadership;
  partitions.forEach([&](TopicPartition tp) {
    (partition(ctl.context(), tp).leadership ? with_leadership : without_leadership).insert(tp);
  });
  const IsrRemovals removals = removeReplicasFromIsr(ctl, replica, with_leadership);
  removals.updated.forEach([&](TopicPartition tp) {
    if (!isTopicQueuedUpForDeletion(ctl.context(), tp.topic)) {
      const ReplicaAssignment assignment = *partition(ctl.context(), tp).assignment;
      BrokerList others = assignment.replicas;
      others.remove(replica);
      addLeaderAndIsrRequestForBrokers(ctl, batch, others, tp,
                                       removals.leadership[static_cast<std::size_t>(partitionIndex(tp))],
                                       assignment, /*is_new=*/false);
    }
    changeState(ctl, tp, replica, ReplicaState::OfflineReplica);
  });
  without_leadership.forEach([&](TopicPartition tp) {
    addUpdateMetadataRequestForBrokers(ctl, batch, liveOrShuttingDownBrokerIds(ctl.context()), PartitionSet{tp});
    changeState(ctl, tp, replica, ReplicaState::OfflineReplica);
  });
}

void toNonExistentReplica(Controller& ctl, PartitionAndReplica r) {
  auto& assignment = partition(ctl.context(), r.tp).assignment;
  assignment = assignment.value_or(ReplicaAssignment{}).removeReplica(r.replica);
  auto& state = stateEntry(ctl, r.tp, r.replica);
  record(ctl, r.tp, r.replica, *state, ReplicaState::NonExistentReplica, ChangeOutcome::Applied);
  state.reset();  // unlike partitions, the replica's entry is removed
}

// §3.3 for the replicas of one broker.
void doHandleStateChanges(Controller& ctl, RequestBatch& batch, BrokerId broker, const AllReplicaList& replicas,
                          ReplicaState target) {
  PartitionSet valid;
  for (const PartitionAndReplica& r : replicas) {
    if (r.replica != broker) continue;
    auto& state = stateEntry(ctl, r.tp, r.replica);
    if (!state) state = ReplicaState::NonExistentReplica;  // insert-if-absent (§1.3)
    if (isValidTransition(*state, target)) {
      valid.insert(r.tp);
    } else {
      record(ctl, r.tp, r.replica, *state, target, ChangeOutcome::InvalidTransition);  // logged and skipped
    }
  }
  switch (target) {
    case ReplicaState::NewReplica:
      valid.forEach([&](TopicPartition tp) { toNewReplica(ctl, batch, {tp, broker}); });
      break;
    case ReplicaState::OnlineReplica:
      valid.forEach([&](TopicPartition tp) { toOnlineReplica(ctl, batch, {tp, broker}); });
      break;
    case ReplicaState::OfflineReplica:
      toOfflineReplicas(ctl, batch, broker, valid);
      break;
    case ReplicaState::ReplicaDeletionStarted:
      valid.forEach([&](TopicPartition tp) {
        changeState(ctl, tp, broker, ReplicaState::ReplicaDeletionStarted);
        addStopReplicaRequestForBrokers(ctl, batch, single(broker), tp, /*delete_partition=*/true);
      });
      break;
    case ReplicaState::ReplicaDeletionIneligible:
    case ReplicaState::ReplicaDeletionSuccessful:
      valid.forEach([&](TopicPartition tp) { changeState(ctl, tp, broker, target); });
      break;
    case ReplicaState::NonExistentReplica:
      valid.forEach([&](TopicPartition tp) { toNonExistentReplica(ctl, {tp, broker}); });
      break;
  }
}

}  // namespace

void handleStateChanges(Controller& ctl, const AllReplicaList& replicas, ReplicaState target) {
  if (replicas.empty()) return;
  if (ctl.module().rsm_batch_unflushed) return;  // newBatch(): IllegalStateException, logged and swallowed
  RequestBatch batch;
  BrokerSet brokers;
  for (const PartitionAndReplica& r : replicas) brokers.insert(r.replica);
  try {
    brokers.forEach([&](BrokerId broker) { doHandleStateChanges(ctl, batch, broker, replicas, target); });
    sendRequestsToBrokers(ctl, batch);
  } catch (const ControllerMovedException&) {  // the batch is not flushed (§3.2): what it holds stays for the next newBatch()
    ctl.module().rsm_batch_unflushed = !batch.empty();
    throw;
  } catch (const KafkaException&) {  // "Error while moving some replicas to … state": swallowed
    ctl.module().rsm_batch_unflushed = !batch.empty();
  }
}

void replicaStateMachineStartup(Controller& ctl) {
  Context& ctx = ctl.context();
  AllReplicaList online, offline;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) {
      const bool is_online = isReplicaOnline(ctx, r, tp);
      (is_online ? online : offline).push_back({tp, r});
      // Silent puts (no check, no record): Ineligible even for topics not being deleted, so a
      // broker that died during failover cannot leave a replica in ReplicaDeletionStarted.
      partition(ctx, tp).replica_states[static_cast<std::size_t>(r)] =
          is_online ? ReplicaState::OnlineReplica : ReplicaState::ReplicaDeletionIneligible;
    }
  });
  handleStateChanges(ctl, online, ReplicaState::OnlineReplica);
  handleStateChanges(ctl, offline, ReplicaState::OfflineReplica);
}

}  // namespace kcspec::spec
