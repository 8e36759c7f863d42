#include "spec/rules/brokers.hpp"

#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

BrokerData& brokerData(Observation& world, BrokerId broker) { return world.brokers[static_cast<std::size_t>(broker)]; }

HostedReplica& hosted(BrokerData& broker, TopicPartition tp) {
  return broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
}

// becomeLeaderOrFollower (ReplicaManager, ZooKeeper mode). First the topic id: an entry whose id
// (version 5 and later; none is no id) differs from the one of the partition's log is refused
// INCONSISTENT_TOPIC_ID ("Topic ID in memory: … does not match the topic ID for partition …") —
// the log is of an earlier topic of that name. Then an entry is applied only when its leader epoch
// is higher than the one the broker holds for the partition (−1 when it holds none) and the broker
// is one of the entry's replicas; an equal epoch is ignored ("matches the current leader epoch"),
// whatever the partition epoch, except that it gives a log without a topic id the entry's.
void applyLeaderAndIsr(BrokerData& broker, BrokerId self, const LeaderAndIsrPartitionState& state) {
  HostedReplica& replica = hosted(broker, state.tp);
  const LeaderAndIsr& lai = state.leadership.leader_and_isr;
  if (state.topic_id != kNoTopicId && replica.topic_id != kNoTopicId && state.topic_id != replica.topic_id) return;
  if (lai.leader_epoch == replica.leader_epoch && replica.topic_id == kNoTopicId) {
    replica.topic_id = state.topic_id;  // "Updating log for <tp> to assign topic ID …"
    return;
  }
  if (lai.leader_epoch <= replica.leader_epoch) return;
  if (!state.assignment.replicas.contains(self)) return;  // "itself is not in assigned replica list"
  const bool is_leader = lai.leader == self;
  // A follower keeps no ISR: Kafka's makeFollower clears it; only the leader proposes changes.
  // A log keeps the topic id it has; one without gets the entry's (LogManager.getOrCreateLog).
  const TopicId log_topic_id = replica.topic_id != kNoTopicId ? replica.topic_id : state.topic_id;
  replica = HostedReplica{true, is_leader, lai.leader_epoch, lai.partition_epoch, is_leader ? lai.isr : BrokerList{}};
  replica.topic_id = log_topic_id;
}

// A refused leader proposes again once the controller's view of the brokers may have changed:
// metadata from a newer controller, or another set of live brokers (docs/world.md §7).
void applyUpdateMetadata(BrokerData& broker, const ControlRequest& request, bool from_newer_controller) {
  if (from_newer_controller || request.live_brokers != broker.metadata_live_brokers) {
    for (HostedReplica& replica : broker.replicas) {
      replica.refused_expansions = BrokerSet{};
      replica.refused_shrinks = BrokerSet{};
    }
  }
  for (const UpdateMetadataPartitionState& state : request.update_metadata) {
    auto& entry = broker.metadata_cache[static_cast<std::size_t>(partitionIndex(state.tp))];
    if (state.leader == kLeaderDuringDelete) {
      entry.reset();  // a partition being deleted leaves the cache
    } else {
      entry = state;
    }
  }
  broker.metadata_live_brokers = request.live_brokers;
}

// A replica on a failed log directory (HostedPartition.Offline) is answered KAFKA_STORAGE_ERROR by
// every LeaderAndIsr and StopReplica that names it, before any epoch check, and left as it is.
bool onFailedLogDir(const BrokerData& broker, TopicPartition tp) { return broker.offline_log_dir_replicas.contains(tp); }

// becomeLeaderOrFollower's response, kept only when it carries a KAFKA_STORAGE_ERROR.
void applyLeaderAndIsrRequest(BrokerData& broker, BrokerId self, const ControlRequest& request) {
  PartitionSet named, storage_errors;
  for (const auto& state : request.leader_and_isr) {
    named.insert(state.tp);
    if (onFailedLogDir(broker, state.tp)) {
      storage_errors.insert(state.tp);
    } else {
      applyLeaderAndIsr(broker, self, state);
    }
  }
  if (!storage_errors.empty()) {
    LeaderAndIsrResponse response{request.controller_id, request.controller_epoch, named, storage_errors};
    response.by_topic_id = request.version >= 5;  // LeaderAndIsrTopicError by topic id
    for (const auto& state : request.leader_and_isr) response.topic_ids[static_cast<std::size_t>(state.tp.topic)] = state.topic_id;
    broker.leader_and_isr_responses.push_back(response);
  }
}

// stopReplicas: epochs −2 (deletion) and −1 bypass the check; otherwise the request must not be
// older than what the broker holds. delete=false stops the replica but keeps the partition, and
// with it the leader epoch a later LeaderAndIsr must exceed; delete=true forgets it.
void applyStopReplica(BrokerData& broker, const ControlRequest& request) {
  PartitionSet storage_errors;
  for (const StopReplicaPartitionState& state : request.stop_replica) {
    if (onFailedLogDir(broker, state.tp)) {
      storage_errors.insert(state.tp);
      continue;
    }
    HostedReplica& replica = hosted(broker, state.tp);
    const bool accepted = state.leader_epoch == LeaderAndIsr::kEpochDuringDelete ||
                          state.leader_epoch == LeaderAndIsr::kNoEpoch || state.leader_epoch >= replica.leader_epoch;
    if (!accepted) continue;
    if (state.delete_partition) {
      replica = HostedReplica{};
    } else {
      replica = HostedReplica{.leader_epoch = replica.leader_epoch, .partition_epoch = replica.partition_epoch,
                              .topic_id = replica.topic_id};  // the log stays
    }
  }
  if (!request.response_wanted.empty()) {
    broker.outbox.push_back(StopReplicaResponse{request.controller_id, request.controller_epoch, request.response_wanted,
                                                request.response_wanted & storage_errors});
  }
}

