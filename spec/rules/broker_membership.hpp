// Broker membership (kafka.md §5.5): the BrokerChange event and the startup/failure callbacks.
#pragma once

#include <array>

#include "spec/rules/controller.hpp"
#include "spec/rules/controller_context.hpp"

namespace kcspec::spec {

// processBrokerChange (§5.5.1): new, dead and bounced brokers, told apart by broker epoch.
void processBrokerChange(Controller& ctl);

void onBrokerStartup(Controller& ctl, BrokerSet new_brokers);
void onBrokerFailure(Controller& ctl, BrokerSet dead_brokers);
void onReplicasBecomeOffline(Controller& ctl, const AllReplicaList& replicas);

// processLogDirEventNotification (§5.5.6): the brokers /log_dir_event_notification names get a
// LeaderAndIsr for each of their replicas (onBrokerLogDirFailure), to learn which are offline;
// then, in a finally-block, the notifications read are deleted (fenced).
void processLogDirEventNotification(Controller& ctl);

// processLeaderAndIsrResponseReceived (§5.6.1): replicas answered KAFKA_STORAGE_ERROR join
// replicasOnOfflineDirs, those answered NONE leave it; the newly offline go through
// onReplicasBecomeOffline. `topic_ids`: the ids a version 5+ response names topics by (a topic
// whose id the controller does not know is dropped); nullptr for an older one, read by name.
void processLeaderAndIsrResponseReceived(Controller& ctl, BrokerId broker, PartitionSet partitions,
                                         PartitionSet storage_errors, const std::array<TopicId, kMaxTopics>* topic_ids);

// sendUpdateMetadataRequest: KafkaController's own batch, flushed at once.
void sendUpdateMetadataRequest(Controller& ctl, BrokerSet brokers, PartitionSet partitions);

}  // namespace kcspec::spec
