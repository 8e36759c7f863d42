// ImplCluster from a stated world (cluster.hpp, issue 28): each class restores itself from its
// part of the observation — ZooKeeper through KafkaZkClient's restore writers, every broker
// through SimulatedBroker::fromObservation (its controller module, context and queues with it),
// and the active controller's watches through KafkaController::restoreHandlers.
//
// The restoring functions of impl/controller's classes are defined here, not in their classes'
// files: tools/mutate generates mutants from every impl/controller/*.cpp, and code that no
// history runs would add mutants no check can kill (and renumber the others).
#include "impl/cluster.hpp"

#include "impl/controller/kafka_controller.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

// ------------------------------------------------------------------ impl/controller's classes

ControllerContext ControllerContext::fromObservation(const ControllerContextData& given) {
  ControllerContext out;
  out.epoch = given.epoch;
  out.epochZkVersion = given.epoch_zk_version;
  out.live_broker_epochs_ = given.live_broker_epochs;
  out.shuttingDownBrokerIds = given.shutting_down_broker_ids;
  out.allTopics = given.all_topics;
  out.partitionsBeingReassigned = given.partitions_being_reassigned;
  out.topicsToBeDeleted = given.topics_to_be_deleted;
  out.topicsWithDeletionStarted = given.topics_with_deletion_started;
  out.topicsIneligibleForDeletion = given.topics_ineligible_for_deletion;
  for (int i = 0; i < kMaxPartitions; ++i) {
    const TopicPartition tp = partitionAt(i);
    const PartitionContext& p = given.partitions[static_cast<std::size_t>(i)];
    out.entry(tp).assignment = p.assignment;
    out.entry(tp).leadership = p.leadership;
    if (p.state) out.restorePartitionState(tp, *p.state);
    for (BrokerId r = 0; r < kMaxBrokers; ++r) {
      if (const auto& state = p.replica_states[static_cast<std::size_t>(r)]) {
        out.restoreReplicaState(PartitionAndReplica{tp, r}, *state);
      }
    }
  }
  // The count is history's, not a function of today's states: changes of a topic whose deletion
  // had started were not counted (countPartitionStateChange), so the puts above may count
  // otherwise.
  out.offlinePartitionCount = given.offline_partition_count;
  out.replicasOnOfflineDirs = given.replicas_on_offline_dirs;
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicId id = given.topic_ids[static_cast<std::size_t>(t)];
    if (id == kNoTopicId) continue;
    out.topicIds[t] = topicUuid(t, id);
    out.topicNames[topicUuid(t, id)] = t;
  }
  return out;
}

void ControllerBrokerRequestBatch::restoreUnflushed(BrokerId recipient) {
  update_metadata_brokers_.insert(recipient);
  KCSPEC_ASSERT(!empty());
}

KafkaControllerState KafkaControllerState::fromObservation(const ControllerData& given, BrokerId self) {
  KafkaControllerState out;
  out.active = given.active;
  out.session_lost = given.session_lost;
  out.context = ControllerContext::fromObservation(given.context);
  out.events = ControllerEventManager::fromObservation(given.events);
  if (given.psm_batch_unflushed) out.psm_batch.restoreUnflushed(self);
  if (given.rsm_batch_unflushed) out.rsm_batch.restoreUnflushed(self);
  return out;
}

void KafkaController::restoreHandlers(BrokerId id, const ControllerContext& context, zk::KafkaZkClient& zk) {
  // onControllerFailover's (BrokerChangeHandler, TopicChangeHandler, TopicDeletionHandler,
  // LogDirEventNotificationHandler)
  zk.registerZNodeChildChangeHandler(id, zk::paths::kBrokerIds);
  zk.registerZNodeChildChangeHandler(id, zk::paths::kTopics);
  zk.registerZNodeChildChangeHandler(id, zk::paths::kDeleteTopics);
  zk.registerZNodeChildChangeHandler(id, zk::paths::kLogDirEventNotification);  // LogDirEventNotificationHandler
  zk.registerZNodeChildChangeHandler(id, zk::paths::kIsrChangeNotification);    // IsrChangeNotificationHandler
  // PreferredReplicaElectionHandler, PartitionReassignmentHandler
  zk.registerZNodeChangeHandler(id, zk::paths::kPreferredReplicaElection);
  zk.registerZNodeChangeHandler(id, zk::paths::kReassignPartitions);
  // registerPartitionModificationsHandlers'
  context.allTopics.forEach([&](TopicIndex t) { zk.registerZNodeChangeHandler(id, zk::paths::topic(zk.topicName(t))); });
}

// ------------------------------------------------------------------ ImplCluster

namespace {

// The topic znode's assignment, each partition under its id (gaps included).
zk::TopicAssignment assignmentOf(const TopicZnodes& topic) {
  zk::TopicAssignment assignment;
  for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
    if (topic.partitions[p]) assignment.emplace(static_cast<int>(p), *topic.partitions[p]);
  }
  return assignment;
}

void restoreTopic(zk::KafkaZkClient& client, TopicIndex t, const TopicZnodes& topic) {
  if (topic.exists) {
    client.restoreTopicAssignment(t, assignmentOf(topic),
                                  topic.topic_id == kNoTopicId ? std::nullopt : std::optional<Uuid>(topicUuid(t, topic.topic_id)));
  }
  // /config/topics/<t> is written before the topic znode (create-topic) and deleted right after
  // it (completeDeleteTopic), in one step each: it exists exactly when the topic does. Its flag
  // is all the world shows of it (a flag set without the topic, which no history writes, is
  // kept too).
  if (topic.exists || topic.unclean_leader_election_enable) client.restoreTopicConfig(t, topic.unclean_leader_election_enable);
  for (std::size_t p = 0; p < topic.states.size(); ++p) {
    if (!topic.states[p]) continue;
    KCSPEC_ASSERT(topic.exists);  // a state znode lives under its topic's
    const PartitionStateZnode& state = *topic.states[p];
    client.restoreTopicPartitionState(TopicPartition{t, static_cast<int>(p)},
                                      LeaderIsrAndControllerEpoch{state.leader_and_isr, state.controller_epoch});
  }
}

