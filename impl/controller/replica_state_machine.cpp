// ZkReplicaStateMachine (replica_state_machine.hpp; kafka.md §3).
#include "impl/controller/replica_state_machine.hpp"

#include <fmt/format.h>

#include "impl/controller/state_names.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

namespace {
constexpr int kMaxRetryRounds = 100;  // see partition_state_machine.cpp
}  // namespace

void ReplicaStateMachine::startup() {
  std::vector<PartitionAndReplica> online, offline;
  for (const PartitionAndReplica& r : context_.replicasForPartition(context_.allPartitions())) {
    if (context_.isReplicaOnline(r.replica, r.tp)) {
      context_.restoreReplicaState(r, ReplicaState::OnlineReplica);
      online.push_back(r);
    } else {
      // Deliberately Ineligible, not Offline (kafka.md §3.1).
      context_.restoreReplicaState(r, ReplicaState::ReplicaDeletionIneligible);
      offline.push_back(r);
    }
  }
  handleStateChanges(online, ReplicaState::OnlineReplica);
  handleStateChanges(offline, ReplicaState::OfflineReplica);
}

void ReplicaStateMachine::handleStateChanges(const std::vector<PartitionAndReplica>& replicas, ReplicaState target) {
  if (replicas.empty()) return;
  try {
    batch_.newBatch();
    for (BrokerId broker = 0; broker < kMaxBrokers; ++broker) {  // groupBy(replica), ascending ids
      std::vector<PartitionAndReplica> of_broker;
      for (const PartitionAndReplica& r : replicas) {
        if (r.replica == broker) of_broker.push_back(r);
      }
      if (!of_broker.empty()) doHandleStateChanges(broker, of_broker, target);
    }
    batch_.sendRequestsToBrokers(context_.epoch, services_.controller_id, context_, services_.channel, services_.logger,
                                 services_.config,
                                 services_.interBrokerProtocolVersion());
  } catch (const ControllerMovedException&) {
    // ERROR (controller log) "Controller moved to another broker when moving some replicas to <target> state"
    throw;
  } catch (const KafkaThrowable&) {
    // ERROR (controller log) "Error while moving some replicas to <target> state"; swallowed, batch left as is.
  }
}

void ReplicaStateMachine::move(PartitionAndReplica replica, ReplicaState target) {
  stateChangeLog().trace([&] {
    return fmt::format("Changed state of replica {} for partition {} from {} to {}", replica.replica, name(replica.tp),
                       stateName(context_.replicaState(replica)), stateName(target));
  });
  const bool moved = context_.transitionReplica(replica, target);
  KCSPEC_ASSERT(moved);
}

void ReplicaStateMachine::doHandleStateChanges(BrokerId replicaId, const std::vector<PartitionAndReplica>& replicas,
                                               ReplicaState target) {
  for (const PartitionAndReplica& r : replicas) context_.putReplicaStateIfNotExists(r);
  std::vector<PartitionAndReplica> valid;
  for (const PartitionAndReplica& r : replicas) {
    if (model::requestMove(context_.replicaState(r), target).accepted) {
      valid.push_back(r);
    } else {
      logInvalidTransition(r, target);
    }
  }

  switch (target) {
    case ReplicaState::NewReplica:
      for (const PartitionAndReplica& r : valid) {
        const auto& leadership = context_.partitionLeadershipInfo(r.tp);
        if (leadership && leadership->leader_and_isr.leader == replicaId) {
          // The logged target is OfflineReplica (Kafka's quirk, kafka.md Appendix D.1).
          logFailedStateChange(r, context_.replicaState(r), ReplicaState::OfflineReplica,
                               StateChangeFailedException(
                                   fmt::format("Replica {} for partition {} cannot be moved to NewReplica state as it is "
                                               "being requested to become leader",
                                               replicaId, name(r.tp)))
                                   .failure());
          continue;
        }
        if (leadership) {
          batch_.addLeaderAndIsrRequestForBrokers(BrokerList{replicaId}, r.tp, *leadership,
                                                  context_.partitionFullReplicaAssignment(r.tp), /*isNew=*/true, context_);
        }
        move(r, ReplicaState::NewReplica);
      }
      return;
    case ReplicaState::OnlineReplica:
      for (const PartitionAndReplica& r : valid) {
        if (context_.replicaState(r) == ReplicaState::NewReplica) {
          ReplicaAssignment assignment = context_.partitionFullReplicaAssignment(r.tp);
          if (!assignment.replicas.contains(replicaId)) {
            // ERROR (controller log) "Adding replica (<r>) that is not part of the assignment <assignment>"
            assignment.replicas.push_back(replicaId);
            context_.updatePartitionFullReplicaAssignment(r.tp, assignment);
          }
        } else if (const auto& leadership = context_.partitionLeadershipInfo(r.tp)) {
          batch_.addLeaderAndIsrRequestForBrokers(BrokerList{replicaId}, r.tp, *leadership,
                                                  context_.partitionFullReplicaAssignment(r.tp), /*isNew=*/false, context_);
        }
        move(r, ReplicaState::OnlineReplica);
      }
      return;
    case ReplicaState::OfflineReplica:
      toOfflineReplica(replicaId, valid);
      return;
    case ReplicaState::ReplicaDeletionStarted:
      for (const PartitionAndReplica& r : valid) {
        move(r, ReplicaState::ReplicaDeletionStarted);
        batch_.addStopReplicaRequestForBrokers(BrokerList{replicaId}, r.tp, /*deletePartition=*/true, context_);
      }
      return;
    case ReplicaState::ReplicaDeletionIneligible:
    case ReplicaState::ReplicaDeletionSuccessful:
      for (const PartitionAndReplica& r : valid) move(r, target);
      return;
    case ReplicaState::NonExistentReplica:
      for (const PartitionAndReplica& r : valid) {
        context_.updatePartitionFullReplicaAssignment(r.tp,
                                                      context_.partitionFullReplicaAssignment(r.tp).removeReplica(r.replica));
        move(r, ReplicaState::NonExistentReplica);
        context_.removeReplicaState(r);
      }
      return;
  }
}

