// KafkaZkClient (kafka_zk_client.hpp).
#include "impl/zookeeper/kafka_zk_client.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl::zk {

void KafkaZkClient::createTopLevelPaths() {
  for (std::string_view path : {paths::kBrokers, paths::kBrokerIds, paths::kTopics, paths::kAdmin, paths::kDeleteTopics,
                                paths::kConfig, paths::kConfigTopics, paths::kLogDirEventNotification,
                                paths::kIsrChangeNotification}) {
    store_.create(std::string(path), "");
  }
  store_.countCreationsUnder(std::string(paths::kBrokerIds));
}

// retryRequestsUntilConnected (kafka.md §6.3.8): when the connection drops after ZooKeeper applied
// the request, the client sends it again and its caller sees the resend's answer.
std::vector<OpResult> KafkaZkClient::retryRequestUntilConnected(const std::vector<Op>& ops) {
  std::vector<OpResult> results = store_.multi(ops);
  const bool applied = std::all_of(results.begin(), results.end(), [](const OpResult& r) { return r.code == Code::OK; });
  if (applied && store_.takeLostResponse(ops.back().path)) results = store_.multi(ops);
  return results;
}

template <class PartitionMap>
void KafkaZkClient::maybeExpireSessionBefore(const PartitionMap& writes) {
  if (writes.empty() || store_.sessionExpired() || !expire_session_before_) return;
  std::vector<std::string> state_paths;
  for (const auto& [tp, _] : writes) state_paths.push_back(paths::topicPartitionState(topicName(tp.topic), tp.partition));
  if (expire_session_before_(state_paths)) store_.expireSession();
}

OpResult KafkaZkClient::fenced(Op op, std::int32_t expected_zk_version) {
  if (expected_zk_version < 0) return retryRequestUntilConnected({std::move(op)}).front();
  const std::vector<OpResult> results =
      retryRequestUntilConnected({Op::check(std::string(paths::kControllerEpoch), expected_zk_version), std::move(op)});
  if (results[0].code == Code::BADVERSION) {
    throw ControllerMovedException(
        fmt::format("Controller epoch zkVersion check fails. Expected zkVersion = {}", expected_zk_version));
  }
  if (results[0].code != Code::OK && results[0].code != Code::RUNTIMEINCONSISTENCY) {
    throw KeeperException(results[0].code, paths::kControllerEpoch);
  }
  return results[1];
}

// ------------------------------------------------------------------ brokers

std::int64_t KafkaZkClient::registerBroker(BrokerId id) {
  const OpResult result = store_.create(paths::brokerId(id), payload::brokerRegistration(id), registrationSession(id));
  KCSPEC_ASSERT(result.code == Code::OK);
  return result.stat.czxid;
}

BrokerEpochs KafkaZkClient::getAllBrokerAndEpochsInCluster() const {
  BrokerEpochs epochs;
  epochs.fill(-1);
  for (const std::string& child : store_.getChildren(paths::kBrokerIds).second) {
    const BrokerId id = std::stoi(child);
    if (!isBrokerId(id)) continue;
    epochs[static_cast<std::size_t>(id)] = store_.find(paths::brokerId(id))->stat.czxid;
  }
  return epochs;
}

// ------------------------------------------------------------------ controller

std::optional<BrokerId> KafkaZkClient::getControllerId() const {
  const Znode* node = store_.find(paths::kController);
  if (node == nullptr) return std::nullopt;
  return payload::decodeController(node->data);
}

std::optional<std::pair<std::int32_t, std::int32_t>> KafkaZkClient::getControllerEpoch() const {
  const Znode* node = store_.find(paths::kControllerEpoch);
  if (node == nullptr) return std::nullopt;
  return std::make_pair(payload::decodeControllerEpoch(node->data), node->stat.version);
}

