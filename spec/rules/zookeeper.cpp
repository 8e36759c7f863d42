#include "spec/rules/zookeeper.hpp"

#include "spec/rules/brokers.hpp"
#include "spec/vocabulary/topic_ids.hpp"

namespace kcspec::spec {
namespace {

TopicZnodes& topicZnodes(ZooKeeperData& zk, TopicIndex topic) {
  return zk.topics[static_cast<std::size_t>(topic)];
}

std::optional<PartitionStateZnode>& stateZnode(ZooKeeperData& zk, TopicPartition tp) {
  return topicZnodes(zk, tp.topic).states[static_cast<std::size_t>(tp.partition)];
}

void fireTopicChildren(Observation& world) { fireWatch(world, ControllerEvent{.kind = ControllerEventKind::TopicChange}); }

}  // namespace

void checkControllerEpoch(Controller& ctl) {
  if (ctl.zk().controller_epoch_zk_version != ctl.context().epoch_zk_version) {
    ctl.observer.staleControllerWriteRejected(ctl.id, ctl.epoch());
    throw ControllerMovedException{};
  }
  ctl.observer.controllerWriteAccepted(ctl.id, ctl.epoch());
}

void maybeExpireSession(Controller& ctl, PartitionSet written) {
  ZooKeeperData& zk = ctl.zk();  // throws once the session has expired
  const PartitionSet met = written & zk.session_expiring_writes;
  if (met.empty()) return;
  ControllerData& module = ctl.module();
  if (module.session_lost || !zk.brokers[static_cast<std::size_t>(ctl.id)].registered) return;
  zk.session_expiring_writes = zk.session_expiring_writes - met;
  loseBrokerSession(ctl.world, ctl.id);  // the ephemerals go; the module is session-lost
  // ZooKeeperClient's expiry handler (beforeInitializingSession): clearAndPut(Expire), while the
  // event thread goes on with the event.
  module.events.clear();
  module.events.push_back(ControllerEvent{.kind = ControllerEventKind::Expire});
  ctl.session_expired = true;
  throw SessionExpiredException{};
}

std::optional<PartitionStateZnode> readPartitionState(const ZooKeeperData& zk, TopicPartition tp) {
  const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(tp.topic)];
  if (!topic.exists) return std::nullopt;
  return topic.states[static_cast<std::size_t>(tp.partition)];
}

PartitionStateRead getTopicPartitionStateRaw(Controller& ctl, TopicPartition tp) {
  if (ctl.session_expired) return PartitionStateRead{ZkCode::SESSIONEXPIRED, std::nullopt};
  std::optional<PartitionStateZnode> znode = readPartitionState(ctl.zk(), tp);
  return PartitionStateRead{znode ? ZkCode::OK : ZkCode::NONODE, znode};
}

bool partitionZnodeExists(const ZooKeeperData& zk, TopicPartition tp) { return readPartitionState(zk, tp).has_value(); }

// A write that ZooKeeper applied, answered: when its response was lost (§6.3.8), retryRequestsUntilConnected
// sent it again and the controller sees the resend's answer, `resend_answer`, instead of OK.
ZkCode appliedWriteAnswer(ZooKeeperData& zk, TopicPartition tp, ZkCode resend_answer) {
  if (!zk.lost_write_responses.contains(tp)) return ZkCode::OK;
  zk.lost_write_responses.erase(tp);
  return resend_answer;
}

ZkCode createPartitionState(Controller& ctl, TopicPartition tp, const LeaderAndIsr& leader_and_isr) {
  maybeExpireSession(ctl, PartitionSet{tp});
  checkControllerEpoch(ctl);
  auto& znode = stateZnode(ctl.zk(), tp);
  if (znode) return ZkCode::NODEEXISTS;
  znode = PartitionStateZnode{leader_and_isr.withPartitionEpoch(0), ctl.epoch()};
  return appliedWriteAnswer(ctl.zk(), tp, ZkCode::NODEEXISTS);
}

ZkCode updatePartitionState(Controller& ctl, TopicPartition tp, const LeaderAndIsr& leader_and_isr,
                            std::int32_t& new_version) {
  maybeExpireSession(ctl, PartitionSet{tp});
  checkControllerEpoch(ctl);
  auto& znode = stateZnode(ctl.zk(), tp);
  if (!znode) return ZkCode::NONODE;
  if (znode->leader_and_isr.partition_epoch != leader_and_isr.partition_epoch) return ZkCode::BADVERSION;
  new_version = leader_and_isr.partition_epoch + 1;
  znode = PartitionStateZnode{leader_and_isr.withPartitionEpoch(new_version), ctl.epoch()};
  fireStateDataWatch(ctl.world, tp);
  return appliedWriteAnswer(ctl.zk(), tp, ZkCode::BADVERSION);
}

void setTopicAssignment(Controller& ctl, TopicIndex topic, const PartitionAssignments& partitions) {
  checkControllerEpoch(ctl);
  TopicZnodes& znodes = topicZnodes(ctl.zk(), topic);
  KCSPEC_ASSERT(znodes.exists);
  znodes.partitions = partitions;
  znodes.topic_id = ctl.context().topic_ids[static_cast<std::size_t>(topic)];
  fireTopicDataWatch(ctl.world, topic);
}

