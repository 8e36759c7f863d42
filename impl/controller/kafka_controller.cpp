// KafkaController: dispatch, election, failover, resignation and shared helpers (kafka.md §5.4, §5.6).
#include "impl/controller/kafka_controller.hpp"

#include "impl/zookeeper/zk_data.hpp"

namespace kcspec::impl {

void KafkaControllerState::toObservation(ControllerData& out) const {
  out.active = active;
  out.session_lost = session_lost;
  out.psm_batch_unflushed = !psm_batch.empty();
  out.rsm_batch_unflushed = !rsm_batch.empty();
  context.toObservation(out.context);
  out.events = events.queue();
}

std::optional<ControllerEvent> KafkaController::eventForWatch(const Config& config, const zk::WatchEvent& change) {
  using Type = zk::WatchEvent::Type;
  if (change.kind == zk::WatchKind::Children) {
    if (change.path == zk::paths::kBrokerIds) return ControllerEvent{.kind = ControllerEventKind::BrokerChange};
    if (change.path == zk::paths::kTopics) return ControllerEvent{.kind = ControllerEventKind::TopicChange};
    if (change.path == zk::paths::kDeleteTopics) return ControllerEvent{.kind = ControllerEventKind::TopicDeletion};
    if (change.path == zk::paths::kLogDirEventNotification) {
      return ControllerEvent{.kind = ControllerEventKind::LogDirEventNotification};
    }
    if (change.path == zk::paths::kIsrChangeNotification) {
      return ControllerEvent{.kind = ControllerEventKind::IsrChangeNotification};
    }
    return std::nullopt;
  }
  // PartitionReassignmentHandler and PreferredReplicaElectionHandler only implement handleCreation:
  // the controller's own trimming and deleting of these znodes queues nothing through them.
  if (change.path == zk::paths::kReassignPartitions) {
    if (change.type != Type::NodeCreated) return std::nullopt;
    return ControllerEvent{.kind = ControllerEventKind::ZkPartitionReassignment};
  }
  if (change.path == zk::paths::kPreferredReplicaElection) {
    if (change.type != Type::NodeCreated) return std::nullopt;
    return ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection, .election_type = ElectionType::PREFERRED,
                           .zk_triggered = true};
  }
  // PartitionReassignmentIsrChangeHandler only implements handleDataChange.
  if (const auto state = zk::paths::parseTopicPartitionState(change.path)) {
    const TopicIndex topic = config.topicNamed(state->first);
    if (change.type != Type::NodeDataChanged || topic < 0) return std::nullopt;
    return ControllerEvent{.kind = ControllerEventKind::PartitionReassignmentIsrChange,
                           .tp = TopicPartition{topic, state->second}};
  }
  // PartitionModificationsHandler only implements handleDataChange.
  const std::string prefix = std::string(zk::paths::kTopics) + "/";
  if (change.type != Type::NodeDataChanged || change.path.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const TopicIndex topic = config.topicNamed(std::string_view(change.path).substr(prefix.size()));
  if (topic < 0) return std::nullopt;
  return ControllerEvent{.kind = ControllerEventKind::PartitionModifications, .topic = topic};
}

// ------------------------------------------------------------------ processing

void KafkaController::process(const ControllerEvent& event) {
  try {
    dispatch(event);
  } catch (const ControllerMovedException&) {
    // INFO (controller log) "Controller moved to another broker when processing <event>."
    maybeResign();
  } catch (const KafkaThrowable&) {
    // ERROR (controller log) "Error processing event <event>"; the event is dropped.
  }
}

void KafkaController::dispatch(const ControllerEvent& event) {
  switch (event.kind) {
    case ControllerEventKind::Expire: processExpire(); return;
    case ControllerEventKind::BrokerChange: processBrokerChange(); return;
    case ControllerEventKind::TopicChange: processTopicChange(); return;
    case ControllerEventKind::PartitionModifications: processPartitionModifications(event.topic); return;
    case ControllerEventKind::TopicDeletion: processTopicDeletion(); return;
    case ControllerEventKind::TopicDeletionStopReplicaResponseReceived:
      processTopicDeletionStopReplicaResponseReceived(event.broker, event.partitions, event.partition_errors);
      return;
    case ControllerEventKind::ApiPartitionReassignment:
      processApiPartitionReassignment(event.tp, event.cancel ? std::nullopt : std::optional(event.target_replicas));
      return;
    case ControllerEventKind::AlterPartitionReceived:
      processAlterPartition(event.broker, event.broker_epoch, event.tp, event.proposed,
                            event.by_topic_id ? std::optional<TopicId>(event.topic_ids[static_cast<std::size_t>(event.tp.topic)])
                                              : std::nullopt);
      return;
    case ControllerEventKind::ControlledShutdown: processControlledShutdown(event.broker, event.broker_epoch); return;
    case ControllerEventKind::ReplicaLeaderElection:
      if (event.zk_triggered) {
        processReplicaLeaderElection(std::nullopt, event.election_type, ElectionTrigger::ZkTriggered);
      } else {
        processReplicaLeaderElection(event.partitions, event.election_type, ElectionTrigger::AdminClientTriggered);
      }
      return;
    case ControllerEventKind::AutoPreferredReplicaLeaderElection: processAutoPreferredReplicaLeaderElection(); return;
    case ControllerEventKind::TopicUncleanLeaderElectionEnable: processTopicUncleanLeaderElectionEnable(event.topic); return;
    case ControllerEventKind::ZkPartitionReassignment: processZkPartitionReassignment(); return;
    case ControllerEventKind::LogDirEventNotification: processLogDirEventNotification(); return;
    case ControllerEventKind::LeaderAndIsrResponseReceived:
      processLeaderAndIsrResponseReceived(event.broker, event.partitions, event.partition_errors,
                                          event.by_topic_id ? std::optional(event.topic_ids) : std::nullopt);
      return;
    case ControllerEventKind::RegisterBrokerAndReelect: processRegisterBrokerAndReelect(); return;
    case ControllerEventKind::IsrChangeNotification: processIsrChangeNotification(); return;
    case ControllerEventKind::PartitionReassignmentIsrChange: processPartitionReassignmentIsrChange(event.tp); return;
  }
}

// ------------------------------------------------------------------ election and failover

void KafkaController::elect() {
  if (const std::optional<BrokerId> current = services_.zk.getControllerId()) {
    state_.active = *current == id_;  // "Broker <id> has been elected as the controller, so stopping the election process."
    return;
  }
  try {
    const auto [epoch, version] = services_.zk.registerControllerAndIncrementControllerEpoch(id_);
    context_.epoch = epoch;
    context_.epochZkVersion = version;
    state_.active = true;
    // INFO "<id> successfully elected as the controller. Epoch incremented to <E> and epoch zk version is now <V>"
    onControllerFailover();
  } catch (const ControllerMovedException&) {
    maybeResign();
  } catch (const KafkaThrowable&) {
    // ERROR "Error while electing or becoming controller on broker <id>. Trigger controller movement immediately"
    triggerControllerMove();
  }
}

void KafkaController::onControllerFailover() {
  maybeSetupFeatureVersioning();
  // INFO "Registering handlers"
  services_.zk.registerZNodeChildChangeHandler(id_, zk::paths::kBrokerIds);
  services_.zk.registerZNodeChildChangeHandler(id_, zk::paths::kTopics);
  services_.zk.registerZNodeChildChangeHandler(id_, zk::paths::kDeleteTopics);
  services_.zk.registerZNodeChildChangeHandler(id_, zk::paths::kLogDirEventNotification);
  services_.zk.registerZNodeChildChangeHandler(id_, zk::paths::kIsrChangeNotification);
  // registerZNodeChangeHandlerAndCheckExistence: PreferredReplicaElectionHandler and
  // PartitionReassignmentHandler (creation watches; kcspec's watches stay registered, so the
  // existence checks that re-arm them in Kafka need no registration here).
  services_.zk.registerZNodeChangeHandler(id_, zk::paths::kPreferredReplicaElection);
  services_.zk.registerZNodeChangeHandler(id_, zk::paths::kReassignPartitions);
  // INFO "Deleting log dir event notifications" (fenced; the child watch just registered sees the
  // deletions and queues LogDirEventNotification, as in Kafka).
  services_.zk.deleteLogDirEventNotifications(context_.epochZkVersion);
  // INFO "Deleting isr change notifications" (fenced; the child watch queues IsrChangeNotification).
  services_.zk.deleteIsrChangeNotifications(context_.epochZkVersion);
  // INFO "Initializing controller context"
  initializeControllerContext();

  // fetchTopicDeletionsInProgress
  const TopicSet to_delete = services_.zk.getTopicDeletions();
  TopicSet ineligible;
  context_.allTopics.forEach([&](TopicIndex t) {
    for (const PartitionAndReplica& r : context_.replicasForTopic(t)) {
      if (!context_.isReplicaOnline(r.replica, r.tp)) ineligible.insert(t);
    }
  });
  context_.partitionsBeingReassigned.forEach([&](TopicPartition tp) { ineligible.insert(tp.topic); });
  tdm_.init(to_delete, ineligible);

  sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), PartitionSet{});
  rsm_.startup();
  psm_.startup();
  // INFO "Ready to serve as the new controller with epoch <E>"
  initializePartitionReassignments();
  tdm_.tryTopicDeletion();
  const PartitionSet pending_preferred_replica_elections = fetchPendingPreferredReplicaElections();
  // Called even with nothing pending: its finally-block deletes /admin/preferred_replica_election
  // and queues ReplicaLeaderElection(None, PREFERRED, ZkTriggered) on every failover.
  onReplicaElection(pending_preferred_replica_elections, ElectionType::PREFERRED, ElectionTrigger::ZkTriggered);
  // INFO "Starting the controller scheduler": the auto-rebalance task is ImplCluster's
  // auto-rebalance-timer action, enabled while this controller is active.
}

