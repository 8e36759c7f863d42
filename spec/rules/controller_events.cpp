#include "spec/rules/controller_events.hpp"

#include "spec/rules/admin_elections.hpp"
#include "spec/rules/broker_membership.hpp"
#include "spec/rules/brokers.hpp"
#include "spec/rules/controller_failover.hpp"
#include "spec/rules/isr_change_notifications.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/topic_events.hpp"

namespace kcspec::spec {
namespace {

void process(Controller& ctl, const ControllerEvent& event) {
  switch (event.kind) {
    case ControllerEventKind::Expire:
      onControllerResignation(ctl);  // activeControllerId = −1
      ctl.module().session_lost = false;
      // The new session (afterInitializingSession): a broker whose registration went with the old
      // one queues RegisterBrokerAndReelect. (lose-controller-session keeps the registration.)
      if (!ctl.zk().brokers[static_cast<std::size_t>(ctl.id)].registered) {
        ctl.module().events.push_back(ControllerEvent{.kind = ControllerEventKind::RegisterBrokerAndReelect});
      }
      break;
    case ControllerEventKind::RegisterBrokerAndReelect:
      registerBrokerAgain(ctl.world, ctl.id);
      maybeResign(ctl);  // then elect(): left to elect-controller, which any live registered broker may win
      break;
    case ControllerEventKind::BrokerChange:
      if (ctl.module().active) processBrokerChange(ctl);
      break;
    case ControllerEventKind::TopicChange:
      processTopicChange(ctl);
      break;
    case ControllerEventKind::PartitionModifications:
      processPartitionModifications(ctl, event.topic);
      break;
    case ControllerEventKind::TopicDeletion:
      processTopicDeletion(ctl);
      break;
    case ControllerEventKind::TopicDeletionStopReplicaResponseReceived:
      processTopicDeletionStopReplicaResponseReceived(ctl, event.broker, event.partitions, event.partition_errors);
      break;
    case ControllerEventKind::ApiPartitionReassignment:
      processApiPartitionReassignment(ctl, event.tp, event.cancel, event.target_replicas);
      break;
    case ControllerEventKind::AlterPartitionReceived:
      processAlterPartition(ctl, event.broker, event.broker_epoch, event.tp, event.proposed,
                            event.by_topic_id ? std::optional<TopicId>(event.topic_ids[static_cast<std::size_t>(event.tp.topic)])
                                              : std::nullopt);
      break;
    case ControllerEventKind::ControlledShutdown:
      processControlledShutdown(ctl, event.broker, event.broker_epoch);
      break;
    case ControllerEventKind::ReplicaLeaderElection:
      if (event.zk_triggered) {
        processZkTriggeredReplicaLeaderElection(ctl);
      } else {
        processReplicaLeaderElection(ctl, event.partitions, event.election_type);
      }
      break;
    case ControllerEventKind::AutoPreferredReplicaLeaderElection:
      processAutoPreferredReplicaLeaderElection(ctl);  // re-scheduling: the timer action may fire again
      break;
    case ControllerEventKind::TopicUncleanLeaderElectionEnable:
      processTopicUncleanLeaderElectionEnable(ctl, event.topic);
      break;
    case ControllerEventKind::ZkPartitionReassignment:
      processZkPartitionReassignment(ctl);
      break;
    case ControllerEventKind::LogDirEventNotification:
      processLogDirEventNotification(ctl);
      break;
    case ControllerEventKind::LeaderAndIsrResponseReceived:
      processLeaderAndIsrResponseReceived(ctl, event.broker, event.partitions, event.partition_errors,
                                          event.by_topic_id ? &event.topic_ids : nullptr);
      break;
    case ControllerEventKind::IsrChangeNotification:
      processIsrChangeNotification(ctl);
      break;
    case ControllerEventKind::PartitionReassignmentIsrChange:
      processPartitionReassignmentIsrChange(ctl, event.tp);
      break;
  }
}

}  // namespace

void processNextEvent(Controller& ctl) {
  ControllerData& module = ctl.module();
  KCSPEC_ASSERT(!module.events.empty());
  const ControllerEvent event = module.events.front();
  module.events.erase_at(0);
  try {
    process(ctl, event);
  } catch (const ControllerMovedException&) {
    maybeResign(ctl);  // "Controller moved to another broker when processing …"
  } catch (const KafkaException&) {
    // "Uncaught error processing event": the event is abandoned, its earlier steps stay
  }
}

}  // namespace kcspec::spec
