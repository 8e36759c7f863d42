// ISR changes that leaders write to ZooKeeper themselves — inter.broker.protocol.version below
// 2.7-IV2, before AlterPartition (kafka.md §5.6.4, §5.7.2 step 2): the controller learns of them
// from /isr_change_notification and, for a reassigning partition, from a watch on its state znode.
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// processIsrChangeNotification (§5.6.4): the partitions the notifications name are reloaded from
// ZooKeeper into the cache and sent to every live-or-shutting-down broker in an UpdateMetadata;
// a reassigning one may complete (maybeCompleteReassignment); then, in a finally-block, the
// notifications read are deleted (fenced).
void processIsrChangeNotification(Controller& ctl);

// processPartitionReassignmentIsrChange: a reassigning partition's state znode changed; the
// reassignment completes if its target replicas are all in the ISR now.
void processPartitionReassignmentIsrChange(Controller& ctl, TopicPartition tp);

}  // namespace kcspec::spec
