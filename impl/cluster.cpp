// ImplCluster (cluster.hpp).
#include "impl/cluster.hpp"

#include "spec/vocabulary/broker_ibp.hpp"

#include "spec/vocabulary/topic_ids.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "impl/controller/kafka_controller.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "spec/vocabulary/action_candidates.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {

namespace {

// The controller's channel into the brokers' inbound queues (docs/world.md §4): a request to a
// broker that is not alive is lost.
class BrokerChannel final : public ControllerChannel {
 public:
  explicit BrokerChannel(std::array<SimulatedBroker, kMaxBrokers>& brokers) : brokers_(brokers) {}
  void sendRequest(BrokerId broker, const ControlRequest& request) override {
    SimulatedBroker& target = brokers_[static_cast<std::size_t>(broker)];
    if (target.alive()) target.receive(request);
  }
  void respondAlterPartition(BrokerId broker, TopicPartition tp, const AlterPartitionResponse& response) override {
    // The response goes back over the connection that sent the request: to the broker process, also
    // after it registered again with a new epoch (lose-broker-session). A process started since has
    // no pending proposal and its own leader epochs, which the broker's checks compare.
    SimulatedBroker& leader = brokers_[static_cast<std::size_t>(broker)];
    if (leader.alive()) leader.handleAlterPartitionResponse(tp, response);
  }

 private:
  std::array<SimulatedBroker, kMaxBrokers>& brokers_;
};

zk::TopicAssignment initialAssignment(const TopicConfig& topic) {
  zk::TopicAssignment assignment;
  for (std::size_t p = 0; p < topic.assignment.size(); ++p) {
    assignment.emplace(static_cast<int>(p), ReplicaAssignment(topic.assignment[p]));
  }
  return assignment;
}

}  // namespace

ImplCluster::ImplCluster(const Config& config, zk::RealZkStore& real_zookeeper, Mutants mutants, LogTarget log)
    : ImplCluster(config, mutants, log, zk::Store(&real_zookeeper)) {}

ImplCluster::ImplCluster(const Config& config, Mutants mutants, LogTarget log) : ImplCluster(config, mutants, log, zk::Store()) {}

ImplCluster::ImplCluster(const Config& config, Mutants mutants, LogTarget log, zk::Store store)
    : config_(std::make_shared<const Config>(config)), mutants_(mutants), log_(log), remaining_(config.bounds), zk_(std::move(store)) {
  KCSPEC_ASSERT(config_->topicCount() <= kMaxTopics);
  zk::KafkaZkClient client(zk_, *config_);
  client.createTopLevelPaths();
  config_->brokers_alive_at_start.forEach(
      [&](BrokerId b) { brokers_[static_cast<std::size_t>(b)].start(client.registerBroker(b)); });
  for (TopicIndex t = 0; t < config_->topicCount(); ++t) {
    const TopicConfig& topic = config_->topics[static_cast<std::size_t>(t)];
    if (!topic.exists_at_start) continue;
    client.setTopicConfig(t, topic.unclean_leader_election_enable);
    client.createTopicAssignment(t, initialAssignment(topic), adminTopicId(t));
  }
  zk_.takeWatchEvents();  // nobody watches yet
}

// KafkaConfig.interBrokerProtocolVersion of broker b: its server.properties say the configuration's
// value until a rolling upgrade gave it the upgrade's (docs/world.md 14).
MetadataVersion ImplCluster::interBrokerProtocolVersion(BrokerId b) const {
  return kcspec::interBrokerProtocolVersion(*config_, broker(b).ibpUpgraded());
}

// ZkAdminManager.createTopics on the broker that handles the admin's CreateTopics — the one
// /controller names (the admin client sends it there; with none the request would wait for an
// election, and kcspec lets it through as a broker at the configuration's value would): with
// usesTopicId (≥ 2.8-IV0) the topic gets a new id.
std::optional<Uuid> ImplCluster::adminTopicId(TopicIndex t) {
  const zk::Znode* controller = zk_.find(zk::paths::kController);
  const std::optional<BrokerId> handler =
      controller == nullptr ? std::nullopt : std::optional<BrokerId>(zk::payload::decodeController(controller->data));
  const MetadataVersion ibp = handler && isBrokerId(*handler) ? interBrokerProtocolVersion(*handler)
                                                             : config_->inter_broker_protocol_version;
  if (ibp < MetadataVersion::IBP_2_8_IV0) return std::nullopt;
  return randomTopicUuid(t);
}

Uuid ImplCluster::randomTopicUuid(TopicIndex t) const { return topicUuid(t, freshTopicId(observe(), t)); }

void ImplCluster::assignSameConfiguration(const ImplCluster& other) {
  KCSPEC_ASSERT(config_->brokers == other.config_->brokers);
  config_ = other.config_;
  mutants_ = other.mutants_;
  log_ = other.log_;
  remaining_ = other.remaining_;
  zk_ = other.zk_;
  config_->brokers.forEach([&](BrokerId b) { brokers_[static_cast<std::size_t>(b)] = other.broker(b); });
}

