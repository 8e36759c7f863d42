// The spec as a transition system (the only interface proofs/ and tests need, Stateright-style):
// the initial state of a configuration, the actions enabled in a state, and the successor.
#pragma once

#include <vector>

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::spec {

// Brokers alive at start are registered (in id order), topics that exist at start are in
// ZooKeeper without partition states, and no controller has been elected yet.
ClusterState initialState(const Config& config);

// A stated world (a scenario's `given` section, spec/vocabulary/given_text.hpp): the world as
// given, with the configuration's whole perturbation budget left.
ClusterState givenState(const Config& config, const Observation& world);

// Every enabled action, in the candidates' order (spec/vocabulary/action_candidates.hpp).
std::vector<Action> enabledActions(const Config& config, const ClusterState& state);
// The same, appended to `out` (the explorer reuses one vector).
void enabledActions(const Config& config, const ClusterState& state, std::vector<Action>& out);

bool isEnabled(const Config& config, const ClusterState& state, const Action& action);

// The successor of `state` under an enabled `action`; `observer` hears of state changes and
// fenced writes.
ClusterState next(const Config& config, const ClusterState& state, const Action& action, StepObserver& observer);
ClusterState next(const Config& config, const ClusterState& state, const Action& action);

// next() in place: `state` becomes the successor (the explorer copies only what it must).
//
// How a step changes a broker's request queue: deliver-request to broker b takes b's head off and
// touches no other queue; every other step leaves a queue as it was, appends requests at its end
// (a controller sending) or empties it (its broker stopping). The explorer's codec encodes a
// queue after a step from the lengths alone (proofs/explorer/state_codec.cpp encodeRequestsAfter);
// tests/explorer/state_codec_test.cpp (StateCodec.AStepChangesAQueueOnlyAtItsEnds) checks it.
void takeStep(const Config& config, ClusterState& state, const Action& action, StepObserver& observer);

}  // namespace kcspec::spec