// The legacy admin znodes (kafka.md §6.1). A reassignment znode whose data does not parse is
// restored as kUnparsableReassignPartitions (every such text reads alike: no entry), whatever
// partitions the world lists beside the flag; entries of topics outside the configuration cannot
// be written (they have no name) and are left out.
void restoreLegacyAdminZnodes(zk::KafkaZkClient& client, const Config& config, const ZooKeeperData& zk) {
  const ReassignPartitionsZnode& reassign = zk.reassign_partitions;
  if (reassign.exists && reassign.invalid_json) {
    client.restoreUnparsablePartitionReassignment();
  } else if (reassign.exists) {
    zk::PartitionReassignment entries;
    reassign.partitions.forEach([&](TopicPartition tp) {
      if (tp.topic >= config.topicCount()) return;
      entries.emplace(tp, reassign.targets[static_cast<std::size_t>(partitionIndex(tp))]);
    });
    client.restorePartitionReassignment(entries);
  }
  const PreferredReplicaElectionZnode& preferred = zk.preferred_replica_election;
  if (preferred.exists) {
    PartitionSet partitions;
    preferred.partitions.forEach([&](TopicPartition tp) {
      if (tp.topic < config.topicCount()) partitions.insert(tp);
    });
    client.restorePreferredReplicaElection(partitions);
  }
}

}  // namespace

ImplCluster::ImplCluster(const Config& config, const Observation& given, Mutants mutants, LogTarget log)
    : config_(std::make_shared<const Config>(config)), mutants_(mutants), log_(log), remaining_(config.bounds) {
  KCSPEC_ASSERT(config_->topicCount() <= kMaxTopics);
  const ZooKeeperData& zk = given.zk;
  zk::KafkaZkClient client(zk_, *config_);
  client.createTopLevelPaths();  // persistent, and /brokers/ids counts creations

  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const BrokerRegistration& registration = zk.brokers[static_cast<std::size_t>(b)];
    if (!config_->brokers.contains(b)) {
      KCSPEC_ASSERT(registration == BrokerRegistration{} && given.brokers[static_cast<std::size_t>(b)] == BrokerData{});
      continue;
    }
    if (registration.registered) client.restoreBrokerRegistration(b, registration.broker_epoch);
  }
  if (zk.controller_epoch_zk_version >= 0) client.restoreControllerEpoch(zk.controller_epoch, zk.controller_epoch_zk_version);
  if (zk.controller != kNoLeader) client.restoreController(zk.controller);
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
    if (t >= config_->topicCount()) {
      KCSPEC_ASSERT(topic == TopicZnodes{} && !zk.delete_topics.contains(t));
      continue;
    }
    restoreTopic(client, t, topic);
    if (zk.delete_topics.contains(t)) client.restoreDeleteTopicPath(t);
  }
  restoreLegacyAdminZnodes(client, *config_, zk);
  // One log_dir_event_<seq> child per broker named (a broker that wrote several shows once; the
  // controller reads and deletes them all together), sequence numbers in broker order.
  zk.log_dir_event_notifications.forEach([&](BrokerId b) { client.restoreLogDirEventNotification(b); });
  // One isr_change_<seq> child naming them all (the controller reads and deletes them together).
  if (!zk.isr_change_notifications.empty()) client.restoreIsrChangeNotification(zk.isr_change_notifications);
  if (zk.feature.status != FeatureZnodeStatus::Absent) client.createFeatureZNode(zk.feature);
  // The connection's armed losses (not data): the paths of those state znodes.
  zk.lost_write_responses.forEach([&](TopicPartition tp) {
    KCSPEC_ASSERT(tp.topic < config_->topicCount());
    zk_.view().loseNextResponse(zk::paths::topicPartitionState(client.topicName(tp.topic), tp.partition));
  });
  if (zk.lost_feature_write_response) zk_.view().loseNextResponse(std::string(zk::paths::kFeature));
  zk.session_expiring_writes.forEach([&](TopicPartition tp) {
    KCSPEC_ASSERT(tp.topic < config_->topicCount());
    zk_.armSessionExpiry(zk::paths::topicPartitionState(client.topicName(tp.topic), tp.partition));
  });
  client.restoreLastZxid(zk.last_zxid);

  config_->brokers.forEach([&](BrokerId b) {
    brokers_[static_cast<std::size_t>(b)] = SimulatedBroker::fromObservation(given.brokers[static_cast<std::size_t>(b)], b);
  });
  if (const std::optional<BrokerId> active = activeController()) {
    KafkaController::restoreHandlers(*active, broker(*active).controller().context, client);
  }
  // Every module's PartitionReassignmentIsrChangeHandlers, which the world shows (in its context).
  config_->brokers.forEach([&](BrokerId b) {
    given.brokers[static_cast<std::size_t>(b)].controller.context.reassignment_isr_watches.forEach(
        [&](TopicPartition tp) { client.registerZNodeChangeHandler(b, statePath(tp)); });
  });
  // Restoring fires no watch: the next step starts with nothing pending, as after apply().
  KCSPEC_ASSERT(zk_.takeWatchEvents().empty());
}

}  // namespace kcspec::impl