// ------------------------------------------------------------------ queries

std::optional<BrokerId> ImplCluster::activeController() const {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const SimulatedBroker& broker = brokers_[static_cast<std::size_t>(b)];
    if (broker.alive() && broker.controller().active && !broker.controller().session_lost) return b;
  }
  return std::nullopt;
}

bool ImplCluster::controllerHasRoom() const {
  const std::optional<BrokerId> active = activeController();
  return active && !brokers_[static_cast<std::size_t>(*active)].controller().events.full();
}

// A watch's event needs no controller, and a slot in the active one's queue when there is one.
bool ImplCluster::controllerHasRoomForWatchEvent() const { return !activeController() || controllerHasRoom(); }

// An AlterPartition request needs a slot in the active controller's queue; a leader that writes
// ZooKeeper itself (< 2.7-IV2) needs room for the state znode's watch only.
bool ImplCluster::controllerHasRoomForIsrChange(BrokerId leader) const {
  if (interBrokerProtocolVersion(leader) >= MetadataVersion::IBP_2_7_IV2) return controllerHasRoom();
  return controllerHasRoomForWatchEvent();
}

bool ImplCluster::topicExistsInZk(TopicIndex topic) const {
  return zk_.exists(zk::paths::topic(config_->topics[static_cast<std::size_t>(topic)].name));
}

bool ImplCluster::deletionRequested(TopicIndex topic) const {
  return zk_.exists(zk::paths::deleteTopic(config_->topics[static_cast<std::size_t>(topic)].name));
}

bool ImplCluster::uncleanFlag(TopicIndex topic) const {
  const zk::Znode* node = zk_.find(zk::paths::topicConfig(config_->topics[static_cast<std::size_t>(topic)].name));
  return node != nullptr && zk::payload::decodeUncleanLeaderElectionEnable(node->data);
}

bool ImplCluster::partitionExistsInZk(TopicPartition tp) const {
  const zk::Znode* node = zk_.find(zk::paths::topic(config_->topics[static_cast<std::size_t>(tp.topic)].name));
  return node != nullptr && zk::payload::topicAssignmentOf(node->data).contains(tp.partition);
}

std::string ImplCluster::statePath(TopicPartition tp) const {
  return zk::paths::topicPartitionState(config_->topics[static_cast<std::size_t>(tp.topic)].name, tp.partition);
}

std::optional<int> ImplCluster::nextAddedPartition(TopicIndex topic) const {
  const TopicConfig& cfg = config_->topics[static_cast<std::size_t>(topic)];
  const zk::Znode* node = zk_.find(zk::paths::topic(cfg.name));
  if (node == nullptr) return std::nullopt;
  const int count = static_cast<int>(zk::payload::topicAssignmentOf(node->data).size());
  const int next = count - static_cast<int>(cfg.assignment.size());
  if (next < 0 || next >= static_cast<int>(cfg.added_partitions.size()) || count >= kMaxPartitionsPerTopic) {
    return std::nullopt;
  }
  return next;
}

// A perturbation needs its kind's budget and, when the configuration sets one, the overall one
// (`bound perturbations`): both are spent together.
bool ImplCluster::hasBudget(int Bounds::*kind) const {
  return remaining_.*kind > 0 && remaining_.perturbations != 0;
}

void ImplCluster::spend(int Bounds::*kind) {
  KCSPEC_ASSERT(hasBudget(kind));
  --(remaining_.*kind);
  if (remaining_.perturbations != kAnyNumberOfPerturbations) --remaining_.perturbations;
}

bool ImplCluster::isrChangeEnabled(const Action& a) const {
  if (!isBrokerId(a.broker) || !isBrokerId(a.replica) || a.broker == a.replica) return false;
  const SimulatedBroker& leader = brokers_[static_cast<std::size_t>(a.broker)];
  if (!leader.alive()) return false;
  const HostedReplica& hosted = leader.hosted(a.tp);
  if (!hosted.present || !hosted.is_leader || hosted.alter_partition_pending || !controllerHasRoomForIsrChange(a.broker)) return false;
  if (a.kind == ActionKind::ShrinkIsr) {
    return hasBudget(&Bounds::isr_shrinks) && hosted.isr.contains(a.replica) && hosted.isr.size() >= 2 &&
           !hosted.refused_shrinks.contains(a.replica);
  }
  const SimulatedBroker& follower = brokers_[static_cast<std::size_t>(a.replica)];
  const HostedReplica& f = follower.hosted(a.tp);
  return !hosted.isr.contains(a.replica) && !hosted.refused_expansions.contains(a.replica) && follower.alive() &&
         f.present && !f.is_leader && f.leader_epoch == hosted.leader_epoch;
}

