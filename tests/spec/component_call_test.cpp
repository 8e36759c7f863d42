// Component actions (spec/vocabulary/component_call.hpp, spec/rules/components.hpp): their text,
// and the spec's components called on a given world — the partition and replica state machines,
// the topic deletion manager, the elections, the request batch and the controller context.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "spec/rules/components.hpp"
#include "spec/rules/controller_context.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

// The example: t-0 Online with leader 1 and ISR [1,2], broker 2 shutting down.
const std::string kScenario =
    "# kcspec scenario v1\n"
    "brokers 0 1 2\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  partition 1 replicas 2,1\n"
    "given\n"
    "controller 0\n"
    "broker 0 alive\n"
    "broker 1 alive\n"
    "broker 2 shutting-down\n"
    "partition t-0 leader 1 isr 1,2\n"
    "partition t-1 state NewPartition\n"
    "steps\n";  // line 13

struct CallRun {
  spec::ClusterState state;
  std::vector<spec::StateChangeRecord> changes;
  ComponentException thrown = ComponentException::None;
};

CallRun callOnGiven(const std::string& call_text) {
  const Scenario s = parseScenario(kScenario + call_text + "\n", "s.scenario");
  EXPECT_TRUE(s.steps.empty());
  EXPECT_EQ(s.calls.size(), 1u);
  CallRun run{spec::givenState(s.config, s.given->world)};
  spec::RecordingObserver observer;
  run.thrown = spec::callComponent(s.config, run.state, s.calls.at(0).call, observer).exception;
  run.changes = observer.record.state_changes;
  return run;
}

TEST(ComponentCall, ControlledShutdownElectionKeepsTheLeaderAndShrinksTheIsr) {
  const CallRun run = callOnGiven("partition-state-machine handle-state-changes t-0 OnlinePartition election controlled-shutdown");
  EXPECT_EQ(run.thrown, ComponentException::None);
  const LeaderAndIsr& lai = run.state.world.zk.topics[0].states[0]->leader_and_isr;
  EXPECT_EQ(lai.leader, 1);
  EXPECT_EQ(lai.isr, (BrokerList{1}));
  EXPECT_EQ(lai.leader_epoch, 1);
  // A LeaderAndIsr to both replicas, the shutting-down one included.
  for (BrokerId b : {1, 2}) {
    const auto& inbox = run.state.world.brokers[static_cast<std::size_t>(b)].inbox;
    ASSERT_FALSE(inbox.empty()) << b;
    EXPECT_EQ(inbox.front().kind, RequestKind::LeaderAndIsr) << b;
  }
  ASSERT_EQ(run.changes.size(), 1u);
  EXPECT_EQ(run.changes[0].outcome, spec::ChangeOutcome::Applied);
}

TEST(ComponentCall, AnInvalidTransitionIsRecordedAndSkipped) {
  // t-1 is NewPartition, which is not a valid previous state of NewPartition (kafka.md §1.4).
  const CallRun run = callOnGiven("partition-state-machine handle-state-changes t-1 NewPartition");
  ASSERT_EQ(run.changes.size(), 1u);
  EXPECT_EQ(run.changes[0].outcome, spec::ChangeOutcome::InvalidTransition);
  EXPECT_EQ(run.state.world.brokers[0].controller.context.partitions[1].state, PartitionState::NewPartition);
}

TEST(ComponentCall, ReplicaStateMachineTakesAReplicaOffline) {
  const CallRun run = callOnGiven("replica-state-machine handle-state-changes 2:t-0 OfflineReplica");
  EXPECT_EQ(run.thrown, ComponentException::None);
  EXPECT_EQ(run.state.world.brokers[0].controller.context.partitions[0].replica_states[2], ReplicaState::OfflineReplica);
  const LeaderAndIsr& lai = run.state.world.zk.topics[0].states[0]->leader_and_isr;
  EXPECT_EQ(lai.isr, (BrokerList{1}));  // removed from the ISR on the way to OfflineReplica (§3.2)
}

TEST(ComponentCall, AFencedWriteThrowsControllerMoved) {
  const Scenario s = parseScenario(kScenario + "partition-state-machine handle-state-changes t-0 OnlinePartition "
                                               "election controlled-shutdown\n",
                                   "s.scenario");
  spec::ClusterState state = spec::givenState(s.config, s.given->world);
  ++state.world.zk.controller_epoch_zk_version;  // another controller wrote /controller_epoch since
  const spec::ClusterState before = state;
  spec::RecordingObserver observer;
  EXPECT_EQ(spec::callComponent(s.config, state, s.calls[0].call, observer).exception, ComponentException::ControllerMoved);
  EXPECT_EQ(state.world.zk, before.world.zk);
}