std::pair<std::int32_t, std::int32_t> KafkaZkClient::registerControllerAndIncrementControllerEpoch(BrokerId id) {
  std::optional<std::pair<std::int32_t, std::int32_t>> current = getControllerEpoch();
  if (!current) {  // maybeCreateControllerEpochZNode
    const OpResult created = store_.create(std::string(paths::kControllerEpoch), payload::controllerEpoch(0));
    current = created.code == Code::OK ? std::make_pair(0, 0) : getControllerEpoch().value();
  }
  const std::int32_t new_epoch = current->first + 1;
  const std::vector<OpResult> results =
      store_.multi({Op::create(std::string(paths::kController), payload::controller(id, 0), controllerSession(id)),
                    Op::setData(std::string(paths::kControllerEpoch), payload::controllerEpoch(new_epoch), current->second)});
  // The multi's result code (Kafka reads MultiResponse.resultCode): the failing op's code; the
  // other ops report RUNTIMEINCONSISTENCY (in-memory) or OK (a real server, for ops before it).
  Code code = Code::OK;
  for (const OpResult& r : results) {
    if (r.code != Code::OK && r.code != Code::RUNTIMEINCONSISTENCY) {
      code = r.code;
      break;
    }
  }
  if (code == Code::OK) return {new_epoch, results[1].stat.version};
  if (code == Code::NODEEXISTS || code == Code::BADVERSION) {  // checkControllerAndEpoch
    const auto epoch = getControllerEpoch();
    if (getControllerId() == id && epoch && epoch->first == new_epoch) return *epoch;
    throw ControllerMovedException("Controller moved to another broker. Aborting controller startup procedure");
  }
  throw KeeperException(code, {});
}

void KafkaZkClient::deleteController(std::int32_t expected_zk_version) {
  fenced(Op::remove(std::string(paths::kController), kMatchAnyVersion), expected_zk_version);
}

// ------------------------------------------------------------------ topics

TopicSet KafkaZkClient::getAllTopicsInCluster() const {
  TopicSet topics;
  for (const std::string& child : store_.getChildren(paths::kTopics).second) {
    const TopicIndex t = config_.topicNamed(child);
    if (t >= 0) topics.insert(t);
  }
  return topics;
}

std::optional<TopicAssignment> KafkaZkClient::getFullReplicaAssignmentForTopic(TopicIndex topic) const {
  const Znode* node = store_.find(paths::topic(topicName(topic)));
  if (node == nullptr) return std::nullopt;
  return payload::decodeTopicAssignment(node->data);
}

std::optional<Uuid> KafkaZkClient::getTopicIdForTopic(TopicIndex topic) const {
  const Znode* node = store_.find(paths::topic(topicName(topic)));
  if (node == nullptr) return std::nullopt;
  return payload::decodeTopicId(node->data);
}

void KafkaZkClient::createTopicAssignment(TopicIndex topic, const TopicAssignment& assignment,
                                          const std::optional<Uuid>& topic_id) {
  const OpResult result = store_.create(paths::topic(topicName(topic)), payload::topicAssignment(assignment, topic_id));
  KCSPEC_ASSERT(result.code == Code::OK);
}

void KafkaZkClient::setTopicAssignmentByAdmin(TopicIndex topic, const TopicAssignment& assignment) {
  const OpResult result = store_.setData(paths::topic(topicName(topic)),
                                         payload::topicAssignment(assignment, getTopicIdForTopic(topic)), kMatchAnyVersion);
  KCSPEC_ASSERT(result.code == Code::OK);
}

Code KafkaZkClient::setTopicAssignment(TopicIndex topic, const std::optional<Uuid>& topic_id, const TopicAssignment& assignment,
                                       std::int32_t expected_zk_version) {
  return fenced(Op::setData(paths::topic(topicName(topic)), payload::topicAssignment(assignment, topic_id), kMatchAnyVersion),
                expected_zk_version)
      .code;
}

void KafkaZkClient::setTopicId(TopicIndex topic, const Uuid& topic_id, std::int32_t expected_zk_version) {
  const std::optional<TopicAssignment> assignment = getFullReplicaAssignmentForTopic(topic);
  KCSPEC_ASSERT(assignment.has_value());
  // retryRequestsUntilConnected's answers are not looked at: only the epoch check can fail here.
  fenced(Op::setData(paths::topic(topicName(topic)), payload::topicAssignment(*assignment, topic_id), kMatchAnyVersion),
         expected_zk_version);
}

std::vector<int> KafkaZkClient::getTopicPartitionChildren(TopicIndex topic) const {
  std::vector<int> partitions;
  for (const std::string& child : store_.getChildren(paths::topicPartitions(topicName(topic))).second) {
    partitions.push_back(std::stoi(child));
  }
  return partitions;
}

