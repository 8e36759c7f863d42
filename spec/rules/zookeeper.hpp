// The controller's ZooKeeper operations (kafka.md §6): reads, and writes fenced by the version of
// /controller_epoch (§6.3.1) — a write from a controller whose epochZkVersion is stale throws
// ControllerMovedException and changes nothing. Partition-state writes are conditional on the
// znode's data version (§6.3.3).
#pragma once

#include <optional>

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

enum class ZkCode : std::uint8_t { OK, NONODE, NODEEXISTS, BADVERSION, SESSIONEXPIRED };

// How often a controller writes one state znode within one event: once, and again when the first
// write's resend answered BADVERSION (§6.3.8) — nothing else writes the znode meanwhile.
inline constexpr int kMaxStateWriteAttempts = 2;

// Throws ControllerMovedException unless /controller_epoch still has the controller's version.
void checkControllerEpoch(Controller& ctl);

// `zk-session-expiry` (docs/world.md convention 15): the controller's session expires just before
// its next ZooKeeper call that writes the state znode of a partition in `session_expiring_writes`
// — KafkaZkClient.updateLeaderAndIsr or createTopicPartitionStatesRaw, a pipelined batch: called
// with the partitions the batch writes, before any of them is written, so none is applied. The
// expiry is the whole session's, as `lose-broker-session`'s (the registration and /controller go),
// the client's expiry handler queues Expire with clearAndPut at once, and the rest of the event
// meets SESSIONEXPIRED (Controller::zk). Throws SessionExpiredException when it expires (or had
// expired). A controller whose session was already lost (or whose broker is not registered) meets
// no new expiry: the arming waits for another writer.
void maybeExpireSession(Controller& ctl, PartitionSet written);

std::optional<PartitionStateZnode> readPartitionState(const ZooKeeperData& zk, TopicPartition tp);

// getTopicPartitionStatesRaw for one partition, as the controller's client reads it: OK with the
// znode, NONODE, or SESSIONEXPIRED once its session expired (a response, not an exception: the
// elections and ISR removals fail that partition with it).
struct PartitionStateRead {
  ZkCode code = ZkCode::OK;
  std::optional<PartitionStateZnode> znode;
};
PartitionStateRead getTopicPartitionStateRaw(Controller& ctl, TopicPartition tp);

// Whether /brokers/topics/<t>/partitions/<p> exists (a child of getChildren(/brokers/topics/<t>/partitions)).
// It is created with the partition's state znode (createTopicPartitionStatesRaw, when its first
// leader is initialized, §2.5) and deleted only with the topic, so it exists exactly when the
// state znode does.
bool partitionZnodeExists(const ZooKeeperData& zk, TopicPartition tp);

// The writes of a state znode below are answered OK when ZooKeeper applies them, except when the
// partition is in `lost_write_responses` (`zk-connection-loss`, kafka.md §6.3.8): then the response
// is lost, KafkaZkClient sends the write again, and the answer is the resend's — NODEEXISTS for a
// create, BADVERSION for a setData — while the first send's change stays.

// Creates /brokers/topics/<t>/partitions/<p>/state (version 0) with the controller's epoch. Both
// writers call maybeExpireSession for their partition first (a batch's writer has called it for
// the whole batch already).
ZkCode createPartitionState(Controller& ctl, TopicPartition tp, const LeaderAndIsr& leader_and_isr);

// setData(state znode, expectedVersion = leader_and_isr.partition_epoch); on OK returns the new
// version through `new_version`.
ZkCode updatePartitionState(Controller& ctl, TopicPartition tp, const LeaderAndIsr& leader_and_isr,
                            std::int32_t& new_version);

// setTopicAssignment: rewrites /brokers/topics/<t> with `partitions` (each under its partition id)
// and the topic id the context holds (`controllerContext.topicIds.get(topic)`: none if it holds none).
void setTopicAssignment(Controller& ctl, TopicIndex topic, const PartitionAssignments& partitions);

// setTopicIds for one topic znode that has no topic id: writes a new one (Uuid.randomUuid():
// freshTopicId), fenced; returns it.
TopicId setTopicId(Controller& ctl, TopicIndex topic);

// The topic's unclean.leader.election.enable, read from /config/topics/<t> (default false).
bool topicUncleanLeaderElectionEnable(const ZooKeeperData& zk, TopicIndex topic);

// DeletionClient.deleteTopic: /brokers/topics/<t> (recursively), /config/topics/<t>,
// /admin/delete_topics/<t>.
void deleteTopic(Controller& ctl, TopicIndex topic);

// DeletionClient.deleteTopicDeletions: /admin/delete_topics/<t> for each topic.
void deleteTopicDeletions(Controller& ctl, TopicSet topics);

// getPartitionReassignment: the partitions /admin/reassign_partitions lists — none when it is absent
// or its data does not parse ("Ignoring partition reassignment due to invalid json").
PartitionSet partitionReassignmentEntries(const ZooKeeperData& zk);

// deletePartitionReassignment (fenced). Only the controller's handler of its creation watches it.
void deletePartitionReassignment(Controller& ctl);

// setOrCreatePartitionReassignment (fenced): the znode lists `partitions` with their current targets.
void setPartitionReassignment(Controller& ctl, PartitionSet partitions);

// deletePreferredReplicaElection (fenced; a missing znode is not an error).
void deletePreferredReplicaElection(Controller& ctl);

// deleteLogDirEventNotifications (fenced): /log_dir_event_notification's children naming `brokers`.
// Deleting any fires the child watch that reading them re-armed (LogDirEventNotification).
void deleteLogDirEventNotifications(Controller& ctl, BrokerSet brokers);

// deleteIsrChangeNotifications (fenced): /isr_change_notification's children naming `partitions`.
// Deleting any fires the child watch (IsrChangeNotification), as for log-directory events.
void deleteIsrChangeNotifications(Controller& ctl, PartitionSet partitions);

// t-p's state znode's data changed: PartitionReassignmentIsrChange(t-p), if the active controller
// watches it (`reassignment_isr_watches`, inter.broker.protocol.version < 2.7-IV2).
void fireStateDataWatch(Observation& world, TopicPartition tp);

// A watch fired: `event` goes to the active controller's queue — the one whose handlers are
// registered — unless an identical event is already pending (ZooKeeper watches are one-shot
// and re-armed when the handler reads, so changes before that coalesce into one notification).
void fireWatch(Observation& world, const ControllerEvent& event);

// /brokers/topics/<t>'s data changed: PartitionModifications(t), if the active controller holds a
// data watch on that znode — registered at failover and by TopicChange for the topics it knows
// (`all_topics`), muted when the topic's deletion completes.
void fireTopicDataWatch(Observation& world, TopicIndex topic);

}  // namespace kcspec::spec
