// Component actions (spec/vocabulary/component_call.hpp) on the spec: one method of the active
// controller's PartitionStateMachine or ReplicaStateMachine, called on the world as it is, with no
// event around it.
#pragma once

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::spec {

// A component action needs an active controller (one with its ZooKeeper session), except the
// election algorithms on given values.
bool componentCallPossible(const ClusterState& state, const ComponentCall& call);

// Runs `call` on the active controller; `observer` hears of every state change it asks for.
// Returns the exception that escaped the method (the steps before it stay taken) and the answer
// of a query or election.
ComponentResult callComponent(const Config& config, ClusterState& state, const ComponentCall& call,
                              StepObserver& observer);

}  // namespace kcspec::spec
