#include "spec/rules/partition_state_machine.hpp"

#include "spec/rules/controller_context.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/zookeeper.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::spec {
namespace {

void record(Controller& ctl, TopicPartition tp, PartitionState from, PartitionState to, ChangeOutcome outcome,
            ElectionStrategy strategy = {}) {
  ctl.observer.stateChange(StateChangeRecord{ctl.id, false, tp, kNoLeader, static_cast<std::uint8_t>(from),
                                             static_cast<std::uint8_t>(to), outcome, strategy});
}

PartitionState stateOf(Controller& ctl, TopicPartition tp) { return *partition(ctl.context(), tp).state; }

// The successful change of one partition: recorded (Kafka logs it first), then stored.
void changeState(Controller& ctl, TopicPartition tp, PartitionState target) {
  record(ctl, tp, stateOf(ctl, tp), target, ChangeOutcome::Applied);
  putPartitionState(ctl.context(), tp, target);
}

// §2.5: New → Online. Leader = first live replica in assignment order, ISR = the live replicas.
// Partitions without a live replica are logged as failed first; then the state znodes are created
// in one call (createTopicPartitionStatesRaw). A ControllerMovedException escapes; any other
// exception from that call (the session expired, zookeeper.cpp maybeExpireSession) fails every
// partition it was creating, logged with the target NewPartition as Kafka logs it.
PartitionSet initializeLeaderAndIsrForPartitions(Controller& ctl, RequestBatch& batch, PartitionSet partitions) {
  PartitionSet to_create;
  partitions.forEach([&](TopicPartition tp) {
    bool any_live = false;
    // partitionReplicaAssignment: [] for a partition whose topic the context no longer has (a
    // zombie controller can still hold its NewPartition state).
    for (BrokerId r : partitionReplicaAssignment(ctl.context(), tp)) any_live |= isReplicaOnline(ctl.context(), r, tp);
    if (any_live) {
      to_create.insert(tp);
    } else {  // "No assigned replica is alive": stays NewPartition
      record(ctl, tp, PartitionState::NewPartition, PartitionState::OnlinePartition, ChangeOutcome::NoLiveReplica);
    }
  });
  const auto leaderAndIsrOf = [&](TopicPartition tp) {
    BrokerList live;
    for (BrokerId r : partitionFullReplicaAssignment(ctl.context(), tp).replicas) {
      if (isReplicaOnline(ctl.context(), r, tp)) live.push_back(r);
    }
    return LeaderAndIsr::make(live.front(), live);
  };
  PartitionSet created;
  try {
    if (!to_create.empty()) maybeExpireSession(ctl, to_create);
    to_create.forEach([&](TopicPartition tp) {
      if (createPartitionState(ctl, tp, leaderAndIsrOf(tp)) == ZkCode::OK) created.insert(tp);
    });
  } catch (const ControllerMovedException&) {
    throw;
  } catch (const KafkaException&) {
    to_create.forEach([&](TopicPartition tp) {
      record(ctl, tp, stateOf(ctl, tp), PartitionState::NewPartition, ChangeOutcome::ZooKeeperError);
    });
    return PartitionSet{};
  }
  to_create.forEach([&](TopicPartition tp) {
    if (!created.contains(tp)) {  // e.g. NODEEXISTS
      record(ctl, tp, PartitionState::NewPartition, PartitionState::OnlinePartition, ChangeOutcome::ZooKeeperError);
      return;
    }
    const LeaderIsrAndControllerEpoch leadership{leaderAndIsrOf(tp), ctl.epoch()};
    partition(ctl.context(), tp).leadership = leadership;
    addLeaderAndIsrRequestForBrokers(ctl, batch, leadership.leader_and_isr.isr, tp, leadership,
                                     partitionFullReplicaAssignment(ctl.context(), tp), /*is_new=*/true);
  });
  return created;
}

// §2.6 doElectLeaderForPartitions, one round: read the partitions' state znodes (never the cache),
// elect a leader for each, write them all in one call (updateLeaderAndIsr), then cache and send
// what was written. Returns the partitions whose write answered BADVERSION, to elect again: within
// one atomic event nothing else writes the znode, so BADVERSION only answers the resend of a
// write whose response was lost (§6.3.8), and the second round succeeds (asserted by the caller).
// The round's failures are logged at its end (electLeaderForPartitions); an exception from the
// write (ControllerMovedException, SessionExpiredException) leaves them unlogged.
PartitionSet doElectLeaderForPartitions(Controller& ctl, RequestBatch& batch, PartitionSet partitions,
                                        ElectionStrategy strategy, ElectionResults& results) {
  BoundedVector<StateChangeRecord, kMaxPartitions> failures;
  const auto fail = [&](TopicPartition tp, ChangeOutcome why) {
    failures.push_back(StateChangeRecord{ctl.id, false, tp, kNoLeader, static_cast<std::uint8_t>(stateOf(ctl, tp)),
                                         static_cast<std::uint8_t>(PartitionState::OnlinePartition), why,
                                         why == ChangeOutcome::NoLeaderElected ? strategy : ElectionStrategy{}});
    results.failed.insert(tp);
  };
  PartitionSet valid;
  std::array<LeaderAndIsr, kMaxPartitions> current{};
  partitions.forEach([&](TopicPartition tp) {
    const PartitionStateRead read = getTopicPartitionStateRaw(ctl, tp);
    if (read.code == ZkCode::SESSIONEXPIRED) return fail(tp, ChangeOutcome::ZooKeeperError);  // resultException
    const std::optional<PartitionStateZnode>& znode = read.znode;
    if (!znode) return fail(tp, ChangeOutcome::NoLeaderAndIsr);  // "LeaderAndIsr information doesn't exist …"
    if (znode->controller_epoch > ctl.epoch()) return fail(tp, ChangeOutcome::WrittenByAnotherController);
    valid.insert(tp);
    current[static_cast<std::size_t>(partitionIndex(tp))] = znode->leader_and_isr;
  });
  PartitionSet to_write;
  std::array<LeaderAndIsr, kMaxPartitions> elected{};
  std::array<BrokerList, kMaxPartitions> recipients{};
  valid.forEach([&](TopicPartition tp) {
    const std::size_t i = static_cast<std::size_t>(partitionIndex(tp));
    const std::optional<ElectionDecision> decision = electLeader(strategy, electionInputs(ctl, tp, current[i]));
    ctl.observer.electionOutcome(tp, strategy, decision.has_value());
    if (!decision) return fail(tp, ChangeOutcome::NoLeaderElected);  // "Failed to elect leader for partition …"
    to_write.insert(tp);
    elected[i] = electedLeaderAndIsr(current[i], *decision);
    recipients[i] = decision->recipients;
  });
  // updateLeaderAndIsr: one pipelined call.
  PartitionSet written, retry;
  std::array<std::int32_t, kMaxPartitions> new_versions{};
  if (!to_write.empty()) maybeExpireSession(ctl, to_write);
  to_write.forEach([&](TopicPartition tp) {
    const std::size_t i = static_cast<std::size_t>(partitionIndex(tp));
    const ZkCode code = updatePartitionState(ctl, tp, elected[i], new_versions[i]);
    if (code == ZkCode::BADVERSION) return retry.insert(tp);  // "… failed with bad ZK version. This will be retried."
    KCSPEC_ASSERT(code == ZkCode::OK);
    written.insert(tp);
  });
  written.forEach([&](TopicPartition tp) {
    const std::size_t i = static_cast<std::size_t>(partitionIndex(tp));
    const LeaderIsrAndControllerEpoch leadership{elected[i].withPartitionEpoch(new_versions[i]), ctl.epoch()};
    partition(ctl.context(), tp).leadership = leadership;
    addLeaderAndIsrRequestForBrokers(ctl, batch, recipients[i], tp, leadership, *partition(ctl.context(), tp).assignment,
                                     /*is_new=*/false);
    results.elected.insert(tp);
  });
  for (const StateChangeRecord& failure : failures) ctl.observer.stateChange(failure);
  return retry;
}

// §2.6 electLeaderForPartitions: rounds until no write is to be retried.
ElectionResults electLeaderForPartitions(Controller& ctl, RequestBatch& batch, PartitionSet partitions,
                                         ElectionStrategy strategy) {
  ElectionResults results;
  PartitionSet remaining = partitions;
  for (int round = 1; !remaining.empty(); ++round) {
    KCSPEC_ASSERT(round <= kMaxStateWriteAttempts);
    remaining = doElectLeaderForPartitions(ctl, batch, remaining, strategy, results);
  }
  return results;
}

ElectionResults doHandleStateChanges(Controller& ctl, RequestBatch& batch, PartitionSet partitions,
                                     PartitionState target, std::optional<ElectionStrategy> strategy) {
  PartitionSet valid;
  partitions.forEach([&](TopicPartition tp) {
    auto& state = partition(ctl.context(), tp).state;
    if (!state) state = PartitionState::NonExistentPartition;  // insert-if-absent (§1.3)
    if (isValidTransition(*state, target)) {
      valid.insert(tp);
    } else {
      record(ctl, tp, *state, target, ChangeOutcome::InvalidTransition);  // logged and skipped
    }
  });
  ElectionResults results;
  switch (target) {
    case PartitionState::NewPartition:
    case PartitionState::OfflinePartition:
    case PartitionState::NonExistentPartition:
      valid.forEach([&](TopicPartition tp) { changeState(ctl, tp, target); });
      break;
    case PartitionState::OnlinePartition: {
      const PartitionSet uninitialized = valid & partitionsInStates(ctl.context(), {PartitionState::NewPartition});
      const PartitionSet to_elect = valid - uninitialized;
      initializeLeaderAndIsrForPartitions(ctl, batch, uninitialized).forEach([&](TopicPartition tp) {
        changeState(ctl, tp, PartitionState::OnlinePartition);
      });
      if (!to_elect.empty()) {
        KCSPEC_ASSERT(strategy.has_value());  // Kafka: "Election strategy is a required field …"
        results = electLeaderForPartitions(ctl, batch, to_elect, *strategy);
        results.elected.forEach([&](TopicPartition tp) { changeState(ctl, tp, PartitionState::OnlinePartition); });
      }
      break;
    }
  }
  return results;
}

}  // namespace

