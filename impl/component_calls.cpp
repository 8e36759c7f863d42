// Component actions on the reference controller (spec/vocabulary/component_call.hpp): Kafka's
// PartitionStateMachine.handleStateChanges and ReplicaStateMachine.handleStateChanges called on
// the active controller the way its event handlers call them, with no event around them.
#include "impl/cluster.hpp"
#include "impl/controller/kafka_controller.hpp"
#include "impl/errors.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {
namespace {

PartitionLeaderElectionStrategy strategyOf(ElectionKind kind, bool allowUnclean) {
  switch (kind) {
    case ElectionKind::Offline: return PartitionLeaderElectionStrategy::offline(allowUnclean);
    case ElectionKind::Reassign: return PartitionLeaderElectionStrategy::reassign();
    case ElectionKind::PreferredReplica: return PartitionLeaderElectionStrategy::preferredReplica();
    case ElectionKind::ControlledShutdown: return PartitionLeaderElectionStrategy::controlledShutdown();
  }
  KCSPEC_ASSERT(false);
  return {};
}

}  // namespace

ComponentResult KafkaController::callComponent(const ComponentCall& call) {
  try {
    switch (call.method) {
      case ComponentMethod::PartitionStateMachineHandleStateChanges: {
        std::optional<PartitionLeaderElectionStrategy> strategy;
        if (call.election) strategy = strategyOf(*call.election, call.unclean);
        psm_.handleStateChanges(toVector(call.partitions), call.partition_target, strategy);
        break;
      }
      case ComponentMethod::ReplicaStateMachineHandleStateChanges:
        rsm_.handleStateChanges(call.replicas, call.replica_target);
        break;
      default: KCSPEC_ASSERT(false && "not built yet");
    }
  } catch (const ControllerMovedException&) {
    return ComponentResult{ComponentException::ControllerMoved, {}};
  } catch (const KafkaThrowable&) {
    return ComponentResult{ComponentException::Other, {}};
  }
  return ComponentResult{};
}

ComponentResult ImplCluster::callComponent(const ComponentCall& call) {
  const std::optional<BrokerId> active = activeController();
  KCSPEC_ASSERT(active.has_value());
  ComponentResult result;
  runOnController(*active, [&](KafkaController& controller) { result = controller.callComponent(call); });
  routeWatchEvents();
  return result;
}

}  // namespace kcspec::impl