// The impl's own enabledness, read from its ZooKeeper store and brokers. It states again what
// spec/rules/actions.cpp states: deliberately, the two versions agree by being written twice
// (the agreement check compares them at every step).
bool ImplCluster::isEnabled(const Action& a) const {
  const auto topicOk = [&](TopicIndex t) { return t >= 0 && t < config_->topicCount(); };
  const auto brokerOk = [&](BrokerId b) { return isBrokerId(b) && config_->brokers.contains(b); };
  // A partition id of a configured topic (the legacy admin tools check no more), one in ZooKeeper
  // with room in the controller's queue (an API request), and a configured reassignment target.
  const auto partitionIdOk = [&](TopicPartition tp) {
    return topicOk(tp.topic) && tp.partition >= 0 && tp.partition < kMaxPartitionsPerTopic;
  };
  const auto partitionOk = [&](TopicPartition tp) { return partitionIdOk(tp) && partitionExistsInZk(tp) && controllerHasRoom(); };
  const auto configuredTarget = [&](TopicPartition tp, const BrokerList& replicas) {
    for (const auto& [p, target] : config_->topics[static_cast<std::size_t>(tp.topic)].reassignment_targets) {
      if (p == tp.partition && target == replicas) return true;
    }
    return false;
  };
  switch (a.kind) {
    case ActionKind::CreateTopic:
      return topicOk(a.topic) && hasBudget(&Bounds::topic_creations) && !topicExistsInZk(a.topic) && !deletionRequested(a.topic);
    case ActionKind::DeleteTopic:
      return topicOk(a.topic) && hasBudget(&Bounds::topic_deletions) && topicExistsInZk(a.topic) && !deletionRequested(a.topic);
    case ActionKind::AddPartitions:
      return topicOk(a.topic) && hasBudget(&Bounds::partition_additions) && topicExistsInZk(a.topic) &&
             !deletionRequested(a.topic) && nextAddedPartition(a.topic).has_value();
    case ActionKind::ReassignPartition:
      return partitionOk(a.tp) && hasBudget(&Bounds::reassignments) && configuredTarget(a.tp, a.replicas);
    case ActionKind::CancelReassignment: return partitionOk(a.tp) && hasBudget(&Bounds::reassignments);
    case ActionKind::ElectPreferredLeader: return partitionOk(a.tp) && hasBudget(&Bounds::preferred_elections);
    case ActionKind::ElectUncleanLeader: return partitionOk(a.tp) && hasBudget(&Bounds::unclean_elections);
    case ActionKind::EnableTopicUnclean:
      return topicOk(a.topic) && hasBudget(&Bounds::unclean_elections) && topicExistsInZk(a.topic) && controllerHasRoom() &&
             !uncleanFlag(a.topic);
    // The legacy admin paths: the tool's create fails with NODEEXISTS while the znode exists;
    // nothing checks the partition or the target brokers (not even that they are alive).
    case ActionKind::ZkReassign:
      return partitionIdOk(a.tp) && hasBudget(&Bounds::zk_reassignments) && !zk_.exists(zk::paths::kReassignPartitions) &&
             configuredTarget(a.tp, a.replicas);
    case ActionKind::ZkReassignInvalid:
      return hasBudget(&Bounds::zk_reassignments) && !zk_.exists(zk::paths::kReassignPartitions);
    case ActionKind::ZkElectPreferred:
      return partitionIdOk(a.tp) && hasBudget(&Bounds::zk_preferred_elections) &&
             !zk_.exists(zk::paths::kPreferredReplicaElection);
    case ActionKind::CrashBroker: return brokerOk(a.broker) && broker(a.broker).alive() && hasBudget(&Bounds::crashes);
    case ActionKind::StartBroker: return brokerOk(a.broker) && !broker(a.broker).alive();
    // A rolling upgrade's step: a stopped broker not upgraded yet, when the configuration names a version.
    case ActionKind::UpgradeIbp:
      return brokerOk(a.broker) && config_->upgrade_inter_broker_protocol_version && hasBudget(&Bounds::ibp_upgrades) &&
             !broker(a.broker).alive() && !broker(a.broker).ibpUpgraded();
    case ActionKind::ControlledShutdown:
      return brokerOk(a.broker) && broker(a.broker).alive() && controllerHasRoom() && hasBudget(&Bounds::controlled_shutdowns);
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr:
      return topicOk(a.tp.topic) && a.tp.partition >= 0 && a.tp.partition < kMaxPartitionsPerTopic && isrChangeEnabled(a);
    // A replica's log directory fails: the broker holds a log for it (a stopped replica keeps its
    // log), not already offline. Like a crash, it needs no room in the controller's queue: the
    // child watch's event coalesces.
    case ActionKind::FailLogDir: {
      if (!partitionIdOk(a.tp) || !brokerOk(a.broker) || !hasBudget(&Bounds::log_dir_failures)) return false;
      const SimulatedBroker& b = broker(a.broker);
      const HostedReplica& hosted = b.hosted(a.tp);
      return b.alive() && (hosted.present || hosted.leader_epoch >= 0) && !b.offlineLogDirReplicas().contains(a.tp);
    }
    // The controller's ZooKeeper connection will drop after the next applied write to the
    // partition's state znode (kafka.md §6.3.8): a partition in ZooKeeper, not armed already.
    case ActionKind::LoseZkConnection:
      return partitionIdOk(a.tp) && partitionExistsInZk(a.tp) && hasBudget(&Bounds::zk_connection_losses) &&
             !zk_.lostResponses().contains(statePath(a.tp));
    // The same for the next applied write to /feature, not armed already.
    case ActionKind::LoseZkConnectionOnFeature:
      return hasBudget(&Bounds::zk_connection_losses) && !zk_.lostResponses().contains(zk::paths::kFeature);
    // The next controller to write the partition's state znode will meet its session expired:
    // a partition in ZooKeeper, not armed already.
    case ActionKind::ExpireZkSession:
      return partitionIdOk(a.tp) && partitionExistsInZk(a.tp) && hasBudget(&Bounds::zk_session_expiries) &&
             !zk_.sessionExpiringWrites().contains(statePath(a.tp));
    case ActionKind::ProcessEvent: return brokerOk(a.broker) && broker(a.broker).alive() && !broker(a.broker).controller().events.empty();
    // The propagation task of a broker whose ZooKeeper session is valid, with changes to write.
    case ActionKind::PropagateIsrChanges: {
      if (!brokerOk(a.broker)) return false;
      const SimulatedBroker& b = broker(a.broker);
      return b.alive() && !b.controller().session_lost && !b.isrChangeSet().empty() && controllerHasRoomForWatchEvent();
    }
    case ActionKind::LoseControllerSession: {
      if (!brokerOk(a.broker) || !hasBudget(&Bounds::controller_failovers)) return false;
      const SimulatedBroker& b = broker(a.broker);
      const zk::Znode* node = zk_.find(zk::paths::kController);
      return b.alive() && b.controller().active && !b.controller().session_lost && node != nullptr &&
             zk::payload::decodeController(node->data) == a.broker;
    }
    case ActionKind::NoticeSessionExpiry: {
      if (!brokerOk(a.broker)) return false;
      const SimulatedBroker& b = broker(a.broker);
      return b.alive() && b.controller().session_lost && !b.controller().events.containsKind(ControllerEventKind::Expire);
    }
    case ActionKind::ElectController: {  // registered: RegisterBrokerAndReelect comes first
      if (!brokerOk(a.broker)) return false;
      const SimulatedBroker& b = broker(a.broker);
      return !zk_.exists(zk::paths::kController) && b.alive() && !b.controller().active && !b.controller().session_lost &&
             zk_.exists(zk::paths::brokerId(a.broker));
    }
    // A running broker's session expires: it is registered and its client has not lost one already.
    case ActionKind::LoseBrokerSession: {
      if (!brokerOk(a.broker) || !hasBudget(&Bounds::broker_session_losses)) return false;
      const SimulatedBroker& b = broker(a.broker);
      return b.alive() && zk_.exists(zk::paths::brokerId(a.broker)) && !b.controller().session_lost;
    }
    case ActionKind::AutoRebalanceTimer: {  // the controller scheduler's task fires (at most one queued)
      if (!brokerOk(a.broker) || !config_->auto_leader_rebalance_enable || !hasBudget(&Bounds::auto_rebalances)) return false;
      const SimulatedBroker& b = broker(a.broker);
      return b.alive() && b.controller().active && !b.controller().events.full() &&
             !b.controller().events.containsKind(ControllerEventKind::AutoPreferredReplicaLeaderElection);
    }
    case ActionKind::DeliverRequest: return brokerOk(a.broker) && broker(a.broker).alive() && !broker(a.broker).inbox().empty();
    case ActionKind::DeliverStopReplicaResponse:
      return brokerOk(a.broker) && !broker(a.broker).outbox().empty() && (!a.error || hasBudget(&Bounds::stop_replica_errors));
    case ActionKind::DeliverLeaderAndIsrResponse:
      return brokerOk(a.broker) && !broker(a.broker).leaderAndIsrResponses().empty();
  }
  return false;
}