// ------------------------------------------------------------------ partition states

std::vector<std::pair<TopicPartition, Code>> KafkaZkClient::createTopicPartitionStatesRaw(
    const std::map<TopicPartition, LeaderIsrAndControllerEpoch>& states, std::int32_t expected_zk_version) {
  maybeExpireSessionBefore(states);
  // createTopicPartitions, then createTopicPartition: parents, errors ignored (NODEEXISTS).
  TopicSet topics;
  for (const auto& [tp, _] : states) topics.insert(tp.topic);
  topics.forEach([&](TopicIndex t) { fenced(Op::create(paths::topicPartitions(topicName(t)), ""), expected_zk_version); });
  for (const auto& [tp, _] : states) {
    fenced(Op::create(paths::topicPartition(topicName(tp.topic), tp.partition), ""), expected_zk_version);
  }
  std::vector<std::pair<TopicPartition, Code>> responses;
  for (const auto& [tp, state] : states) {
    const OpResult result = fenced(
        Op::create(paths::topicPartitionState(topicName(tp.topic), tp.partition), payload::partitionState(state)),
        expected_zk_version);
    responses.emplace_back(tp, result.code);
  }
  return responses;
}

PartitionStateRead KafkaZkClient::getTopicPartitionState(TopicPartition tp) const {
  // A raw response: SESSIONEXPIRED is its code, for the caller to make a failure of.
  if (store_.sessionExpired()) return PartitionStateRead{Code::SESSIONEXPIRED, std::nullopt};
  const Znode* node = store_.find(paths::topicPartitionState(topicName(tp.topic), tp.partition));
  if (node == nullptr) return PartitionStateRead{Code::NONODE, std::nullopt};
  return PartitionStateRead{Code::OK, payload::decodePartitionState(node->data, node->stat.version)};
}

std::optional<LeaderIsrAndControllerEpoch> KafkaZkClient::getTopicPartitionStates(TopicPartition tp) const {
  const PartitionStateRead read = getTopicPartitionState(tp);
  if (read.code != Code::OK && read.code != Code::NONODE) {
    throw KeeperException(read.code, paths::topicPartitionState(topicName(tp.topic), tp.partition));
  }
  return read.state;
}

UpdateLeaderAndIsrResult KafkaZkClient::updateLeaderAndIsr(const std::map<TopicPartition, LeaderAndIsr>& leader_and_isrs,
                                                           std::int32_t controller_epoch,
                                                           std::int32_t expected_zk_version) {
  maybeExpireSessionBefore(leader_and_isrs);
  UpdateLeaderAndIsrResult result;
  for (const auto& [tp, lai] : leader_and_isrs) {
    const std::string path = paths::topicPartitionState(topicName(tp.topic), tp.partition);
    const OpResult write = fenced(
        Op::setData(path, payload::partitionState(LeaderIsrAndControllerEpoch{lai, controller_epoch}), lai.partition_epoch),
        expected_zk_version);
    switch (write.code) {
      case Code::OK: result.finished.emplace(tp, lai.withPartitionEpoch(write.stat.version)); break;
      case Code::BADVERSION: result.retry.push_back(tp); break;
      default: result.finished.emplace(tp, keeperFailure(write.code, path)); break;
    }
  }
  return result;
}

// ------------------------------------------------------------------ deletion

TopicSet KafkaZkClient::getTopicDeletions() const {
  TopicSet topics;
  for (const std::string& child : store_.getChildren(paths::kDeleteTopics).second) {
    const TopicIndex t = config_.topicNamed(child);
    if (t >= 0) topics.insert(t);
  }
  return topics;
}

void KafkaZkClient::createDeleteTopicPath(TopicIndex topic) { store_.create(paths::deleteTopic(topicName(topic)), ""); }

void KafkaZkClient::deleteTopicDeletions(TopicSet topics, std::int32_t expected_zk_version) {
  topics.forEach([&](TopicIndex t) { fenced(Op::remove(paths::deleteTopic(topicName(t)), kMatchAnyVersion), expected_zk_version); });
}