TopicId setTopicId(Controller& ctl, TopicIndex topic) {
  checkControllerEpoch(ctl);
  TopicZnodes& znodes = topicZnodes(ctl.zk(), topic);
  KCSPEC_ASSERT(znodes.exists && znodes.topic_id == kNoTopicId);
  znodes.topic_id = freshTopicId(ctl.world, topic);  // setData with "match any version"
  fireTopicDataWatch(ctl.world, topic);
  return znodes.topic_id;
}

bool topicUncleanLeaderElectionEnable(const ZooKeeperData& zk, TopicIndex topic) {
  return zk.topics[static_cast<std::size_t>(topic)].unclean_leader_election_enable;
}

void deleteTopic(Controller& ctl, TopicIndex topic) {
  // deleteRecursive starts with getChildren: on a topic znode that does not exist (NONODE) it
  // deletes nothing, so no fenced write is made and no watch fires.
  if (topicZnodes(ctl.zk(), topic).exists) {
    checkControllerEpoch(ctl);
    // A lost response to the delete of a state znode: its resend answers NONODE, which
    // deleteRecursive ignores (§6.3.8). A partition without a state znode sees no write here,
    // and its loss stays armed.
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      if (topicZnodes(ctl.zk(), topic).states[static_cast<std::size_t>(p)]) {
        ctl.zk().lost_write_responses.erase(TopicPartition{topic, p});
      }
    }
    topicZnodes(ctl.zk(), topic) = TopicZnodes{};  // recursive: partitions and their state znodes too
    fireTopicChildren(ctl.world);
  }
  deleteTopicDeletions(ctl, TopicSet{topic});
}

void deleteTopicDeletions(Controller& ctl, TopicSet topics) {
  if (topics.empty()) return;
  checkControllerEpoch(ctl);
  const bool any_deleted = !(ctl.zk().delete_topics & topics).empty();
  ctl.zk().delete_topics = ctl.zk().delete_topics - topics;
  if (any_deleted) fireWatch(ctl.world, ControllerEvent{.kind = ControllerEventKind::TopicDeletion});
}

void deleteLogDirEventNotifications(Controller& ctl, BrokerSet brokers) {
  if (brokers.empty()) return;  // no delete request, so nothing is fenced
  checkControllerEpoch(ctl);
  const bool any_deleted = !(ctl.zk().log_dir_event_notifications & brokers).empty();
  ctl.zk().log_dir_event_notifications = ctl.zk().log_dir_event_notifications - brokers;
  if (any_deleted) fireWatch(ctl.world, ControllerEvent{.kind = ControllerEventKind::LogDirEventNotification});
}

void deleteIsrChangeNotifications(Controller& ctl, PartitionSet partitions) {
  if (partitions.empty()) return;  // no delete request, so nothing is fenced
  checkControllerEpoch(ctl);
  const bool any_deleted = !(ctl.zk().isr_change_notifications & partitions).empty();
  ctl.zk().isr_change_notifications = ctl.zk().isr_change_notifications - partitions;
  if (any_deleted) fireWatch(ctl.world, ControllerEvent{.kind = ControllerEventKind::IsrChangeNotification});
}

PartitionSet partitionReassignmentEntries(const ZooKeeperData& zk) {
  const ReassignPartitionsZnode& znode = zk.reassign_partitions;
  if (!znode.exists || znode.invalid_json) return PartitionSet{};
  return znode.partitions;
}

void deletePartitionReassignment(Controller& ctl) {
  checkControllerEpoch(ctl);
  ctl.zk().reassign_partitions = ReassignPartitionsZnode{};
}

void setPartitionReassignment(Controller& ctl, PartitionSet partitions) {
  checkControllerEpoch(ctl);
  ReassignPartitionsZnode& znode = ctl.zk().reassign_partitions;
  ReassignPartitionsZnode written{.exists = true, .partitions = partitions};
  partitions.forEach([&](TopicPartition tp) {
    const auto i = static_cast<std::size_t>(partitionIndex(tp));
    written.targets[i] = znode.targets[i];
  });
  znode = written;
}

void deletePreferredReplicaElection(Controller& ctl) {
  checkControllerEpoch(ctl);
  ctl.zk().preferred_replica_election = PreferredReplicaElectionZnode{};
}

void fireTopicDataWatch(Observation& world, TopicIndex topic) {
  for (const BrokerData& broker : world.brokers) {
    const ControllerData& controller = broker.controller;
    if (!broker.alive || !controller.active || controller.session_lost) continue;
    if (controller.context.all_topics.contains(topic)) {
      fireWatch(world, ControllerEvent{.kind = ControllerEventKind::PartitionModifications, .topic = topic});
    }
    return;
  }
}

void fireStateDataWatch(Observation& world, TopicPartition tp) {
  const BrokerId active = activeControllerOf(world);
  if (active == kNoLeader) return;
  if (!world.brokers[static_cast<std::size_t>(active)].controller.context.reassignment_isr_watches.contains(tp)) return;
  fireWatch(world, ControllerEvent{.kind = ControllerEventKind::PartitionReassignmentIsrChange, .tp = tp});
}

void fireWatch(Observation& world, const ControllerEvent& event) {
  for (BrokerData& broker : world.brokers) {
    ControllerData& controller = broker.controller;
    if (!broker.alive || !controller.active || controller.session_lost) continue;
    if (controller.events.contains(event)) return;
    controller.events.push_back(event);
    return;
  }
}

}  // namespace kcspec::spec