std::vector<Action> ImplCluster::enabledActions() const {
  // The candidates come from the action definitions; whether each is enabled is this
  // controller's own reading of its world (isEnabled above).
  const auto in_zookeeper = [&](TopicIndex t, int p) { return partitionExistsInZk(TopicPartition{t, p}); };
  std::vector<Action> enabled;
  forEachCandidate(*config_, in_zookeeper, [&](const Action& a) {
    if (isEnabled(a)) enabled.push_back(a);
  });
  return enabled;
}

// ------------------------------------------------------------------ steps

template <class Run>
void ImplCluster::withController(BrokerId b, Run run) {
  zk::KafkaZkClient client(zk_, *config_);
  client.onSessionExpiryBeforeWrites(
      [this, b](const std::vector<std::string>& state_paths) { return maybeExpireSessionBeforeWrites(b, state_paths); });
  BrokerChannel channel(brokers_);
  ControllerServices services{b, *config_, client, channel, StateChangeLogger(log_, b), mutants_,
                              [this] { routeWatchEvents(); }, [this](TopicIndex t) { return randomTopicUuid(t); },
                              broker(b).ibpUpgraded()};
  KafkaController controller(b, brokers_[static_cast<std::size_t>(b)].controller(), services);
  run(controller);
}

void ImplCluster::runOnController(BrokerId b, const std::function<void(KafkaController&)>& run) { withController(b, run); }

