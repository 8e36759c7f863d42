// Partition reassignment (facts §5.7, KIP-455): phases U, A and B, driven by
// onPartitionReassignment, started by the ApiPartitionReassignment event and completed when the
// target replicas have caught up (maybeCompleteReassignment).
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// §5.7.1 onPartitionReassignment(tp, reassignment).
void onPartitionReassignment(Controller& ctl, TopicPartition tp, const ReplicaAssignment& reassignment);

// §5.7.4: completes the reassignment of `tp` if its target replicas are all in the ISR.
void maybeCompleteReassignment(Controller& ctl, TopicPartition tp);

// §5.7.7 ApiPartitionReassignment for one partition: a target, or a cancellation.
void processApiPartitionReassignment(Controller& ctl, TopicPartition tp, bool cancel, const BrokerList& target);

}  // namespace kcspec::spec