void KafkaZkClient::deleteRecursive(const std::string& path, std::int32_t expected_zk_version) {
  for (const std::string& child : store_.getChildren(path).second) deleteRecursive(path + "/" + child, expected_zk_version);
  fenced(Op::remove(path, kMatchAnyVersion), expected_zk_version);
}

void KafkaZkClient::deleteTopicZNode(TopicIndex topic, std::int32_t expected_zk_version) {
  deleteRecursive(paths::topic(topicName(topic)), expected_zk_version);
}

void KafkaZkClient::deleteTopicConfigs(TopicIndex topic, std::int32_t expected_zk_version) {
  fenced(Op::remove(paths::topicConfig(topicName(topic)), kMatchAnyVersion), expected_zk_version);
}

// ------------------------------------------------------------------ legacy admin paths

namespace {

// The partition a legacy admin znode's entry names, or none for a topic outside the configuration
// or a partition id kcspec cannot hold.
std::optional<TopicPartition> partitionOf(const Config& config, const payload::LegacyPartitionEntry& e) {
  const TopicIndex topic = config.topicNamed(e.topic);
  if (topic < 0 || e.partition < 0 || e.partition >= kMaxPartitionsPerTopic) return std::nullopt;
  return TopicPartition{topic, e.partition};
}

}  // namespace

std::optional<PartitionReassignment> decodePartitionReassignment(const Config& config, std::string_view data) {
  const std::optional<std::vector<payload::LegacyPartitionEntry>> entries = payload::decodeReassignPartitions(data);
  if (!entries) return std::nullopt;
  PartitionReassignment out;
  for (const payload::LegacyPartitionEntry& e : *entries) {
    if (const auto tp = partitionOf(config, e)) out.insert_or_assign(*tp, e.replicas);  // a later duplicate wins (Scala's toMap)
  }
  return out;
}

PartitionSet decodePreferredReplicaElection(const Config& config, std::string_view data) {
  PartitionSet out;
  for (const payload::LegacyPartitionEntry& e : payload::decodePreferredReplicaElection(data)) {
    if (const auto tp = partitionOf(config, e)) out.insert(*tp);
  }
  return out;
}

std::string KafkaZkClient::encodePartitionReassignment(const PartitionReassignment& reassignment) const {
  std::vector<payload::LegacyPartitionEntry> entries;
  for (const auto& [tp, replicas] : reassignment) entries.push_back({topicName(tp.topic), tp.partition, replicas});
  return payload::reassignPartitions(entries);
}

std::string KafkaZkClient::encodePreferredReplicaElection(PartitionSet partitions) const {
  std::vector<payload::LegacyPartitionEntry> entries;
  partitions.forEach([&](TopicPartition tp) { entries.push_back({topicName(tp.topic), tp.partition, {}}); });
  return payload::preferredReplicaElection(entries);
}

bool KafkaZkClient::reassignPartitionsInProgress() const { return store_.exists(paths::kReassignPartitions); }

PartitionReassignment KafkaZkClient::getPartitionReassignment() const {
  const Znode* node = store_.find(paths::kReassignPartitions);
  if (node == nullptr) return {};  // NONODE
  // Left(e): WARN "Ignoring partition reassignment due to invalid json: <message>"
  return decodePartitionReassignment(config_, node->data).value_or(PartitionReassignment{});
}

void KafkaZkClient::createPartitionReassignment(const PartitionReassignment& reassignment) {
  const OpResult result =
      store_.create(std::string(paths::kReassignPartitions), encodePartitionReassignment(reassignment));
  KCSPEC_ASSERT(result.code == Code::OK);  // NODEEXISTS: the admin's createPartitionReassignment fails (not enabled)
}

void KafkaZkClient::createUnparsablePartitionReassignment() {
  const OpResult result =
      store_.create(std::string(paths::kReassignPartitions), std::string(payload::kUnparsableReassignPartitions));
  KCSPEC_ASSERT(result.code == Code::OK);
}

void KafkaZkClient::setOrCreatePartitionReassignment(const PartitionReassignment& reassignment,
                                                     std::int32_t expected_zk_version) {
  const std::string data = encodePartitionReassignment(reassignment);
  const std::string path(paths::kReassignPartitions);
  const OpResult set = fenced(Op::setData(path, data, kMatchAnyVersion), expected_zk_version);
  if (set.code == Code::NONODE) {
    const OpResult created = fenced(Op::create(path, data), expected_zk_version);
    if (created.code != Code::OK) throw KeeperException(created.code, path);
    return;
  }
  if (set.code != Code::OK) throw KeeperException(set.code, path);
}