// ---- The components beyond the state machines -------------------------------------------------

// A call on the world `scenario` states (its text up to and including `steps`), after `adjust`
// has changed that world where no given statement can.
struct Answered {
  spec::ClusterState before;
  spec::ClusterState state;
  std::vector<spec::StateChangeRecord> changes;
  ComponentResult result;
  Config config;
};

Answered callOn(const std::string& scenario, const std::string& call_text,
                const std::function<void(spec::ClusterState&)>& adjust = {}) {
  const Scenario s = parseScenario(scenario + call_text + "\n", "s.scenario");
  EXPECT_EQ(s.calls.size(), 1u);
  Answered run;
  run.config = s.config;
  run.state = s.given ? spec::givenState(s.config, s.given->world) : spec::initialState(s.config);
  if (adjust) adjust(run.state);
  run.before = run.state;
  spec::RecordingObserver observer;
  run.result = spec::callComponent(s.config, run.state, s.calls.at(0).call, observer);
  run.changes = observer.record.state_changes;
  return run;
}

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kT1{0, 1};
constexpr TopicPartition kU0{1, 0};

const spec::Context& contextOf(const spec::ClusterState& state) { return state.world.brokers[0].controller.context; }

std::optional<ReplicaState> replicaStateOf(const spec::ClusterState& state, TopicPartition tp, BrokerId b) {
  return spec::replicaState(contextOf(state), tp, b);
}

const BoundedList<ControlRequest, kMaxRequestsPerBroker>& inboxOf(const spec::ClusterState& state, BrokerId b) {
  return state.world.brokers[static_cast<std::size_t>(b)].inbox;
}

std::vector<RequestKind> kindsIn(const spec::ClusterState& state, BrokerId b) {
  std::vector<RequestKind> kinds;
  for (const ControlRequest& request : inboxOf(state, b)) kinds.push_back(request.kind);
  return kinds;
}

// Whether broker b was sent StopReplica(deletePartition = true) for tp.
bool sentStopReplicaDelete(const spec::ClusterState& state, BrokerId b, TopicPartition tp) {
  for (const ControlRequest& request : inboxOf(state, b)) {
    if (request.kind != RequestKind::StopReplica) continue;
    for (const StopReplicaPartitionState& entry : request.stop_replica) {
      if (entry.tp == tp && entry.delete_partition) return true;
    }
  }
  return false;
}

// Two topics on three live brokers; `given` adds the topic statements and whatever else.
std::string deletionScenario(const std::string& given, bool delete_topic_enable = true) {
  return std::string("# kcspec scenario v1\n") + (delete_topic_enable ? "" : "delete.topic.enable false\n") +
         "brokers 0 1 2\n"
         "topic t\n"
         "  partition 0 replicas 1,2\n"
         "topic u\n"
         "  partition 0 replicas 2,1\n"
         "given\n"
         "controller 0\n"
         "broker 0 alive\n"
         "broker 1 alive\n"
         "broker 2 alive\n" +
         given + "steps\n";
}

// t's replicas both ReplicaDeletionStarted: the deletion was started and StopReplica sent.
const std::string kDeletionStarted =
    "topic t to-be-deleted deletion-started\n"
    "topic u\n"
    "partition t-0 leader 1 isr 1,2 state NonExistentPartition\n"
    "replica 1 t-0 ReplicaDeletionStarted\n"
    "replica 2 t-0 ReplicaDeletionStarted\n";

TEST(ComponentCall, EnqueueTopicsForDeletionStartsDeletingAReplicaSetThatIsAllOnline) {
  const Answered run = callOn(deletionScenario("topic t\ntopic u\n"), "topic-deletion-manager enqueue-topics-for-deletion t");
  EXPECT_EQ(run.result, ComponentResult{});
  const spec::Context& ctx = contextOf(run.state);
  EXPECT_TRUE(ctx.topics_to_be_deleted.contains(0));
  EXPECT_TRUE(ctx.topics_with_deletion_started.contains(0));
  EXPECT_EQ(spec::partition(ctx, kT0).state, PartitionState::NonExistentPartition);
  for (BrokerId b : {1, 2}) {
    EXPECT_EQ(replicaStateOf(run.state, kT0, b), ReplicaState::ReplicaDeletionStarted) << b;
    EXPECT_TRUE(sentStopReplicaDelete(run.state, b, kT0)) << b;
  }
  // The other topic is left alone.
  EXPECT_EQ(replicaStateOf(run.state, kU0, 1), ReplicaState::OnlineReplica);
  EXPECT_FALSE(ctx.topics_to_be_deleted.contains(1));
}

