// ZkPartitionStateMachine (partition_state_machine.hpp; kafka.md §2).
#include "impl/controller/partition_state_machine.hpp"

#include <fmt/format.h>

#include "impl/controller/state_names.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

namespace {
// BADVERSION retry loops are unbounded in Kafka (kafka.md Appendix D.7); within one atomic step
// nothing else writes ZK (docs/world.md §1), so a loop that keeps failing is a bug here.
constexpr int kMaxRetryRounds = 100;
}  // namespace

std::vector<TopicPartition> toVector(PartitionSet partitions) {
  std::vector<TopicPartition> out;
  partitions.forEach([&](TopicPartition tp) { out.push_back(tp); });
  return out;
}

void PartitionStateMachine::startup() {
  // initializePartitionState (kafka.md §2.1): silent, metric-updating puts.
  context_.allPartitions().forEach([&](TopicPartition tp) {
    const auto& leadership = context_.partitionLeadershipInfo(tp);
    if (!leadership) {
      context_.restorePartitionState(tp, PartitionState::NewPartition);
    } else if (context_.isReplicaOnline(leadership->leader_and_isr.leader, tp)) {
      context_.restorePartitionState(tp, PartitionState::OnlinePartition);
    } else {
      context_.restorePartitionState(tp, PartitionState::OfflinePartition);
    }
  });
  triggerOnlinePartitionStateChange();
}

ElectionOutcomes PartitionStateMachine::triggerOnlinePartitionStateChange() {
  return triggerOnlineStateChangeForPartitions(
      context_.partitionsInStates({PartitionState::OfflinePartition, PartitionState::NewPartition}));
}

ElectionOutcomes PartitionStateMachine::triggerOnlinePartitionStateChange(TopicIndex topic) {
  return triggerOnlineStateChangeForPartitions(
      context_.partitionsInStates(topic, {PartitionState::OfflinePartition, PartitionState::NewPartition}));
}

ElectionOutcomes PartitionStateMachine::triggerOnlineStateChangeForPartitions(PartitionSet partitions) {
  PartitionSet to_trigger;
  partitions.forEach([&](TopicPartition tp) {
    if (!context_.isTopicQueuedUpForDeletion(tp.topic)) to_trigger.insert(tp);
  });
  return handleStateChanges(toVector(to_trigger), PartitionState::OnlinePartition,
                            PartitionLeaderElectionStrategy::offline(false));
}

ElectionOutcomes PartitionStateMachine::handleStateChanges(const std::vector<TopicPartition>& partitions,
                                                           PartitionState target,
                                                           std::optional<PartitionLeaderElectionStrategy> strategy) {
  if (partitions.empty()) return {};
  try {
    batch_.newBatch();
    ElectionOutcomes result = doHandleStateChanges(partitions, target, strategy);
    batch_.sendRequestsToBrokers(context_.epoch, services_.controller_id, context_, services_.channel, services_.logger,
                                 services_.config,
                                 services_.interBrokerProtocolVersion());
    return result;
  } catch (const ControllerMovedException&) {
    // ERROR (controller log) "Controller moved to another broker when moving some partitions to <target> state"
    throw;
  } catch (const KafkaThrowable& e) {
    // ERROR (controller log) "Error while moving some partitions to <target> state"; the batch is not flushed.
    ElectionOutcomes failed;
    for (TopicPartition tp : partitions) failed.emplace(tp, e.failure());
    return failed;
  }
}