void KafkaController::initializePartitionReassignments() {
  // New reassignments may have been submitted through ZooKeeper while the controller was failing over.
  const PartitionSet zk_partitions_resumed = processZkPartitionReassignment();
  // API-based reassignments (and ZooKeeper ones already in the topic znodes) that need restarting.
  maybeResumeReassignments(
      [&](TopicPartition tp, const ReplicaAssignment&) { return !zk_partitions_resumed.contains(tp); });
}

PartitionSet KafkaController::fetchPendingPreferredReplicaElections() {
  const PartitionSet undergoing = services_.zk.getPreferredReplicaElection();
  // Completed: the topic is gone (no assignment) or the cached leader is the preferred replica.
  PartitionSet completed;
  undergoing.forEach([&](TopicPartition tp) {
    const BrokerList replicas = context_.partitionReplicaAssignment(tp);
    const bool topic_deleted = replicas.empty();
    bool successful = false;
    if (!topic_deleted) {
      const auto& leadership = context_.partitionLeadershipInfo(tp);
      if (!leadership) throw NoSuchElementException("None.get");  // fails the failover (elect())
      successful = leadership->leader_and_isr.leader == replicas.front();
    }
    if (successful || topic_deleted) completed.insert(tp);
  });
  const PartitionSet ignoring_topic_deletion = undergoing - completed;
  PartitionSet skipped_for_topic_deletion;
  ignoring_topic_deletion.forEach([&](TopicPartition tp) {
    if (tdm_.isTopicQueuedUpForDeletion(tp.topic)) skipped_for_topic_deletion.insert(tp);
  });
  // INFO "Partitions undergoing preferred replica election: …", "Partitions that completed
  // preferred replica election: …", "Skipping preferred replica election for partitions due to
  // topic deletion: …", "Resuming preferred replica election for partitions: …"
  return ignoring_topic_deletion - skipped_for_topic_deletion;
}

