// Decision: ReplicaLeaderElection for a known partition without cached leadership (a partition
// left in NewPartition because no replica was alive) is abandoned as a whole: Kafka reads
// `partitionLeadershipInfo(tp).get` while sorting out the electable partitions, the
// NoSuchElementException reaches the event thread ("Error processing event") and nothing is
// elected, not even the other partitions of the request.
// Decision: ControlledShutdown and AlterPartition do not let ControllerMovedException reach the
// event thread, so the controller does not resign on them (it resigns when it processes Expire).
// Kafka runs doControlledShutdown inside `Try` (kafka.md §5.9: the broker's callback receives the
// failure) and tryProcessAlterPartition inside `catch Throwable` (kafka.md §5.12: UNKNOWN_SERVER_ERROR).
// What happened before the failed write stays, e.g. the broker in shuttingDownBrokerIds.
// maybeCompleteReassignment runs outside that catch, so its ControllerMovedException propagates.
// Decision: AlterPartition sends UpdateMetadata for the partition whenever the request passes the
// top-level checks, including when the partition itself is rejected (kafka.md §5.12: "UpdateMetadata
// for all partitions named in the request"). Nothing else changes on a rejection.
// Decision: the AlterPartition response reaches the leader at once. The leader takes the ISR and
// partition epoch only if it still hosts the partition with that leader epoch and the partition
// epoch does not go backwards. The second condition matches the broker's
// Partition.handleAlterPartitionUpdate check ("Ignoring new ISR … since we have a newer version").
// On INELIGIBLE_REPLICA the leader ends its pending change if it is still the one answered
// (Partition.handleAlterPartitionError resets to the last committed ISR); every other error keeps
// it until a new LeaderAndIsr.
// Decision: checkAndTriggerAutoLeaderRebalance visits the brokers in ascending id order. Kafka
// iterates a Scala hash map grouped by preferred replica; each broker's partitions are one PSM
// batch either way, only the order of the batches (and so of the requests) is ours.
// Decision: a ZkTriggered election (from /admin/preferred_replica_election) takes the same steps as
// an AdminClient one, then deletes the znode and queues ReplicaLeaderElection(None, PREFERRED,
// ZkTriggered) for the controller itself; when the event is abandoned before onReplicaElection
// (the first Decision) the znode stays. The znode lists its partitions in a JSON set, taken in
// ascending partition order.
// Decision: auto rebalance runs onReplicaElection with trigger AutoTriggered, which differs from
// the AdminClient trigger only in logging: no znode is deleted, and a ControllerMovedException
// propagates from handleStateChanges in both cases (kafka.md §5.8.2).
#include "spec/rules/admin_elections.hpp"

#include <optional>

#include "spec/rules/broker_membership.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/elections.hpp"
#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/request_batch.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

// §5.8.1 step 4. Otherwise the result is ELECTION_NOT_NEEDED.
bool isElectable(const Context& ctx, TopicPartition tp, ElectionType type) {
  const BrokerId leader = partition(ctx, tp).leadership->leader_and_isr.leader;
  if (type == ElectionType::PREFERRED) return leader != partitionReplicaAssignment(ctx, tp).front();
  return leader == kNoLeader || !liveBrokerIds(ctx).contains(leader);
}

// §5.8.2 onReplicaElection with trigger AdminClientTriggered or AutoTriggered: failures go back to
// the admin client (or are dropped), and no /admin/preferred_replica_election is deleted.
void onReplicaElection(Controller& ctl, PartitionSet partitions, ElectionType type) {
  const ElectionStrategy strategy = type == ElectionType::PREFERRED
                                        ? ElectionStrategy{ElectionStrategyKind::PreferredReplicaPartition, false}
                                        : ElectionStrategy{ElectionStrategyKind::OfflinePartition, true};
  handleStateChanges(ctl, partitions, PartitionState::OnlinePartition, strategy);
}

// §5.8.2 removePartitionsFromPreferredReplicaElection, trigger ZkTriggered (the finally-block of
// onReplicaElection): the "completed …/failed to complete …" lines, then the znode is deleted and
// the controller queues ReplicaLeaderElection(None, PREFERRED, ZkTriggered) to re-arm its watch.
void removePartitionsFromPreferredReplicaElection(Controller& ctl) {
  deletePreferredReplicaElection(ctl);
  ctl.put(ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                          .election_type = ElectionType::PREFERRED,
                          .zk_triggered = true});
}

// §5.8.2 onReplicaElection(partitions, PREFERRED, ZkTriggered). A ControllerMovedException from
// the state machine propagates after the finally-block, whose fenced delete then fails the same way.
void onZkTriggeredReplicaElection(Controller& ctl, PartitionSet partitions) {
  try {
    onReplicaElection(ctl, partitions, ElectionType::PREFERRED);
  } catch (const ControllerMovedException&) {
    removePartitionsFromPreferredReplicaElection(ctl);
    throw;
  }
  // Failed elections are only logged: "Error completing replica leader election (PREFERRED) …"
  removePartitionsFromPreferredReplicaElection(ctl);
}

