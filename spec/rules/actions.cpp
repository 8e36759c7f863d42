// Each action kind's guard and effect, side by side, in the order of ActionKind. Admin and broker
// actions write ZooKeeper or send a request, and the watches they fire queue controller events;
// controller actions run the rules of the other files; delivery actions move requests and
// responses. Bounds are not checked or spent here: step.cpp does that from the definitions.
#include "spec/rules/actions.hpp"

#include "spec/rules/brokers.hpp"
#include "spec/rules/controller_events.hpp"
#include "spec/rules/controller_failover.hpp"
#include "spec/rules/zookeeper.hpp"
#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/topic_ids.hpp"

namespace kcspec::spec {
namespace {

const BrokerData& brokerAt(const ClusterState& s, BrokerId b) { return s.world.brokers[static_cast<std::size_t>(b)]; }
BrokerData& brokerAt(ClusterState& s, BrokerId b) { return s.world.brokers[static_cast<std::size_t>(b)]; }
const TopicZnodes& topicAt(const ClusterState& s, TopicIndex t) { return s.world.zk.topics[static_cast<std::size_t>(t)]; }
const HostedReplica& hostedAt(const ClusterState& s, BrokerId b, TopicPartition tp) {
  return brokerAt(s, b).replicas[static_cast<std::size_t>(partitionIndex(tp))];
}

// Requests from admin clients and brokers reach the active controller: they find it through the
// metadata, kcspec routes them directly.
BrokerId activeController(const ClusterState& s) { return activeControllerOf(s.world); }

void sendToActiveController(ClusterState& s, const ControllerEvent& event) {
  const BrokerId controller = activeController(s);
  KCSPEC_ASSERT(controller != kNoLeader);
  auto& events = brokerAt(s, controller).controller.events;
  if (!events.contains(event)) events.push_back(event);
}

bool partitionExists(const ClusterState& s, TopicPartition tp) {
  const TopicZnodes& topic = topicAt(s, tp.topic);
  return topic.exists && topic.lists(tp.partition);
}

bool hasEventRoom(const ClusterState& s) {
  const BrokerId controller = activeController(s);
  return controller != kNoLeader && !brokerAt(s, controller).controller.events.full();
}

bool deletionRequested(const ClusterState& s, TopicIndex t) { return s.world.zk.delete_topics.contains(t); }

// ---- create-topic: the admin writes /brokers/topics/<t>; the child watch queues TopicChange.

bool createTopicEnabled(const Config&, const ClusterState& s, const Action& a) {
  return !topicAt(s, a.topic).exists && !deletionRequested(s, a.topic);
}
void createTopicApply(const Config& config, ClusterState& s, const Action& a, StepObserver&) {
  createTopic(config, s, a.topic);
  fireWatch(s.world, ControllerEvent{.kind = ControllerEventKind::TopicChange});
}

// ---- delete-topic: the admin creates /admin/delete_topics/<t>; the watch queues TopicDeletion.

bool deleteTopicEnabled(const Config&, const ClusterState& s, const Action& a) {
  return topicAt(s, a.topic).exists && !deletionRequested(s, a.topic);
}
void deleteTopicApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.delete_topics.insert(a.topic);
  fireWatch(s.world, ControllerEvent{.kind = ControllerEventKind::TopicDeletion});
}

// ---- add-partitions: the admin appends the next configured partition to /brokers/topics/<t>.
// (Its partition ids are 0…n−1 then: they have a gap only while the topic's deletion is pending.)

std::size_t partitionsAdded(const Config& config, const ClusterState& s, TopicIndex t) {
  return static_cast<std::size_t>(topicAt(s, t).partitionCount()) - config.topics[static_cast<std::size_t>(t)].assignment.size();
}
bool addPartitionsEnabled(const Config& config, const ClusterState& s, const Action& a) {
  if (!topicAt(s, a.topic).exists || deletionRequested(s, a.topic)) return false;
  return partitionsAdded(config, s, a.topic) < config.topics[static_cast<std::size_t>(a.topic)].added_partitions.size() &&
         topicAt(s, a.topic).partitionCount() < kMaxPartitionsPerTopic;
}
void addPartitionsApply(const Config& config, ClusterState& s, const Action& a, StepObserver&) {
  const std::size_t added = partitionsAdded(config, s, a.topic);
  TopicZnodes& topic = s.world.zk.topics[static_cast<std::size_t>(a.topic)];
  topic.partitions[static_cast<std::size_t>(topic.partitionCount())] =
      ReplicaAssignment(config.topics[static_cast<std::size_t>(a.topic)].added_partitions[added]);
  fireTopicDataWatch(s.world, a.topic);
}

// ---- reassign and cancel-reassignment: AlterPartitionReassignments reaches the active controller.

bool reassignmentRequestEnabled(const Config&, const ClusterState& s, const Action& a) {
  return partitionExists(s, a.tp) && hasEventRoom(s);
}
void reassignmentRequestApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ApiPartitionReassignment,
                                            .tp = a.tp,
                                            .cancel = a.kind == ActionKind::CancelReassignment,
                                            .target_replicas = a.replicas});
}

