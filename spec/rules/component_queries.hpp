// `controller-context <query>` (spec/vocabulary/component_call.hpp): one of ControllerContext's
// getters asked of the active controller's context (kafka.md §5.1, §5.2). Asking changes nothing.
#pragma once

#include "spec/rules/controller_context.hpp"
#include "spec/vocabulary/component_call.hpp"

namespace kcspec::spec {

// What the getter `call.query` returns on `ctx`, as the answer of a component action. Throws
// KafkaException where Kafka's getter throws (partitionsInStates for a topic with a partition that
// has no partition-state entry).
ComponentAnswer askControllerContext(const Context& ctx, const ComponentCall& call);

}  // namespace kcspec::spec
