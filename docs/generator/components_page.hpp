// The generated page docs/spec/components.md: one section per component method (ComponentMethod,
// spec/vocabulary/component_call.hpp) — the Kafka class and method, and a worked example produced
// by running the spec on the built-in component suite (tests/components/*.scenario): for each
// method the first call of it in file-name order, after the scenario's given world and the steps
// and component actions before it, as `kcspec suite` runs them. controller-context lists every
// getter with an answer, elect on values each algorithm, request-batch send each entry kind.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "spec/vocabulary/component_call.hpp"

namespace kcspec::docs {

// Scenario files as (file name, text), in the order they are searched (file-name order): the
// component suite as cli/component_suite.hpp embeds it.
using ScenarioFiles = std::span<const std::pair<std::string_view, std::string_view>>;

// Where the suite's files come from, as the page names them.
inline constexpr std::string_view kComponentSuiteFolder = "tests/components";

// Every ComponentMethod, in the order the page has them.
inline constexpr ComponentMethod kComponentMethods[] = {
    ComponentMethod::PartitionStateMachineHandleStateChanges,
    ComponentMethod::ReplicaStateMachineHandleStateChanges,
    ComponentMethod::TopicDeletionManagerInit,
    ComponentMethod::TopicDeletionManagerTryTopicDeletion,
    ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion,
    ComponentMethod::TopicDeletionManagerResumeDeletionForTopics,
    ComponentMethod::TopicDeletionManagerFailReplicaDeletion,
    ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion,
    ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion,
    ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion,
    ComponentMethod::ElectionAlgorithm,
    ComponentMethod::ElectionLeaderFor,
    ComponentMethod::RequestBatchSend,
    ComponentMethod::ControllerContextQuery,
};

// The heading of `method`'s section (without "## "), e.g. "`topic-deletion-manager init`".
std::string componentSectionTitle(ComponentMethod method);

// What a section says when the suite has no call to show.
inline constexpr std::string_view kNoComponentExample = "No worked example:";

// The page. Throws std::logic_error naming the file and line when a scenario does not parse, or a
// step before an example's call is not enabled or the call has no active controller.
std::string componentsPage(ScenarioFiles suite);

}  // namespace kcspec::docs