ElectionOutcomes PartitionStateMachine::doHandleStateChanges(const std::vector<TopicPartition>& partitions,
                                                             PartitionState target,
                                                             std::optional<PartitionLeaderElectionStrategy> strategy) {
  const StateChangeLogger log = stateChangeLog();
  for (TopicPartition tp : partitions) context_.putPartitionStateIfNotExists(tp);
  std::vector<TopicPartition> valid;
  for (TopicPartition tp : partitions) {
    if (model::requestMove(context_.partitionState(tp), target).accepted) {
      valid.push_back(tp);
    } else {
      logInvalidTransition(tp, target);
    }
  }
  auto move = [&](TopicPartition tp) {
    const bool moved = context_.transitionPartition(tp, target);  // the MSM agreed above
    KCSPEC_ASSERT(moved);
  };

  switch (target) {
    case PartitionState::NewPartition:
      for (TopicPartition tp : valid) {
        log.info([&] {
          return fmt::format("Changed partition {} state from {} to NewPartition with assigned replicas {}", name(tp),
                             stateName(context_.partitionState(tp)), joinIds(context_.partitionReplicaAssignment(tp), ","));
        });
        move(tp);
      }
      return {};
    case PartitionState::OnlinePartition: {
      std::vector<TopicPartition> uninitialized, to_elect;
      for (TopicPartition tp : valid) {
        const PartitionState current = context_.partitionState(tp);
        if (current == PartitionState::NewPartition) uninitialized.push_back(tp);
        if (current == PartitionState::OfflinePartition || current == PartitionState::OnlinePartition) to_elect.push_back(tp);
      }
      if (!uninitialized.empty()) {
        for (TopicPartition tp : initializeLeaderAndIsrForPartitions(uninitialized)) {
          log.info([&] {
            return fmt::format("Changed partition {} from {} to OnlinePartition with state {}", name(tp),
                               stateName(context_.partitionState(tp)),
                               toKafkaString(context_.partitionLeadershipInfo(tp)->leader_and_isr));
          });
          move(tp);
        }
      }
      if (to_elect.empty()) return {};
      if (!strategy) throw KafkaThrowable("java.lang.IllegalArgumentException",
                                          "Election strategy is a required field when the target state is OnlinePartition");
      ElectionOutcomes results = electLeaderForPartitions(to_elect, *strategy);
      for (const auto& [tp, outcome] : results) {
        if (const auto* lai = std::get_if<LeaderAndIsr>(&outcome)) {
          log.info([&, &tp = tp] {
            return fmt::format("Changed partition {} from {} to OnlinePartition with state {}", name(tp),
                               stateName(context_.partitionState(tp)), toKafkaString(*lai));
          });
          move(tp);
        }
      }
      return results;
    }
    case PartitionState::OfflinePartition:
    case PartitionState::NonExistentPartition:
      for (TopicPartition tp : valid) {
        log.trace([&] {
          return fmt::format("Changed partition {} state from {} to {}", name(tp), stateName(context_.partitionState(tp)),
                             stateName(target));
        });
        move(tp);
      }
      return {};
  }
  return {};
}

std::vector<TopicPartition> PartitionStateMachine::initializeLeaderAndIsrForPartitions(
    const std::vector<TopicPartition>& partitions) {
  std::map<TopicPartition, LeaderIsrAndControllerEpoch> to_create;
  for (TopicPartition tp : partitions) {
    BrokerList live;
    for (BrokerId r : context_.partitionReplicaAssignment(tp)) {
      if (context_.isReplicaOnline(r, tp)) live.push_back(r);
    }
    if (live.empty()) {
      logFailedStateChange(
          tp, PartitionState::NewPartition, PartitionState::OnlinePartition,
          StateChangeFailedException(
              fmt::format("Controller {} epoch {} encountered error during state change of partition {} from New to "
                          "Online, assigned replicas are [{}], live brokers are [{}]. No assigned replica is alive.",
                          services_.controller_id, context_.epoch, name(tp),
                          joinIds(context_.partitionReplicaAssignment(tp), ","),
                          renderScalaImmutableSet(context_.liveBrokerIds())))
              .failure());
      continue;
    }
    to_create.emplace(tp, LeaderIsrAndControllerEpoch{LeaderAndIsr::make(live.front(), live), context_.epoch});
  }
  if (to_create.empty()) return {};
  // A ControllerMovedException escapes (ERROR in the controller log first); any other exception
  // (the session expired before the call, docs/world.md convention 15) fails every partition being
  // created, logged with the target NewPartition.
  std::vector<std::pair<TopicPartition, zk::Code>> responses;
  try {
    responses = services_.zk.createTopicPartitionStatesRaw(to_create, context_.epochZkVersion);
  } catch (const ControllerMovedException&) {
    throw;
  } catch (const KafkaThrowable& e) {
    for (const auto& [tp, _] : to_create) {
      logFailedStateChange(tp, context_.partitionState(tp), PartitionState::NewPartition, e.failure());
    }
    return {};
  }
  std::vector<TopicPartition> initialized;
  for (const auto& [tp, code] : responses) {
    const LeaderIsrAndControllerEpoch& state = to_create.at(tp);
    if (code == zk::Code::OK) {
      context_.putPartitionLeadershipInfo(tp, state);
      batch_.addLeaderAndIsrRequestForBrokers(state.leader_and_isr.isr, tp, state,
                                              context_.partitionFullReplicaAssignment(tp), /*isNew=*/true, context_);
      initialized.push_back(tp);
    } else {
      logFailedStateChange(tp, PartitionState::NewPartition, PartitionState::OnlinePartition, keeperFailure(code));
    }
  }
  return initialized;
}