void ImplCluster::queueRequest(const ControllerEvent& event) {
  const std::optional<BrokerId> active = activeController();
  KCSPEC_ASSERT(active.has_value());
  brokers_[static_cast<std::size_t>(*active)].controller().events.put(event);
}

void ImplCluster::routeWatchEvents() {
  const std::optional<BrokerId> active = activeController();
  for (const zk::WatchEvent& change : zk_.takeWatchEvents()) {
    if (!active || change.watcher != *active) continue;
    if (const std::optional<ControllerEvent> event = KafkaController::eventForWatch(*config_, change)) {
      ControllerEventManager& events = brokers_[static_cast<std::size_t>(*active)].controller().events;
      KCSPEC_ASSERT(events.contains(*event) || !events.full());
      events.put(*event);
    }
  }
}

void ImplCluster::expireBrokerSession(BrokerId b) {
  // The broker's one ZooKeeper client: its registration and, held by the same session in Kafka,
  // /controller (kcspec's store keeps the two in sessions of their own).
  brokers_[static_cast<std::size_t>(b)].controller().session_lost = true;
  zk_.closeSession(zk::registrationSession(b));
  const zk::Znode* controller = zk_.find(zk::paths::kController);
  if (controller != nullptr && zk::payload::decodeController(controller->data) == b) {
    zk_.closeSession(zk::controllerSession(b));
  }
}

bool ImplCluster::maybeExpireSessionBeforeWrites(BrokerId b, const std::vector<std::string>& state_paths) {
  const bool armed = std::any_of(state_paths.begin(), state_paths.end(),
                                 [&](const std::string& path) { return zk_.sessionExpiringWrites().contains(path); });
  KafkaControllerState& module = brokers_[static_cast<std::size_t>(b)].controller();
  if (!armed || module.session_lost || !zk_.exists(zk::paths::brokerId(b))) return false;
  zk_.takeSessionExpiry(state_paths);
  expireBrokerSession(b);
  module.events.clearAndPut(ControllerEvent{.kind = ControllerEventKind::Expire});
  return true;
}

void ImplCluster::controllerSessionExpired(BrokerId b) {
  KafkaControllerState& module = brokers_[static_cast<std::size_t>(b)].controller();
  module.session_lost = true;
  module.events.clearAndPut(ControllerEvent{.kind = ControllerEventKind::Expire});
}

void ImplCluster::processEvent(BrokerId b) {
  const std::optional<ControllerEvent> event = brokers_[static_cast<std::size_t>(b)].controller().events.poll();
  KCSPEC_ASSERT(event.has_value());
  withController(b, [&](KafkaController& controller) { controller.process(*event); });
  if (event->kind == ControllerEventKind::RegisterBrokerAndReelect) {
    const zk::Znode* registration = zk_.find(zk::paths::brokerId(b));
    KCSPEC_ASSERT(registration != nullptr);
    brokers_[static_cast<std::size_t>(b)].registeredAgain(registration->stat.czxid);
  }
}

void ImplCluster::electController(BrokerId b) {
  withController(b, [](KafkaController& controller) {
    try {
      controller.elect();
    } catch (const KafkaThrowable&) {
      // Kafka's elect() runs within an event (Startup, Reelect, …) whose process() logs what
      // escapes it: after a session expired during the failover, triggerControllerMove's read of
      // /controller (docs/world.md convention 15).
    }
  });
}

void ImplCluster::deliverStopReplicaResponse(BrokerId b, bool error) {
  const StopReplicaResponse response = brokers_[static_cast<std::size_t>(b)].takeResponse();
  if (!isBrokerId(response.controller_id)) return;
  SimulatedBroker& sender = brokers_[static_cast<std::size_t>(response.controller_id)];
  const KafkaControllerState& module = sender.controller();
  // The response reaches its controller only while that channel manager still exists (§6).
  if (!sender.alive() || !module.active || module.context.epoch != response.controller_epoch) return;
  PartitionSet forwarded;
  response.partitions.forEach([&](TopicPartition tp) {
    if (module.context.isTopicDeletionInProgress(tp.topic)) forwarded.insert(tp);
  });
  if (forwarded.empty()) return;
  // The delivery's own error fails every partition; KAFKA_STORAGE_ERROR (an offline log directory)
  // fails those the broker answered so.
  const PartitionSet errors = (error ? forwarded : PartitionSet{}) | (forwarded & response.storage_errors);
  sender.controller().events.append(ControllerEvent{.kind = ControllerEventKind::TopicDeletionStopReplicaResponseReceived,
                                                    .broker = b,
                                                    .partitions = forwarded,
                                                    .partition_errors = errors});
}

