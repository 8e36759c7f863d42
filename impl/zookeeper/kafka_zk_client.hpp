// KafkaZkClient: the typed layer over the store, with the paths and payloads of kafka.md §6.1 and
// the fencing of §6.3 (every controller write given an expected /controller_epoch version ≥ 0
// is a multi [check(/controller_epoch, v), op]; a failed check is ControllerMovedException).
// A view: it holds a StoreView (either backend, store.hpp) and a reference to the configuration
// (topic names) only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "impl/errors.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "impl/zookeeper/store.hpp"
#include "impl/zookeeper/zk_store.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/sets.hpp"

namespace kcspec::impl::zk {

// Sessions: each broker has one for its registration and one for /controller, so that losing
// the controller's session (docs/world.md §9) keeps the registration.
constexpr SessionId registrationSession(BrokerId b) { return 2 * b; }
constexpr SessionId controllerSession(BrokerId b) { return 2 * b + 1; }

using BrokerEpochs = std::array<std::int64_t, kMaxBrokers>;  // −1: not registered

struct PartitionStateRead {
  Code code = Code::OK;
  std::optional<LeaderIsrAndControllerEpoch> state;  // absent: NONODE or no data
};

// /admin/reassign_partitions' entries: partition → target replicas (Kafka's Map[TopicPartition, Seq[Int]]).
using PartitionReassignment = std::map<TopicPartition, BrokerList>;

// The entries of ReassignPartitionsZNode `data`, by partition; nullopt when the data is not that
// JSON. Entries naming a topic outside the configuration (or a partition id kcspec cannot hold)
// are left out: no writer in kcspec's world produces them.
std::optional<PartitionReassignment> decodePartitionReassignment(const Config& config, std::string_view data);
// The partitions PreferredReplicaElectionZNode `data` names (none when it does not parse).
PartitionSet decodePreferredReplicaElection(const Config& config, std::string_view data);

struct UpdateLeaderAndIsrResult {
  std::map<TopicPartition, std::variant<Failure, LeaderAndIsr>> finished;
  std::vector<TopicPartition> retry;  // BADVERSION
};

class KafkaZkClient {
 public:
  KafkaZkClient(ZkStore& store, const Config& config) : store_(&store, nullptr), config_(config) {}
  // Either backend: the cluster's in-memory store or the real ZooKeeper it points to.
  KafkaZkClient(Store& store, const Config& config) : store_(store.view()), config_(config) {}

  // A controller's client: what decides, before each call that writes state znodes
  // (updateLeaderAndIsr, createTopicPartitionStatesRaw), whether its session expires just before
  // that call (`zk-session-expiry`, docs/world.md convention 15) — the cluster's, which also
  // expires the broker's session and queues Expire. From then on every request of this client
  // answers SESSIONEXPIRED (StoreView::expireSession).
  void onSessionExpiryBeforeWrites(std::function<bool(const std::vector<std::string>& state_paths)> expire) {
    expire_session_before_ = std::move(expire);
  }

  // The top-level persistent paths (Kafka's createTopLevelPaths).
  void createTopLevelPaths();

  // pathExists (an exists request): whether the znode is there.
  bool pathExists(std::string_view path) const { return store_.exists(path); }

  // --- brokers
  std::int64_t registerBroker(BrokerId id);  // returns the broker epoch (czxid)
  BrokerEpochs getAllBrokerAndEpochsInCluster() const;

  // --- controller
  std::optional<BrokerId> getControllerId() const;
  std::optional<std::pair<std::int32_t, std::int32_t>> getControllerEpoch() const;  // (epoch, version)
  // Facts §5.4 step 2; throws ControllerMovedException when another broker won.
  std::pair<std::int32_t, std::int32_t> registerControllerAndIncrementControllerEpoch(BrokerId id);
  void deleteController(std::int32_t expected_controller_epoch_zk_version);

  // --- topics
  TopicSet getAllTopicsInCluster() const;
  std::optional<TopicAssignment> getFullReplicaAssignmentForTopic(TopicIndex topic) const;
  // The topic id in /brokers/topics/<t> (getReplicaAssignmentAndTopicIdForTopics), nothing without one.
  std::optional<Uuid> getTopicIdForTopic(TopicIndex topic) const;
  // admin, unfenced; with `topic_id` when the admin uses topic ids
  void createTopicAssignment(TopicIndex topic, const TopicAssignment& assignment,
                             const std::optional<Uuid>& topic_id = std::nullopt);
  // admin, unfenced: keeps the znode's topic id (AdminZkClient reads it with getTopicIdsForTopics)
  void setTopicAssignmentByAdmin(TopicIndex topic, const TopicAssignment& assignment);
  // The controller's (fenced), with the context's topic id — none if the context has none.
  Code setTopicAssignment(TopicIndex topic, const std::optional<Uuid>& topic_id, const TopicAssignment& assignment,
                          std::int32_t expected_zk_version);
  // setTopicIds for one topic: its znode rewritten with its assignment and `topic_id` (fenced, the
  // topic znode written with "match any version").
  void setTopicId(TopicIndex topic, const Uuid& topic_id, std::int32_t expected_zk_version);
  std::vector<int> getTopicPartitionChildren(TopicIndex topic) const;  // /brokers/topics/<t>/partitions

