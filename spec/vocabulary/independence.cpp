#include "spec/vocabulary/independence.hpp"

#include "spec/vocabulary/assert.hpp"

namespace kcspec {
namespace {

const BrokerData& brokerOf(const Observation& world, BrokerId b) { return world.brokers[static_cast<std::size_t>(b)]; }

// Whether the head event of the controller module on `host` is an AlterPartition from `leader`
// on one of `partitions` (processing it answers `leader`, whose replica then changes).
bool headAnswersAlterPartition(const Observation& world, BrokerId host, BrokerId leader, const PartitionSet& partitions) {
  const auto& events = brokerOf(world, host).controller.events;
  if (events.empty()) return false;
  const ControllerEvent& head = events.front();
  return head.kind == ControllerEventKind::AlterPartitionReceived && head.broker == leader && partitions.contains(head.tp);
}

// Whether `event` is an AlterPartition from `leader` whose proposed ISR names a broker that the
// context of `host`'s module does not count as live — not registered, or shutting down (Kafka's
// isReplicaOnline excludes both): one the controller may answer INELIGIBLE_REPLICA, which marks
// the change refused on the leader's replica — and an UpdateMetadata that changes the leader's
// view of the brokers clears those marks.
bool mayBeRefused(const Observation& world, BrokerId host, const ControllerEvent& event, BrokerId leader) {
  if (event.kind != ControllerEventKind::AlterPartitionReceived || event.broker != leader) return false;
  const ControllerContextData& ctx = brokerOf(world, host).controller.context;
  for (BrokerId r : event.proposed.isr) {
    if (!isBrokerId(r) || ctx.live_broker_epochs[static_cast<std::size_t>(r)] < 0 || ctx.shutting_down_broker_ids.contains(r)) {
      return true;
    }
  }
  return false;
}

bool headMayBeRefused(const Observation& world, BrokerId host, BrokerId leader) {
  const auto& events = brokerOf(world, host).controller.events;
  return !events.empty() && mayBeRefused(world, host, events.front(), leader);
}

// Whether the head event of broker b's own controller module registers b again (a new broker epoch).
bool headRegistersAgain(const Observation& world, BrokerId host, BrokerId b) {
  const auto& events = brokerOf(world, host).controller.events;
  return host == b && !events.empty() && events.front().kind == ControllerEventKind::RegisterBrokerAndReelect;
}

bool queuesAlterPartition(const Observation& world, BrokerId leader, const PartitionSet& partitions) {
  for (const BrokerData& host : world.brokers) {
    for (const ControllerEvent& event : host.controller.events) {
      if (event.kind == ControllerEventKind::AlterPartitionReceived && event.broker == leader &&
          partitions.contains(event.tp)) {
        return true;
      }
    }
  }
  return false;
}

// Whether topic `topic` cannot be deleted and created again on any path: its leader epochs then
// only grow.
bool recreationRuledOut(const Observation& world, TopicIndex topic, const PersistenceScope& scope) {
  if (!scope.topics_may_be_created) return true;
  if (scope.topics_may_be_deleted || world.zk.delete_topics.contains(topic)) return false;
  for (const BrokerData& host : world.brokers) {
    if (host.controller.context.topics_to_be_deleted.contains(topic)) return false;
  }
  return true;
}

// Whether no broker but b can come to lead `tp` at leader epoch `epoch` on a path that does not
// deliver to b: none leads it at that epoch, no LeaderAndIsr queued for a broker names that broker
// leader at the epoch, no controller context holds the epoch with a leader other than b, and
// ZooKeeper's epoch for it is past it for good (or its topic is gone for good).
bool noOtherCanLeadAt(const Observation& world, BrokerId b, TopicPartition tp, std::int32_t epoch,
                      const PersistenceScope& scope) {
  if (!recreationRuledOut(world, tp.topic, scope)) return false;
  const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(tp.topic)];
  const auto& znode = topic.states[static_cast<std::size_t>(tp.partition)];
  const bool past_for_good = topic.exists ? znode && znode->leader_and_isr.leader_epoch > epoch : !scope.topics_may_be_created;
  if (!past_for_good) return false;
  const auto index = static_cast<std::size_t>(partitionIndex(tp));
  for (BrokerId host = 0; host < kMaxBrokers; ++host) {
    const BrokerData& broker = brokerOf(world, host);
    const auto& leadership = broker.controller.context.partitions[index].leadership;
    // A context sends its leadership as it holds it: to the leader it names, too.
    if (leadership && leadership->leader_and_isr.leader_epoch == epoch && isBrokerId(leadership->leader_and_isr.leader) &&
        leadership->leader_and_isr.leader != b) {
      return false;
    }
    if (host == b) continue;
    const HostedReplica& replica = broker.replicas[index];
    if (replica.present && replica.is_leader && replica.leader_epoch == epoch) return false;
    for (const ControlRequest& request : broker.inbox) {
      for (const auto& entry : request.leader_and_isr) {
        if (entry.tp == tp && entry.leadership.leader_and_isr.leader_epoch == epoch &&
            entry.leadership.leader_and_isr.leader == host) {
          return false;
        }
      }
    }
  }
  return true;
}

// Whether a reassignment may yet change `tp`'s replicas: one may start, or one is under way or
// asked for (a queued request, /admin/reassign_partitions, adding replicas in ZooKeeper, a context
// reassigning it).
bool reassignmentMayChange(const Observation& world, TopicPartition tp, const PersistenceScope& scope) {
  if (scope.reassignments_may_start || world.zk.reassign_partitions.exists) return true;
  const auto& assignment = world.zk.topics[static_cast<std::size_t>(tp.topic)].partitions[static_cast<std::size_t>(tp.partition)];
  if (assignment && !assignment->adding_replicas.empty()) return true;
  for (const BrokerData& host : world.brokers) {
    if (host.controller.context.partitions_being_reassigned.contains(tp)) return true;
    for (const ControllerEvent& event : host.controller.events) {
      if (event.kind == ControllerEventKind::ApiPartitionReassignment ||
          event.kind == ControllerEventKind::ZkPartitionReassignment) {
        return true;
      }
    }
  }
  return false;
}

bool assigns(const std::optional<ReplicaAssignment>& assignment, BrokerId broker) {
  return assignment && assignment->replicas.contains(broker);
}

// Whether a broker outside `isr` (and not `leader`) follows `tp` at leader epoch `epoch`, or can
// come to before a delivery to `leader`: a follower's replica changes by a LeaderAndIsr at a higher
// epoch that names it among the replicas — one queued for it, or one a controller sends from its
// context (or from ZooKeeper, after a failover) to the replicas it assigns.
bool someFollowerCanCatchUpAt(const Observation& world, BrokerId leader, TopicPartition tp, std::int32_t epoch,
                              const BrokerList& isr, const PersistenceScope& scope) {
  if (reassignmentMayChange(world, tp, scope) || !recreationRuledOut(world, tp.topic, scope)) return true;
  const auto index = static_cast<std::size_t>(partitionIndex(tp));
  const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(tp.topic)];
  const auto& znode = topic.states[static_cast<std::size_t>(tp.partition)];
  const bool zk_at_epoch = topic.exists && znode && znode->leader_and_isr.leader_epoch == epoch;
  for (BrokerId follower = 0; follower < kMaxBrokers; ++follower) {
    if (follower == leader || isr.contains(follower)) continue;
    const BrokerData& broker = brokerOf(world, follower);
    const HostedReplica& replica = broker.replicas[index];
    if (replica.present && !replica.is_leader && replica.leader_epoch == epoch) return true;
    for (const ControlRequest& request : broker.inbox) {
      for (const auto& entry : request.leader_and_isr) {
        if (entry.tp == tp && entry.leadership.leader_and_isr.leader_epoch == epoch &&
            entry.assignment.replicas.contains(follower)) {
          return true;
        }
      }
    }
    if (zk_at_epoch && assigns(topic.partitions[static_cast<std::size_t>(tp.partition)], follower)) return true;
    for (const BrokerData& host : world.brokers) {
      const PartitionContext& context = host.controller.context.partitions[index];
      if (context.leadership && context.leadership->leader_and_isr.leader_epoch == epoch &&
          assigns(context.assignment, follower)) {
        return true;
      }
    }
  }
  return false;
}

