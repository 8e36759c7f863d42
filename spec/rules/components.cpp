// Component actions on the spec: the call's method of the active controller's component, run as
// an event handler runs it but with no event around it. Each case below is one Kafka method.
#include "spec/rules/components.hpp"

#include "spec/rules/component_queries.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/elections.hpp"
#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/zookeeper.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::spec {
namespace {

ElectionStrategy strategyOf(ElectionKind kind, bool unclean) {
  switch (kind) {
    case ElectionKind::Offline: return ElectionStrategy{ElectionStrategyKind::OfflinePartition, unclean};
    case ElectionKind::Reassign: return ElectionStrategy{ElectionStrategyKind::ReassignPartition};
    case ElectionKind::PreferredReplica: return ElectionStrategy{ElectionStrategyKind::PreferredReplicaPartition};
    case ElectionKind::ControlledShutdown: return ElectionStrategy{ElectionStrategyKind::ControlledShutdownPartition};
  }
  KCSPEC_ASSERT(false);
  return {};
}

AllReplicaList replicaList(const std::vector<PartitionAndReplica>& replicas) {
  AllReplicaList list;
  for (const PartitionAndReplica& r : replicas) list.push_back(r);
  return list;
}

// The one topic a method of one topic is called with.
TopicIndex theTopic(const ComponentCall& call) {
  KCSPEC_ASSERT(call.topics.size() == 1);
  TopicIndex topic = 0;
  call.topics.forEach([&](TopicIndex t) { topic = t; });
  return topic;
}

ComponentAnswer leaderAnswer(std::optional<BrokerId> leader) {
  return ComponentAnswer{.kind = ComponentAnswer::Kind::Leader, .leader = leader};
}

// PartitionLeaderElectionAlgorithms on the call's values (kafka.md §2.8's pseudo-code).
ComponentAnswer electionAlgorithm(const ComponentCall& call) {
  switch (*call.election) {
    case ElectionKind::Offline:
      return leaderAnswer(offlinePartitionLeaderElection(call.assignment, call.isr, call.live, call.unclean));
    case ElectionKind::Reassign:
      return leaderAnswer(reassignPartitionLeaderElection(call.assignment, call.isr, call.live));
    case ElectionKind::PreferredReplica:
      return leaderAnswer(preferredReplicaPartitionLeaderElection(call.assignment, call.isr, call.live));
    case ElectionKind::ControlledShutdown:
      return leaderAnswer(
          controlledShutdownPartitionLeaderElection(call.assignment, call.isr, call.live, call.shutting_down));
  }
  KCSPEC_ASSERT(false);
  return {};
}

// Election.leaderFor* for one partition, on the LeaderAndIsr its state znode holds and the inputs
// the partition state machine gathers (§2.6 step 4, §2.7, §2.8) — without the write that follows.
ElectionAnswer leaderFor(Controller& ctl, TopicPartition tp, const ElectionStrategy& strategy) {
  const std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
  if (!znode) return ElectionAnswer{.tp = tp, .has_state_znode = false};
  const LeaderAndIsr& current = znode->leader_and_isr;
  const ElectionInputs inputs = electionInputs(ctl, tp, current);
  ElectionAnswer answer{.tp = tp, .recipients = electionRecipients(strategy, inputs)};
  if (const std::optional<ElectionDecision> decision = electLeader(strategy, inputs)) {
    answer.leader_and_isr = electedLeaderAndIsr(current, *decision);
  }
  return answer;
}

ComponentAnswer electionsFor(Controller& ctl, const ComponentCall& call) {
  const ElectionStrategy strategy = strategyOf(*call.election, call.unclean);
  ComponentAnswer answer{.kind = ComponentAnswer::Kind::Elections};
  call.partitions.forEach([&](TopicPartition tp) { answer.elections.push_back(leaderFor(ctl, tp, strategy)); });
  return answer;
}

// KafkaController's brokerRequestBatch: newBatch(), the entries added in order, then
// sendRequestsToBrokers. The batch is empty between events (nothing throws between its newBatch()
// and its flush), so newBatch() never fails. A LeaderAndIsr entry takes the cached leadership:
// without one, Kafka's partitionLeadershipInfo(tp).get throws before anything is added.
void sendBatch(Controller& ctl, const std::vector<BatchEntry>& entries) {
  for (const BatchEntry& entry : entries) {
    entry.partitions.forEach([&](TopicPartition tp) {
      if (entry.kind == BatchEntry::Kind::LeaderAndIsr && !partition(ctl.context(), tp).leadership) {
        throw KafkaException{"NoSuchElementException: no leadership cached for the partition"};
      }
    });
  }
  RequestBatch batch;
  for (const BatchEntry& entry : entries) {
    switch (entry.kind) {
      case BatchEntry::Kind::LeaderAndIsr:
        entry.partitions.forEach([&](TopicPartition tp) {
          addLeaderAndIsrRequestForBrokers(ctl, batch, entry.brokers, tp, *partition(ctl.context(), tp).leadership,
                                           partitionFullReplicaAssignment(ctl.context(), tp), entry.flag);
        });
        break;
      case BatchEntry::Kind::StopReplica:
        entry.partitions.forEach([&](TopicPartition tp) {
          addStopReplicaRequestForBrokers(ctl, batch, entry.brokers, tp, entry.flag);
        });
        break;
      case BatchEntry::Kind::UpdateMetadata: {
        BrokerSet brokers;
        for (BrokerId b : entry.brokers) brokers.insert(b);
        addUpdateMetadataRequestForBrokers(ctl, batch, brokers, entry.partitions);
        break;
      }
    }
  }
  sendRequestsToBrokers(ctl, batch);
}

// The method the call names, on the active controller; its answer.
ComponentAnswer callOnController(Controller& ctl, const ComponentCall& call) {
  switch (call.method) {
    case ComponentMethod::PartitionStateMachineHandleStateChanges: {
      std::optional<ElectionStrategy> strategy;
      if (call.election) strategy = strategyOf(*call.election, call.unclean);
      handleStateChanges(ctl, call.partitions, call.partition_target, strategy);
      return {};
    }
    case ComponentMethod::ReplicaStateMachineHandleStateChanges:
      handleStateChanges(ctl, replicaList(call.replicas), call.replica_target);
      return {};
    case ComponentMethod::TopicDeletionManagerInit:
      topicDeletionManagerInit(ctl, call.topics, call.ineligible_topics);
      return {};
    case ComponentMethod::TopicDeletionManagerTryTopicDeletion:
      tryTopicDeletion(ctl);
      return {};
    case ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion:
      enqueueTopicsForDeletion(ctl, call.topics);
      return {};
    case ComponentMethod::TopicDeletionManagerResumeDeletionForTopics:
      resumeDeletionForTopics(ctl, call.topics);
      return {};
    case ComponentMethod::TopicDeletionManagerFailReplicaDeletion:
      failReplicaDeletion(ctl, replicaList(call.replicas));
      return {};
    case ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion:
      completeReplicaDeletion(ctl, replicaList(call.replicas));
      return {};
    case ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion:
      markTopicIneligibleForDeletion(ctl, call.topics);
      return {};
    case ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion:
      return ComponentAnswer{.kind = ComponentAnswer::Kind::Boolean,
                             .boolean = isTopicQueuedUpForDeletion(ctl, theTopic(call))};
    case ComponentMethod::ElectionLeaderFor:
      return electionsFor(ctl, call);
    case ComponentMethod::RequestBatchSend:
      sendBatch(ctl, call.batch);
      return {};
    case ComponentMethod::ControllerContextQuery:
      return askControllerContext(ctl.context(), call);
    case ComponentMethod::ElectionAlgorithm:
      break;  // needs no controller: answered by callComponent
  }
  KCSPEC_ASSERT(false);
  return {};
}

}  // namespace

bool componentCallPossible(const ClusterState& state, const ComponentCall& call) {
  return !needsActiveController(call) || activeControllerOf(state.world) != kNoLeader;
}

ComponentResult callComponent(const Config& config, ClusterState& state, const ComponentCall& call,
                              StepObserver& observer) {
  KCSPEC_ASSERT(componentCallPossible(state, call));
  if (call.method == ComponentMethod::ElectionAlgorithm) return ComponentResult{.answer = electionAlgorithm(call)};
  Controller ctl{config, state.world, activeControllerOf(state.world), observer};
  try {
    return ComponentResult{.answer = callOnController(ctl, call)};
  } catch (const ControllerMovedException&) {
    return ComponentResult{ComponentException::ControllerMoved, {}};
  } catch (const KafkaException&) {
    return ComponentResult{ComponentException::Other, {}};
  }
}

}  // namespace kcspec::spec