  // --- partition states
  std::vector<std::pair<TopicPartition, Code>> createTopicPartitionStatesRaw(
      const std::map<TopicPartition, LeaderIsrAndControllerEpoch>& states, std::int32_t expected_zk_version);
  // getTopicPartitionStatesRaw for one partition: OK, NONODE, or SESSIONEXPIRED (an expired session).
  PartitionStateRead getTopicPartitionState(TopicPartition tp) const;
  // getTopicPartitionStates for one partition: none on NONODE; any other failure is a KeeperException.
  std::optional<LeaderIsrAndControllerEpoch> getTopicPartitionStates(TopicPartition tp) const;
  UpdateLeaderAndIsrResult updateLeaderAndIsr(const std::map<TopicPartition, LeaderAndIsr>& leader_and_isrs,
                                              std::int32_t controller_epoch, std::int32_t expected_zk_version);

  // --- deletion
  TopicSet getTopicDeletions() const;
  void createDeleteTopicPath(TopicIndex topic);  // admin
  void deleteTopicDeletions(TopicSet topics, std::int32_t expected_zk_version);
  void deleteTopicZNode(TopicIndex topic, std::int32_t expected_zk_version);  // recursive
  void deleteTopicConfigs(TopicIndex topic, std::int32_t expected_zk_version);

  // --- legacy admin paths (kafka.md §6.1): /admin/reassign_partitions, /admin/preferred_replica_election
  bool reassignPartitionsInProgress() const;  // the znode exists
  // Its entries; data that is not its JSON reads as none (WARN "Ignoring partition reassignment
  // due to invalid json", a KafkaZkClient logger line, not produced).
  PartitionReassignment getPartitionReassignment() const;
  void createPartitionReassignment(const PartitionReassignment& reassignment);  // admin, unfenced
  void createUnparsablePartitionReassignment();                               // admin: data that is no JSON
  // setData, or create on NONODE; fenced; any other failure is a KeeperException.
  void setOrCreatePartitionReassignment(const PartitionReassignment& reassignment, std::int32_t expected_zk_version);
  void deletePartitionReassignment(std::int32_t expected_zk_version);  // fenced; the result is not checked
  bool preferredReplicaElectionExists() const;
  PartitionSet getPreferredReplicaElection() const;  // none when absent
  void createPreferredReplicaElection(PartitionSet partitions);         // admin, unfenced
  void deletePreferredReplicaElection(std::int32_t expected_zk_version);  // fenced; the result is not checked

  // --- /feature (kafka.md §5.4 failover step 1): unfenced, like Kafka's
  std::optional<std::string> getFeatureZNodeData() const;  // getDataAndVersion's data; none when absent
  void createFeatureZNode(const FeatureZnode& node);        // a failure is a KeeperException
  void updateFeatureZNode(const FeatureZnode& node);        // setData at any version; a failure is a KeeperException

  // --- log directory failures (kafka.md §5.5.6): /log_dir_event_notification/log_dir_event_<seq>
  // ReplicaManager.handleLogDirFailure's notification: a persistent sequential child naming the broker.
  void propagateLogDirEvent(BrokerId brokerId);
  // The children's sequence numbers, ascending (none when the parent is absent).
  std::vector<std::string> getAllLogDirEventNotifications() const;
  // The brokers those children name, in their order; a child gone (NONODE) or unreadable is skipped.
  std::vector<BrokerId> getBrokerIdsFromLogDirEvents(const std::vector<std::string>& sequenceNumbers) const;
  // Fenced deletes of those children (a stale controller: ControllerMovedException); the results
  // are not checked. No sequence number: no request, so nothing is fenced.
  void deleteLogDirEventNotifications(const std::vector<std::string>& sequenceNumbers,
                                      std::int32_t expected_controller_epoch_zk_version);
  // Every child (onControllerFailover step 3).
  void deleteLogDirEventNotifications(std::int32_t expected_controller_epoch_zk_version);