ElectionOutcomes PartitionStateMachine::electLeaderForPartitions(const std::vector<TopicPartition>& partitions,
                                                                 PartitionLeaderElectionStrategy strategy) {
  std::vector<TopicPartition> remaining = partitions;
  ElectionOutcomes finished_elections;
  for (int round = 0; !remaining.empty(); ++round) {
    KCSPEC_ASSERT(round < kMaxRetryRounds);
    auto [finished, retry] = doElectLeaderForPartitions(remaining, strategy);
    remaining = std::move(retry);
    for (const auto& [tp, outcome] : finished) {
      if (const auto* failure = std::get_if<Failure>(&outcome)) {
        logFailedStateChange(tp, context_.partitionState(tp), PartitionState::OnlinePartition, *failure);
      }
    }
    finished_elections.insert(finished.begin(), finished.end());
    // INFO (controller log) "Retrying leader election with strategy <S> for partitions <…>"
  }
  return finished_elections;
}

std::pair<ElectionOutcomes, std::vector<TopicPartition>> PartitionStateMachine::doElectLeaderForPartitions(
    const std::vector<TopicPartition>& partitions, PartitionLeaderElectionStrategy strategy) {
  ElectionOutcomes failed;
  std::vector<std::pair<TopicPartition, LeaderAndIsr>> valid;
  for (TopicPartition tp : partitions) {
    const zk::PartitionStateRead read = services_.zk.getTopicPartitionState(tp);
    if (read.code != zk::Code::OK && read.code != zk::Code::NONODE) {  // getDataResponse.resultException
      failed.emplace(tp, keeperFailure(read.code, zk::paths::topicPartitionState(services_.zk.topicName(tp.topic), tp.partition)));
    } else if (read.state) {
      if (read.state->controller_epoch > context_.epoch) {
        failed.emplace(tp, StateChangeFailedException(
                               fmt::format("Aborted leader election for partition {} since the LeaderAndIsr path was already "
                                           "written by another controller. This probably means that the current controller "
                                           "{} went through a soft failure and another controller was elected with epoch {}.",
                                           name(tp), services_.controller_id, read.state->controller_epoch))
                               .failure());
      } else {
        valid.emplace_back(tp, read.state->leader_and_isr);
      }
    } else {
      failed.emplace(tp, StateChangeFailedException(fmt::format("LeaderAndIsr information doesn't exist for partition {} in {} state",
                                                                name(tp), stateName(context_.partitionState(tp))))
                             .failure());
    }
  }
  if (valid.empty()) return {failed, {}};

  std::vector<ElectionResult> results;
  switch (strategy.kind) {
    case PartitionLeaderElectionStrategy::Kind::Offline:
      results = Election::leaderForOffline(context_, services_.isLeaderRecoverySupported(), collectUncleanLeaderElectionState(valid, strategy.allow_unclean),
                                           services_.mutants);
      break;
    case PartitionLeaderElectionStrategy::Kind::Reassign: results = Election::leaderForReassign(context_, valid); break;
    case PartitionLeaderElectionStrategy::Kind::PreferredReplica:
      results = Election::leaderForPreferredReplica(context_, valid);
      break;
    case PartitionLeaderElectionStrategy::Kind::ControlledShutdown:
      results = Election::leaderForControlledShutdown(context_, valid, services_.mutants);
      break;
  }
  std::map<TopicPartition, LeaderAndIsr> adjusted;
  std::map<TopicPartition, BrokerList> recipients;
  for (const ElectionResult& result : results) {
    if (!result.leader_and_isr) {
      failed.emplace(result.tp, StateChangeFailedException(fmt::format("Failed to elect leader for partition {} under strategy {}",
                                                                       name(result.tp), toKafkaString(strategy)))
                                    .failure());
    } else {
      adjusted.emplace(result.tp, *result.leader_and_isr);
      recipients.emplace(result.tp, result.recipients);
    }
  }
  zk::UpdateLeaderAndIsrResult update =
      services_.zk.updateLeaderAndIsr(adjusted, context_.epoch,
                                      services_.mutant(Mutant::M12) ? -1 : context_.epochZkVersion);  // M12: unfenced
  for (const auto& [tp, outcome] : update.finished) {
    if (const auto* lai = std::get_if<LeaderAndIsr>(&outcome)) {
      const LeaderIsrAndControllerEpoch leadership{*lai, context_.epoch};
      context_.putPartitionLeadershipInfo(tp, leadership);
      batch_.addLeaderAndIsrRequestForBrokers(recipients.at(tp), tp, leadership, context_.partitionFullReplicaAssignment(tp),
                                              /*isNew=*/false, context_);
    }
  }
  ElectionOutcomes finished = std::move(update.finished);
  finished.insert(failed.begin(), failed.end());
  return {finished, update.retry};
}