// §5.8.1 steps 2–4: the partitions to elect, or none when the event is abandoned (see the first
// Decision at the top of this file).
std::optional<PartitionSet> electablePartitions(Controller& ctl, PartitionSet partitions, ElectionType type) {
  const Context& ctx = ctl.context();
  // Unknown partitions get UNKNOWN_TOPIC_OR_PARTITION. Partitions of topics queued for deletion
  // get INVALID_TOPIC_EXCEPTION. Kafka 3.8 neither marks those topics ineligible for deletion
  // nor resumes their deletion here (the pairing that KAFKA-5107 got wrong is gone).
  PartitionSet live;
  (partitions & allPartitions(ctx)).forEach([&](TopicPartition tp) {
    if (!isTopicQueuedUpForDeletion(ctl, tp.topic)) live.insert(tp);
  });
  PartitionSet electable;
  bool abandoned = false;
  live.forEach([&](TopicPartition tp) {
    if (!partition(ctx, tp).leadership || partitionReplicaAssignment(ctx, tp).empty()) {
      abandoned = true;
      return;
    }
    if (isElectable(ctx, tp, type)) electable.insert(tp);
  });
  if (abandoned) return std::nullopt;
  return electable;
}

// §5.9 steps 1–9. Step 10 (the partitions still led) goes back to the broker.
void doControlledShutdown(Controller& ctl, BrokerId id, std::int64_t broker_epoch) {
  if (!ctl.module().active) return;  // ControllerMovedException("… Aborting controlled shutdown")
  Context& ctx = ctl.context();
  const std::int64_t cached_epoch = ctx.live_broker_epochs[static_cast<std::size_t>(id)];
  if (broker_epoch != -1) {
    if (cached_epoch < 0) return;               // liveBrokerIdAndEpochs(id) throws
    if (broker_epoch < cached_epoch) return;    // StaleBrokerEpochException
  }
  if (!liveOrShuttingDownBrokerIds(ctx).contains(id)) return;  // BrokerNotAvailableException
  ctx.shutting_down_broker_ids.insert(id);

  PartitionSet led, followed;
  partitionsOnBroker(ctx, id).forEach([&](TopicPartition tp) {
    const auto& leadership = partition(ctx, tp).leadership;
    if (partitionReplicaAssignment(ctx, tp).size() <= 1 || !leadership || isTopicQueuedUpForDeletion(ctl, tp.topic)) {
      return;
    }
    (leadership->leader_and_isr.leader == id ? led : followed).insert(tp);
  });
  handleStateChanges(ctl, led, PartitionState::OnlinePartition,
                     ElectionStrategy{ElectionStrategyKind::ControlledShutdownPartition, false});
  RequestBatch batch;  // KafkaController's own batch
  followed.forEach([&](TopicPartition tp) {
    addStopReplicaRequestForBrokers(ctl, batch, BrokerList{id}, tp, /*delete_partition=*/false);
  });
  sendRequestsToBrokers(ctl, batch);
  AllReplicaList followed_replicas;
  followed.forEach([&](TopicPartition tp) { followed_replicas.push_back({tp, id}); });
  handleStateChanges(ctl, followed_replicas, ReplicaState::OfflineReplica);
}

// What the leader reads for its partition: the leadership now in ZooKeeper, or why not.
enum class AlterPartitionAnswer : std::uint8_t { Accepted, IneligibleReplica, OtherError };
struct AlterPartitionResponse {
  AlterPartitionAnswer answer = AlterPartitionAnswer::OtherError;
  LeaderAndIsr leader_and_isr{};  // when Accepted
};
constexpr AlterPartitionResponse kOtherError{};

