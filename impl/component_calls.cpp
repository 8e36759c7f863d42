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

ComponentException KafkaController::callComponent(const ComponentCall& call) {
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
    }
  } catch (const ControllerMovedException&) {
    return ComponentException::ControllerMoved;
  } catch (const KafkaThrowable&) {
    return ComponentException::Other;
  }
  return ComponentException::None;
}

ComponentException ImplCluster::callComponent(const ComponentCall& call) {
  const std::optional<BrokerId> active = activeController();
  KCSPEC_ASSERT(active.has_value());
  ComponentException thrown = ComponentException::None;
  runOnController(*active, [&](KafkaController& controller) { thrown = controller.callComponent(call); });
  routeWatchEvents();
  return thrown;
}

}  // namespace kcspec::impl
