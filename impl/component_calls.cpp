// Component actions on the reference controller (spec/vocabulary/component_call.hpp): one method
// of one component of the active controller — PartitionStateMachine / ReplicaStateMachine
// .handleStateChanges, TopicDeletionManager's methods, Election.leaderFor*, the controller's own
// ControllerBrokerRequestBatch, ControllerContext's getters — called the way Kafka's controller
// unit tests call them, with no event around them; and PartitionLeaderElectionAlgorithms on given
// values, which needs no controller at all.
#include <algorithm>

#include "impl/cluster.hpp"
#include "impl/component_queries.hpp"
#include "impl/controller/election.hpp"
#include "impl/controller/kafka_controller.hpp"
#include "impl/errors.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {
namespace {

PartitionLeaderElectionStrategy strategyOf(ElectionKind kind, bool allowUnclean) {
  switch (kind) {
    case ElectionKind::Offline: return PartitionLeaderElectionStrategy::offline(allowUnclean);
    case ElectionKind::Reassign: return PartitionLeaderElectionStrategy::reassign();
    case ElectionKind::PreferredReplica: return PartitionLeaderElectionStrategy::preferredReplica();
    case ElectionKind::ControlledShutdown: return PartitionLeaderElectionStrategy::controlledShutdown();
  }
  KCSPEC_ASSERT(false);
  return {};
}

TopicIndex onlyTopic(TopicSet topics) {
  KCSPEC_ASSERT(topics.size() == 1);
  TopicIndex out = -1;
  topics.forEach([&](TopicIndex t) { out = t; });
  return out;
}

// `elect <algorithm> assignment L isr L live L …`: the algorithm on the call's values.
ComponentAnswer runElectionAlgorithm(const ComponentCall& call) {
  KCSPEC_ASSERT(call.election.has_value());
  namespace algorithms = PartitionLeaderElectionAlgorithms;
  ComponentAnswer answer{.kind = ComponentAnswer::Kind::Leader};
  switch (*call.election) {
    case ElectionKind::Offline:
      answer.leader = algorithms::offlinePartitionLeaderElection(call.assignment, call.isr, call.live, call.unclean);
      break;
    case ElectionKind::Reassign:
      answer.leader = algorithms::reassignPartitionLeaderElection(call.assignment, call.isr, call.live);
      break;
    case ElectionKind::PreferredReplica:
      answer.leader = algorithms::preferredReplicaPartitionLeaderElection(call.assignment, call.isr, call.live);
      break;
    case ElectionKind::ControlledShutdown:
      answer.leader =
          algorithms::controlledShutdownPartitionLeaderElection(call.assignment, call.isr, call.live, call.shutting_down);
      break;
  }
  return answer;
}

}  // namespace

ComponentResult KafkaController::callComponent(const ComponentCall& call) {
  ComponentAnswer answer;
  try {
    switch (call.method) {
      case ComponentMethod::PartitionStateMachineHandleStateChanges: {
        std::optional<PartitionLeaderElectionStrategy> strategy;
        if (call.election) strategy = strategyOf(*call.election, call.unclean);
        psm_.handleStateChanges(toVector(call.partitions), call.partition_target, strategy);
        break;
      }
      case ComponentMethod::ReplicaStateMachineHandleStateChanges:
        rsm_.handleStateChanges(call.replicas, call.replica_target);
        break;
      case ComponentMethod::TopicDeletionManagerInit: tdm_.init(call.topics, call.ineligible_topics); break;
      case ComponentMethod::TopicDeletionManagerTryTopicDeletion: tdm_.tryTopicDeletion(); break;
      case ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion: tdm_.enqueueTopicsForDeletion(call.topics); break;
      case ComponentMethod::TopicDeletionManagerResumeDeletionForTopics: tdm_.resumeDeletionForTopics(call.topics); break;
      case ComponentMethod::TopicDeletionManagerFailReplicaDeletion: tdm_.failReplicaDeletion(call.replicas); break;
      case ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion: tdm_.completeReplicaDeletion(call.replicas); break;
      case ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion:
        tdm_.markTopicIneligibleForDeletion(call.topics, "component action");
        break;
      case ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion:
        answer = ComponentAnswer{.kind = ComponentAnswer::Kind::Boolean,
                                 .boolean = tdm_.isTopicQueuedUpForDeletion(onlyTopic(call.topics))};
        break;
      case ComponentMethod::ElectionAlgorithm: answer = runElectionAlgorithm(call); break;
      case ComponentMethod::ElectionLeaderFor: answer = electLeadersWithoutChange(call); break;
      case ComponentMethod::RequestBatchSend: sendComponentBatch(call.batch); break;
      case ComponentMethod::ControllerContextQuery: answer = answerContextQuery(context_, call); break;
    }
  } catch (const ControllerMovedException&) {
    return ComponentResult{ComponentException::ControllerMoved, {}};
  } catch (const KafkaThrowable&) {
    return ComponentResult{ComponentException::Other, {}};
  }
  return ComponentResult{ComponentException::None, answer};
}