// ---- elect-preferred and elect-unclean: ElectLeaders reaches the active controller.

bool electLeadersEnabled(const Config&, const ClusterState& s, const Action& a) {
  return partitionExists(s, a.tp) && hasEventRoom(s);
}
void electLeadersApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  const bool preferred = a.kind == ActionKind::ElectPreferredLeader;
  sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                                            .partitions = PartitionSet{a.tp},
                                            .election_type = preferred ? ElectionType::PREFERRED : ElectionType::UNCLEAN});
}

// ---- enable-unclean: the admin sets the topic's flag; the config change reaches the controller.

bool enableTopicUncleanEnabled(const Config&, const ClusterState& s, const Action& a) {
  return topicAt(s, a.topic).exists && !topicAt(s, a.topic).unclean_leader_election_enable && hasEventRoom(s);
}
void enableTopicUncleanApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.topics[static_cast<std::size_t>(a.topic)].unclean_leader_election_enable = true;
  sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::TopicUncleanLeaderElectionEnable, .topic = a.topic});
}

// ---- zk-reassign and zk-reassign-invalid: a legacy admin tool creates /admin/reassign_partitions
// (it fails with NODEEXISTS while one exists); the creation watch queues ZkPartitionReassignment.
// Unlike the API, nothing checks that the target brokers are alive.

bool zkReassignEnabled(const Config&, const ClusterState& s, const Action&) { return !s.world.zk.reassign_partitions.exists; }
void zkReassignApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  ReassignPartitionsZnode& znode = s.world.zk.reassign_partitions;
  znode = ReassignPartitionsZnode{.exists = true};
  if (a.kind == ActionKind::ZkReassignInvalid) {
    znode.invalid_json = true;
  } else {
    znode.partitions.insert(a.tp);
    znode.targets[static_cast<std::size_t>(partitionIndex(a.tp))] = a.replicas;
  }
  fireWatch(s.world, ControllerEvent{.kind = ControllerEventKind::ZkPartitionReassignment});
}

// ---- zk-elect-preferred: a legacy admin tool creates /admin/preferred_replica_election; the
// creation watch queues ReplicaLeaderElection(None, PREFERRED, ZkTriggered).

bool zkElectPreferredEnabled(const Config&, const ClusterState& s, const Action&) {
  return !s.world.zk.preferred_replica_election.exists;
}
void zkElectPreferredApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.preferred_replica_election = PreferredReplicaElectionZnode{.exists = true, .partitions = PartitionSet{a.tp}};
  fireWatch(s.world, ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                                     .election_type = ElectionType::PREFERRED,
                                     .zk_triggered = true});
}

// ---- crash and start: a broker dies, or registers again with a new broker epoch.

