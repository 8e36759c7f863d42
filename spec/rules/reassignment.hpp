// Partition reassignment (kafka.md §5.7, KIP-455): phases U, A and B, driven by
// onPartitionReassignment, started by the ApiPartitionReassignment event and completed when the
// target replicas have caught up (maybeCompleteReassignment); or started by /admin/reassign_partitions
// (ZkPartitionReassignment), whose entries the controller trims as they finish.
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// §5.7.1 onPartitionReassignment(tp, reassignment). A fenced write may throw
// ControllerMovedException; Kafka's other exceptions end it early (reassignment.cpp, Decision).
void onPartitionReassignment(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment);

// §5.7.4: completes the reassignment of `tp` if its target replicas are all in the ISR. As in
// Kafka, callers check that `tp` is in partitions_being_reassigned first.
void maybeCompleteReassignment(Controller& ctl, TopicPartition tp);

// §5.7.7 ApiPartitionReassignment for one partition: a target, or a cancellation.
void processApiPartitionReassignment(Controller& ctl, TopicPartition tp, bool cancel, const BrokerList& target);

// §5.7.6 ZkPartitionReassignment (also failover step 12): starts the reassignments that
// /admin/reassign_partitions lists; returns the partitions it started.
PartitionSet processZkPartitionReassignment(Controller& ctl);

}  // namespace kcspec::spec