// `elect <strategy> partitions …`: doElectLeaderForPartitions up to the election itself — each
// partition's state znode as read from ZooKeeper, the strategy's inputs gathered as the partition
// state machine gathers them (collectUncleanLeaderElectionState for Offline), Election.leaderFor*
// — and nothing after it: no ZooKeeper write, no cache update, no request, no log line.
ComponentAnswer KafkaController::electLeadersWithoutChange(const ComponentCall& call) {
  KCSPEC_ASSERT(call.election.has_value());
  ComponentAnswer answer{.kind = ComponentAnswer::Kind::Elections};
  std::vector<std::pair<TopicPartition, LeaderAndIsr>> valid;
  call.partitions.forEach([&](TopicPartition tp) {
    const zk::PartitionStateRead read = services_.zk.getTopicPartitionState(tp);
    if (read.state) {
      valid.emplace_back(tp, read.state->leader_and_isr);
    } else {
      answer.elections.push_back(ElectionAnswer{.tp = tp, .has_state_znode = false});
    }
  });
  std::vector<ElectionResult> results;
  if (!valid.empty()) {
    switch (*call.election) {
      case ElectionKind::Offline:
        results = Election::leaderForOffline(context_, services_.isLeaderRecoverySupported(), psm_.collectUncleanLeaderElectionState(valid, call.unclean),
                                             services_.mutants);
        break;
      case ElectionKind::Reassign: results = Election::leaderForReassign(context_, valid); break;
      case ElectionKind::PreferredReplica: results = Election::leaderForPreferredReplica(context_, valid); break;
      case ElectionKind::ControlledShutdown:
        results = Election::leaderForControlledShutdown(context_, valid, services_.mutants);
        break;
    }
  }
  for (const ElectionResult& result : results) {
    answer.elections.push_back(ElectionAnswer{.tp = result.tp, .has_state_znode = true,
                                              .leader_and_isr = result.leader_and_isr, .recipients = result.recipients});
  }
  std::sort(answer.elections.begin(), answer.elections.end(),
            [](const ElectionAnswer& a, const ElectionAnswer& b) { return a.tp < b.tp; });
  return answer;
}

// `request-batch send …` on the controller's own batch (the one sendUpdateMetadataRequest uses):
// newBatch(), the entries added in order, sendRequestsToBrokers. A LeaderAndIsr entry takes the
// context's cached leadership; a partition without one (Kafka's partitionLeadershipInfo(tp).get)
// throws before anything is added, so the batch stays empty.
void KafkaController::sendComponentBatch(const std::vector<BatchEntry>& entries) {
  for (const BatchEntry& entry : entries) {
    if (entry.kind != BatchEntry::Kind::LeaderAndIsr) continue;
    entry.partitions.forEach([&](TopicPartition tp) {
      if (!context_.partitionLeadershipInfo(tp)) {
        throw KafkaThrowable("java.util.NoSuchElementException", "None.get (no cached leadership for " + name(tp) + ")");
      }
    });
  }
  ControllerBrokerRequestBatch& batch = state_.controller_batch;
  batch.newBatch();
  for (const BatchEntry& entry : entries) {
    switch (entry.kind) {
      case BatchEntry::Kind::LeaderAndIsr:
        entry.partitions.forEach([&](TopicPartition tp) {
          batch.addLeaderAndIsrRequestForBrokers(entry.brokers, tp, *context_.partitionLeadershipInfo(tp),
                                                 context_.partitionFullReplicaAssignment(tp), entry.flag, context_);
        });
        break;
      case BatchEntry::Kind::StopReplica:
        entry.partitions.forEach(
            [&](TopicPartition tp) { batch.addStopReplicaRequestForBrokers(entry.brokers, tp, entry.flag, context_); });
        break;
      case BatchEntry::Kind::UpdateMetadata: {
        BrokerSet brokers;
        for (BrokerId b : entry.brokers) brokers.insert(b);
        batch.addUpdateMetadataRequestForBrokers(brokers, entry.partitions, context_);
        break;
      }
    }
  }
  batch.sendRequestsToBrokers(context_.epoch, id_, context_, services_.channel, services_.logger, services_.config,
                                 services_.interBrokerProtocolVersion());
}

ComponentResult ImplCluster::callComponent(const ComponentCall& call) {
  // The algorithms on given values need no controller, and change nothing.
  if (call.method == ComponentMethod::ElectionAlgorithm) {
    return ComponentResult{ComponentException::None, runElectionAlgorithm(call)};
  }
  const std::optional<BrokerId> active = activeController();
  KCSPEC_ASSERT(active.has_value());
  ComponentResult result;
  runOnController(*active, [&](KafkaController& controller) { result = controller.callComponent(call); });
  routeWatchEvents();
  return result;
}

}  // namespace kcspec::impl