bool crashBrokerEnabled(const Config&, const ClusterState& s, const Action& a) { return brokerAt(s, a.broker).alive; }
void crashBrokerApply(const Config&, ClusterState& s, const Action& a, StepObserver&) { crashBroker(s.world, a.broker); }

bool startBrokerEnabled(const Config&, const ClusterState& s, const Action& a) { return !brokerAt(s, a.broker).alive; }
void startBrokerApply(const Config&, ClusterState& s, const Action& a, StepObserver&) { startBroker(s.world, a.broker); }

// ---- upgrade-ibp: a rolling upgrade's step — a stopped broker's inter.broker.protocol.version
// is set to the configuration's upgrade value; its next start runs with it (world.md 14).

bool upgradeIbpEnabled(const Config& config, const ClusterState& s, const Action& a) {
  return config.upgrade_inter_broker_protocol_version && !brokerAt(s, a.broker).alive && !brokerAt(s, a.broker).ibp_upgraded;
}
void upgradeIbpApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.brokers[static_cast<std::size_t>(a.broker)].ibp_upgraded = true;
}

// ---- fail-log-dir: the directory holding a broker's replica of a partition fails.

bool failLogDirEnabled(const Config&, const ClusterState& s, const Action& a) {
  const BrokerData& broker = brokerAt(s, a.broker);
  return broker.alive && hasLog(broker, a.tp) && !broker.offline_log_dir_replicas.contains(a.tp);
}
void failLogDirApply(const Config&, ClusterState& s, const Action& a, StepObserver&) { failLogDir(s.world, a.broker, a.tp); }

// ---- controlled-shutdown: the broker's ControlledShutdown request reaches the active controller.

bool controlledShutdownEnabled(const Config&, const ClusterState& s, const Action& a) {
  return brokerAt(s, a.broker).alive && hasEventRoom(s);
}
void controlledShutdownApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ControlledShutdown,
                                            .broker = a.broker,
                                            .broker_epoch = brokerAt(s, a.broker).broker_epoch});
}

// ---- shrink-isr and expand-isr: a leader sends AlterPartition with one follower fewer or more —
// or, before AlterPartition (inter.broker.protocol.version < 2.7-IV2), writes the ISR to ZooKeeper.

// The leader's own inter.broker.protocol.version decides (its AlterPartitionManager).
bool alterPartitionSupported(const Config& config, const ClusterState& s, BrokerId leader) {
  return interBrokerProtocolVersion(config, s.world, leader) >= MetadataVersion::IBP_2_7_IV2;
}

// Room for a watch's event: none is needed without an active controller.
bool hasRoomForWatchEvent(const ClusterState& s) { return activeController(s) == kNoLeader || hasEventRoom(s); }

// Room for what the change queues: the AlterPartition request, or the state znode's watch of a
// ZooKeeper write, which needs no controller at all.
bool hasRoomForIsrChange(const Config& config, const ClusterState& s, BrokerId leader) {
  return alterPartitionSupported(config, s, leader) ? hasEventRoom(s) : hasRoomForWatchEvent(s);
}