// Whether `leader`, which leads `tp`, can propose no ISR change for it before a delivery to it:
// a proposal in flight stays pending until answered (none is queued) or until a LeaderAndIsr;
// else no shrink-isr is left (or the ISR is the leader alone) and no follower outside the ISR can
// catch up at the leader's epoch (expand-isr).
bool leaderCannotPropose(const Observation& world, BrokerId leader, TopicPartition tp, const PersistenceScope& scope) {
  const HostedReplica& replica = brokerOf(world, leader).replicas[static_cast<std::size_t>(partitionIndex(tp))];
  KCSPEC_ASSERT(replica.present && replica.is_leader);
  if (replica.alter_partition_pending) return !queuesAlterPartition(world, leader, PartitionSet{tp});
  if (scope.isr_shrinks_may_happen && replica.isr.size() > 1) return false;
  return !someFollowerCanCatchUpAt(world, leader, tp, replica.leader_epoch, replica.isr, scope);
}

// Whether broker b may propose an ISR change for a partition it leads before a delivery to it.
// Only a leader's replica proposes ISR changes and waits for their answers
// (alter_partition_pending), and only such a replica is marked refused by an INELIGIBLE_REPLICA
// answer; a broker's replicas change by a delivery to it or its crash only.
bool mayProposeAny(const Observation& world, BrokerId b, const PersistenceScope& scope) {
  const BrokerData& broker = brokerOf(world, b);
  for (int i = 0; i < kMaxPartitions; ++i) {
    const HostedReplica& replica = broker.replicas[static_cast<std::size_t>(i)];
    if (replica.present && replica.is_leader && !leaderCannotPropose(world, b, partitionAt(i), scope)) return true;
  }
  return false;
}

}  // namespace

