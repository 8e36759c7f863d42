#include "spec/rules/components.hpp"

#include "spec/rules/partition_state_machine.hpp"
#include "spec/rules/replica_state_machine.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::spec {
namespace {

ElectionStrategy strategyOf(ElectionKind kind, bool unclean) {
  switch (kind) {
    case ElectionKind::Offline: return ElectionStrategy{ElectionStrategyKind::OfflinePartition, unclean};
    case ElectionKind::Reassign: return ElectionStrategy{ElectionStrategyKind::ReassignPartition};
    case ElectionKind::PreferredReplica: return ElectionStrategy{ElectionStrategyKind::PreferredReplicaPartition};
    case ElectionKind::ControlledShutdown: return ElectionStrategy{ElectionStrategyKind::ControlledShutdownPartition};
  }
  KCSPEC_ASSERT(false);
  return {};
}

}  // namespace

bool componentCallPossible(const ClusterState& state, const ComponentCall& call) {
  return !needsActiveController(call) || activeControllerOf(state.world) != kNoLeader;
}

ComponentResult callComponent(const Config& config, ClusterState& state, const ComponentCall& call,
                              StepObserver& observer) {
  KCSPEC_ASSERT(componentCallPossible(state, call));
  Controller ctl{config, state.world, activeControllerOf(state.world), observer};
  try {
    switch (call.method) {
      case ComponentMethod::PartitionStateMachineHandleStateChanges: {
        std::optional<ElectionStrategy> strategy;
        if (call.election) strategy = strategyOf(*call.election, call.unclean);
        handleStateChanges(ctl, call.partitions, call.partition_target, strategy);
        break;
      }
      case ComponentMethod::ReplicaStateMachineHandleStateChanges: {
        AllReplicaList replicas;
        for (const PartitionAndReplica& r : call.replicas) replicas.push_back(r);
        handleStateChanges(ctl, replicas, call.replica_target);
        break;
      }
      default: KCSPEC_ASSERT(false && "not built yet");
    }
  } catch (const ControllerMovedException&) {
    return ComponentResult{ComponentException::ControllerMoved, {}};
  } catch (const KafkaException&) {
    return ComponentResult{ComponentException::Other, {}};
  }
  return ComponentResult{};
}

}  // namespace kcspec::spec