// The broker's handling of one request from its queue (which it leaves as it is).
void handleRequest(BrokerData& broker, BrokerId self, const ControlRequest& request) {
  if (request.controller_epoch < broker.known_controller_epoch) return;  // STALE_CONTROLLER_EPOCH
  if (request.broker_epoch >= 0 && request.broker_epoch < broker.broker_epoch) return;  // STALE_BROKER_EPOCH
  const bool from_newer_controller = request.controller_epoch > broker.known_controller_epoch;
  broker.known_controller_epoch = request.controller_epoch;
  switch (request.kind) {
    case RequestKind::LeaderAndIsr:
      applyLeaderAndIsrRequest(broker, self, request);
      break;
    case RequestKind::UpdateMetadata:
      applyUpdateMetadata(broker, request, from_newer_controller);
      break;
    case RequestKind::StopReplica:
      applyStopReplica(broker, request);
      break;
  }
}

}  // namespace

void processNextRequest(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive && !broker.inbox.empty());
  handleRequest(broker, self, broker.inbox.front());
  broker.inbox.erase_at(0);
}

void crashBroker(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive);
  broker = BrokerData{.ibp_upgraded = broker.ibp_upgraded};  // its configuration stays
  BrokerRegistration& registration = world.zk.brokers[static_cast<std::size_t>(self)];
  const bool registered = registration.registered;  // not after its session expired (lose-broker-session)
  registration = BrokerRegistration{};
  if (world.zk.controller == self) world.zk.controller = kNoLeader;  // the ephemeral /controller goes too
  if (registered) fireWatch(world, ControllerEvent{.kind = ControllerEventKind::BrokerChange});
}

void loseBrokerSession(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive && world.zk.brokers[static_cast<std::size_t>(self)].registered);
  world.zk.brokers[static_cast<std::size_t>(self)] = BrokerRegistration{};
  if (world.zk.controller == self) world.zk.controller = kNoLeader;  // the ephemeral /controller goes too
  broker.controller.session_lost = true;  // before the watch: an expired session's handlers hear nothing
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::BrokerChange});
}

void registerBrokerAgain(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive && !world.zk.brokers[static_cast<std::size_t>(self)].registered);
  world.zk.last_zxid += 1;
  world.zk.brokers[static_cast<std::size_t>(self)] = BrokerRegistration{true, world.zk.last_zxid};
  broker.broker_epoch = world.zk.last_zxid;
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::BrokerChange});
}

bool hasLog(const BrokerData& broker, TopicPartition tp) {
  const HostedReplica& replica = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
  return replica.present || replica.leader_epoch >= 0;
}

void failLogDir(Observation& world, BrokerId self, TopicPartition tp) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive && hasLog(broker, tp) && !onFailedLogDir(broker, tp));
  broker.offline_log_dir_replicas.insert(tp);
  hosted(broker, tp) = HostedReplica{};
  world.zk.log_dir_event_notifications.insert(self);  // propagateLogDirEvent
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::LogDirEventNotification});
}

void writeIsrChangeToZooKeeper(Observation& world, BrokerId self, TopicPartition tp, const LeaderAndIsr& proposed) {
  HostedReplica& replica = hosted(brokerData(world, self), tp);
  KCSPEC_ASSERT(replica.present && replica.is_leader && !replica.alter_partition_pending);
  replica.alter_partition_pending = true;
  TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(tp.topic)];
  auto& znode = topic.states[static_cast<std::size_t>(tp.partition)];
  // conditionalUpdatePath; its checker (the znode already holds exactly this) never matches here:
  // every other writer of the znode changes the leader epoch.
  if (!topic.exists || !znode || znode->leader_and_isr.partition_epoch != proposed.partition_epoch) return;
  const LeaderAndIsr written = proposed.withPartitionEpoch(proposed.partition_epoch + 1);
  znode = PartitionStateZnode{written, znode->controller_epoch};
  replica.isr = written.isr;
  replica.partition_epoch = written.partition_epoch;
  replica.alter_partition_pending = false;
  fireStateDataWatch(world, tp);
  brokerData(world, self).pending_isr_changes.insert(tp);  // isrChangeSet += tp
}

void propagateIsrChanges(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(broker.alive && !broker.pending_isr_changes.empty());
  world.zk.isr_change_notifications = world.zk.isr_change_notifications | broker.pending_isr_changes;
  broker.pending_isr_changes = PartitionSet{};
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::IsrChangeNotification});
}

void startBroker(Observation& world, BrokerId self) {
  BrokerData& broker = brokerData(world, self);
  KCSPEC_ASSERT(!broker.alive);
  world.zk.last_zxid += 1;
  world.zk.brokers[static_cast<std::size_t>(self)] = BrokerRegistration{true, world.zk.last_zxid};
  broker.alive = true;
  broker.broker_epoch = world.zk.last_zxid;
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::BrokerChange});
}

}  // namespace kcspec::spec
