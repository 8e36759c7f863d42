// The spec's rule for each action kind: when it is enabled and what it does to the world, one
// section per kind in spec/rules/actions.cpp, in the order of ActionKind. What an action is (its
// name, arguments, candidates, bound and text) is its definition in spec/vocabulary/action.hpp;
// step.cpp puts the two together (bounds are spent there, from the definition).
#pragma once

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::spec {

struct ActionRule {
  ActionKind kind;
  // The guard, apart from the action's bounds: the action is well formed (it names the
  // configuration's brokers, topics and partitions) when this is asked.
  bool (*enabled)(const Config& config, const ClusterState& s, const Action& a);
  // The effect, after the action's bounds are spent.
  void (*apply)(const Config& config, ClusterState& s, const Action& a, StepObserver& observer);
};

const ActionRule& ruleOf(ActionKind kind);

// The admin's write of a topic's znodes (also how topics that exist at start are made).
void createTopic(const Config& config, ClusterState& s, TopicIndex t);

}  // namespace kcspec::spec
