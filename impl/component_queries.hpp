// The controller-context component action (spec/vocabulary/component_call.hpp, ContextQuery): one
// of ControllerContext's getters (kafka.md §5.1, §5.2) asked of a controller's context, answered
// canonically. Only component actions ask these, so they live outside impl/controller (no
// history runs them; the generated mutants are taken from impl/controller alone).
#pragma once

#include "impl/controller/controller_context.hpp"
#include "spec/vocabulary/component_call.hpp"

namespace kcspec::impl {

// The answer to `call.query` (call.method is ControllerContextQuery). Changes nothing. Throws a
// KafkaThrowable (java.util.NoSuchElementException) where Kafka's getter does: the per-topic
// partitionsInStates on a partition of the topic with no partition state.
ComponentAnswer answerContextQuery(const ControllerContext& context, const ComponentCall& call);

}  // namespace kcspec::impl