std::vector<UncleanElectionInput> PartitionStateMachine::collectUncleanLeaderElectionState(
    const std::vector<std::pair<TopicPartition, LeaderAndIsr>>& leaderAndIsrs, bool allowUnclean) {
  std::vector<UncleanElectionInput> without_live_isr, with_live_isr;
  for (const auto& [tp, lai] : leaderAndIsrs) {
    bool any_live = false;
    for (BrokerId r : lai.isr) any_live = any_live || context_.isReplicaOnline(r, tp);
    if (any_live) {
      with_live_isr.push_back(UncleanElectionInput{tp, lai, false});
    } else {
      // getLogConfigs: the topic override merged over the broker default (false)
      const bool unclean = allowUnclean || services_.zk.getTopicUncleanLeaderElectionEnable(tp.topic);
      without_live_isr.push_back(UncleanElectionInput{tp, lai, unclean});
    }
  }
  without_live_isr.insert(without_live_isr.end(), with_live_isr.begin(), with_live_isr.end());
  return without_live_isr;
}

void PartitionStateMachine::logInvalidTransition(TopicPartition tp, PartitionState target) const {
  const PartitionState current = context_.partitionState(tp);
  logFailedStateChange(tp, current, target,
                       IllegalStateException(fmt::format("Partition {} should be in one of {} states before moving to {} "
                                                         "state. Instead it is in {} state",
                                                         name(tp), validPreviousStatesText(target), stateName(target),
                                                         stateName(current)))
                           .failure());
}

void PartitionStateMachine::logFailedStateChange(TopicPartition tp, PartitionState current, PartitionState target,
                                                 const Failure& failure) const {
  stateChangeLog().error(
      [&] {
        return fmt::format("Controller {} epoch {} failed to change state for partition {} from {} to {}",
                           services_.controller_id, context_.epoch, name(tp), stateName(current), stateName(target));
      },
      failure);
}

}  // namespace kcspec::impl