bool shrinkIsrEnabled(const Config& config, const ClusterState& s, const Action& a) {
  const HostedReplica& leader = hostedAt(s, a.broker, a.tp);
  return brokerAt(s, a.broker).alive && leader.present && leader.is_leader && !leader.alter_partition_pending &&
         !leader.refused_shrinks.contains(a.replica) &&
         a.replica != a.broker && leader.isr.contains(a.replica) && leader.isr.size() > 1 && hasRoomForIsrChange(config, s, a.broker);
}
bool expandIsrEnabled(const Config& config, const ClusterState& s, const Action& a) {
  const HostedReplica& leader = hostedAt(s, a.broker, a.tp);
  if (!brokerAt(s, a.broker).alive || !leader.present || !leader.is_leader || leader.alter_partition_pending ||
      leader.refused_expansions.contains(a.replica) ||
      leader.isr.contains(a.replica)) {
    return false;
  }
  if (!isBrokerId(a.replica) || !brokerAt(s, a.replica).alive) return false;
  const HostedReplica& follower = hostedAt(s, a.replica, a.tp);  // caught up: follows this leader epoch
  return follower.present && !follower.is_leader && follower.leader_epoch == leader.leader_epoch &&
         hasRoomForIsrChange(config, s, a.broker);
}
void alterPartitionApply(const Config& config, ClusterState& s, const Action& a, StepObserver&) {
  HostedReplica& leader = brokerAt(s, a.broker).replicas[static_cast<std::size_t>(partitionIndex(a.tp))];
  BrokerList isr = leader.isr;
  if (a.kind == ActionKind::ShrinkIsr) {
    isr.remove(a.replica);
  } else {
    isr.push_back(a.replica);
  }
  const LeaderAndIsr proposed{a.broker, leader.leader_epoch, LeaderRecoveryState::RECOVERED, isr, leader.partition_epoch};
  if (!alterPartitionSupported(config, s, a.broker)) return writeIsrChangeToZooKeeper(s.world, a.broker, a.tp, proposed);
  leader.alter_partition_pending = true;
  ControllerEvent request{.kind = ControllerEventKind::AlterPartitionReceived,
                          .broker = a.broker,
                          .broker_epoch = brokerAt(s, a.broker).broker_epoch,
                          .tp = a.tp,
                          .proposed = proposed};
  // DefaultAlterPartitionManager: by topic id (version 2 and later) from 2.8-IV0 on, when the
  // partition's log has one; otherwise by name (version 1 at most).
  if (interBrokerProtocolVersion(config, s.world, a.broker) >= MetadataVersion::IBP_2_8_IV0 && leader.topic_id != kNoTopicId) {
    request.by_topic_id = true;
    request.topic_ids[static_cast<std::size_t>(a.tp.topic)] = leader.topic_id;
  }
  sendToActiveController(s, request);
}

// ---- process-event: the controller module on the broker processes its next event.

bool processEventEnabled(const Config&, const ClusterState& s, const Action& a) {
  return brokerAt(s, a.broker).alive && !brokerAt(s, a.broker).controller.events.empty();
}
void processEventApply(const Config& config, ClusterState& s, const Action& a, StepObserver& observer) {
  Controller ctl{config, s.world, a.broker, observer};
  processNextEvent(ctl);
}

// ---- lose-controller-session: /controller disappears; the old controller runs on.

bool loseControllerSessionEnabled(const Config&, const ClusterState& s, const Action& a) {
  const ControllerData& module = brokerAt(s, a.broker).controller;
  return brokerAt(s, a.broker).alive && module.active && !module.session_lost && s.world.zk.controller == a.broker;
}
void loseControllerSessionApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.controller = kNoLeader;
  brokerAt(s, a.broker).controller.session_lost = true;
}

// ---- notice-session-expiry: the old controller's ZooKeeper client queues Expire (clearAndPut).

bool noticeSessionExpiryEnabled(const Config&, const ClusterState& s, const Action& a) {
  const ControllerData& module = brokerAt(s, a.broker).controller;
  return brokerAt(s, a.broker).alive && module.session_lost &&
         !module.events.contains(ControllerEvent{.kind = ControllerEventKind::Expire});
}
void noticeSessionExpiryApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  auto& events = brokerAt(s, a.broker).controller.events;
  events.clear();  // clearAndPut: queued events are preempted
  events.push_back(ControllerEvent{.kind = ControllerEventKind::Expire});
}

// ---- elect-controller: the broker wins /controller and runs onControllerFailover.

bool electControllerEnabled(const Config&, const ClusterState& s, const Action& a) {
  const ControllerData& module = brokerAt(s, a.broker).controller;
  return s.world.zk.controller == kNoLeader && brokerAt(s, a.broker).alive && !module.active && !module.session_lost &&
         s.world.zk.brokers[static_cast<std::size_t>(a.broker)].registered;  // RegisterBrokerAndReelect comes first
}
void electControllerApply(const Config& config, ClusterState& s, const Action& a, StepObserver& observer) {
  Controller ctl{config, s.world, a.broker, observer};
  try {
    elect(ctl);
  } catch (const KafkaException&) {
    // Kafka's elect() runs within an event (Startup, Reelect, …) whose process() logs what escapes
    // it: after a session expired during the failover, triggerControllerMove's read of /controller.
  }
}

