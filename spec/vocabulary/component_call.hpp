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
//   topic-deletion-manager init <t>,…|none [ineligible <t>,…]
//   topic-deletion-manager try-topic-deletion
//   topic-deletion-manager enqueue-topics-for-deletion <t>,…
//   topic-deletion-manager resume-deletion-for-topics <t>,…
//   topic-deletion-manager fail-replica-deletion <b>:<t>-<p>,…
//   topic-deletion-manager complete-replica-deletion <b>:<t>-<p>,…
//   topic-deletion-manager mark-topic-ineligible-for-deletion <t>,…
//   topic-deletion-manager is-topic-queued-up-for-deletion <t>
//
//   elect offline assignment L isr L live L [unclean]          PartitionLeaderElectionAlgorithms, on the
//   elect reassign target L isr L live L                        values given (no world needed); answers
//   elect preferred assignment L isr L live L                   the leader or none
//   elect controlled-shutdown assignment L isr L live-or-shutting-down L shutting-down L
//   elect offline|reassign|preferred|controlled-shutdown partitions <t>-<p>,… [unclean]
//                                                               Election.leaderFor* on the partitions'
//                                                               state znodes and the active controller's
//                                                               context; answers each partition's new
//                                                               LeaderAndIsr and recipients, changes nothing
//
//   request-batch send <entry>; <entry>; …                     newBatch(), the entries added in order,
//     leader-and-isr <b>,… <t>-<p> [is-new]                     sendRequestsToBrokers: LeaderAndIsr with the
//     stop-replica <b>,… <t>-<p> [delete]                       context's cached leadership and assignment;
//     update-metadata <b>,…|none [<t>-<p>,…]                    StopReplica; UpdateMetadata for the partitions
//
//   controller-context <query> [arguments]                     one of ControllerContext's getters (kContextQueries)
//
// Any of them may end with `=> <result>`, what the call must come to: the answer as
// printComponentAnswer prints it (`=> leader 4`, `=> partitions t-0,t-1`, `=> true`), `=> throws
// ControllerMovedException` / `=> throws KafkaException`, or `=> done` (no answer, no exception).
// `kcspec replay` and `kcspec suite` report a call whose result differs (resultText).
//
// `election` names the PartitionLeaderElectionStrategy (Offline…, Reassign…, PreferredReplica…,
// ControlledShutdown…); `unclean` is OfflinePartitionLeaderElectionStrategy(allowUnclean = true)
// and needs `election offline`. Lists of partitions, replicas and topics are sets: each appears
// once, and the canonical text lists them in ascending order (partitions; replicas by broker, then
// partition; topics by index), the order both versions take them in. Broker lists (L) are ordered
// and may be `none` (empty).
//
// Each version runs the method inside its own controller module as the event handlers do (one
// request batch, flushed at the end), reports what it changed through the observation and the
// state-change records, answers what a query or election returns (ComponentAnswer), and names the
// exception that escaped, if one did (a ZooKeeper write fenced by a newer controller:
// ControllerMovedException). A call needs an active controller, except the election algorithms on
// given values; the world is not otherwise changed (no resignation follows an exception: there is
// no event to abandon).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/replica_assignment.hpp"
#include "spec/vocabulary/sets.hpp"
#include "spec/vocabulary/states.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

enum class ComponentMethod : std::uint8_t {
  PartitionStateMachineHandleStateChanges,
  ReplicaStateMachineHandleStateChanges,
  TopicDeletionManagerInit,                            // topics, ineligible_topics
  TopicDeletionManagerTryTopicDeletion,
  TopicDeletionManagerEnqueueTopicsForDeletion,        // topics
  TopicDeletionManagerResumeDeletionForTopics,         // topics
  TopicDeletionManagerFailReplicaDeletion,             // replicas
  TopicDeletionManagerCompleteReplicaDeletion,         // replicas
  TopicDeletionManagerMarkTopicIneligibleForDeletion,  // topics
  TopicDeletionManagerIsTopicQueuedUpForDeletion,      // topics (one); answers Boolean
  ElectionAlgorithm,                                   // election, unclean, assignment, isr, live, shutting_down
  ElectionLeaderFor,                                   // election, unclean, partitions; answers Elections
  RequestBatchSend,                                    // batch
  ControllerContextQuery,                              // query and its arguments
};

// PartitionLeaderElectionStrategy's four kinds.
enum class ElectionKind : std::uint8_t { Offline, Reassign, PreferredReplica, ControlledShutdown };

// One entry of `request-batch send`: one of ControllerBrokerRequestBatch's add… methods.
struct BatchEntry {
  enum class Kind : std::uint8_t { LeaderAndIsr, StopReplica, UpdateMetadata };
  Kind kind = Kind::LeaderAndIsr;
  BrokerList brokers;        // in the order given (Kafka's brokerIds: Seq[Int])
  PartitionSet partitions;   // one for LeaderAndIsr and StopReplica; any for UpdateMetadata
  bool flag = false;         // LeaderAndIsr: isNew; StopReplica: deletePartition
  friend bool operator==(const BatchEntry&, const BatchEntry&) = default;
};