// The LeaderAndIsr response callback: LeaderAndIsrResponseReceived on the controller that sent
// the request, while its channel manager still exists (as for StopReplica responses, §6). Unlike
// those, every response is forwarded (the controller filters), appended without coalescing.
void ImplCluster::deliverLeaderAndIsrResponse(BrokerId b) {
  const LeaderAndIsrResponse response = brokers_[static_cast<std::size_t>(b)].takeLeaderAndIsrResponse();
  if (!isBrokerId(response.controller_id)) return;
  SimulatedBroker& sender = brokers_[static_cast<std::size_t>(response.controller_id)];
  const KafkaControllerState& module = sender.controller();
  if (!sender.alive() || !module.active || module.context.epoch != response.controller_epoch) return;
  sender.controller().events.append(ControllerEvent{.kind = ControllerEventKind::LeaderAndIsrResponseReceived,
                                                    .broker = b,
                                                    .partitions = response.partitions,
                                                    .partition_errors = response.storage_errors,
                                                    .by_topic_id = response.by_topic_id,
                                                    .topic_ids = response.topic_ids});
}

void ImplCluster::apply(const Action& a) {
  KCSPEC_ASSERT(isEnabled(a));
  zk::KafkaZkClient client(zk_, *config_);
  switch (a.kind) {
    case ActionKind::CreateTopic: {
      spend(&Bounds::topic_creations);
      const TopicConfig& topic = config_->topics[static_cast<std::size_t>(a.topic)];
      client.setTopicConfig(a.topic, topic.unclean_leader_election_enable);
      client.createTopicAssignment(a.topic, initialAssignment(topic), adminTopicId(a.topic));
      break;
    }
    case ActionKind::DeleteTopic:
      spend(&Bounds::topic_deletions);
      client.createDeleteTopicPath(a.topic);
      break;
    case ActionKind::AddPartitions: {
      spend(&Bounds::partition_additions);
      const TopicConfig& topic = config_->topics[static_cast<std::size_t>(a.topic)];
      zk::TopicAssignment assignment = *client.getFullReplicaAssignmentForTopic(a.topic);
      const int next = *nextAddedPartition(a.topic);
      assignment.emplace(static_cast<int>(assignment.size()), ReplicaAssignment(topic.added_partitions[static_cast<std::size_t>(next)]));
      client.setTopicAssignmentByAdmin(a.topic, assignment);
      break;
    }
    case ActionKind::ReassignPartition:
      spend(&Bounds::reassignments);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::ApiPartitionReassignment, .tp = a.tp, .target_replicas = a.replicas});
      break;
    case ActionKind::CancelReassignment:
      spend(&Bounds::reassignments);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::ApiPartitionReassignment, .tp = a.tp, .cancel = true});
      break;
    case ActionKind::ElectPreferredLeader:
      spend(&Bounds::preferred_elections);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection, .partitions = PartitionSet{a.tp},
                                   .election_type = ElectionType::PREFERRED});
      break;
    case ActionKind::ElectUncleanLeader:
      spend(&Bounds::unclean_elections);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection, .partitions = PartitionSet{a.tp},
                                   .election_type = ElectionType::UNCLEAN});
      break;
    case ActionKind::EnableTopicUnclean:
      spend(&Bounds::unclean_elections);
      client.setTopicConfig(a.topic, true);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::TopicUncleanLeaderElectionEnable, .topic = a.topic});
      break;
    // The legacy admin tools write their znode; the active controller's creation watch queues the
    // event (routeWatchEvents).
    case ActionKind::ZkReassign:
      spend(&Bounds::zk_reassignments);
      client.createPartitionReassignment(zk::PartitionReassignment{{a.tp, a.replicas}});
      break;
    case ActionKind::ZkReassignInvalid:
      spend(&Bounds::zk_reassignments);
      client.createUnparsablePartitionReassignment();
      break;
    case ActionKind::ZkElectPreferred:
      spend(&Bounds::zk_preferred_elections);
      client.createPreferredReplicaElection(PartitionSet{a.tp});
      break;
    case ActionKind::CrashBroker:
      spend(&Bounds::crashes);
      zk_.closeSession(zk::registrationSession(a.broker));
      zk_.closeSession(zk::controllerSession(a.broker));
      zk_.unwatchAll(a.broker);
      brokers_[static_cast<std::size_t>(a.broker)].crash();
      break;
    case ActionKind::StartBroker:
      brokers_[static_cast<std::size_t>(a.broker)].start(client.registerBroker(a.broker));
      break;
    case ActionKind::UpgradeIbp:
      spend(&Bounds::ibp_upgrades);
      brokers_[static_cast<std::size_t>(a.broker)].upgradeInterBrokerProtocolVersion();
      break;
    case ActionKind::ControlledShutdown:
      spend(&Bounds::controlled_shutdowns);
      queueRequest(ControllerEvent{.kind = ControllerEventKind::ControlledShutdown, .broker = a.broker,
                                   .broker_epoch = broker(a.broker).brokerEpoch()});
      break;
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr: {
      if (a.kind == ActionKind::ShrinkIsr) spend(&Bounds::isr_shrinks);
      const HostedReplica& hosted = broker(a.broker).hosted(a.tp);
      LeaderAndIsr proposed{a.broker, hosted.leader_epoch, LeaderRecoveryState::RECOVERED, hosted.isr, hosted.partition_epoch};
      if (a.kind == ActionKind::ShrinkIsr) {
        proposed.isr.remove(a.replica);
      } else {
        proposed.isr.push_back(a.replica);
      }
      if (interBrokerProtocolVersion(a.broker) < MetadataVersion::IBP_2_7_IV2) {
        // ZkAlterPartitionManager: no request, the leader writes ZooKeeper (its watches reach the
        // active controller through routeWatchEvents below).
        brokers_[static_cast<std::size_t>(a.broker)].submitIsrChangeToZooKeeper(client, a.tp, proposed);
        break;
      }
      brokers_[static_cast<std::size_t>(a.broker)].proposeIsrChange(a.tp);
      ControllerEvent request{.kind = ControllerEventKind::AlterPartitionReceived, .broker = a.broker,
                              .broker_epoch = broker(a.broker).brokerEpoch(), .tp = a.tp, .proposed = proposed};
      // DefaultAlterPartitionManager.buildRequest: canUseTopicIds needs 2.8-IV0 and an id for the
      // partition; the request then goes at version 2 or later, by topic id.
      if (interBrokerProtocolVersion(a.broker) >= MetadataVersion::IBP_2_8_IV0 && hosted.topic_id != kNoTopicId) {
        request.by_topic_id = true;
        request.topic_ids[static_cast<std::size_t>(a.tp.topic)] = hosted.topic_id;
      }
      queueRequest(request);
      break;
    }
    case ActionKind::PropagateIsrChanges:
      // The active controller's child watch queues IsrChangeNotification (routeWatchEvents).
      brokers_[static_cast<std::size_t>(a.broker)].maybePropagateIsrChanges(client);
      break;
    case ActionKind::FailLogDir:
      spend(&Bounds::log_dir_failures);
      brokers_[static_cast<std::size_t>(a.broker)].handleLogDirFailure(a.tp);
      // propagateLogDirEvent: the active controller's child watch queues LogDirEventNotification
      // (routeWatchEvents).
      client.propagateLogDirEvent(a.broker);
      break;
    case ActionKind::LoseBrokerSession:
      spend(&Bounds::broker_session_losses);
      expireBrokerSession(a.broker);
      break;
    case ActionKind::ExpireZkSession:
      spend(&Bounds::zk_session_expiries);
      zk_.armSessionExpiry(statePath(a.tp));
      break;
    case ActionKind::LoseZkConnection:
      spend(&Bounds::zk_connection_losses);
      zk_.view().loseNextResponse(statePath(a.tp));
      break;
    case ActionKind::LoseZkConnectionOnFeature:
      spend(&Bounds::zk_connection_losses);
      zk_.view().loseNextResponse(std::string(zk::paths::kFeature));
      break;
    case ActionKind::ProcessEvent: processEvent(a.broker); break;
    case ActionKind::LoseControllerSession:
      spend(&Bounds::controller_failovers);
      zk_.closeSession(zk::controllerSession(a.broker));
      brokers_[static_cast<std::size_t>(a.broker)].controller().session_lost = true;
      break;
    case ActionKind::NoticeSessionExpiry:
      brokers_[static_cast<std::size_t>(a.broker)].controller().events.clearAndPut(ControllerEvent{.kind = ControllerEventKind::Expire});
      break;
    case ActionKind::ElectController: electController(a.broker); break;
    case ActionKind::AutoRebalanceTimer:
      spend(&Bounds::auto_rebalances);
      brokers_[static_cast<std::size_t>(a.broker)].controller().events.append(
          ControllerEvent{.kind = ControllerEventKind::AutoPreferredReplicaLeaderElection});
      break;
    case ActionKind::DeliverRequest: brokers_[static_cast<std::size_t>(a.broker)].handleNextRequest(a.broker); break;
    case ActionKind::DeliverStopReplicaResponse:
      if (a.error) spend(&Bounds::stop_replica_errors);
      deliverStopReplicaResponse(a.broker, a.error);
      break;
    case ActionKind::DeliverLeaderAndIsrResponse: deliverLeaderAndIsrResponse(a.broker); break;
  }
  routeWatchEvents();
}