// §5.12 rules 2–10 for one partition.
AlterPartitionResponse alterPartition(Controller& ctl, TopicPartition tp, const LeaderAndIsr& requested) {
  const Context& ctx = ctl.context();
  const auto& cached = partition(ctx, tp).leadership;
  if (!cached) return kOtherError;  // UNKNOWN_TOPIC_OR_PARTITION
  const LeaderAndIsr& current = cached->leader_and_isr;
  // A leader ahead of this controller has probably heard from a newer one.
  if (requested.partition_epoch > current.partition_epoch || requested.leader_epoch > current.leader_epoch) {
    return kOtherError;  // NOT_CONTROLLER
  }
  if (requested.leader_epoch < current.leader_epoch) return kOtherError;  // FENCED_LEADER_EPOCH
  // Before the partition-epoch check, so that a retried request that already succeeded succeeds again.
  if (requested.equalsAllowStalePartitionEpoch(current)) return {AlterPartitionAnswer::Accepted, current};
  if (requested.partition_epoch < current.partition_epoch) return kOtherError;  // INVALID_UPDATE_VERSION
  if (requested.recovery_state == LeaderRecoveryState::RECOVERING && requested.isr.size() > 1) {
    return kOtherError;  // INVALID_REQUEST
  }
  if (current.recovery_state == LeaderRecoveryState::RECOVERED &&
      requested.recovery_state == LeaderRecoveryState::RECOVERING) {
    return kOtherError;  // INVALID_REQUEST
  }
  for (BrokerId r : requested.isr) {
    if (!liveBrokerIds(ctx).contains(r)) return {AlterPartitionAnswer::IneligibleReplica, {}};
  }
  std::int32_t new_version = 0;
  // The write is conditional on the leader's partition epoch; BADVERSION is INVALID_UPDATE_VERSION — also
  // when it answers the resend of this very write, whose response was lost (kafka.md §6.3.8): the
  // change is in ZooKeeper, but the cache is not reloaded and the leader hears an error.
  if (updatePartitionState(ctl, tp, requested, new_version) != ZkCode::OK) return kOtherError;
  updateLeaderAndIsrCache(ctl, tp);
  return {AlterPartitionAnswer::Accepted, requested.withPartitionEpoch(new_version)};
}

// The leader takes the response (see the Decision at the top of this file).
void receiveAlterPartitionResponse(Observation& world, BrokerId leader, TopicPartition tp,
                                   const LeaderAndIsr& requested, const AlterPartitionResponse& response) {
  BrokerData& broker = world.brokers[static_cast<std::size_t>(leader)];
  HostedReplica& replica = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
  if (!broker.alive || !replica.present) return;
  if (response.answer == AlterPartitionAnswer::Accepted) {
    const LeaderAndIsr& state = response.leader_and_isr;
    if (replica.leader_epoch != state.leader_epoch || state.partition_epoch < replica.partition_epoch) return;
    replica.isr = state.isr;
    replica.partition_epoch = state.partition_epoch;
    replica.alter_partition_pending = false;
  } else if (response.answer == AlterPartitionAnswer::IneligibleReplica) {
    // Nothing was written: the leader goes back to its last committed ISR and does not make the
    // same proposal again until the controller's view of the brokers may have changed
    // (docs/world.md §7).
    if (replica.alter_partition_pending && replica.leader_epoch == requested.leader_epoch &&
        replica.partition_epoch == requested.partition_epoch) {
      replica.alter_partition_pending = false;
      // The committed ISR is the one the proposal changed by one follower.
      for (BrokerId added : requested.isr) {
        if (!replica.isr.contains(added)) replica.refused_expansions.insert(added);
      }
      for (BrokerId removed : replica.isr) {
        if (!requested.isr.contains(removed)) replica.refused_shrinks.insert(removed);
      }
    }
  }
}

}  // namespace

void updateLeaderAndIsrCache(Controller& ctl, TopicPartition tp) {
  const std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
  if (!znode) return;
  partition(ctl.context(), tp).leadership = LeaderIsrAndControllerEpoch{znode->leader_and_isr, znode->controller_epoch};
}

void processReplicaLeaderElection(Controller& ctl, PartitionSet partitions, ElectionType type) {
  if (!ctl.module().active) return;  // NOT_CONTROLLER for every partition
  const std::optional<PartitionSet> electable = electablePartitions(ctl, partitions, type);
  if (electable) onReplicaElection(ctl, *electable, type);
}

void processZkTriggeredReplicaLeaderElection(Controller& ctl) {
  if (!ctl.module().active) return;
  // The exists-check registers the watch again; the partitions are the znode's.
  const PreferredReplicaElectionZnode& znode = ctl.zk().preferred_replica_election;
  if (!znode.exists) return;
  const std::optional<PartitionSet> electable = electablePartitions(ctl, znode.partitions, ElectionType::PREFERRED);
  if (electable) onZkTriggeredReplicaElection(ctl, *electable);  // abandoned: the znode stays
}

void resumePreferredReplicaElections(Controller& ctl) {
  const Context& ctx = ctl.context();
  // fetchPendingPreferredReplicaElections: "completed" (topic deleted, or the preferred replica
  // leads) first, over every partition the znode names, then those of topics being deleted.
  PartitionSet pending;
  ctl.zk().preferred_replica_election.partitions.forEach([&](TopicPartition tp) {
    const BrokerList assignment = partitionReplicaAssignment(ctx, tp);
    if (assignment.empty()) return;  // the topic was deleted
    const auto& leadership = partition(ctx, tp).leadership;
    if (!leadership) throw KafkaException{"NoSuchElementException: partitionLeadershipInfo(partition).get"};
    if (leadership->leader_and_isr.leader != assignment.front()) pending.insert(tp);
  });
  PartitionSet resumed;  // "Resuming preferred replica election for partitions: …"
  pending.forEach([&](TopicPartition tp) {
    if (!isTopicQueuedUpForDeletion(ctl, tp.topic)) resumed.insert(tp);
  });
  onZkTriggeredReplicaElection(ctl, resumed);
}

