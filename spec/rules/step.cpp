// The spec as a transition system: an action is enabled when it names the configuration's
// things, its bounds are not spent and its rule's guard holds (spec/rules/actions.cpp); taking
// it spends its bounds and applies the rule's effect. The candidates come from the action
// definitions (spec/vocabulary/action_candidates.hpp).
#include "spec/rules/step.hpp"

#include "spec/rules/actions.hpp"
#include "spec/rules/brokers.hpp"
#include "spec/vocabulary/action_candidates.hpp"

namespace kcspec::spec {
namespace {

// The action's bounds (its kind's and the overall one) are not spent.
bool withinBounds(const Bounds& left, const Action& a) {
  int Bounds::*const bound = boundSpentBy(a);
  return bound == nullptr || hasUseLeft(left, bound);
}

void spendBounds(Bounds& left, const Action& a) {
  int Bounds::*const bound = boundSpentBy(a);
  if (bound == nullptr) return;
  if (left.perturbations > 0) --left.perturbations;
  --(left.*bound);
}

// The action names brokers, topics and partitions of the configuration (checked before any
// state is looked at, so a scenario line naming something else is simply not enabled).
bool wellFormed(const Config& config, const Action& a) {
  const auto topic_ok = [&](TopicIndex t) { return t >= 0 && t < config.topicCount(); };
  const auto partition_ok = [&](TopicPartition tp) {
    return topic_ok(tp.topic) && tp.partition >= 0 && tp.partition < kMaxPartitionsPerTopic;
  };
  switch (definitionOf(a.kind).args) {
    case ActionArgs::Topic:
      return topic_ok(a.topic);
    case ActionArgs::PartitionTarget:
      for (BrokerId r : a.replicas) {
        if (!isBrokerId(r)) return false;
      }
      return partition_ok(a.tp);
    case ActionArgs::Partition:
      return partition_ok(a.tp);
    case ActionArgs::LeaderFollower:
      return partition_ok(a.tp) && config.brokers.contains(a.broker) && config.brokers.contains(a.replica);
    case ActionArgs::PartitionReplica:
      return partition_ok(a.tp) && config.brokers.contains(a.broker);
    case ActionArgs::Broker:
    case ActionArgs::BrokerError:
      return config.brokers.contains(a.broker);
    case ActionArgs::None:
      return true;
  }
  return false;
}

bool enabled(const Config& config, const ClusterState& s, const Action& a) {
  return withinBounds(s.budget, a) && ruleOf(a.kind).enabled(config, s, a);
}

// The candidates worth naming: a kind whose bound is spent is left out before any of its candidates
// is (withinBounds would refuse each), a BrokerError kind's error variant likewise; the order of
// the others is kept.
CandidateKinds kindsWithinBounds(const Bounds& left) {
  CandidateKinds kinds = CandidateKinds::all();
  for (const ActionDefinition& d : kActionDefinitions) {
    if (d.bound == nullptr || hasUseLeft(left, d.bound)) continue;
    const auto index = static_cast<std::size_t>(d.kind);
    if (d.perturbs == Perturbs::Always) kinds.kinds.reset(index);
    if (d.perturbs == Perturbs::WhenError) kinds.error_variants.reset(index);
  }
  return kinds;
}

bool listedInZooKeeper(const ClusterState& s, TopicIndex t, int p) {
  return s.world.zk.topics[static_cast<std::size_t>(t)].lists(p);
}

}  // namespace

ClusterState initialState(const Config& config) {
  ClusterState s;
  s.budget = config.bounds;
  config.brokers_alive_at_start.forEach([&](BrokerId b) { startBroker(s.world, b); });
  for (TopicIndex t = 0; t < config.topicCount(); ++t) {
    if (config.topics[static_cast<std::size_t>(t)].exists_at_start) createTopic(config, s, t);
  }
  return s;
}

ClusterState givenState(const Config& config, const Observation& world) {
  ClusterState s;
  s.budget = config.bounds;
  s.world = world;
  return s;
}

bool isEnabled(const Config& config, const ClusterState& state, const Action& action) {
  return wellFormed(config, action) && enabled(config, state, action);
}

void enabledActions(const Config& config, const ClusterState& state, std::vector<Action>& out) {
  const auto in_zookeeper = [&](TopicIndex t, int p) { return listedInZooKeeper(state, t, p); };
  forEachCandidate(config, in_zookeeper, kindsWithinBounds(state.budget), [&](const Action& action) {
    if (enabled(config, state, action)) out.push_back(action);  // well-formed by construction
  });
}

std::vector<Action> enabledActions(const Config& config, const ClusterState& state) {
  std::vector<Action> out;
  enabledActions(config, state, out);
  return out;
}

ClusterState next(const Config& config, const ClusterState& state, const Action& action, StepObserver& observer) {
  ClusterState successor = state;
  takeStep(config, successor, action, observer);
  return successor;
}

void takeStep(const Config& config, ClusterState& state, const Action& action, StepObserver& observer) {
  KCSPEC_ASSERT(isEnabled(config, state, action));
  spendBounds(state.budget, action);
  ruleOf(action.kind).apply(config, state, action, observer);
}

ClusterState next(const Config& config, const ClusterState& state, const Action& action) {
  StepObserver ignore;
  return next(config, state, action, ignore);
}

}  // namespace kcspec::spec
