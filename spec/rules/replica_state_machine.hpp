// ReplicaStateMachine (kafka.md §3): moves replicas through the seven replica states, queueing
// LeaderAndIsr/StopReplica requests and shrinking the ISR on the way to OfflineReplica.
#pragma once

#include "spec/rules/controller.hpp"
#include "spec/rules/controller_context.hpp"

namespace kcspec::spec {

// ReplicaStateMachine.startup (§3.1): every replica Online or ReplicaDeletionIneligible (silently),
// then online replicas → OnlineReplica and the others → OfflineReplica.
void replicaStateMachineStartup(Controller& ctl);

// handleStateChanges (§3.2): grouped by broker (ascending ids), one batch, flushed at the end.
void handleStateChanges(Controller& ctl, const AllReplicaList& replicas, ReplicaState target);

}  // namespace kcspec::spec