// ------------------------------------------------------------------ observation

Observation ImplCluster::observe() const {
  Observation out;
  observeInto(out);
  return out;
}

void ImplCluster::observeInto(Observation& out) const {
  ZooKeeperData& zk = out.zk;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (const zk::Znode* node = zk_.find(zk::paths::brokerId(b))) {
      zk.brokers[static_cast<std::size_t>(b)] = BrokerRegistration{true, node->stat.czxid};
    }
  }
  for (TopicIndex t = 0; t < config_->topicCount(); ++t) {
    const std::string& name = config_->topics[static_cast<std::size_t>(t)].name;
    TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
    if (const zk::Znode* node = zk_.find(zk::paths::topic(name))) {
      topic.exists = true;
      topic.topic_id = topicIdNumber(zk::payload::decodeTopicId(node->data));
      for (const auto& [p, assignment] : zk::payload::topicAssignmentOf(node->data)) {
        KCSPEC_ASSERT(p >= 0 && p < kMaxPartitionsPerTopic);
        topic.partitions[static_cast<std::size_t>(p)] = assignment;
      }
    }
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      const std::string state_path = zk::paths::topicPartitionState(name, p);
      if (zk_.lostResponses().contains(state_path)) zk.lost_write_responses.insert({t, p});
      if (zk_.sessionExpiringWrites().contains(state_path)) zk.session_expiring_writes.insert({t, p});
      if (const zk::Znode* state = zk_.find(state_path)) {
        if (auto decoded = zk::payload::decodePartitionState(state->data, state->stat.version)) {
          topic.states[static_cast<std::size_t>(p)] = PartitionStateZnode{decoded->leader_and_isr, decoded->controller_epoch};
        }
      }
    }
    if (const zk::Znode* config = zk_.find(zk::paths::topicConfig(name))) {
      topic.unclean_leader_election_enable = zk::payload::decodeUncleanLeaderElectionEnable(config->data);
    }
    if (zk_.exists(zk::paths::deleteTopic(name))) zk.delete_topics.insert(t);
  }
  if (const zk::Znode* node = zk_.find(zk::paths::kController)) zk.controller = zk::payload::decodeController(node->data).value_or(kNoLeader);
  if (const zk::Znode* node = zk_.find(zk::paths::kControllerEpoch)) {
    zk.controller_epoch = zk::payload::decodeControllerEpoch(node->data);
    zk.controller_epoch_zk_version = node->stat.version;
  }
  if (const zk::Znode* node = zk_.find(zk::paths::kReassignPartitions)) {
    ReassignPartitionsZnode& reassign = zk.reassign_partitions;
    reassign.exists = true;
    const std::optional<zk::PartitionReassignment> entries = zk::decodePartitionReassignment(*config_, node->data);
    if (entries) {
      for (const auto& [tp, target] : *entries) {
        reassign.partitions.insert(tp);
        reassign.targets[static_cast<std::size_t>(partitionIndex(tp))] = target;
      }
    } else {
      reassign.invalid_json = true;
    }
  }
  if (const zk::Znode* node = zk_.find(zk::paths::kPreferredReplicaElection)) {
    zk.preferred_replica_election =
        PreferredReplicaElectionZnode{true, zk::decodePreferredReplicaElection(*config_, node->data)};
  }
  // /log_dir_event_notification's children, by the broker each names.
  for (const std::string& child : zk_.getChildren(zk::paths::kLogDirEventNotification).second) {
    const zk::Znode* node = zk_.find(fmt::format("{}/{}", zk::paths::kLogDirEventNotification, child));
    if (node == nullptr) continue;
    const std::optional<BrokerId> named = zk::payload::decodeLogDirEventNotification(node->data);
    if (named && isBrokerId(*named)) zk.log_dir_event_notifications.insert(*named);
  }
  // /isr_change_notification's children, by the partitions they name.
  for (const std::string& child : zk_.getChildren(zk::paths::kIsrChangeNotification).second) {
    const zk::Znode* node = zk_.find(fmt::format("{}/{}", zk::paths::kIsrChangeNotification, child));
    if (node != nullptr) zk.isr_change_notifications = zk.isr_change_notifications | zk::decodePreferredReplicaElection(*config_, node->data);
  }
  if (const zk::Znode* node = zk_.find(zk::paths::kFeature)) {
    const std::optional<FeatureZnode> feature = zk::payload::decodeFeature(node->data);
    KCSPEC_ASSERT(feature.has_value());
    zk.feature = *feature;
  }
  zk.lost_feature_write_response = zk_.lostResponses().contains(zk::paths::kFeature);
  zk.last_zxid = zk_.lastZxid();
  config_->brokers.forEach([&](BrokerId b) {
    // Only a controller on a protocol before AlterPartition registers PartitionReassignmentIsrChangeHandlers.
    const bool isr_watches = interBrokerProtocolVersion(b) < MetadataVersion::IBP_2_7_IV2;
    BrokerData& observed = out.brokers[static_cast<std::size_t>(b)];
    broker(b).toObservation(observed);
    // The module's PartitionReassignmentIsrChangeHandlers: the store keeps its watches.
    for (TopicIndex t = 0; isr_watches && t < config_->topicCount(); ++t) {
      for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
        if (zk_.view().isWatching(b, zk::WatchKind::Data, statePath(TopicPartition{t, p}))) {
          observed.controller.context.reassignment_isr_watches.insert(TopicPartition{t, p});
        }
      }
    }
  });
}

}  // namespace kcspec::impl