void KafkaController::initializeControllerContext() {
  context_.setLiveBrokers(services_.zk.getAllBrokerAndEpochsInCluster());
  context_.setAllTopics(services_.zk.getAllTopicsInCluster());
  registerPartitionModificationsHandlers(context_.allTopics);
  processTopicIds(context_.allTopics);
  context_.allTopics.forEach([&](TopicIndex t) {
    const std::optional<zk::TopicAssignment> assignment = services_.zk.getFullReplicaAssignmentForTopic(t);
    if (!assignment) return;
    for (const auto& [p, a] : *assignment) {
      const TopicPartition tp{t, p};
      context_.updatePartitionFullReplicaAssignment(tp, a);
      if (a.isBeingReassigned()) context_.partitionsBeingReassigned.insert(tp);
    }
  });
  context_.shuttingDownBrokerIds = BrokerSet{};
  updateLeaderAndIsrCache(context_.allPartitions());
}

// Topics without an id get one when the controller uses topic ids (a fenced write of the topic
// znode, whose data watch the controller has registered); every id goes into the context.
void KafkaController::processTopicIds(TopicSet topics) {
  topics.forEach([&](TopicIndex t) {
    std::optional<Uuid> id = services_.zk.getTopicIdForTopic(t);
    if (!id && services_.usesTopicId()) {
      KCSPEC_ASSERT(services_.random_topic_uuid != nullptr);
      id = services_.random_topic_uuid(t);
      services_.zk.setTopicId(t, *id, context_.epochZkVersion);  // zkClient.setTopicIds
    }
    if (id) context_.addTopicId(t, *id);
  });
}

