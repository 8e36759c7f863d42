// Topic events (kafka.md §5.10, §5.6.2, §5.6.3, §5.6 #26): creation, expansion, deletion requests
// and StopReplica responses, and a topic's unclean flag being enabled.
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

void processTopicChange(Controller& ctl);
// processTopicIds (at failover and for new topics): with usesTopicId (inter.broker.protocol.version
// ≥ 2.8-IV0) a topic znode without an id gets one (a fenced write); every id read or given goes
// into the context.
void processTopicIds(Controller& ctl, TopicSet topics);
void processPartitionModifications(Controller& ctl, TopicIndex topic);
void processTopicDeletion(Controller& ctl);
void processTopicDeletionStopReplicaResponseReceived(Controller& ctl, BrokerId broker, PartitionSet partitions,
                                                     PartitionSet partition_errors);
void processTopicUncleanLeaderElectionEnable(Controller& ctl, TopicIndex topic);

}  // namespace kcspec::spec