// ControllerContext's getters a `controller-context` action asks (kafka.md §5.1, §5.2).
enum class ContextQuery : std::uint8_t {
  LiveBrokerIds,                   // Brokers
  LiveOrShuttingDownBrokerIds,     // Brokers
  IsReplicaOnline,                 // broker, partition, include_shutting_down → Boolean
  PartitionReplicaAssignment,      // partition → Brokers_in_order
  PartitionFullReplicaAssignment,  // partition → Assignment
  AllPartitions,                   // Partitions
  PartitionsForTopic,              // topic → Partitions
  PartitionsOnBroker,              // broker → Partitions
  ReplicasForTopic,                // topic → Replicas
  ReplicasOnBrokers,               // brokers → Replicas
  ReplicasForPartition,            // partitions → Replicas
  PartitionsInStates,              // partition states [topic] → Partitions
  ReplicasInState,                 // topic, replica state → Replicas
  AreAllReplicasInState,           // topic, replica state → Boolean
  IsAnyReplicaInState,             // topic, replica state → Boolean
  LeaderEpoch,                     // partition → Count
  PartitionsWithLeaders,           // Partitions
  PartitionsWithOfflineLeader,     // Partitions
  PartitionLeadersOnBroker,        // broker → Partitions
  PartitionsBeingReassigned,       // Partitions
  OfflinePartitionCount,           // Count
  PartitionWithLeadersCount,       // Count
  IsTopicQueuedUpForDeletion,      // topic → Boolean
  IsTopicDeletionInProgress,       // topic → Boolean (the context's: deletion started)
  IsTopicEligibleForDeletion,      // topic → Boolean
};

// The arguments a context query takes, in order.
enum class QueryArguments : std::uint8_t {
  None, Broker, Brokers, Partition, Partitions, Topic, TopicAndReplicaState, PartitionStates, BrokerAndPartition,
};

struct ContextQueryInfo {
  ContextQuery query;
  std::string_view name;  // the action's word: Kafka's getter, kebab-cased
  QueryArguments arguments;
};

inline constexpr std::array<ContextQueryInfo, 25> kContextQueries = {{
    {ContextQuery::LiveBrokerIds, "live-broker-ids", QueryArguments::None},
    {ContextQuery::LiveOrShuttingDownBrokerIds, "live-or-shutting-down-broker-ids", QueryArguments::None},
    {ContextQuery::IsReplicaOnline, "is-replica-online", QueryArguments::BrokerAndPartition},
    {ContextQuery::PartitionReplicaAssignment, "partition-replica-assignment", QueryArguments::Partition},
    {ContextQuery::PartitionFullReplicaAssignment, "partition-full-replica-assignment", QueryArguments::Partition},
    {ContextQuery::AllPartitions, "all-partitions", QueryArguments::None},
    {ContextQuery::PartitionsForTopic, "partitions-for-topic", QueryArguments::Topic},
    {ContextQuery::PartitionsOnBroker, "partitions-on-broker", QueryArguments::Broker},
    {ContextQuery::ReplicasForTopic, "replicas-for-topic", QueryArguments::Topic},
    {ContextQuery::ReplicasOnBrokers, "replicas-on-brokers", QueryArguments::Brokers},
    {ContextQuery::ReplicasForPartition, "replicas-for-partition", QueryArguments::Partitions},
    {ContextQuery::PartitionsInStates, "partitions-in-states", QueryArguments::PartitionStates},
    {ContextQuery::ReplicasInState, "replicas-in-state", QueryArguments::TopicAndReplicaState},
    {ContextQuery::AreAllReplicasInState, "are-all-replicas-in-state", QueryArguments::TopicAndReplicaState},
    {ContextQuery::IsAnyReplicaInState, "is-any-replica-in-state", QueryArguments::TopicAndReplicaState},
    {ContextQuery::LeaderEpoch, "leader-epoch", QueryArguments::Partition},
    {ContextQuery::PartitionsWithLeaders, "partitions-with-leaders", QueryArguments::None},
    {ContextQuery::PartitionsWithOfflineLeader, "partitions-with-offline-leader", QueryArguments::None},
    {ContextQuery::PartitionLeadersOnBroker, "partition-leaders-on-broker", QueryArguments::Broker},
    {ContextQuery::PartitionsBeingReassigned, "partitions-being-reassigned", QueryArguments::None},
    {ContextQuery::OfflinePartitionCount, "offline-partition-count", QueryArguments::None},
    {ContextQuery::PartitionWithLeadersCount, "partition-with-leaders-count", QueryArguments::None},
    {ContextQuery::IsTopicQueuedUpForDeletion, "is-topic-queued-up-for-deletion", QueryArguments::Topic},
    {ContextQuery::IsTopicDeletionInProgress, "is-topic-deletion-in-progress", QueryArguments::Topic},
    {ContextQuery::IsTopicEligibleForDeletion, "is-topic-eligible-for-deletion", QueryArguments::Topic},
}};

