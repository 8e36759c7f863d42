// Component actions (issue 28): one method of one component of the active controller, called on
// the current world without an event around it — the way Kafka's own controller unit tests call
// PartitionStateMachine.handleStateChanges or ReplicaStateMachine.handleStateChanges. A scenario
// step like a cluster action (spec/vocabulary/action.hpp), but never a choice of the explorer:
// only scenarios name them. Text form (one line, spelled after Kafka's classes and methods):
//
//   partition-state-machine handle-state-changes <t>-<p>,… <PartitionState>
//                           [election offline|reassign|preferred|controlled-shutdown] [unclean]
//   replica-state-machine handle-state-changes <b>:<t>-<p>,… <ReplicaState>
//
// `election` names the PartitionLeaderElectionStrategy (Offline…, Reassign…, PreferredReplica…,
// ControlledShutdown…); `unclean` is OfflinePartitionLeaderElectionStrategy(allowUnclean = true)
// and needs `election offline`. The partitions and replicas are sets: each appears once, and the
// canonical text lists them in ascending order (partitions; replicas by broker, then partition),
// the order both versions take them in.
//
// Each version runs the method inside its own controller module as the event handlers do (one
// request batch, flushed at the end), reports what it changed through the observation and the
// state-change records, and names the exception that escaped, if one did (a ZooKeeper write
// fenced by a newer controller: ControllerMovedException). A call is possible only while there
// is an active controller; the world is not otherwise changed (no resignation follows an
// exception: there is no event to abandon).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/sets.hpp"
#include "spec/vocabulary/states.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

enum class ComponentMethod : std::uint8_t {
  PartitionStateMachineHandleStateChanges,
  ReplicaStateMachineHandleStateChanges,
};

// PartitionLeaderElectionStrategy's four kinds.
enum class ElectionKind : std::uint8_t { Offline, Reassign, PreferredReplica, ControlledShutdown };

struct ComponentCall {
  ComponentMethod method = ComponentMethod::PartitionStateMachineHandleStateChanges;
  PartitionSet partitions;                     // the partition state machine's
  std::vector<PartitionAndReplica> replicas;   // the replica state machine's, ascending by (broker, partition)
  PartitionState partition_target = PartitionState::OnlinePartition;
  ReplicaState replica_target = ReplicaState::OnlineReplica;
  std::optional<ElectionKind> election;        // the partition state machine's leader election strategy
  bool unclean = false;                        // with ElectionKind::Offline: allowUnclean
  friend bool operator==(const ComponentCall&, const ComponentCall&) = default;
};

// What escaped from a component call, as both versions name it.
enum class ComponentException : std::uint8_t { None, ControllerMoved, Other };

constexpr std::string_view componentExceptionName(ComponentException e) {
  switch (e) {
    case ComponentException::None: return "none";
    case ComponentException::ControllerMoved: return "ControllerMovedException";
    case ComponentException::Other: return "KafkaException";  // IllegalStateException, StateChangeFailedException, …
  }
  return "?";
}

// Whether `line` (its first word) is a component action rather than a cluster action.
bool isComponentCallText(std::string_view line);

// Parses one component action; throws TextError(file, line_number, …) for anything else.
ComponentCall parseComponentCall(const Config& config, std::string_view line, std::string_view file, int line_number);

// The canonical text.
std::string printComponentCall(const Config& config, const ComponentCall& call);

}  // namespace kcspec