void KafkaController::updateLeaderAndIsrCache(PartitionSet partitions) {
  partitions.forEach([&](TopicPartition tp) {
    const std::optional<LeaderIsrAndControllerEpoch> state = services_.zk.getTopicPartitionStates(tp);
    if (state) context_.putPartitionLeadershipInfo(tp, *state);
  });
}

void KafkaController::registerPartitionModificationsHandlers(TopicSet topics) {
  topics.forEach(
      [&](TopicIndex t) { services_.zk.registerZNodeChangeHandler(id_, zk::paths::topic(services_.zk.topicName(t))); });
}

// ------------------------------------------------------------------ resignation

void KafkaController::onControllerResignation() {
  // DEBUG "Resigning"; every handler this controller registered goes, then the context.
  services_.zk.unregisterAllHandlers(id_);
  context_.resetContext();
  // INFO "Resigned". The three request batches are not cleared (as in Kafka 3.8).
}

void KafkaController::maybeResign() {
  // The notifications of this step's earlier writes reached the handlers while they were registered.
  deliverWatchEvents();
  const bool was_active = state_.active;
  const std::optional<BrokerId> current = services_.zk.getControllerId();
  state_.active = current && *current == id_;
  if (was_active && !state_.active) onControllerResignation();
}

void KafkaController::triggerControllerMove() {
  // The notifications of this step's earlier writes reached the handlers while they were registered.
  deliverWatchEvents();
  const std::optional<BrokerId> current = services_.zk.getControllerId();
  state_.active = current && *current == id_;
  if (!state_.active) return;  // WARN "Controller has already moved when trying to trigger controller movement"
  try {
    const std::int32_t expected = context_.epochZkVersion;
    state_.active = false;
    onControllerResignation();
    services_.zk.deleteController(expected);
  } catch (const ControllerMovedException&) {
    // WARN "Controller has already moved when trying to trigger controller movement"
  }
}

void KafkaController::handleIllegalState(const IllegalStateException& e) {
  // ERROR "Forcing the controller to resign"
  state_.controller_batch.clear();
  triggerControllerMove();
  throw e;
}

void KafkaController::processExpire() {
  state_.active = false;
  onControllerResignation();
  state_.session_lost = false;  // the new session (docs/world.md §9)
  // afterInitializingSession: a broker whose registration went with the expired session registers
  // again through its own queue (lose-controller-session leaves the registration in place).
  if (services_.zk.getAllBrokerAndEpochsInCluster()[static_cast<std::size_t>(id_)] == -1) {
    putOwnEvent(ControllerEvent{.kind = ControllerEventKind::RegisterBrokerAndReelect});
  }
}

void KafkaController::processRegisterBrokerAndReelect() {
  services_.zk.registerBroker(id_);  // the broker goes by the new epoch (ImplCluster::processEvent)
  maybeResign();
}

void KafkaController::sendUpdateMetadataRequest(BrokerSet brokers, PartitionSet partitions) {
  try {
    state_.controller_batch.newBatch();
    state_.controller_batch.addUpdateMetadataRequestForBrokers(brokers, partitions, context_);
    state_.controller_batch.sendRequestsToBrokers(context_.epoch, id_, context_, services_.channel, services_.logger,
                                                  services_.config,
                                 services_.interBrokerProtocolVersion());
  } catch (const IllegalStateException& e) {
    handleIllegalState(e);
  }
}

void KafkaController::putOwnEvent(const ControllerEvent& event) {
  deliverWatchEvents();
  state_.events.append(event);
}

// ------------------------------------------------------------------ DeletionClient

void KafkaController::deleteTopic(TopicIndex topic, std::int32_t epochZkVersion) {
  services_.zk.deleteTopicZNode(topic, epochZkVersion);
  services_.zk.deleteTopicConfigs(topic, epochZkVersion);
  services_.zk.deleteTopicDeletions(TopicSet{topic}, epochZkVersion);
}

void KafkaController::deleteTopicDeletions(TopicSet topics, std::int32_t epochZkVersion) {
  services_.zk.deleteTopicDeletions(topics, epochZkVersion);
}

void KafkaController::mutePartitionModifications(TopicIndex topic) {
  services_.zk.unregisterZNodeChangeHandler(id_, zk::paths::topic(services_.zk.topicName(topic)));
}

void KafkaController::sendMetadataUpdate(PartitionSet partitions) {
  sendUpdateMetadataRequest(context_.liveOrShuttingDownBrokerIds(), partitions);
}

}  // namespace kcspec::impl
