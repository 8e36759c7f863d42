#include "spec/rules/controller_failover.hpp"

#include "spec/rules/admin_elections.hpp"
#include "spec/rules/broker_membership.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/rules/topic_deletion_manager.hpp"
#include "spec/rules/topic_events.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

// §5.4 failover step 5: the context, rebuilt from ZooKeeper.
void initializeControllerContext(Controller& ctl) {
  Context& ctx = ctl.context();
  const ZooKeeperData& zk = ctl.zk();
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const BrokerRegistration& registration = zk.brokers[static_cast<std::size_t>(b)];
    ctx.live_broker_epochs[static_cast<std::size_t>(b)] = registration.registered ? registration.broker_epoch : -1;
  }
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
    if (!topic.exists) continue;
    ctx.all_topics.insert(t);
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      if (!topic.lists(p)) continue;  // the partitions are those the topic znode lists, gaps and all
      const TopicPartition tp{t, p};
      const ReplicaAssignment& assignment = *topic.partitions[static_cast<std::size_t>(p)];
      partition(ctx, tp).assignment = assignment;
      if (assignment.isBeingReassigned()) ctx.partitions_being_reassigned.insert(tp);
      const auto& state = topic.states[static_cast<std::size_t>(p)];
      if (state) partition(ctx, tp).leadership = LeaderIsrAndControllerEpoch{state->leader_and_isr, state->controller_epoch};
    }
  }
  processTopicIds(ctl, ctx.all_topics);
}

// §5.4 failover step 6: topics with an offline replica or a reassignment cannot be deleted yet.
TopicSet topicsIneligibleAtFailover(Controller& ctl) {
  const Context& ctx = ctl.context();
  TopicSet ineligible;
  allPartitions(ctx).forEach([&](TopicPartition tp) {
    for (BrokerId r : partitionReplicaAssignment(ctx, tp)) {
      if (!isReplicaOnline(ctx, r, tp)) ineligible.insert(tp.topic);
    }
  });
  ctx.partitions_being_reassigned.forEach([&](TopicPartition tp) { ineligible.insert(tp.topic); });
  return ineligible;
}

// §5.4 step 12 initializePartitionReassignments: what /admin/reassign_partitions asks for first
// (it supplants a reassignment through the API), then every other partition still being reassigned.
void initializePartitionReassignments(Controller& ctl) {
  const PartitionSet zk_started = processZkPartitionReassignment(ctl);
  ctl.context().partitions_being_reassigned.forEach([&](TopicPartition tp) {
    if (!zk_started.contains(tp)) onPartitionReassignment(ctl, tp, *partition(ctl.context(), tp).assignment);
  });
}

// §5.4 failover step 1, maybeSetupFeatureVersioning: from 2.7-IV0 /feature is made Enabled,
// before it Disabled, in the format of this controller's version (FeatureZNode V2 from 3.3-IV0);
// created when absent, rewritten when it differs (an unfenced write). The finalized features
// are not modeled (world.md 14): a fresh cluster's defaults, or none after a Disabled status.
// A write whose response the connection lost (`zk-connection-loss-feature`) is resent: the
// creation's resend answers NODEEXISTS, which createFeatureZNode throws (the failover fails); a
// setData at any version succeeds again.
void maybeSetupFeatureVersioning(Controller& ctl) {
  const MetadataVersion version = ctl.interBrokerProtocolVersion();
  const FeatureZnode wanted{
      .status = version >= MetadataVersion::IBP_2_7_IV0 ? FeatureZnodeStatus::Enabled : FeatureZnodeStatus::Disabled,
      .format_version = static_cast<std::uint8_t>(version >= MetadataVersion::IBP_3_3_IV0 ? 2 : 1)};
  ZooKeeperData& zk = ctl.zk();
  if (zk.feature == wanted) return;
  const bool create = zk.feature.status == FeatureZnodeStatus::Absent;
  zk.feature = wanted;  // createFeatureZNode or updateFeatureZNode, applied
  if (!zk.lost_feature_write_response) return;
  zk.lost_feature_write_response = false;
  if (create) throw KafkaException{"NodeExistsException: KeeperErrorCode = NodeExists for /feature"};
}

// §5.4 onControllerFailover, in Kafka's order (watches are the `active` flag; the schedulers are
// outside kcspec's scope).
void onControllerFailover(Controller& ctl) {
  maybeSetupFeatureVersioning(ctl);  // step 1
  deleteLogDirEventNotifications(ctl, ctl.zk().log_dir_event_notifications);  // step 3
  deleteIsrChangeNotifications(ctl, ctl.zk().isr_change_notifications);        // step 4
  initializeControllerContext(ctl);
  topicDeletionManagerInit(ctl, ctl.zk().delete_topics, topicsIneligibleAtFailover(ctl));
  sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()), PartitionSet{});
  replicaStateMachineStartup(ctl);
  partitionStateMachineStartup(ctl);
  initializePartitionReassignments(ctl);
  tryTopicDeletion(ctl);
  resumePreferredReplicaElections(ctl);  // step 14
}

}  // namespace

void elect(Controller& ctl) {
  ZooKeeperData& zk = ctl.zk();
  if (zk.controller != kNoLeader) return;  // "… has been elected as the controller, so stopping"
  if (zk.controller_epoch_zk_version < 0) {  // /controller_epoch is created as "0", version 0
    zk.controller_epoch = 0;
    zk.controller_epoch_zk_version = 0;
  }
  // One multi-op: create /controller, set /controller_epoch := E+1 at version V.
  zk.controller = ctl.id;
  zk.controller_epoch += 1;
  zk.controller_epoch_zk_version += 1;
  ControllerData& module = ctl.module();
  module.active = true;
  module.context = ControllerContextData{};
  module.context.epoch = zk.controller_epoch;
  module.context.epoch_zk_version = zk.controller_epoch_zk_version;
  try {
    onControllerFailover(ctl);
  } catch (const ControllerMovedException&) {
    maybeResign(ctl);
  } catch (const KafkaException&) {
    triggerControllerMove(ctl);  // "Error while electing or becoming controller … Trigger controller movement"
  }
}

void triggerControllerMove(Controller& ctl) {
  if (ctl.zk().controller != ctl.id) return;  // "Controller has already moved when trying to trigger …"
  const std::int32_t epoch_zk_version = ctl.context().epoch_zk_version;
  onControllerResignation(ctl);
  // Delete /controller fenced by the old epochZkVersion (a ControllerMovedException is only WARNed).
  if (ctl.zk().controller_epoch_zk_version == epoch_zk_version) ctl.zk().controller = kNoLeader;
}

void onControllerResignation(Controller& ctl) {
  ControllerData& module = ctl.module();
  module.active = false;
  module.context = ControllerContextData{};  // resetContext; the channel manager (queued sends) is gone
}

void maybeResign(Controller& ctl) {
  const bool was_active = ctl.module().active;
  const bool is_active = ctl.zk().controller == ctl.id;
  if (was_active && !is_active) onControllerResignation(ctl);
}

}  // namespace kcspec::spec