struct ComponentCall {
  ComponentMethod method = ComponentMethod::PartitionStateMachineHandleStateChanges;
  PartitionSet partitions;                     // the partition state machine's; elect's partitions; a query's
  std::vector<PartitionAndReplica> replicas;   // the replica state machine's and the deletion manager's,
                                               // ascending by (broker, partition)
  TopicSet topics;                             // the deletion manager's; a query's topic
  TopicSet ineligible_topics;                  // TopicDeletionManager.init's initialTopicsIneligibleForDeletion
  PartitionState partition_target = PartitionState::OnlinePartition;
  ReplicaState replica_target = ReplicaState::OnlineReplica;
  std::optional<ElectionKind> election;        // the strategy (handle-state-changes) or algorithm (elect)
  bool unclean = false;                        // with ElectionKind::Offline: allowUnclean / uncleanLeaderElectionEnabled
  // The election algorithms' inputs (ElectionAlgorithm): `live` is liveReplicas, or for the
  // controlled-shutdown algorithm liveOrShuttingDownReplicas.
  BrokerList assignment;                       // assignment, or reassign's target replicas
  BrokerList isr;
  BrokerSet live;
  BrokerSet shutting_down;
  std::vector<BatchEntry> batch;               // RequestBatchSend
  ContextQuery query = ContextQuery::LiveBrokerIds;
  BrokerId broker = 0;                         // a query's broker
  BrokerSet brokers;                           // a query's brokers
  std::vector<PartitionState> partition_states;  // partitions-in-states, ascending
  bool include_shutting_down = false;          // is-replica-online
  std::optional<std::string> expected;         // `=> <result>`: what resultText must be
  friend bool operator==(const ComponentCall&, const ComponentCall&) = default;
};

// Whether a call needs an active controller (all but the election algorithms on given values).
constexpr bool needsActiveController(const ComponentCall& call) {
  return call.method != ComponentMethod::ElectionAlgorithm;
}

// One partition's election by Election.leaderFor* (the partition form of `elect`).
struct ElectionAnswer {
  TopicPartition tp;
  bool has_state_znode = true;                 // false: nothing to elect from (no LeaderAndIsr to read)
  std::optional<LeaderAndIsr> leader_and_isr;  // the new LeaderAndIsr; none: no leader could be elected
  BrokerList recipients;                       // who the LeaderAndIsr request would go to (Kafka's liveReplicas)
  friend bool operator==(const ElectionAnswer&, const ElectionAnswer&) = default;
};

// What a query or an election returns, as both versions report it. Sets are canonical: replicas
// ascending by (partition, broker).
struct ComponentAnswer {
  enum class Kind : std::uint8_t {
    None, Boolean, Count, Leader, Brokers, Brokers_in_order, Assignment, Partitions, Replicas, Elections,
  };
  Kind kind = Kind::None;
  bool boolean = false;
  std::int64_t count = 0;
  std::optional<BrokerId> leader;              // Leader: none when no leader can be elected
  BrokerSet brokers;
  BrokerList broker_list;                      // Brokers_in_order
  ReplicaAssignment assignment;
  PartitionSet partitions;
  std::vector<PartitionAndReplica> replicas;
  std::vector<ElectionAnswer> elections;       // ascending by partition
  friend bool operator==(const ComponentAnswer&, const ComponentAnswer&) = default;
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

// What a call came to: the exception that escaped (the steps before it stay taken) and the answer.
struct ComponentResult {
  ComponentException exception = ComponentException::None;
  ComponentAnswer answer;
  friend bool operator==(const ComponentResult&, const ComponentResult&) = default;
};

// Whether `line` (its first word) is a component action rather than a cluster action.
bool isComponentCallText(std::string_view line);

// Parses one component action; throws TextError(file, line_number, …) for anything else.
ComponentCall parseComponentCall(const Config& config, std::string_view line, std::string_view file, int line_number);

// The canonical text.
std::string printComponentCall(const Config& config, const ComponentCall& call);

// An answer as text: `true`, `3`, `leader 2`, `leader none`, `brokers 1,2`, `[2,1]`,
// `replicas [1,2] adding [] removing []`, `partitions t-0,t-1`, `replicas 1:t-0,2:t-0`, and for
// elections one `t-0: leader 2 leader-epoch 3 isr 2 recovery RECOVERED partition-epoch 1 to 1,2`
// (or `t-0: none to 1,2`, `t-0: no state znode`) per partition, joined by "; ". "" for None.
std::string printComponentAnswer(const Config& config, const ComponentAnswer& answer);

// What a call came to, as `=> <result>` states it: `throws <exception>`, the answer's text, or
// `done`.
std::string resultText(const Config& config, const ComponentResult& result);

// The names of the methods a component has, for messages and docs ("handle-state-changes", …).
std::string_view componentName(ComponentMethod method);
std::string_view methodName(ComponentMethod method);

}  // namespace kcspec