void KafkaZkClient::deletePartitionReassignment(std::int32_t expected_zk_version) {
  fenced(Op::remove(std::string(paths::kReassignPartitions), kMatchAnyVersion), expected_zk_version);
}

bool KafkaZkClient::preferredReplicaElectionExists() const { return store_.exists(paths::kPreferredReplicaElection); }

PartitionSet KafkaZkClient::getPreferredReplicaElection() const {
  const Znode* node = store_.find(paths::kPreferredReplicaElection);
  if (node == nullptr) return {};  // NONODE
  return decodePreferredReplicaElection(config_, node->data);
}

void KafkaZkClient::createPreferredReplicaElection(PartitionSet partitions) {
  const OpResult result =
      store_.create(std::string(paths::kPreferredReplicaElection), encodePreferredReplicaElection(partitions));
  KCSPEC_ASSERT(result.code == Code::OK);  // NODEEXISTS: the admin tool fails (not enabled)
}

void KafkaZkClient::deletePreferredReplicaElection(std::int32_t expected_zk_version) {
  fenced(Op::remove(std::string(paths::kPreferredReplicaElection), kMatchAnyVersion), expected_zk_version);
}

// ------------------------------------------------------------------ /feature

std::optional<std::string> KafkaZkClient::getFeatureZNodeData() const {
  const Znode* node = store_.find(paths::kFeature);
  if (node == nullptr) return std::nullopt;
  return node->data;
}

// Both through retryRequestUntilConnected: a lost response is resent, and the creation's resend
// answers NODEEXISTS (response.maybeThrow()).
void KafkaZkClient::createFeatureZNode(const FeatureZnode& node) {
  const OpResult result =
      retryRequestUntilConnected({Op::create(std::string(paths::kFeature), payload::feature(node))}).front();
  if (result.code != Code::OK) throw KeeperException(result.code, std::string(paths::kFeature));
}

void KafkaZkClient::updateFeatureZNode(const FeatureZnode& node) {
  const OpResult result =
      retryRequestUntilConnected({Op::setData(std::string(paths::kFeature), payload::feature(node), kMatchAnyVersion)})
          .front();
  if (result.code != Code::OK) throw KeeperException(result.code, std::string(paths::kFeature));
}

// ------------------------------------------------------------------ ISR changes written by leaders

std::pair<bool, std::int32_t> KafkaZkClient::updateLeaderAndIsrByLeader(TopicPartition tp, const LeaderAndIsr& leaderAndIsr,
                                                                        std::int32_t controllerEpoch) {
  const std::string path = paths::topicPartitionState(topicName(tp.topic), tp.partition);
  const LeaderIsrAndControllerEpoch written{leaderAndIsr, controllerEpoch};
  const OpResult result = store_.setData(path, payload::partitionState(written), leaderAndIsr.partition_epoch);
  if (result.code == Code::OK) return {true, result.stat.version};
  if (result.code != Code::BADVERSION) return {false, -1};  // NONODE: "Error while updating …"
  // checkLeaderAndIsrZkData: the znode already holds this leadership (its version aside).
  const PartitionStateRead read = getTopicPartitionState(tp);
  if (read.state && read.state->controller_epoch == controllerEpoch &&
      leaderAndIsr.withPartitionEpoch(read.state->leader_and_isr.partition_epoch) == read.state->leader_and_isr) {
    return {true, read.state->leader_and_isr.partition_epoch};
  }
  return {false, -1};
}

void KafkaZkClient::propagateIsrChanges(PartitionSet partitions) {
  const OpResult result = store_.createSequential(
      fmt::format("{}/{}", paths::kIsrChangeNotification, paths::kIsrChangeSequenceNumberPrefix),
      encodePreferredReplicaElection(partitions));  // the same JSON (IsrChangeNotificationSequenceZNode)
  KCSPEC_ASSERT(result.code == Code::OK);  // the parent is a persistent top-level path
}

