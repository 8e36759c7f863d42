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
// Partitions without a live replica are logged as failed first; then the state znodes are created.
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
  PartitionSet initialized;
  to_create.forEach([&](TopicPartition tp) {
    const ReplicaAssignment assignment = partitionFullReplicaAssignment(ctl.context(), tp);
    BrokerList live;
    for (BrokerId r : assignment.replicas) {
      if (isReplicaOnline(ctl.context(), r, tp)) live.push_back(r);
    }
    const LeaderAndIsr leader_and_isr = LeaderAndIsr::make(live.front(), live);
    if (createPartitionState(ctl, tp, leader_and_isr) != ZkCode::OK) {  // e.g. NODEEXISTS
      record(ctl, tp, PartitionState::NewPartition, PartitionState::OnlinePartition, ChangeOutcome::ZooKeeperError);
      return;
    }
    const LeaderIsrAndControllerEpoch leadership{leader_and_isr, ctl.epoch()};
    partition(ctl.context(), tp).leadership = leadership;
    addLeaderAndIsrRequestForBrokers(ctl, batch, live, tp, leadership, assignment, /*is_new=*/true);
    initialized.insert(tp);
  });
  return initialized;
}

// §2.6: read each partition's state from ZooKeeper (never the cache), elect, write conditionally;
// on BADVERSION, read and elect again. Within one atomic event nothing else writes the znode, so
// BADVERSION only answers the resend of a write whose response was lost (§6.3.8), and the second
// round succeeds (asserted). The partitions that fail are logged after the writes: a fenced write
// (ControllerMovedException) aborts before any is logged.
ElectionResults electLeaderForPartitions(Controller& ctl, RequestBatch& batch, PartitionSet partitions,
                                         ElectionStrategy strategy) {
  ElectionResults results;
  BoundedVector<StateChangeRecord, kMaxPartitions> failures;
  const auto fail = [&](TopicPartition tp, ChangeOutcome why) {
    failures.push_back(StateChangeRecord{ctl.id, false, tp, kNoLeader, static_cast<std::uint8_t>(stateOf(ctl, tp)),
                                         static_cast<std::uint8_t>(PartitionState::OnlinePartition), why,
                                         why == ChangeOutcome::NoLeaderElected ? strategy : ElectionStrategy{}});
    results.failed.insert(tp);
  };
  const auto elect = [&](TopicPartition tp) {
    for (int attempt = 1;; ++attempt) {
      KCSPEC_ASSERT(attempt <= kMaxStateWriteAttempts);
      const std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
      if (!znode) return fail(tp, ChangeOutcome::NoLeaderAndIsr);  // "LeaderAndIsr information doesn't exist …"
      if (znode->controller_epoch > ctl.epoch()) return fail(tp, ChangeOutcome::WrittenByAnotherController);
      const std::optional<ElectionDecision> decision =
          electLeader(strategy, electionInputs(ctl, tp, znode->leader_and_isr));
      ctl.observer.electionOutcome(tp, strategy, decision.has_value());
      if (!decision) return fail(tp, ChangeOutcome::NoLeaderElected);  // "Failed to elect leader for partition …"
      const LeaderAndIsr elected = electedLeaderAndIsr(znode->leader_and_isr, *decision);
      std::int32_t new_version = 0;
      const ZkCode code = updatePartitionState(ctl, tp, elected, new_version);
      if (code == ZkCode::BADVERSION) continue;  // "… failed with bad ZK version. This will be retried."
      KCSPEC_ASSERT(code == ZkCode::OK);
      const LeaderIsrAndControllerEpoch leadership{elected.withPartitionEpoch(new_version), ctl.epoch()};
      partition(ctl.context(), tp).leadership = leadership;
      addLeaderAndIsrRequestForBrokers(ctl, batch, decision->recipients, tp, leadership,
                                       *partition(ctl.context(), tp).assignment, /*is_new=*/false);
      results.elected.insert(tp);
      return;
    }
  };
  partitions.forEach(elect);
  for (const StateChangeRecord& failure : failures) ctl.observer.stateChange(failure);
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
  } catch (...) {  // the batch is not flushed (§2.3): what it holds stays for the next newBatch()
    ctl.module().psm_batch_unflushed = !batch.empty();
    throw;
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