void ReplicaStateMachine::toOfflineReplica(BrokerId replicaId, const std::vector<PartitionAndReplica>& valid) {
  const StateChangeLogger log = stateChangeLog();
  std::vector<PartitionAndReplica> with_leadership, without_leadership;
  for (const PartitionAndReplica& r : valid) {
    const bool has_leadership = context_.partitionLeadershipInfo(r.tp).has_value();
    // Mutant M5 (KAFKA-6650): replicas without leadership info are dropped before anything happens.
    if (!has_leadership && services_.mutant(Mutant::M5)) continue;
    batch_.addStopReplicaRequestForBrokers(BrokerList{replicaId}, r.tp, /*deletePartition=*/false, context_);
    (has_leadership ? with_leadership : without_leadership).push_back(r);
  }
  std::vector<TopicPartition> partitions;
  for (const PartitionAndReplica& r : with_leadership) partitions.push_back(r.tp);
  for (const auto& [tp, leadership] : removeReplicasFromIsr(replicaId, partitions)) {
    log.info([&, &tp = tp, &leadership = leadership] {
      return fmt::format("Partition {} state changed to {} after removing replica {} from the ISR as part of transition to "
                         "OfflineReplica",
                         name(tp), toKafkaString(leadership), replicaId);
    });
    if (!context_.isTopicQueuedUpForDeletion(tp.topic)) {
      BrokerList recipients = context_.partitionReplicaAssignment(tp);
      recipients.remove(replicaId);
      batch_.addLeaderAndIsrRequestForBrokers(recipients, tp, leadership, context_.partitionFullReplicaAssignment(tp),
                                              /*isNew=*/false, context_);
    }
    move(PartitionAndReplica{tp, replicaId}, ReplicaState::OfflineReplica);
  }
  for (const PartitionAndReplica& r : without_leadership) {
    // Mutant M2 (KAFKA-2937): a missing leader/ISR path is an error even for a topic being deleted.
    if (services_.mutant(Mutant::M2) && context_.isTopicQueuedUpForDeletion(r.tp.topic)) {
      logFailedStateChange(r, context_.replicaState(r), ReplicaState::OfflineReplica,
                           StateChangeFailedException(fmt::format("Failed to change state of replica {} for partition {} "
                                                                  "since the leader and isr path in zookeeper is empty",
                                                                  replicaId, name(r.tp)))
                               .failure());
      continue;
    }
    move(r, ReplicaState::OfflineReplica);
    batch_.addUpdateMetadataRequestForBrokers(context_.liveOrShuttingDownBrokerIds(), PartitionSet{r.tp}, context_);
  }
}

std::map<TopicPartition, LeaderIsrAndControllerEpoch> ReplicaStateMachine::removeReplicasFromIsr(
    BrokerId replicaId, const std::vector<TopicPartition>& partitions) {
  std::map<TopicPartition, LeaderIsrAndControllerEpoch> results;
  std::vector<TopicPartition> remaining = partitions;
  for (int round = 0; !remaining.empty(); ++round) {
    KCSPEC_ASSERT(round < kMaxRetryRounds);
    auto [finished, retry] = doRemoveReplicasFromIsr(replicaId, remaining);
    remaining = std::move(retry);
    for (const auto& [tp, outcome] : finished) {
      if (const auto* failure = std::get_if<Failure>(&outcome)) {
        const PartitionAndReplica replica{tp, replicaId};
        logFailedStateChange(replica, context_.replicaState(replica), ReplicaState::OfflineReplica, *failure);
      } else {
        results.emplace(tp, std::get<LeaderIsrAndControllerEpoch>(outcome));
      }
    }
  }
  return results;
}