std::vector<std::string> KafkaZkClient::getAllIsrChangeNotifications() const {
  const auto [code, children] = store_.getChildren(paths::kIsrChangeNotification);
  std::vector<std::string> out;
  if (code != Code::OK) return out;  // NONODE: Seq.empty
  for (const std::string& child : children) out.push_back(paths::isrChangeSequenceNumber(child));
  return out;
}

PartitionSet KafkaZkClient::getPartitionsFromIsrChangeNotifications(const std::vector<std::string>& sequenceNumbers) const {
  PartitionSet out;
  for (const std::string& sequence_number : sequenceNumbers) {
    const Znode* node = store_.find(paths::isrChangeNotificationSequence(sequence_number));
    if (node == nullptr) continue;  // NONODE: none
    out = out | decodePreferredReplicaElection(config_, node->data);
  }
  return out;
}

void KafkaZkClient::deleteIsrChangeNotifications(const std::vector<std::string>& sequenceNumbers,
                                                 std::int32_t expected_controller_epoch_zk_version) {
  for (const std::string& sequence_number : sequenceNumbers) {
    fenced(Op::remove(paths::isrChangeNotificationSequence(sequence_number), kMatchAnyVersion),
           expected_controller_epoch_zk_version);
  }
}

void KafkaZkClient::deleteIsrChangeNotifications(std::int32_t expected_controller_epoch_zk_version) {
  deleteIsrChangeNotifications(getAllIsrChangeNotifications(), expected_controller_epoch_zk_version);
}

// ------------------------------------------------------------------ log directory failures

void KafkaZkClient::propagateLogDirEvent(BrokerId brokerId) {
  const OpResult result = store_.createSequential(
      fmt::format("{}/{}", paths::kLogDirEventNotification, paths::kLogDirEventSequenceNumberPrefix),
      payload::logDirEventNotification(brokerId));
  KCSPEC_ASSERT(result.code == Code::OK);  // the parent is a persistent top-level path
  // DEBUG "Added <path> for broker <id>"
}

std::vector<std::string> KafkaZkClient::getAllLogDirEventNotifications() const {
  // GetChildrenRequest(registerWatch = true): kcspec's watch stays registered.
  const auto [code, children] = store_.getChildren(paths::kLogDirEventNotification);
  std::vector<std::string> out;
  if (code != Code::OK) return out;  // NONODE: Seq.empty
  for (const std::string& child : children) out.push_back(paths::logDirEventSequenceNumber(child));
  return out;
}

std::vector<BrokerId> KafkaZkClient::getBrokerIdsFromLogDirEvents(const std::vector<std::string>& sequenceNumbers) const {
  std::vector<BrokerId> out;
  for (const std::string& sequence_number : sequenceNumbers) {
    const Znode* node = store_.find(paths::logDirEventNotificationSequence(sequence_number));
    if (node == nullptr) continue;  // NONODE: None
    if (const std::optional<BrokerId> broker = payload::decodeLogDirEventNotification(node->data)) out.push_back(*broker);
  }
  return out;
}

void KafkaZkClient::deleteLogDirEventNotifications(const std::vector<std::string>& sequenceNumbers,
                                                   std::int32_t expected_controller_epoch_zk_version) {
  for (const std::string& sequence_number : sequenceNumbers) {
    fenced(Op::remove(paths::logDirEventNotificationSequence(sequence_number), kMatchAnyVersion),
           expected_controller_epoch_zk_version);
  }
}

void KafkaZkClient::deleteLogDirEventNotifications(std::int32_t expected_controller_epoch_zk_version) {
  const auto [code, children] = store_.getChildren(paths::kLogDirEventNotification);
  if (code == Code::NONODE) return;
  if (code != Code::OK) throw KeeperException(code, std::string(paths::kLogDirEventNotification));
  std::vector<std::string> sequence_numbers;
  for (const std::string& child : children) sequence_numbers.push_back(paths::logDirEventSequenceNumber(child));
  deleteLogDirEventNotifications(sequence_numbers, expected_controller_epoch_zk_version);
}

// ------------------------------------------------------------------ configs

void KafkaZkClient::setTopicConfig(TopicIndex topic, bool unclean_leader_election_enable) {
  const std::string path = paths::topicConfig(topicName(topic));
  const std::string data = payload::topicConfig(unclean_leader_election_enable);
  if (store_.exists(path)) {
    store_.setData(path, data, kMatchAnyVersion);
  } else {
    store_.create(path, data);
  }
}