  // --- ISR changes written by leaders (inter.broker.protocol.version < 2.7-IV2, kafka.md §5.6.4)
  // ReplicationUtils.updateLeaderAndIsr, the leader's own write: setData of the state znode with
  // `controllerEpoch` (the epoch of the controller whose leadership the leader holds), expected
  // version = the partition epoch it holds; unfenced, on the broker's own connection (a lost
  // controller response is not its). On BADVERSION Kafka's checker reads the znode: holding this
  // very leadership, it is a success at that version. Returns (succeeded, new version).
  std::pair<bool, std::int32_t> updateLeaderAndIsrByLeader(TopicPartition tp, const LeaderAndIsr& leaderAndIsr,
                                                           std::int32_t controllerEpoch);
  // propagateIsrChanges: one persistent sequential child naming the partitions.
  void propagateIsrChanges(PartitionSet partitions);
  // The children's sequence numbers, ascending (none when the parent is absent).
  std::vector<std::string> getAllIsrChangeNotifications() const;
  // The partitions those children name; a child gone or unreadable names none.
  PartitionSet getPartitionsFromIsrChangeNotifications(const std::vector<std::string>& sequenceNumbers) const;
  // Fenced deletes of those children; the results are not checked.
  void deleteIsrChangeNotifications(const std::vector<std::string>& sequenceNumbers,
                                    std::int32_t expected_controller_epoch_zk_version);
  // Every child (onControllerFailover step 4).
  void deleteIsrChangeNotifications(std::int32_t expected_controller_epoch_zk_version);

  // --- configs
  void setTopicConfig(TopicIndex topic, bool unclean_leader_election_enable);  // admin
  bool getTopicUncleanLeaderElectionEnable(TopicIndex topic) const;           // getLogConfigs

  // --- watches (Kafka's ZNodeChangeHandler / ZNodeChildChangeHandler registrations)
  void registerZNodeChildChangeHandler(BrokerId watcher, std::string_view path) {
    store_.watch(watcher, WatchKind::Children, std::string(path));
  }
  void registerZNodeChangeHandler(BrokerId watcher, std::string_view path) {
    store_.watch(watcher, WatchKind::Data, std::string(path));
  }
  void unregisterZNodeChangeHandler(BrokerId watcher, std::string_view path) {
    store_.unwatch(watcher, WatchKind::Data, std::string(path));
  }
  void unregisterAllHandlers(BrokerId watcher) { store_.unwatchAll(watcher); }

  // --- a stated world (issue 28): each znode as the writers above leave it, with the stat its
  // history gave it (in-memory store only, StoreView::restore). No watch fires. A czxid the
  // world does not show (every node's but a broker registration's: the creation counter's value
  // when it was created, which nobody reads) is restored as 0.
  void restoreBrokerRegistration(BrokerId id, std::int64_t broker_epoch);  // registerBroker's node
  void restoreController(BrokerId id);  // the ephemeral /controller of a successful election
  void restoreControllerEpoch(std::int32_t epoch, std::int32_t zk_version);
  void restoreTopicAssignment(TopicIndex topic, const TopicAssignment& assignment, const std::optional<Uuid>& topic_id);
  // With its parents (createTopicPartitionStatesRaw's); the data version is the partition epoch.
  void restoreTopicPartitionState(TopicPartition tp, const LeaderIsrAndControllerEpoch& state);
  void restoreDeleteTopicPath(TopicIndex topic);
  void restoreTopicConfig(TopicIndex topic, bool unclean_leader_election_enable);
  void restorePartitionReassignment(const PartitionReassignment& reassignment);
  void restoreUnparsablePartitionReassignment();
  void restorePreferredReplicaElection(PartitionSet partitions);
  // One log_dir_event_<seq> child naming `brokerId`, its sequence number the parent's next.
  void restoreLogDirEventNotification(BrokerId brokerId);
  // One isr_change_<seq> child naming `partitions`, its sequence number the parent's next.
  void restoreIsrChangeNotification(PartitionSet partitions);
  void restoreLastZxid(std::int64_t zxid) { store_.restoreLastZxid(zxid); }

  const std::string& topicName(TopicIndex topic) const { return config_.topics[static_cast<std::size_t>(topic)].name; }

 private:
  // Asks the cluster (onSessionExpiryBeforeWrites) before a call writing these partitions' state
  // znodes (a map keyed by partition).
  template <class PartitionMap>
  void maybeExpireSessionBefore(const PartitionMap& writes);
  // One fenced write: [check(/controller_epoch, v), op] when v ≥ 0, else the op alone.
  OpResult fenced(Op op, std::int32_t expected_zk_version);
  // A multi-op sent until it is answered: once, or twice when its response was lost after
  // ZooKeeper applied it (StoreView::takeLostResponse on the last op's path).
  std::vector<OpResult> retryRequestUntilConnected(const std::vector<Op>& ops);
  void deleteRecursive(const std::string& path, std::int32_t expected_zk_version);
  std::string encodePartitionReassignment(const PartitionReassignment& reassignment) const;
  std::string encodePreferredReplicaElection(PartitionSet partitions) const;

  StoreView store_;
  const Config& config_;
  std::function<bool(const std::vector<std::string>&)> expire_session_before_;
};

}  // namespace kcspec::impl::zk