ElectionInputs electionInputs(Controller& ctl, TopicPartition tp, const LeaderAndIsr& current) {
  const Context& ctx = ctl.context();
  const ReplicaAssignment assignment = partitionFullReplicaAssignment(ctx, tp);
  ElectionInputs inputs;
  inputs.assignment = assignment.replicas;
  inputs.target_replicas = assignment.targetReplicas();
  inputs.isr = current.isr;
  inputs.live = brokersOnlineFor(ctx, tp, false);
  inputs.live_or_shutting_down = brokersOnlineFor(ctx, tp, true);
  inputs.shutting_down = ctx.shutting_down_broker_ids;
  inputs.topic_unclean_enabled = topicUncleanLeaderElectionEnable(ctl.zk(), tp.topic);
  inputs.leader_recovery_supported = ctl.interBrokerProtocolVersion() >= MetadataVersion::IBP_3_2_IV0;
  return inputs;
}

LeaderAndIsr electedLeaderAndIsr(const LeaderAndIsr& current, const ElectionDecision& decision) {
  if (!decision.isr_replaced) return current.newLeader(decision.leader);
  if (decision.recovering) return current.newRecoveringLeaderAndIsr(decision.leader, decision.new_isr);
  return current.newLeaderAndIsr(decision.leader, decision.new_isr);
}