// ---- auto-rebalance-timer: scheduled at failover and after each run, until resignation.

bool autoRebalanceTimerEnabled(const Config& config, const ClusterState& s, const Action& a) {
  const ControllerData& module = brokerAt(s, a.broker).controller;
  return config.auto_leader_rebalance_enable && brokerAt(s, a.broker).alive && module.active && !module.events.full() &&
         !module.events.contains(ControllerEvent{.kind = ControllerEventKind::AutoPreferredReplicaLeaderElection});
}
void autoRebalanceTimerApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  brokerAt(s, a.broker).controller.events.push_back(ControllerEvent{.kind = ControllerEventKind::AutoPreferredReplicaLeaderElection});
}

// ---- deliver-request: the broker processes the head of its request queue.

bool deliverRequestEnabled(const Config&, const ClusterState& s, const Action& a) {
  return brokerAt(s, a.broker).alive && !brokerAt(s, a.broker).inbox.empty();
}
void deliverRequestApply(const Config&, ClusterState& s, const Action& a, StepObserver&) { processNextRequest(s.world, a.broker); }

// Takes the head of one of a broker's response queues. The response reaches the controller module
// that sent the request only while that module still runs the channel manager that sent it
// (alive, active, the same epoch): that module, or nullptr when the response is dropped.
template <class Queue>
ControllerData* takeResponse(ClusterState& s, Queue& queue, typename Queue::value_type& response) {
  response = queue.front();
  queue.erase_at(0);
  BrokerData& sender = brokerAt(s, response.controller_id);
  ControllerData& module = sender.controller;
  if (!sender.alive || !module.active || module.context.epoch != response.controller_epoch) return nullptr;
  return &module;
}

// ---- deliver-stop-replica-response: the StopReplica callback (kafka.md Appendix A.5): only
// partitions whose topic is in the sending controller's topicsWithDeletionStarted are forwarded,
// and only while that controller still runs the channel manager that sent the request.

bool deliverStopReplicaResponseEnabled(const Config&, const ClusterState& s, const Action& a) {
  return !brokerAt(s, a.broker).outbox.empty();
}
void deliverStopReplicaResponseApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  StopReplicaResponse response;
  ControllerData* module = takeResponse(s, brokerAt(s, a.broker).outbox, response);
  if (module == nullptr) return;
  PartitionSet forwarded;
  response.partitions.forEach([&](TopicPartition tp) {
    if (module->context.topics_with_deletion_started.contains(tp.topic)) forwarded.insert(tp);
  });
  if (forwarded.empty()) return;
  // The delivery's own error (a perturbation) or the broker's KAFKA_STORAGE_ERROR.
  const PartitionSet errors = a.error ? forwarded : forwarded & response.storage_errors;
  module->events.push_back(ControllerEvent{.kind = ControllerEventKind::TopicDeletionStopReplicaResponseReceived,
                                          .broker = a.broker,
                                          .partitions = forwarded,
                                          .partition_errors = errors});
}

// ---- deliver-leader-and-isr-response: the LeaderAndIsr callback queues
// LeaderAndIsrResponseReceived, while the controller that sent the request still runs the channel
// manager that sent it.

bool deliverLeaderAndIsrResponseEnabled(const Config&, const ClusterState& s, const Action& a) {
  return !brokerAt(s, a.broker).leader_and_isr_responses.empty();
}
void deliverLeaderAndIsrResponseApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  LeaderAndIsrResponse response;
  ControllerData* module = takeResponse(s, brokerAt(s, a.broker).leader_and_isr_responses, response);
  if (module == nullptr) return;
  module->events.push_back(ControllerEvent{.kind = ControllerEventKind::LeaderAndIsrResponseReceived,
                                          .broker = a.broker,
                                          .partitions = response.partitions,
                                          .partition_errors = response.storage_errors,
                                          .by_topic_id = response.by_topic_id,
                                          .topic_ids = response.topic_ids});
}