std::optional<DeliveryFootprint> deliveryFootprint(const Observation& world, BrokerId b) {
  if (!isBrokerId(b)) return std::nullopt;
  const BrokerData& broker = brokerOf(world, b);
  if (!broker.alive || broker.inbox.empty()) return std::nullopt;
  const ControlRequest& head = broker.inbox.front();
  DeliveryFootprint footprint;
  // A request from an older controller epoch, or for an earlier incarnation of b, is refused whole.
  if (head.controller_epoch < broker.known_controller_epoch ||
      (head.broker_epoch >= 0 && head.broker_epoch < broker.broker_epoch)) {
    return footprint;
  }
  const auto heldEpoch = [&](TopicPartition tp) {
    return broker.replicas[static_cast<std::size_t>(partitionIndex(tp))].leader_epoch;
  };
  for (const auto& entry : head.leader_and_isr) footprint.named.insert(entry.tp);
  for (const auto& entry : head.stop_replica) footprint.named.insert(entry.tp);
  switch (head.kind) {
    case RequestKind::LeaderAndIsr:
      for (const auto& entry : head.leader_and_isr) {
        if (broker.offline_log_dir_replicas.contains(entry.tp)) continue;  // KAFKA_STORAGE_ERROR
        // Only a higher leader epoch, naming b as a replica, changes b's replica.
        if (entry.leadership.leader_and_isr.leader_epoch > heldEpoch(entry.tp) && entry.assignment.replicas.contains(b)) {
          footprint.replicas.insert(entry.tp);
        }
      }
      break;
    case RequestKind::UpdateMetadata:
      footprint.metadata_cache = true;
      footprint.clears_refusals =
          head.controller_epoch > broker.known_controller_epoch || head.live_brokers != broker.metadata_live_brokers;
      break;
    case RequestKind::StopReplica:
      for (const auto& entry : head.stop_replica) {
        if (broker.offline_log_dir_replicas.contains(entry.tp)) continue;  // KAFKA_STORAGE_ERROR
        // The deletion (−2) and unknown (−1) epochs bypass the check; otherwise a lower one is refused.
        if (entry.leader_epoch == LeaderAndIsr::kEpochDuringDelete || entry.leader_epoch == LeaderAndIsr::kNoEpoch ||
            entry.leader_epoch >= heldEpoch(entry.tp)) {
          footprint.replicas.insert(entry.tp);
        }
      }
      break;
  }
  return footprint;
}

bool independentOfDelivery(const Observation& world, BrokerId b, const Action& other) {
  const std::optional<DeliveryFootprint> footprint = deliveryFootprint(world, b);
  KCSPEC_ASSERT(footprint.has_value());
  switch (other.kind) {
    case ActionKind::DeliverRequest:
    case ActionKind::CrashBroker:
    case ActionKind::StartBroker:
      return other.broker != b;
    case ActionKind::ShrinkIsr:  // reads the leader's replica only
      return !(other.broker == b && footprint->replicas.contains(other.tp));
    case ActionKind::ExpandIsr:  // reads the leader's replica and the follower's (caught up: the same leader epoch)
      return !((other.broker == b || other.replica == b) && footprint->replicas.contains(other.tp));
    case ActionKind::ProcessEvent:
      return !headAnswersAlterPartition(world, other.broker, b, footprint->replicas) &&
             !headRegistersAgain(world, other.broker, b) &&
             !(footprint->clears_refusals && headMayBeRefused(world, other.broker, b));
    case ActionKind::FailLogDir:
      return !(other.broker == b && footprint->named.contains(other.tp));
    default:
      return true;
  }
}

bool deliveryIsPersistent(const Observation& world, BrokerId b, const PersistenceScope& scope) {
  const std::optional<DeliveryFootprint> footprint = deliveryFootprint(world, b);
  // b may still go by a new broker epoch: a session can be lost, or b's is lost and it registers again.
  const bool epoch_may_change = scope.broker_sessions_may_expire || !world.zk.session_expiring_writes.empty() ||
                                !world.zk.brokers[static_cast<std::size_t>(b)].registered;
  if (!footprint || epoch_may_change) return false;
  bool unread = true;  // no shrink-isr or expand-isr can read b's replica before the delivery
  footprint->replicas.forEach([&](TopicPartition tp) {
    const HostedReplica& replica = brokerOf(world, b).replicas[static_cast<std::size_t>(partitionIndex(tp))];
    unread &= !replica.present || (replica.is_leader ? leaderCannotPropose(world, b, tp, scope)
                                                     : noOtherCanLeadAt(world, b, tp, replica.leader_epoch, scope));
  });
  bool no_log_to_fail = true;  // fail-log-dir <p> <b> needs a log of p on b not yet offline
  const BrokerData& broker = brokerOf(world, b);
  if (scope.log_dirs_may_fail) footprint->named.forEach([&](TopicPartition tp) {
    const HostedReplica& replica = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
    no_log_to_fail &= broker.offline_log_dir_replicas.contains(tp) || (!replica.present && replica.leader_epoch < 0);
  });
  return unread && no_log_to_fail && !queuesAlterPartition(world, b, footprint->replicas) &&
         !(footprint->clears_refusals && mayProposeAny(world, b, scope));
}

}  // namespace kcspec