ElectionResults handleStateChanges(Controller& ctl, PartitionSet partitions, PartitionState target,
                                   std::optional<ElectionStrategy> strategy) {
  if (partitions.empty()) return {};
  if (ctl.module().psm_batch_unflushed) {  // newBatch(): IllegalStateException, every partition fails
    ElectionResults failed;
    failed.failed = partitions;
    return failed;
  }
  RequestBatch batch;
  try {
    const ElectionResults results = doHandleStateChanges(ctl, batch, partitions, target, strategy);
    sendRequestsToBrokers(ctl, batch);
    return results;
  } catch (const ControllerMovedException&) {  // the batch is not flushed (§2.3): what it holds stays for the next newBatch()
    ctl.module().psm_batch_unflushed = !batch.empty();
    throw;
  } catch (const KafkaException&) {  // "Error while moving some partitions to … state": every partition failed
    ctl.module().psm_batch_unflushed = !batch.empty();
    ElectionResults failed;
    failed.failed = partitions;
    return failed;
  }
}

ElectionResults triggerOnlinePartitionStateChange(Controller& ctl, std::optional<TopicIndex> topic) {
  const Context& ctx = ctl.context();
  PartitionSet partitions;
  partitionsInStates(ctx, {PartitionState::OfflinePartition, PartitionState::NewPartition})
      .forEach([&](TopicPartition tp) {
        if (topic && tp.topic != *topic) return;
        if (!isTopicQueuedUpForDeletion(ctx, tp.topic)) partitions.insert(tp);
      });
  return handleStateChanges(ctl, partitions, PartitionState::OnlinePartition,
                            ElectionStrategy{ElectionStrategyKind::OfflinePartition, false});
}

void partitionStateMachineStartup(Controller& ctl) {
  Context& ctx = ctl.context();
  allPartitions(ctx).forEach([&](TopicPartition tp) {  // initializePartitionState
    const auto& leadership = partition(ctx, tp).leadership;
    if (!leadership) {
      putPartitionState(ctx, tp, PartitionState::NewPartition);
    } else if (isReplicaOnline(ctx, leadership->leader_and_isr.leader, tp)) {
      putPartitionState(ctx, tp, PartitionState::OnlinePartition);
    } else {
      putPartitionState(ctx, tp, PartitionState::OfflinePartition);
    }
  });
  triggerOnlinePartitionStateChange(ctl);
}

}  // namespace kcspec::spec