// ---- zk-connection-loss: the next write ZooKeeper applies to the partition's state znode loses
// its response (kafka.md §6.3.8); zookeeper.cpp answers that write with its resend's answer.

bool loseZkConnectionEnabled(const Config&, const ClusterState& s, const Action& a) {
  return partitionExists(s, a.tp) && !s.world.zk.lost_write_responses.contains(a.tp);
}
void loseZkConnectionApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.lost_write_responses.insert(a.tp);
}

// ---- zk-connection-loss-feature: the next write ZooKeeper applies to /feature loses its response;
// controller_failover.cpp answers that write with its resend's answer.

bool loseZkConnectionOnFeatureEnabled(const Config&, const ClusterState& s, const Action&) {
  return !s.world.zk.lost_feature_write_response;
}
void loseZkConnectionOnFeatureApply(const Config&, ClusterState& s, const Action&, StepObserver&) {
  s.world.zk.lost_feature_write_response = true;
}

// ---- zk-session-expiry: the session of the next controller to write the partition's state znode
// expires just before that write (zookeeper.cpp maybeExpireSession): a partition in ZooKeeper, not
// armed already.

bool expireZkSessionEnabled(const Config&, const ClusterState& s, const Action& a) {
  return partitionExists(s, a.tp) && !s.world.zk.session_expiring_writes.contains(a.tp);
}
void expireZkSessionApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  s.world.zk.session_expiring_writes.insert(a.tp);
}

// ---- lose-broker-session: a running broker's session expires (its registration vanishes).

bool loseBrokerSessionEnabled(const Config&, const ClusterState& s, const Action& a) {
  return brokerAt(s, a.broker).alive && s.world.zk.brokers[static_cast<std::size_t>(a.broker)].registered &&
         !brokerAt(s, a.broker).controller.session_lost;
}
void loseBrokerSessionApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  loseBrokerSession(s.world, a.broker);
}

// ---- propagate-isr-changes: below 2.7-IV2, a broker's propagation task writes its ISR changes
// (brokers.hpp). Its ZooKeeper client must have a session: with an expired one the write fails
// and the changes wait for the next run.

bool propagateIsrChangesEnabled(const Config&, const ClusterState& s, const Action& a) {
  const BrokerData& broker = brokerAt(s, a.broker);
  return broker.alive && !broker.controller.session_lost && !broker.pending_isr_changes.empty() &&
         hasRoomForWatchEvent(s);
}
void propagateIsrChangesApply(const Config&, ClusterState& s, const Action& a, StepObserver&) {
  propagateIsrChanges(s.world, a.broker);
}

using K = ActionKind;

