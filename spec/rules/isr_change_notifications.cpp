#include "spec/rules/isr_change_notifications.hpp"

#include "spec/rules/admin_elections.hpp"
#include "spec/rules/broker_membership.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/reassignment.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {

void processIsrChangeNotification(Controller& ctl) {
  if (!ctl.module().active) return;
  // getAllIsrChangeNotifications, getPartitionsFromIsrChangeNotifications
  const PartitionSet partitions = ctl.zk().isr_change_notifications;
  try {
    if (!partitions.empty()) {
      partitions.forEach([&](TopicPartition tp) { updateLeaderAndIsrCache(ctl, tp); });
      sendUpdateMetadataRequest(ctl, liveOrShuttingDownBrokerIds(ctl.context()), partitions);
      // Also with watches in place: a controller on a newer protocol registers none.
      (partitions & ctl.context().partitions_being_reassigned).forEach([&](TopicPartition tp) {
        maybeCompleteReassignment(ctl, tp);
      });
    }
  } catch (...) {
    deleteIsrChangeNotifications(ctl, partitions);  // finally
    throw;
  }
  deleteIsrChangeNotifications(ctl, partitions);
}

void processPartitionReassignmentIsrChange(Controller& ctl, TopicPartition tp) {
  if (!ctl.module().active) return;
  if (ctl.context().partitions_being_reassigned.contains(tp)) maybeCompleteReassignment(ctl, tp);
}

}  // namespace kcspec::spec
