// The partial-order reduction of the catalog's systems (SpecSystem, ImplSystem, BothSystem;
// system.hpp HasPersistentActions): which deliver-request the explorer may take alone.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::explorer {

// The position in `enabled` of the first deliver-request that is persistent in `world`
// (spec/vocabulary/independence.hpp) and invisible to the catalog's checked properties, or none.
// Invisible: no state- or step-safety property reads what a delivery changes (a broker's queues,
// replicas, metadata cache and known controller epoch), and the liveness goals are judged in
// quiescent states only (CatalogProperties::goalsReached: every request queue empty), so with
// `goals_checked` a delivery qualifies when it leaves two requests or more on its broker's queue
// before it — along the paths that defer it the queue only grows, and every state there and after
// it is not quiescent. A delivery is a recovery action, and only crash, which is not, absorbs it.
std::optional<std::size_t> persistentDelivery(const Observation& world, std::span<const Action> enabled,
                                              bool goals_checked);

}  // namespace kcspec::explorer