constexpr std::array<ActionRule, kActionKindCount> kRules = {{
    {K::CreateTopic, createTopicEnabled, createTopicApply},
    {K::DeleteTopic, deleteTopicEnabled, deleteTopicApply},
    {K::AddPartitions, addPartitionsEnabled, addPartitionsApply},
    {K::ReassignPartition, reassignmentRequestEnabled, reassignmentRequestApply},
    {K::CancelReassignment, reassignmentRequestEnabled, reassignmentRequestApply},
    {K::ElectPreferredLeader, electLeadersEnabled, electLeadersApply},
    {K::ElectUncleanLeader, electLeadersEnabled, electLeadersApply},
    {K::EnableTopicUnclean, enableTopicUncleanEnabled, enableTopicUncleanApply},
    {K::ZkReassign, zkReassignEnabled, zkReassignApply},
    {K::ZkReassignInvalid, zkReassignEnabled, zkReassignApply},
    {K::ZkElectPreferred, zkElectPreferredEnabled, zkElectPreferredApply},
    {K::CrashBroker, crashBrokerEnabled, crashBrokerApply},
    {K::StartBroker, startBrokerEnabled, startBrokerApply},
    {K::ControlledShutdown, controlledShutdownEnabled, controlledShutdownApply},
    {K::ShrinkIsr, shrinkIsrEnabled, alterPartitionApply},
    {K::ExpandIsr, expandIsrEnabled, alterPartitionApply},
    {K::FailLogDir, failLogDirEnabled, failLogDirApply},
    {K::ProcessEvent, processEventEnabled, processEventApply},
    {K::LoseControllerSession, loseControllerSessionEnabled, loseControllerSessionApply},
    {K::NoticeSessionExpiry, noticeSessionExpiryEnabled, noticeSessionExpiryApply},
    {K::ElectController, electControllerEnabled, electControllerApply},
    {K::AutoRebalanceTimer, autoRebalanceTimerEnabled, autoRebalanceTimerApply},
    {K::DeliverRequest, deliverRequestEnabled, deliverRequestApply},
    {K::DeliverStopReplicaResponse, deliverStopReplicaResponseEnabled, deliverStopReplicaResponseApply},
    {K::DeliverLeaderAndIsrResponse, deliverLeaderAndIsrResponseEnabled, deliverLeaderAndIsrResponseApply},
    {K::LoseZkConnection, loseZkConnectionEnabled, loseZkConnectionApply},
    {K::LoseBrokerSession, loseBrokerSessionEnabled, loseBrokerSessionApply},
    {K::PropagateIsrChanges, propagateIsrChangesEnabled, propagateIsrChangesApply},
    {K::UpgradeIbp, upgradeIbpEnabled, upgradeIbpApply},
    {K::LoseZkConnectionOnFeature, loseZkConnectionOnFeatureEnabled, loseZkConnectionOnFeatureApply},
    {K::ExpireZkSession, expireZkSessionEnabled, expireZkSessionApply},
}};

static_assert([] {
  for (std::size_t i = 0; i < kRules.size(); ++i) {
    if (static_cast<std::size_t>(kRules[i].kind) != i) return false;
  }
  return true;
}(), "kRules is indexed by ActionKind");

}  // namespace

const ActionRule& ruleOf(ActionKind kind) { return kRules[static_cast<std::size_t>(kind)]; }

// The inter.broker.protocol.version of the broker that handles the admin's CreateTopics: the
// controller's (the admin client sends it to the broker /controller names). With none named the
// request waits for an election in Kafka; kcspec creates the topic at once, as a broker still at
// the configuration's inter.broker.protocol.version would (world.md 14).
namespace {
MetadataVersion adminInterBrokerProtocolVersion(const Config& config, const Observation& world) {
  if (world.zk.controller == kNoLeader) return config.inter_broker_protocol_version;
  return interBrokerProtocolVersion(config, world, world.zk.controller);
}
}  // namespace

void createTopic(const Config& config, ClusterState& s, TopicIndex t) {
  const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
  TopicZnodes& znodes = s.world.zk.topics[static_cast<std::size_t>(t)];
  znodes = TopicZnodes{};
  znodes.exists = true;
  KCSPEC_ASSERT(topic.assignment.size() <= static_cast<std::size_t>(kMaxPartitionsPerTopic));
  for (std::size_t p = 0; p < topic.assignment.size(); ++p) znodes.partitions[p] = ReplicaAssignment(topic.assignment[p]);
  znodes.unclean_leader_election_enable = topic.unclean_leader_election_enable;
  // ZkAdminManager.createTopics: with usesTopicId (2.8-IV0 and later) the topic znode has an id —
  // the usesTopicId of the broker that handles CreateTopics, the controller's (world.md 14).
  if (adminInterBrokerProtocolVersion(config, s.world) >= MetadataVersion::IBP_2_8_IV0) {
    znodes.topic_id = freshTopicId(s.world, t);
  }
}

}  // namespace kcspec::spec