std::pair<std::map<TopicPartition, ReplicaStateMachine::RemovalOutcome>, std::vector<TopicPartition>>
ReplicaStateMachine::doRemoveReplicasFromIsr(BrokerId replicaId, const std::vector<TopicPartition>& partitions) {
  std::map<TopicPartition, std::variant<Failure, LeaderAndIsr>> without_replica;  // Y: not in the ISR, or failed reads
  std::map<TopicPartition, LeaderAndIsr> adjusted;                                // X: to write
  std::vector<TopicPartition> missing;
  for (TopicPartition tp : partitions) {
    const zk::PartitionStateRead read = services_.zk.getTopicPartitionState(tp);
    if (read.code != zk::Code::OK && read.code != zk::Code::NONODE) {  // getDataResponse.resultException
      without_replica.emplace(tp, keeperFailure(read.code, zk::paths::topicPartitionState(services_.zk.topicName(tp.topic), tp.partition)));
    } else if (!read.state) {
      missing.push_back(tp);
    } else if (read.state->controller_epoch > context_.epoch) {
      without_replica.emplace(
          tp, StateChangeFailedException(fmt::format("Leader and isr path written by another controller. This probably means "
                                                     "the current controller with epoch {} went through a soft failure and "
                                                     "another controller was elected with epoch {}. Aborting state change by "
                                                     "this controller",
                                                     context_.epoch, read.state->controller_epoch))
                  .failure());
    } else if (read.state->leader_and_isr.isr.contains(replicaId) && !services_.mutant(Mutant::M11)) {  // M11: no shrink
      const LeaderAndIsr& lai = read.state->leader_and_isr;
      const BrokerId new_leader = replicaId == lai.leader ? kNoLeader : lai.leader;
      BrokerList new_isr = lai.isr;
      if (lai.isr.size() != 1 || services_.mutant(Mutant::M16)) new_isr.remove(replicaId);  // a sole ISR member stays (§3.4)
      adjusted.emplace(tp, lai.newLeaderAndIsr(new_leader, new_isr));
    } else {
      without_replica.emplace(tp, read.state->leader_and_isr);
    }
  }
  zk::UpdateLeaderAndIsrResult update = services_.zk.updateLeaderAndIsr(adjusted, context_.epoch, context_.epochZkVersion);

  std::map<TopicPartition, RemovalOutcome> outcomes;
  for (TopicPartition tp : missing) {
    // Queued topics are dropped silently (KAFKA-2937's fix); Mutant M2 reports them too.
    if (!context_.isTopicQueuedUpForDeletion(tp.topic) || services_.mutant(Mutant::M2)) {
      outcomes.emplace(tp, StateChangeFailedException(fmt::format("Failed to change state of replica {} for partition {} since "
                                                                  "the leader and isr path in zookeeper is empty",
                                                                  replicaId, name(tp)))
                               .failure());
    }
  }
  without_replica.insert(update.finished.begin(), update.finished.end());
  for (const auto& [tp, outcome] : without_replica) {
    if (const auto* failure = std::get_if<Failure>(&outcome)) {
      outcomes.emplace(tp, *failure);
    } else {
      const LeaderIsrAndControllerEpoch leadership{std::get<LeaderAndIsr>(outcome), context_.epoch};
      context_.putPartitionLeadershipInfo(tp, leadership);
      outcomes.emplace(tp, leadership);
    }
  }
  // DEBUG (controller log) per retry: "Controller failed to remove replica … This will be retried."
  return {outcomes, update.retry};
}

void ReplicaStateMachine::logInvalidTransition(PartitionAndReplica replica, ReplicaState target) const {
  const ReplicaState current = context_.replicaState(replica);
  logFailedStateChange(replica, current, target,
                       IllegalStateException(fmt::format("Replica {} should be in the {} states before moving to {} state. "
                                                         "Instead it is in {} state",
                                                         renderPartitionAndReplica(services_.config, replica),
                                                         validPreviousStatesText(target), stateName(target),
                                                         stateName(current)))
                           .failure());
}

void ReplicaStateMachine::logFailedStateChange(PartitionAndReplica replica, ReplicaState current, ReplicaState target,
                                               const Failure& failure) const {
  stateChangeLog().error(
      [&] {
        return fmt::format("Controller {} epoch {} initiated state change of replica {} for partition {} from {} to {} failed",
                           services_.controller_id, context_.epoch, replica.replica, name(replica.tp), stateName(current),
                           stateName(target));
      },
      failure);
}

}  // namespace kcspec::impl
