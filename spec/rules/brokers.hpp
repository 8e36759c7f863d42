// The broker side, as far as the controller's world needs it (kafka.md Appendix E leaves it out; the
// rules, read from Kafka's ReplicaManager, are docs/world.md §5): a broker applies
// control requests in order, rejects those from an older controller epoch or for an older broker
// epoch, and answers StopReplica(delete=true).
#pragma once

#include "spec/vocabulary/observation.hpp"

namespace kcspec::spec {

// The broker processes the head of its request queue. It changes that broker's own data and
// nothing else (not even its controller module): the explorer compares only those parts after a
// delivery (proofs/explorer/state_codec.hpp brokerDataSegments).
void processNextRequest(Observation& world, BrokerId broker);

// The broker process dies: its registration, queues, caches and controller module are gone.
void crashBroker(Observation& world, BrokerId broker);

// The broker registers again, with a new broker epoch (the znode's creation order).
void startBroker(Observation& world, BrokerId broker);

}  // namespace kcspec::spec
