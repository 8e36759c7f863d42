// The partial-order reduction of the catalog's systems (SpecSystem, ImplSystem, BothSystem;
// system.hpp HasPersistentActions): which deliver-request the explorer may take alone.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/independence.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::explorer {

// The position in `enabled` of the first deliver-request that is persistent in `world`
// (spec/vocabulary/independence.hpp) and invisible to the catalog's checked properties, or none.
// Invisible: no state- or step-safety property reads what a delivery changes (a broker's queues,
// replicas, metadata cache and known controller epoch). The liveness goals are judged in quiescent
// states only (CatalogProperties::goalsReached: every request queue empty), so no goal is reached
// on a recovery path that leaves the delivery's request queued: its broker's queue is emptied only
// by deliveries, the head first, and by a crash, which is not a recovery action. A delivery is a
// recovery action, and only crash absorbs it. (Until session 24 a delivery qualified with liveness
// checked only when it left a request behind; docs/proofs.md says why that was not needed.)
// `scope`: spec/vocabulary/independence.hpp persistenceScope of the configuration.
std::optional<std::size_t> persistentDelivery(const Observation& world, const PersistenceScope& scope,
                                              std::span<const Action> enabled);

// persistentDelivery's choice without the enabled actions (system.hpp FindsPersistentAction): the
// first configured broker's delivery that `is_enabled` accepts and the relation calls persistent.
// The enabled actions list deliveries by broker, so it is the one persistentDelivery picks.
template <class IsEnabled>
std::optional<Action> firstPersistentDelivery(const Config& config, const Observation& world, const Bounds& budget,
                                              IsEnabled&& is_enabled) {
  const PersistenceScope scope = persistenceScope(budget);
  std::optional<Action> persistent;
  config.brokers.forEach([&](BrokerId b) {
    if (persistent) return;
    const Action delivery{.kind = ActionKind::DeliverRequest, .broker = b};
    if (is_enabled(delivery) && deliveryIsPersistent(world, b, scope)) persistent = delivery;
  });
  return persistent;
}

// The measure the chosen deliveries lower (system.hpp PersistentActionsDescend): the requests
// queued on every broker. A delivery takes its broker's head request and queues none (a broker
// answers on its own response queue), so a path of deliveries taken alone ends within this many
// steps, and the catalog's systems need no cycle proviso.
std::size_t queuedRequests(const Observation& world);

}  // namespace kcspec::explorer