bool KafkaZkClient::getTopicUncleanLeaderElectionEnable(TopicIndex topic) const {
  const Znode* node = store_.find(paths::topicConfig(topicName(topic)));
  return node != nullptr && payload::decodeUncleanLeaderElectionEnable(node->data);
}

// ------------------------------------------------------------------ a stated world

void KafkaZkClient::restoreBrokerRegistration(BrokerId id, std::int64_t broker_epoch) {
  // The broker epoch is the registration's czxid (countCreationsUnder(/brokers/ids)).
  store_.restore(paths::brokerId(id), payload::brokerRegistration(id), Stat{0, broker_epoch, registrationSession(id)});
}

void KafkaZkClient::restoreController(BrokerId id) {
  store_.restore(std::string(paths::kController), payload::controller(id, 0), Stat{0, 0, controllerSession(id)});
}

void KafkaZkClient::restoreControllerEpoch(std::int32_t epoch, std::int32_t zk_version) {
  store_.restore(std::string(paths::kControllerEpoch), payload::controllerEpoch(epoch), Stat{zk_version, 0, kNoSession});
}

void KafkaZkClient::restoreTopicAssignment(TopicIndex topic, const TopicAssignment& assignment,
                                           const std::optional<Uuid>& topic_id) {
  // Its data version counts the rewrites (partitions added, reassignments), which nobody reads:
  // every write of a topic znode matches any version.
  store_.restore(paths::topic(topicName(topic)), payload::topicAssignment(assignment, topic_id), Stat{});
}

void KafkaZkClient::restoreTopicPartitionState(TopicPartition tp, const LeaderIsrAndControllerEpoch& state) {
  const std::string& name = topicName(tp.topic);
  if (!store_.exists(paths::topicPartitions(name))) store_.restore(paths::topicPartitions(name), "", Stat{});
  store_.restore(paths::topicPartition(name, tp.partition), "", Stat{});
  store_.restore(paths::topicPartitionState(name, tp.partition), payload::partitionState(state),
                 Stat{state.leader_and_isr.partition_epoch, 0, kNoSession});
}

void KafkaZkClient::restoreDeleteTopicPath(TopicIndex topic) { store_.restore(paths::deleteTopic(topicName(topic)), "", Stat{}); }

void KafkaZkClient::restoreTopicConfig(TopicIndex topic, bool unclean_leader_election_enable) {
  store_.restore(paths::topicConfig(topicName(topic)), payload::topicConfig(unclean_leader_election_enable), Stat{});
}

// The legacy admin znodes: every write of them matches any version, so their data version is not
// restored.
void KafkaZkClient::restorePartitionReassignment(const PartitionReassignment& reassignment) {
  store_.restore(std::string(paths::kReassignPartitions), encodePartitionReassignment(reassignment), Stat{});
}

void KafkaZkClient::restoreUnparsablePartitionReassignment() {
  store_.restore(std::string(paths::kReassignPartitions), std::string(payload::kUnparsableReassignPartitions), Stat{});
}

void KafkaZkClient::restorePreferredReplicaElection(PartitionSet partitions) {
  store_.restore(std::string(paths::kPreferredReplicaElection), encodePreferredReplicaElection(partitions), Stat{});
}

void KafkaZkClient::restoreIsrChangeNotification(PartitionSet partitions) {
  const Znode* parent = store_.find(paths::kIsrChangeNotification);
  KCSPEC_ASSERT(parent != nullptr);
  const std::string sequence_number = fmt::format("{:010d}", parent->stat.cversion);
  store_.restore(paths::isrChangeNotificationSequence(sequence_number), encodePreferredReplicaElection(partitions), Stat{});
}

void KafkaZkClient::restoreLogDirEventNotification(BrokerId brokerId) {
  const Znode* parent = store_.find(paths::kLogDirEventNotification);
  KCSPEC_ASSERT(parent != nullptr);
  const std::string sequence_number = fmt::format("{:010d}", parent->stat.cversion);
  store_.restore(paths::logDirEventNotificationSequence(sequence_number), payload::logDirEventNotification(brokerId), Stat{});
}

}  // namespace kcspec::impl::zk
