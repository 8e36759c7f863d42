// Broker membership (kafka.md §5.5): the BrokerChange event and the startup/failure callbacks.
#pragma once

#include "spec/rules/controller.hpp"
#include "spec/rules/controller_context.hpp"

namespace kcspec::spec {

// processBrokerChange (§5.5.1): new, dead and bounced brokers, told apart by broker epoch.
void processBrokerChange(Controller& ctl);

void onBrokerStartup(Controller& ctl, BrokerSet new_brokers);
void onBrokerFailure(Controller& ctl, BrokerSet dead_brokers);
void onReplicasBecomeOffline(Controller& ctl, const AllReplicaList& replicas);

// sendUpdateMetadataRequest: KafkaController's own batch, flushed at once.
void sendUpdateMetadataRequest(Controller& ctl, BrokerSet brokers, PartitionSet partitions);

}  // namespace kcspec::spec