void processAutoPreferredReplicaLeaderElection(Controller& ctl) {
  if (!ctl.module().active) return;
  const Context& ctx = ctl.context();
  constexpr int kLeaderImbalancePerBrokerPercentage = 10;  // leader.imbalance.per.broker.percentage
  for (BrokerId preferred = 0; preferred < kMaxBrokers; ++preferred) {
    PartitionSet preferred_here;  // partitions (of topics not queued for deletion) preferring `preferred`
    PartitionSet not_preferred;   // … whose cached leader is someone else
    allPartitions(ctx).forEach([&](TopicPartition tp) {
      const BrokerList assignment = partitionReplicaAssignment(ctx, tp);
      if (isTopicQueuedUpForDeletion(ctl, tp.topic) || assignment.empty() || assignment.front() != preferred) return;
      preferred_here.insert(tp);
      const auto& leadership = partition(ctx, tp).leadership;
      if (leadership && leadership->leader_and_isr.leader != preferred) not_preferred.insert(tp);
    });
    if (preferred_here.empty()) continue;
    // imbalance ratio = |not preferred| / |preferred here| > percentage / 100, strictly
    if (not_preferred.size() * 100 <= kLeaderImbalancePerBrokerPercentage * preferred_here.size()) continue;
    PartitionSet candidates;  // canPreferredReplicaBeLeader: the head is online and in the cached ISR
    not_preferred.forEach([&](TopicPartition tp) {
      BrokerSet online;
      for (BrokerId replica : partitionReplicaAssignment(ctx, tp)) {
        if (isReplicaOnline(ctx, replica, tp)) online.insert(replica);
      }
      const BrokerList& isr = partition(ctx, tp).leadership->leader_and_isr.isr;
      if (preferredReplicaPartitionLeaderElection(partitionReplicaAssignment(ctx, tp), isr, online)) candidates.insert(tp);
    });
    onReplicaElection(ctl, candidates, ElectionType::PREFERRED);
  }
}

void processControlledShutdown(Controller& ctl, BrokerId broker, std::int64_t broker_epoch) {
  try {
    doControlledShutdown(ctl, broker, broker_epoch);
  } catch (const ControllerMovedException&) {
    // Only the broker hears of it (Try); see the second Decision at the top of this file.
  } catch (const KafkaException&) {
    // The same for every NonFatal throwable (Try).
  }
}

void processAlterPartition(Controller& ctl, BrokerId broker, std::int64_t broker_epoch, TopicPartition tp,
                           const LeaderAndIsr& proposed, std::optional<TopicId> topic_id) {
  if (!ctl.module().active) return;  // NOT_CONTROLLER
  const std::int64_t cached_epoch =
      isBrokerId(broker) ? ctl.context().live_broker_epochs[static_cast<std::size_t>(broker)] : -1;
  if (cached_epoch < 0 || cached_epoch != broker_epoch) return;  // STALE_BROKER_EPOCH (unknown or stale)
  LeaderAndIsr requested = proposed;
  requested.leader = broker;  // the request names no leader: it comes from the leader
  // topicName(topicId): an id the controller does not know (its topic was deleted, perhaps created
  // again under a new id) is UNKNOWN_TOPIC_ID, and the partition is not one to alter — the
  // UpdateMetadata still goes to every broker, naming no partition.
  const bool unknown_topic_id = topic_id && ctl.context().topic_ids[static_cast<std::size_t>(tp.topic)] != *topic_id;
  AlterPartitionResponse response;
  try {
    if (!unknown_topic_id) response = alterPartition(ctl, tp, requested);
    sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()),
                              unknown_topic_id ? PartitionSet{} : PartitionSet{tp});
  } catch (const ControllerMovedException&) {
    return;  // UNKNOWN_SERVER_ERROR; see the second Decision at the top of this file
  } catch (const KafkaException&) {
    return;  // the same for every Throwable (a write whose session expired)
  }
  receiveAlterPartitionResponse(ctl.world, broker, tp, requested, response);
  if (response.answer != AlterPartitionAnswer::Accepted) return;
  if (ctl.context().partitions_being_reassigned.contains(tp)) maybeCompleteReassignment(ctl, tp);
}

}  // namespace kcspec::spec
