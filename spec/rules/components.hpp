// Component actions (spec/vocabulary/component_call.hpp) on the spec: one method of one component
// of the active controller — PartitionStateMachine, ReplicaStateMachine, TopicDeletionManager,
// Election.leaderFor*, its request batch, its ControllerContext — called on the world as it is,
// with no event around it; or one of PartitionLeaderElectionAlgorithms on given values.
#pragma once

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::spec {

// A component action needs an active controller (one with its ZooKeeper session), except the
// election algorithms on given values.
bool componentCallPossible(const ClusterState& state, const ComponentCall& call);

// Runs `call` on the active controller (an election algorithm on given values needs none);
// `observer` hears of every state change it asks for. Returns the exception that escaped the
// method (the steps before it stay taken) and the answer of a query or election.
ComponentResult callComponent(const Config& config, ClusterState& state, const ComponentCall& call,
                              StepObserver& observer);

}  // namespace kcspec::spec