TEST(ComponentCall, EnqueueTopicsForDeletionDoesNothingWhenDeletionIsDisabled) {
  const Answered run = callOn(deletionScenario("topic t\ntopic u\n", false),
                              "topic-deletion-manager enqueue-topics-for-deletion t");
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_EQ(run.state, run.before);
}

TEST(ComponentCall, FailReplicaDeletionMakesTheTopicIneligible) {
  const Answered run = callOn(deletionScenario(kDeletionStarted), "topic-deletion-manager fail-replica-deletion 1:t-0");
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_EQ(replicaStateOf(run.state, kT0, 1), ReplicaState::ReplicaDeletionIneligible);
  EXPECT_EQ(replicaStateOf(run.state, kT0, 2), ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(contextOf(run.state).topics_ineligible_for_deletion.contains(0));
  EXPECT_TRUE(contextOf(run.state).topics_to_be_deleted.contains(0));
}

TEST(ComponentCall, FailReplicaDeletionOfATopicNotQueuedChangesNothing) {
  const Answered run = callOn(deletionScenario(kDeletionStarted), "topic-deletion-manager fail-replica-deletion 1:u-0");
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_EQ(run.state, run.before);
}

TEST(ComponentCall, CompleteReplicaDeletionOfEveryReplicaCompletesTheTopicsDeletion) {
  const Answered run = callOn(deletionScenario(kDeletionStarted),
                              "topic-deletion-manager complete-replica-deletion 1:t-0,2:t-0");
  EXPECT_EQ(run.result, ComponentResult{});
  const spec::Context& ctx = contextOf(run.state);
  EXPECT_FALSE(run.state.world.zk.topics[0].exists);  // /brokers/topics/t deleted
  EXPECT_TRUE(run.state.world.zk.topics[1].exists);
  EXPECT_FALSE(ctx.all_topics.contains(0));
  EXPECT_TRUE(ctx.topics_to_be_deleted.empty());
  EXPECT_FALSE(spec::partition(ctx, kT0).assignment.has_value());
  EXPECT_EQ(replicaStateOf(run.state, kT0, 1), std::nullopt);  // NonExistentReplica: the entry is removed
  // Deleting /brokers/topics/t fired the controller's child watch on /brokers/topics.
  EXPECT_TRUE(run.state.world.brokers[0].controller.events.contains(ControllerEvent{.kind = ControllerEventKind::TopicChange}));
}

TEST(ComponentCall, CompletingTheDeletionOfATopicWithoutZnodesFiresNoWatch) {
  // t is queued but /brokers/topics/t does not exist (only a component action can queue such a
  // topic): it has no replicas, so tryTopicDeletion completes its deletion at once, and
  // deleteRecursive finds no znode to delete (NONODE) — nothing is written, no watch fires.
  const Answered run = callOn(deletionScenario("topic u\n"), "topic-deletion-manager try-topic-deletion",
                              [](spec::ClusterState& s) { s.world.brokers[0].controller.context.topics_to_be_deleted.insert(0); });
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_FALSE(run.before.world.zk.topics[0].exists);
  EXPECT_TRUE(contextOf(run.state).topics_to_be_deleted.empty());
  EXPECT_EQ(run.state.world.zk, run.before.world.zk);
  EXPECT_TRUE(run.state.world.brokers[0].controller.events.empty());
}

TEST(ComponentCall, CompleteReplicaDeletionOfOneReplicaLeavesTheTopic) {
  const Answered run = callOn(deletionScenario(kDeletionStarted), "topic-deletion-manager complete-replica-deletion 2:t-0");
  EXPECT_EQ(replicaStateOf(run.state, kT0, 2), ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_EQ(replicaStateOf(run.state, kT0, 1), ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(run.state.world.zk.topics[0].exists);
  EXPECT_TRUE(contextOf(run.state).topics_to_be_deleted.contains(0));
}

TEST(ComponentCall, MarkTopicIneligibleForDeletionOnlyMarksQueuedTopics) {
  const Answered run = callOn(deletionScenario("topic t to-be-deleted\ntopic u\n"),
                              "topic-deletion-manager mark-topic-ineligible-for-deletion t,u");
  EXPECT_EQ(contextOf(run.state).topics_ineligible_for_deletion, TopicSet{0});
  spec::ClusterState expected = run.before;
  expected.world.brokers[0].controller.context.topics_ineligible_for_deletion = TopicSet{0};
  EXPECT_EQ(run.state, expected);  // nothing else
}

TEST(ComponentCall, ResumeDeletionForTopicsRetriesTheIneligibleReplicas) {
  const Answered run = callOn(deletionScenario("topic t to-be-deleted deletion-started ineligible-for-deletion\n"
                                               "topic u\n"
                                               "partition t-0 leader 1 isr 1,2 state NonExistentPartition\n"
                                               "replica 1 t-0 ReplicaDeletionIneligible\n"
                                               "replica 2 t-0 ReplicaDeletionIneligible\n"),
                              "topic-deletion-manager resume-deletion-for-topics t");
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_FALSE(contextOf(run.state).topics_ineligible_for_deletion.contains(0));
  for (BrokerId b : {1, 2}) {
    EXPECT_EQ(replicaStateOf(run.state, kT0, b), ReplicaState::ReplicaDeletionStarted) << b;
    EXPECT_TRUE(sentStopReplicaDelete(run.state, b, kT0)) << b;
  }
}

TEST(ComponentCall, InitQueuesTheTopicsAndKeepsOnlyQueuedOnesIneligible) {
  const Answered run = callOn(deletionScenario("topic t\ntopic u\n"), "topic-deletion-manager init t ineligible t,u");
  EXPECT_EQ(run.result, ComponentResult{});
  EXPECT_EQ(contextOf(run.state).topics_to_be_deleted, TopicSet{0});
  EXPECT_EQ(contextOf(run.state).topics_ineligible_for_deletion, TopicSet{0});
  EXPECT_TRUE(contextOf(run.state).topics_with_deletion_started.empty());  // init starts nothing
  EXPECT_TRUE(inboxOf(run.state, 1).empty());
}

TEST(ComponentCall, InitWithDeletionDisabledRemovesTheDeletionZnodes) {
  const Answered run = callOn(deletionScenario("topic t to-be-deleted\ntopic u\n", false), "topic-deletion-manager init t");
  EXPECT_TRUE(run.before.world.zk.delete_topics.contains(0));
  EXPECT_FALSE(run.state.world.zk.delete_topics.contains(0));  // /admin/delete_topics/t
}

TEST(ComponentCall, TryTopicDeletionStartsTheQueuedTopics) {
  const Answered run = callOn(deletionScenario("topic t to-be-deleted\ntopic u\n"), "topic-deletion-manager try-topic-deletion");
  EXPECT_TRUE(contextOf(run.state).topics_with_deletion_started.contains(0));
  EXPECT_EQ(replicaStateOf(run.state, kT0, 1), ReplicaState::ReplicaDeletionStarted);
  const Answered disabled = callOn(deletionScenario("topic t to-be-deleted\ntopic u\n", false),
                                   "topic-deletion-manager try-topic-deletion");
  EXPECT_EQ(disabled.state, disabled.before);
}

TEST(ComponentCall, IsTopicQueuedUpForDeletionIsFalseWheneverDeletionIsDisabled) {
  const auto queued = [](bool enabled, const std::string& call) {
    const Answered run = callOn(deletionScenario("topic t to-be-deleted\ntopic u\n", enabled), call);
    EXPECT_EQ(run.state, run.before);
    EXPECT_EQ(run.result.answer.kind, ComponentAnswer::Kind::Boolean);
    return run.result.answer.boolean;
  };
  EXPECT_TRUE(queued(true, "topic-deletion-manager is-topic-queued-up-for-deletion t"));
  EXPECT_FALSE(queued(true, "topic-deletion-manager is-topic-queued-up-for-deletion u"));
  EXPECT_FALSE(queued(false, "topic-deletion-manager is-topic-queued-up-for-deletion t"));
  // The context's getter does not look at delete.topic.enable.
  EXPECT_TRUE(queued(false, "controller-context is-topic-queued-up-for-deletion t"));
}

// PartitionLeaderElectionAlgorithmsTest's values; no world (and no controller) is needed.
const std::string kNoController =
    "# kcspec scenario v1\n"
    "brokers 0 1 2 3 4\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "steps\n";

std::optional<BrokerId> elected(const std::string& call) {
  const Answered run = callOn(kNoController, call);
  EXPECT_EQ(run.result.exception, ComponentException::None) << call;
  EXPECT_EQ(run.result.answer.kind, ComponentAnswer::Kind::Leader) << call;
  EXPECT_EQ(run.state, run.before) << call;
  return run.result.answer.leader;
}

TEST(ComponentCall, ElectionAlgorithmsOnKafkasUnitTestValues) {
  EXPECT_EQ(activeControllerOf(spec::initialState(parseScenario(kNoController, "s").config).world), kNoLeader);
  EXPECT_EQ(elected("elect offline assignment 2,4 isr 2,4 live 4"), 4);
  EXPECT_EQ(elected("elect offline assignment 2,4 isr 2 live 4"), std::nullopt);
  EXPECT_EQ(elected("elect offline assignment 2,4 isr 2 live 4 unclean"), 4);
  EXPECT_EQ(elected("elect offline assignment 2,4 isr none live 4 unclean"), 4);
  EXPECT_EQ(elected("elect offline assignment 2,4 isr none live none unclean"), std::nullopt);
  EXPECT_EQ(elected("elect reassign target 2,4 isr 2,4 live 2,4"), 2);
  EXPECT_EQ(elected("elect reassign target 2,4 isr 2 live 4"), std::nullopt);
  EXPECT_EQ(elected("elect reassign target 2,4 isr none live 2"), std::nullopt);
  EXPECT_EQ(elected("elect preferred assignment 2,4 isr 2,4 live 2,4"), 2);
  EXPECT_EQ(elected("elect preferred assignment 2,4 isr 4 live 2,4"), std::nullopt);  // the head is not in the ISR
  EXPECT_EQ(elected("elect preferred assignment 2,4 isr 2,4 live 4"), std::nullopt);  // no fallback
  EXPECT_EQ(elected("elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down none"), 2);
  EXPECT_EQ(elected("elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down 2"), 4);
  EXPECT_EQ(elected("elect controlled-shutdown assignment 2,4 isr 2 live-or-shutting-down 2,4 shutting-down 2"),
            std::nullopt);
  EXPECT_EQ(elected("elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down 2,4"),
            std::nullopt);
}

LeaderAndIsr leaderAndIsr(BrokerId leader, std::int32_t leader_epoch, BrokerList isr, std::int32_t partition_epoch,
                          LeaderRecoveryState recovery = LeaderRecoveryState::RECOVERED) {
  return LeaderAndIsr{leader, leader_epoch, recovery, isr, partition_epoch};
}

// Election.leaderFor* answers and changes nothing: no write, no state change, no request.
std::vector<ElectionAnswer> electionsOn(const std::string& scenario, const std::string& call) {
  const Answered run = callOn(scenario, call);
  EXPECT_EQ(run.result.exception, ComponentException::None) << call;
  EXPECT_EQ(run.result.answer.kind, ComponentAnswer::Kind::Elections) << call;
  EXPECT_EQ(run.state, run.before) << call;
  EXPECT_TRUE(run.changes.empty()) << call;
  return run.result.answer.elections;
}

TEST(ComponentCall, ElectPartitionsAnswersTheNewLeaderAndIsrAndItsRecipients) {
  // t-0: leader 1, ISR [1,2], broker 2 shutting down; t-1 has no state znode.
  EXPECT_EQ(electionsOn(kScenario, "elect controlled-shutdown partitions t-1,t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(1, 1, {1}, 0), {1, 2}}, {kT1, false, {}, {}}}));
  EXPECT_EQ(electionsOn(kScenario, "elect preferred partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(1, 1, {1, 2}, 0), {1, 2}}}));
  // Offline: a shutting-down broker is not online, neither in the new ISR nor among the recipients.
  EXPECT_EQ(electionsOn(kScenario, "elect offline partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(1, 1, {1}, 0), {1}}}));
}

const std::string kLeaderDead =
    "# kcspec scenario v1\n"
    "brokers 0 1 2\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "given\n"
    "controller 0\n"
    "broker 0 alive\n"
    "broker 2 alive\n"
    "partition t-0 leader 1 isr 1 leader-epoch 3 partition-epoch 5\n"
    "steps\n";

TEST(ComponentCall, ElectOfflinePartitionsIsUncleanOnlyWhenAllowed) {
  EXPECT_EQ(electionsOn(kLeaderDead, "elect offline partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, std::nullopt, {2}}}));  // none, but the recipients still
  EXPECT_EQ(electionsOn(kLeaderDead, "elect offline partitions t-0 unclean"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(2, 4, {2}, 5, LeaderRecoveryState::RECOVERING), {2}}}));
  // The topic's unclean.leader.election.enable, read from /config/topics/t, allows it too.
  std::string topic_unclean = kLeaderDead;
  topic_unclean.replace(topic_unclean.find("given\n"), 0, "  unclean.leader.election.enable true\n");
  EXPECT_EQ(electionsOn(topic_unclean, "elect offline partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(2, 4, {2}, 5, LeaderRecoveryState::RECOVERING), {2}}}));
  // The preferred replica is dead: no leader, and the recipients are every replica.
  EXPECT_EQ(electionsOn(kLeaderDead, "elect preferred partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, std::nullopt, {1, 2}}}));
}

TEST(ComponentCall, ElectReassignPartitionsTakesTheTargetReplicas) {
  const std::string reassigning =
      "# kcspec scenario v1\n"
      "brokers 0 1 2\n"
      "topic t\n"
      "  partition 0 replicas 1,2\n"
      "given\n"
      "controller 0\n"
      "broker 0 alive\n"
      "broker 1 alive\n"
      "broker 2 alive\n"
      "partition t-0 replicas 1,2 removing 1 leader 1 isr 1,2\n"
      "steps\n";
  EXPECT_EQ(electionsOn(reassigning, "elect reassign partitions t-0"),
            (std::vector<ElectionAnswer>{{kT0, true, leaderAndIsr(2, 1, {1, 2}, 0), {2}}}));
}

TEST(ComponentCall, RequestBatchSendPutsTheRequestsInTheInboxes) {
  const Answered run =
      callOn(kScenario, "request-batch send leader-and-isr 1,2 t-0 is-new; stop-replica 2 t-1 delete; update-metadata 0");
  EXPECT_EQ(run.result, ComponentResult{});
  // LeaderAndIsr, then UpdateMetadata (to every registered broker, for the LeaderAndIsr's partition),
  // then StopReplica; the shutting-down broker 2 is registered and receives all three.
  EXPECT_EQ(kindsIn(run.state, 0), (std::vector<RequestKind>{RequestKind::UpdateMetadata}));
  EXPECT_EQ(kindsIn(run.state, 1), (std::vector<RequestKind>{RequestKind::LeaderAndIsr, RequestKind::UpdateMetadata}));
  EXPECT_EQ(kindsIn(run.state, 2), (std::vector<RequestKind>{RequestKind::LeaderAndIsr, RequestKind::UpdateMetadata,
                                                             RequestKind::StopReplica}));
  const ControlRequest& leader_and_isr = inboxOf(run.state, 1)[0];
  ASSERT_EQ(leader_and_isr.leader_and_isr.size(), 1u);
  EXPECT_EQ(leader_and_isr.leader_and_isr[0].tp, kT0);
  EXPECT_TRUE(leader_and_isr.leader_and_isr[0].is_new);
  EXPECT_EQ(leader_and_isr.leader_and_isr[0].leadership, *spec::partition(contextOf(run.before), kT0).leadership);
  EXPECT_EQ(leader_and_isr.leader_and_isr[0].assignment.replicas, (BrokerList{1, 2}));
  const ControlRequest& update_metadata = inboxOf(run.state, 0)[0];
  ASSERT_EQ(update_metadata.update_metadata.size(), 1u);  // t-1 has no leader: not advertised
  EXPECT_EQ(update_metadata.update_metadata[0].tp, kT0);
  const ControlRequest& stop_replica = inboxOf(run.state, 2)[2];
  EXPECT_EQ(stop_replica.stop_replica[0], (StopReplicaPartitionState{kT1, LeaderAndIsr::kNoEpoch, true}));
  EXPECT_EQ(stop_replica.response_wanted, PartitionSet{kT1});
  // Sending changes nothing but the inboxes.
  EXPECT_EQ(run.state.world.zk, run.before.world.zk);
  EXPECT_EQ(run.state.world.brokers[0].controller, run.before.world.brokers[0].controller);
}

TEST(ComponentCall, RequestBatchSendWithoutCachedLeadershipThrowsAndSendsNothing) {
  // update-metadata comes first but nothing is added: the leadership is looked up before.
  const Answered run = callOn(kScenario, "request-batch send update-metadata 0,1,2; leader-and-isr 1 t-1");
  EXPECT_EQ(run.result.exception, ComponentException::Other);
  EXPECT_EQ(run.state, run.before);
}

ComponentAnswer asked(const std::string& query, const std::function<void(spec::ClusterState&)>& adjust = {}) {
  const Answered run = callOn(kScenario, "controller-context " + query, adjust);
  EXPECT_EQ(run.result.exception, ComponentException::None) << query;
  EXPECT_EQ(run.state, run.before) << query;
  return run.result.answer;
}

TEST(ComponentCall, ContextQueriesAnswerCanonicallyAndChangeNothing) {
  using Kind = ComponentAnswer::Kind;
  EXPECT_EQ(asked("live-broker-ids"), (ComponentAnswer{.kind = Kind::Brokers, .brokers = BrokerSet{0, 1}}));
  EXPECT_EQ(asked("live-or-shutting-down-broker-ids"),
            (ComponentAnswer{.kind = Kind::Brokers, .brokers = BrokerSet{0, 1, 2}}));
  EXPECT_FALSE(asked("is-replica-online 2 t-0").boolean);
  EXPECT_TRUE(asked("is-replica-online 2 t-0 include-shutting-down").boolean);
  EXPECT_EQ(asked("partition-replica-assignment t-1"),
            (ComponentAnswer{.kind = Kind::Brokers_in_order, .broker_list = BrokerList{2, 1}}));
  EXPECT_EQ(asked("partition-full-replica-assignment t-0").assignment.replicas, (BrokerList{1, 2}));
  EXPECT_EQ(asked("partitions-in-states NewPartition"),
            (ComponentAnswer{.kind = Kind::Partitions, .partitions = PartitionSet{kT1}}));
  EXPECT_EQ(asked("partitions-in-states OnlinePartition,NewPartition topic t").partitions, (PartitionSet{kT0, kT1}));
  // Ascending by (partition, broker), whatever the assignment's order (t-1 is [2,1]).
  EXPECT_EQ(asked("replicas-for-partition t-1,t-0").replicas,
            (std::vector<PartitionAndReplica>{{kT0, 1}, {kT0, 2}, {kT1, 1}, {kT1, 2}}));
  EXPECT_EQ(asked("replicas-on-brokers 2").replicas, (std::vector<PartitionAndReplica>{{kT0, 2}, {kT1, 2}}));
  EXPECT_EQ(asked("leader-epoch t-0"), (ComponentAnswer{.kind = Kind::Count, .count = 0}));
  EXPECT_EQ(asked("leader-epoch t-1").count, -1);
  EXPECT_EQ(asked("partition-with-leaders-count").count, 1);
  EXPECT_EQ(asked("partitions-with-leaders").partitions, PartitionSet{kT0});
  EXPECT_EQ(asked("partition-leaders-on-broker 1").partitions, PartitionSet{kT0});
  EXPECT_TRUE(asked("partitions-with-offline-leader").partitions.empty());
  EXPECT_EQ(asked("offline-partition-count").count, 0);
  EXPECT_TRUE(asked("are-all-replicas-in-state t OnlineReplica").boolean);
  EXPECT_FALSE(asked("is-any-replica-in-state t OfflineReplica").boolean);
  // Taking the leader's broker away (its death not processed) makes t-0's leader offline.
  const auto leader_gone = [](spec::ClusterState& s) {
    s.world.brokers[0].controller.context.live_broker_epochs[1] = -1;
  };
  EXPECT_EQ(asked("partitions-with-offline-leader", leader_gone).partitions, PartitionSet{kT0});
  EXPECT_EQ(asked("partition-with-leaders-count", leader_gone).count, 1);
}

TEST(ComponentCall, PartitionsInStatesOfATopicThrowsForAPartitionWithoutAState) {
  const auto forget_t1 = [](spec::ClusterState& s) {
    spec::partition(s.world.brokers[0].controller.context, kT1).state.reset();
  };
  const Answered run = callOn(kScenario, "controller-context partitions-in-states OnlinePartition topic t", forget_t1);
  EXPECT_EQ(run.result.exception, ComponentException::Other);
  EXPECT_EQ(run.state, run.before);
  // Over all partitions, the partition without a state is simply not in any.
  EXPECT_EQ(asked("partitions-in-states OnlinePartition,NewPartition", forget_t1).partitions, PartitionSet{kT0});
}

TEST(ComponentCall, TheContextsDeletionGetters) {
  const auto ask = [](const std::string& given, const std::string& query) {
    const Answered run = callOn(deletionScenario(given), "controller-context " + query);
    EXPECT_EQ(run.state, run.before);
    return run.result.answer;
  };
  EXPECT_FALSE(ask("topic t to-be-deleted\ntopic u\n", "is-topic-deletion-in-progress t").boolean);
  EXPECT_TRUE(ask(kDeletionStarted, "is-topic-deletion-in-progress t").boolean);
  EXPECT_TRUE(ask("topic t to-be-deleted\ntopic u\n", "is-topic-eligible-for-deletion t").boolean);
  EXPECT_FALSE(ask("topic t to-be-deleted ineligible-for-deletion\ntopic u\n", "is-topic-eligible-for-deletion t").boolean);
  EXPECT_FALSE(ask("topic t\ntopic u\n", "is-topic-eligible-for-deletion t").boolean);
  EXPECT_EQ(ask("topic t to-be-deleted\ntopic u\n", "leader-epoch t-0").count, LeaderAndIsr::kEpochDuringDelete);
  EXPECT_TRUE(ask("topic t to-be-deleted\ntopic u\n", "partitions-with-leaders").partitions == PartitionSet{kU0});
  EXPECT_EQ(ask(kDeletionStarted, "replicas-in-state t ReplicaDeletionStarted").replicas,
            (std::vector<PartitionAndReplica>{{kT0, 1}, {kT0, 2}}));
}

TEST(ComponentCall, PrintsAndParsesBackInTheirPlaceAmongTheSteps) {
  const std::string text = kScenario +
                           "replica-state-machine handle-state-changes 2:t-1,1:t-0,2:t-0 OfflineReplica\n"
                           "crash 1\n"
                           "partition-state-machine handle-state-changes t-1,t-0 OnlinePartition election offline unclean\n";
  const Scenario s = parseScenario(text, "s.scenario");
  ASSERT_EQ(s.calls.size(), 2u);
  EXPECT_EQ(s.calls[0].after_steps, 0u);
  EXPECT_EQ(s.calls[0].line, 14);
  EXPECT_EQ(s.calls[1].after_steps, 1u);
  // Replicas by broker, then partition.
  EXPECT_EQ(s.calls[0].call.replicas,
            (std::vector<PartitionAndReplica>{{{0, 0}, 1}, {{0, 0}, 2}, {{0, 1}, 2}}));
  const std::string printed = printScenario(s);
  EXPECT_NE(printed.find("replica-state-machine handle-state-changes 1:t-0,2:t-0,2:t-1 OfflineReplica\ncrash 1\n"
                         "partition-state-machine handle-state-changes t-0,t-1 OnlinePartition election offline unclean\n"),
            std::string::npos)
      << printed;
  const Scenario again = parseScenario(printed, "printed.scenario");
  ASSERT_EQ(again.calls.size(), 2u);
  EXPECT_EQ(again.calls[1].call, s.calls[1].call);
  EXPECT_EQ(printScenario(again), printed);
}

TEST(ComponentCall, RejectsBadCallsWithFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"partition-state-machine elect t-0 OnlinePartition", "has one method"},
      {"partition-state-machine handle-state-changes t-0", "expected `partition-state-machine handle-state-changes"},
      {"partition-state-machine handle-state-changes t-0 Online", "unknown partition state `Online`"},
      {"partition-state-machine handle-state-changes t-5 OnlinePartition", "has no partition 5"},
      {"partition-state-machine handle-state-changes u-0 OnlinePartition", "unknown topic `u`"},
      {"partition-state-machine handle-state-changes t-0,t-0 OnlinePartition", "appears twice"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition election fast", "unknown election `fast`"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition unclean", "`unclean` goes with `election offline`"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition extra", "unexpected `extra`"},
      {"replica-state-machine handle-state-changes t-0 OfflineReplica", "bad replica `t-0`"},
      {"replica-state-machine handle-state-changes 7:t-0 OfflineReplica", "broker 7 is not one of the configuration's"},
      {"replica-state-machine handle-state-changes 1:t-0 Offline", "unknown replica state `Offline`"},
  };
  for (const auto& [call, message] : cases) {
    SCOPED_TRACE(call);
    try {
      parseScenario(kScenario + "crash 1\n" + call + "\n", "bad.scenario");
      ADD_FAILURE() << "accepted";
    } catch (const TextError& e) {
      EXPECT_EQ(e.line, 15) << e.what();
      EXPECT_NE(e.message.find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace kcspec
