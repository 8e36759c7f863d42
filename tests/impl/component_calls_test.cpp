// Component actions on the reference controller (impl/component_calls.cpp): the topic deletion
// manager's methods, the election algorithms on Kafka's unit-test values, Election.leaderFor* on
// a partition's state znode, the controller's request batch and ControllerContext's getters,
// each called on a stated world (issue 28) the way Kafka's own controller unit tests call them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/state_change_logger.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {
namespace {

// t-0 [1,2] led by 1 with ISR [1,2]; t-1 [2,1] never initialized (NewPartition, no znode); topic
// u's u-0 [1,2] led by 2 at leader epoch 3; broker 2 shutting down.
const std::string kWorld =
    "# kcspec scenario v1\n"
    "brokers 0 1 2\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  partition 1 replicas 2,1\n"
    "topic u\n"
    "  partition 0 replicas 1,2\n"
    "given\n"
    "controller 0\n"
    "broker 0 alive\n"
    "broker 1 alive\n"
    "broker 2 shutting-down\n"
    "partition t-0 leader 1 isr 1,2\n"
    "partition t-1 state NewPartition\n"
    "partition u-0 leader 2 isr 1,2 leader-epoch 3 partition-epoch 4\n";

// A deletion world: topic t (t-0 [1,2]) with the given deletion flags and replica states, all
// three brokers alive; topic u untouched.
std::string deletionWorld(const std::string& topic_flags, const std::string& more = "",
                          const std::string& config_more = "") {
  return "# kcspec scenario v1\n"
         "brokers 0 1 2\n" +
         config_more +
         "topic t\n"
         "  partition 0 replicas 1,2\n"
         "topic u\n"
         "  partition 0 replicas 1,2\n"
         "given\n"
         "controller 0\n"
         "broker 0 alive\n"
         "broker 1 alive\n"
         "broker 2 alive\n"
         "topic t" +
         topic_flags +
         "\n"
         "topic u\n" +
         more;
}

struct Called {
  Scenario scenario;
  Observation before;
  Observation after;
  ComponentResult result;
  std::string log;  // the state-change log the call wrote
};

Scenario parsed(const std::string& world, const std::string& call_line) {
  Scenario s = parseScenario(world + "steps\n" + call_line + "\n", "component.scenario");
  EXPECT_TRUE(s.steps.empty());
  EXPECT_EQ(s.calls.size(), 1u);
  return s;
}

Called callOn(const Scenario& s, const Observation& world) {
  TextLogSink sink;
  ImplCluster cluster(s.config, world, Mutants{}, LogTarget{&sink});
  Called called{s, cluster.observe(), {}, {}, {}};
  EXPECT_TRUE(cluster.callComponentPossible(s.calls.at(0).call));
  called.result = cluster.callComponent(s.calls.at(0).call);
  called.after = cluster.observe();
  called.log = sink.text();
  return called;
}

Called call(const std::string& world, const std::string& call_line) {
  const Scenario s = parsed(world, call_line);
  return callOn(s, s.given->world);
}

std::string changes(const Called& c) {
  return renderChangesText(diffObservations(c.scenario.config, c.before, c.after));
}

const ControllerContextData& context(const Observation& world) { return world.brokers[0].controller.context; }
const PartitionContext& partition(const Observation& world, TopicPartition tp) {
  return context(world).partitions[static_cast<std::size_t>(partitionIndex(tp))];
}

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kT1{0, 1};
constexpr TopicPartition kU0{1, 0};
constexpr TopicIndex kT = 0;
constexpr TopicIndex kU = 1;

// ------------------------------------------------------------------ TopicDeletionManager

TEST(ComponentCalls, EnqueueTopicsForDeletionStartsTheDeletion) {
  const Called c = call(deletionWorld(""), "topic-deletion-manager enqueue-topics-for-deletion t");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(c.result.answer.kind, ComponentAnswer::Kind::None);
  EXPECT_TRUE(context(c.after).topics_to_be_deleted.contains(kT));
  EXPECT_TRUE(context(c.after).topics_with_deletion_started.contains(kT));
  EXPECT_EQ(partition(c.after, kT0).state, PartitionState::NonExistentPartition);
  for (BrokerId b : {1, 2}) {
    EXPECT_EQ(partition(c.after, kT0).replica_states[static_cast<std::size_t>(b)], ReplicaState::ReplicaDeletionStarted) << b;
  }
  // u is not touched.
  EXPECT_FALSE(context(c.after).topics_to_be_deleted.contains(kU));
  EXPECT_EQ(partition(c.after, kU0), partition(c.before, kU0));
}

TEST(ComponentCalls, InitQueuesTheTopicsAndKeepsOnlyQueuedOnesIneligibleWithoutStartingAnything) {
  const Called c = call(deletionWorld(""), "topic-deletion-manager init t ineligible t,u");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(context(c.after).topics_to_be_deleted, (TopicSet{kT}));
  EXPECT_EQ(context(c.after).topics_ineligible_for_deletion, (TopicSet{kT}));  // u is not queued
  EXPECT_TRUE(context(c.after).topics_with_deletion_started.empty());
  EXPECT_EQ(partition(c.after, kT0), partition(c.before, kT0));
}

TEST(ComponentCalls, InitWithDeletionDisabledRemovesTheDeletionZnodes) {
  const Called c = call(deletionWorld(" to-be-deleted", "", "delete.topic.enable false\n"),
                        "topic-deletion-manager init t");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_TRUE(c.before.zk.delete_topics.contains(kT));
  EXPECT_FALSE(c.after.zk.delete_topics.contains(kT)) << changes(c);
}

TEST(ComponentCalls, TryTopicDeletionStartsAQueuedTopic) {
  const Called c = call(deletionWorld(" to-be-deleted"), "topic-deletion-manager try-topic-deletion");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_FALSE(context(c.before).topics_with_deletion_started.contains(kT));
  EXPECT_TRUE(context(c.after).topics_with_deletion_started.contains(kT));
  // StopReplica(delete=true) to both replicas.
  for (BrokerId b : {1, 2}) {
    bool stop_delete = false;
    for (const ControlRequest& r : c.after.brokers[static_cast<std::size_t>(b)].inbox) {
      for (const StopReplicaPartitionState& s : r.stop_replica) stop_delete = stop_delete || (s.tp == kT0 && s.delete_partition);
    }
    EXPECT_TRUE(stop_delete) << b << "\n" << changes(c);
  }
}

TEST(ComponentCalls, TryTopicDeletionLeavesAnIneligibleTopic) {
  const Called c = call(deletionWorld(" to-be-deleted ineligible-for-deletion"), "topic-deletion-manager try-topic-deletion");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_TRUE(c.after == c.before) << changes(c);
}

TEST(ComponentCalls, ResumeDeletionForTopicsMakesTheTopicEligibleAndStartsIt) {
  const Called c =
      call(deletionWorld(" to-be-deleted ineligible-for-deletion"), "topic-deletion-manager resume-deletion-for-topics t");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_FALSE(context(c.after).topics_ineligible_for_deletion.contains(kT));
  EXPECT_TRUE(context(c.after).topics_with_deletion_started.contains(kT));
}

TEST(ComponentCalls, FailReplicaDeletionHaltsTheTopic) {
  const Called c = call(deletionWorld(" to-be-deleted deletion-started",
                                      "partition t-0 state NonExistentPartition leader 1 isr 1,2\n"
                                      "replica 1 t-0 ReplicaDeletionStarted\n"
                                      "replica 2 t-0 ReplicaDeletionStarted\n"),
                        "topic-deletion-manager fail-replica-deletion 1:t-0");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(partition(c.after, kT0).replica_states[1], ReplicaState::ReplicaDeletionIneligible);
  EXPECT_EQ(partition(c.after, kT0).replica_states[2], ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(context(c.after).topics_ineligible_for_deletion.contains(kT));
}

TEST(ComponentCalls, CompleteReplicaDeletionOfEveryReplicaCompletesTheTopicDeletion) {
  const Called c = call(deletionWorld(" to-be-deleted deletion-started",
                                      "partition t-0 state NonExistentPartition leader 1 isr 1,2\n"
                                      "replica 1 t-0 ReplicaDeletionStarted\n"
                                      "replica 2 t-0 ReplicaDeletionStarted\n"),
                        "topic-deletion-manager complete-replica-deletion 1:t-0,2:t-0");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_FALSE(context(c.after).all_topics.contains(kT));
  EXPECT_FALSE(context(c.after).topics_to_be_deleted.contains(kT));
  EXPECT_FALSE(partition(c.after, kT0).assignment.has_value());
  EXPECT_FALSE(c.after.zk.delete_topics.contains(kT));
  EXPECT_FALSE(c.after.zk.topics[0].states[0].has_value()) << changes(c);
  EXPECT_TRUE(context(c.after).all_topics.contains(kU));
}

TEST(ComponentCalls, CompleteReplicaDeletionOfOneReplicaOnlyMarksIt) {
  const Called c = call(deletionWorld(" to-be-deleted deletion-started",
                                      "partition t-0 state NonExistentPartition leader 1 isr 1,2\n"
                                      "replica 1 t-0 ReplicaDeletionStarted\n"
                                      "replica 2 t-0 ReplicaDeletionStarted\n"),
                        "topic-deletion-manager complete-replica-deletion 2:t-0");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(partition(c.after, kT0).replica_states[2], ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_EQ(partition(c.after, kT0).replica_states[1], ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(context(c.after).all_topics.contains(kT));
}

TEST(ComponentCalls, MarkTopicIneligibleForDeletionHaltsOnlyAQueuedTopic) {
  const Called c = call(deletionWorld(" to-be-deleted"), "topic-deletion-manager mark-topic-ineligible-for-deletion t,u");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(context(c.after).topics_ineligible_for_deletion, (TopicSet{kT}));
}

TEST(ComponentCalls, IsTopicQueuedUpForDeletionAnswersAndChangesNothing) {
  const std::string world = deletionWorld(" to-be-deleted");
  for (const auto& [line, expected] : std::vector<std::pair<std::string, bool>>{
           {"topic-deletion-manager is-topic-queued-up-for-deletion t", true},
           {"topic-deletion-manager is-topic-queued-up-for-deletion u", false}}) {
    const Called c = call(world, line);
    ASSERT_EQ(c.result.exception, ComponentException::None) << line;
    EXPECT_EQ(c.result.answer.kind, ComponentAnswer::Kind::Boolean) << line;
    EXPECT_EQ(c.result.answer.boolean, expected) << line;
    EXPECT_TRUE(c.after == c.before) << line << changes(c);
  }
}

TEST(ComponentCalls, IsTopicQueuedUpForDeletionIsFalseWhileDeletionIsDisabled) {
  // The context still has t queued (the context's getter says so); the manager's says false.
  const std::string world = deletionWorld(" to-be-deleted", "", "delete.topic.enable false\n");
  const Called tdm = call(world, "topic-deletion-manager is-topic-queued-up-for-deletion t");
  ASSERT_EQ(tdm.result.exception, ComponentException::None);
  EXPECT_FALSE(tdm.result.answer.boolean);
  const Called ctx = call(world, "controller-context is-topic-queued-up-for-deletion t");
  EXPECT_TRUE(ctx.result.answer.boolean);
}

// ------------------------------------------------------------------ election algorithms

// PartitionLeaderElectionAlgorithmsTest's values (Kafka 3.8), with no controller at all.
TEST(ComponentCalls, ElectionAlgorithmsOnKafkasUnitTestValues) {
  const std::string config = "# kcspec scenario v1\nbrokers 0 1 2 3 4\ntopic t\n  partition 0 replicas 2,4\n";
  struct Case {
    std::string call;
    std::optional<BrokerId> leader;
  };
  const std::vector<Case> cases = {
      {"elect offline assignment 2,4 isr 2,4 live 4", 4},
      {"elect offline assignment 2,4 isr 2 live 4", std::nullopt},
      {"elect offline assignment 2,4 isr 2 live 4 unclean", 4},
      {"elect offline assignment 2,4 isr none live 4 unclean", 4},
      {"elect offline assignment 2,4 isr none live 4", std::nullopt},
      {"elect offline assignment 2,4 isr 2,4 live none unclean", std::nullopt},
      {"elect reassign target 2,4 isr 2,4 live 2,4", 2},
      {"elect reassign target 2,4 isr 4 live 2,4", 4},
      {"elect reassign target 2,4 isr 2 live none", std::nullopt},
      {"elect reassign target none isr 2 live 2,4", std::nullopt},
      {"elect preferred assignment 2,4 isr 2,4 live 2,4", 2},
      {"elect preferred assignment 2,4 isr 2,4 live 4", std::nullopt},   // head not live
      {"elect preferred assignment 2,4 isr 4 live 2,4", std::nullopt},   // head not in the ISR: no fallback
      {"elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down 2", 4},
      {"elect controlled-shutdown assignment 2,4 isr 2 live-or-shutting-down 2,4 shutting-down 2", std::nullopt},
      {"elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down 2,4", std::nullopt},
      {"elect controlled-shutdown assignment 2,4 isr 2,4 live-or-shutting-down 2,4 shutting-down none", 2},
  };
  for (const Case& c : cases) {
    const Scenario s = parseScenario(config + "steps\n" + c.call + "\n", "algorithms.scenario");
    ASSERT_EQ(s.calls.size(), 1u) << c.call;
    ImplCluster cluster(s.config);  // nobody alive, no controller
    ASSERT_FALSE(cluster.activeController().has_value());
    const Observation before = cluster.observe();
    ASSERT_TRUE(cluster.callComponentPossible(s.calls[0].call)) << c.call;
    const ComponentResult result = cluster.callComponent(s.calls[0].call);
    EXPECT_EQ(result.exception, ComponentException::None) << c.call;
    EXPECT_EQ(result.answer.kind, ComponentAnswer::Kind::Leader) << c.call;
    EXPECT_EQ(result.answer.leader, c.leader) << c.call;
    EXPECT_TRUE(cluster.observe() == before) << c.call;
  }
}

TEST(ComponentCalls, AnElectionAlgorithmAnswersTheSameOnAnActiveController) {
  const Called c = call(kWorld, "elect offline assignment 2,1 isr 1 live 1,2");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(c.result.answer.leader, 1);
  EXPECT_TRUE(c.after == c.before) << changes(c);
}

// ------------------------------------------------------------------ Election.leaderFor*

TEST(ComponentCalls, ElectControlledShutdownShrinksTheIsrAndChangesNothing) {
  const Called c = call(kWorld, "elect controlled-shutdown partitions t-0,u-0");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  ASSERT_EQ(c.result.answer.kind, ComponentAnswer::Kind::Elections);
  ASSERT_EQ(c.result.answer.elections.size(), 2u);
  const ElectionAnswer& t0 = c.result.answer.elections[0];
  EXPECT_EQ(t0.tp, kT0);
  EXPECT_TRUE(t0.has_state_znode);
  ASSERT_TRUE(t0.leader_and_isr.has_value());
  EXPECT_EQ(t0.leader_and_isr->leader, 1);
  EXPECT_EQ(t0.leader_and_isr->isr, (BrokerList{1}));
  EXPECT_EQ(t0.leader_and_isr->leader_epoch, 1);
  EXPECT_EQ(t0.leader_and_isr->partition_epoch, 0);  // the znode's: the write would bump it
  EXPECT_EQ(t0.recipients, (BrokerList{1, 2}));       // live or shutting down, in assignment order
  // u-0's leader 2 is shutting down: 1 takes over at leader epoch 4, partition epoch 4 as read.
  const ElectionAnswer& u0 = c.result.answer.elections[1];
  EXPECT_EQ(u0.tp, kU0);
  ASSERT_TRUE(u0.leader_and_isr.has_value());
  EXPECT_EQ(u0.leader_and_isr->leader, 1);
  EXPECT_EQ(u0.leader_and_isr->leader_epoch, 4);
  EXPECT_EQ(u0.leader_and_isr->partition_epoch, 4);
  EXPECT_EQ(u0.leader_and_isr->isr, (BrokerList{1}));
  EXPECT_TRUE(c.after == c.before) << changes(c);
  EXPECT_EQ(c.log, "");
}

TEST(ComponentCalls, ElectOnAPartitionWithoutAStateZnode) {
  const Called c = call(kWorld, "elect offline partitions t-0,t-1");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  ASSERT_EQ(c.result.answer.elections.size(), 2u);
  EXPECT_EQ(c.result.answer.elections[0].tp, kT0);
  EXPECT_TRUE(c.result.answer.elections[0].has_state_znode);
  EXPECT_EQ(c.result.answer.elections[1], (ElectionAnswer{.tp = kT1, .has_state_znode = false}));
  EXPECT_TRUE(c.after == c.before) << changes(c);
}

TEST(ComponentCalls, ElectPreferredAndReassign) {
  // u-0 [1,2] is led by 2 (shutting down, so not live): the preferred replica 1 is live and in the ISR.
  const Called preferred = call(kWorld, "elect preferred partitions t-0,u-0");
  ASSERT_EQ(preferred.result.answer.elections.size(), 2u);
  EXPECT_EQ(preferred.result.answer.elections[0].leader_and_isr->leader, 1);
  EXPECT_EQ(preferred.result.answer.elections[0].leader_and_isr->isr, (BrokerList{1, 2}));  // newLeader keeps the ISR
  EXPECT_EQ(preferred.result.answer.elections[1].leader_and_isr->leader, 1);
  EXPECT_EQ(preferred.result.answer.elections[1].leader_and_isr->leader_epoch, 4);
  EXPECT_EQ(preferred.result.answer.elections[1].recipients, (BrokerList{1, 2}));  // the whole assignment

  // t-0 being reassigned from [1,2] to [0,1] (adding 0, removing 2): the first target replica
  // that is live and in the ISR [1,2] is 1, and the request goes to the target replicas.
  const std::string reassigning =
      "# kcspec scenario v1\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\n"
      "given\ncontroller 0\nbroker 0 alive\nbroker 1 alive\nbroker 2 alive\n"
      "partition t-0 replicas 0,1,2 adding 0 removing 2 leader 2 isr 1,2\n";
  const Called reassign = call(reassigning, "elect reassign partitions t-0");
  ASSERT_EQ(reassign.result.exception, ComponentException::None);
  ASSERT_EQ(reassign.result.answer.elections.size(), 1u);
  const ElectionAnswer& e = reassign.result.answer.elections[0];
  ASSERT_TRUE(e.leader_and_isr.has_value());
  EXPECT_EQ(e.leader_and_isr->leader, 1);
  EXPECT_EQ(e.leader_and_isr->isr, (BrokerList{1, 2}));
  EXPECT_EQ(e.recipients, (BrokerList{0, 1}));  // the target replicas
  EXPECT_TRUE(reassign.after == reassign.before) << changes(reassign);
}

// t-0 [1,2]: ISR [1] all dead, broker 2 alive outside it (tests/components/psm_offline_unclean).
std::string offlineWorld(const std::string& topic_config = "") {
  return "# kcspec scenario v1\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\n  partition 1 replicas 2,1\n" +
         topic_config +
         "given\ncontroller 0\nbroker 0 alive\nbroker 2 alive\n"
         "partition t-0 leader 1 isr 1 leader-epoch 3 partition-epoch 5 state OfflinePartition\n"
         "partition t-1 leader 2 isr 2,1\n";
}

TEST(ComponentCalls, ElectOfflineIsUncleanOnlyWhenAskedOrConfigured) {
  const Called clean = call(offlineWorld(), "elect offline partitions t-0,t-1");
  ASSERT_EQ(clean.result.exception, ComponentException::None);
  ASSERT_EQ(clean.result.answer.elections.size(), 2u);
  // In partition order, although the partition state machine takes t-0 (no live ISR member) first.
  EXPECT_EQ(clean.result.answer.elections[0].tp, kT0);
  EXPECT_EQ(clean.result.answer.elections[0].leader_and_isr, std::nullopt);
  EXPECT_EQ(clean.result.answer.elections[0].recipients, (BrokerList{2}));
  EXPECT_EQ(clean.result.answer.elections[1].tp, kT1);
  ASSERT_TRUE(clean.result.answer.elections[1].leader_and_isr.has_value());
  EXPECT_EQ(clean.result.answer.elections[1].leader_and_isr->isr, (BrokerList{2}));  // the live ISR members
  EXPECT_TRUE(clean.after == clean.before) << changes(clean);

  // The other way round: t-1 (no live ISR member) is taken first, and still answered second.
  const Called flipped = call(
      "# kcspec scenario v1\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\n  partition 1 replicas 1,2\n"
      "given\ncontroller 0\nbroker 0 alive\nbroker 2 alive\n"
      "partition t-0 leader 2 isr 2,1\npartition t-1 leader 1 isr 1 state OfflinePartition\n",
      "elect offline partitions t-0,t-1 unclean");
  ASSERT_EQ(flipped.result.answer.elections.size(), 2u);
  EXPECT_EQ(flipped.result.answer.elections[0].tp, kT0);
  EXPECT_EQ(flipped.result.answer.elections[0].leader_and_isr->recovery_state, LeaderRecoveryState::RECOVERED);
  EXPECT_EQ(flipped.result.answer.elections[1].tp, kT1);
  EXPECT_EQ(flipped.result.answer.elections[1].leader_and_isr->recovery_state, LeaderRecoveryState::RECOVERING);

  for (const Called& c : {call(offlineWorld(), "elect offline partitions t-0 unclean"),
                          call(offlineWorld("  unclean.leader.election.enable true\n"), "elect offline partitions t-0")}) {
    ASSERT_EQ(c.result.answer.elections.size(), 1u);
    const std::optional<LeaderAndIsr>& lai = c.result.answer.elections[0].leader_and_isr;
    ASSERT_TRUE(lai.has_value());
    EXPECT_EQ(lai->leader, 2);
    EXPECT_EQ(lai->isr, (BrokerList{2}));
    EXPECT_EQ(lai->recovery_state, LeaderRecoveryState::RECOVERING);
    EXPECT_EQ(lai->leader_epoch, 4);
    EXPECT_EQ(lai->partition_epoch, 5);
    EXPECT_TRUE(c.after == c.before) << changes(c);
  }
}

// ------------------------------------------------------------------ request batch

TEST(ComponentCalls, RequestBatchSendDeliversTheEntriesToTheInboxes) {
  const Called c = call(kWorld, "request-batch send leader-and-isr 1,2 t-0 is-new; stop-replica 2 u-0 delete; update-metadata 0 u-0");
  ASSERT_EQ(c.result.exception, ComponentException::None);
  EXPECT_EQ(c.result.answer.kind, ComponentAnswer::Kind::None);
  const auto kinds = [&](BrokerId b) {
    std::vector<RequestKind> out;
    for (const ControlRequest& r : c.after.brokers[static_cast<std::size_t>(b)].inbox) out.push_back(r.kind);
    return out;
  };
  // LeaderAndIsr first, then UpdateMetadata (every live-or-shutting-down broker: the LeaderAndIsr
  // entry adds t-0 for all), then StopReplica.
  EXPECT_EQ(kinds(0), (std::vector<RequestKind>{RequestKind::UpdateMetadata}));
  EXPECT_EQ(kinds(1), (std::vector<RequestKind>{RequestKind::LeaderAndIsr, RequestKind::UpdateMetadata}));
  EXPECT_EQ(kinds(2), (std::vector<RequestKind>{RequestKind::LeaderAndIsr, RequestKind::UpdateMetadata,
                                                 RequestKind::StopReplica}));
  const ControlRequest& lai = c.after.brokers[1].inbox.front();
  ASSERT_EQ(lai.leader_and_isr.size(), 1u);
  EXPECT_EQ(lai.leader_and_isr.front().tp, kT0);
  EXPECT_TRUE(lai.leader_and_isr.front().is_new);
  EXPECT_EQ(lai.leader_and_isr.front().leadership, partition(c.before, kT0).leadership);
  EXPECT_EQ(lai.controller_id, 0);
  const ControlRequest& stop = c.after.brokers[2].inbox.back();
  ASSERT_EQ(stop.stop_replica.size(), 1u);
  EXPECT_EQ(stop.stop_replica.front().tp, kU0);
  EXPECT_TRUE(stop.stop_replica.front().delete_partition);
  EXPECT_EQ(stop.stop_replica.front().leader_epoch, 3);
  // Broker 0's UpdateMetadata holds u-0 (its own entry) and t-0 (the LeaderAndIsr's).
  PartitionSet metadata;
  for (const UpdateMetadataPartitionState& p : c.after.brokers[0].inbox.front().update_metadata) metadata.insert(p.tp);
  EXPECT_EQ(metadata, (PartitionSet{kT0, kU0}));
  // Nothing else changed: no ZooKeeper write, the context as it was.
  EXPECT_EQ(c.after.zk, c.before.zk);
  EXPECT_EQ(context(c.after), context(c.before));
}

TEST(ComponentCalls, RequestBatchLeaderAndIsrWithoutCachedLeadershipThrowsAndSendsNothing) {
  const Scenario failing = parsed(kWorld, "request-batch send update-metadata 0; leader-and-isr 1 t-1");
  TextLogSink sink;
  ImplCluster cluster(failing.config, failing.given->world, Mutants{}, LogTarget{&sink});
  const Observation before = cluster.observe();
  const ComponentResult result = cluster.callComponent(failing.calls[0].call);
  EXPECT_EQ(result.exception, ComponentException::Other);
  EXPECT_TRUE(cluster.observe() == before) << renderChangesText(diffObservations(failing.config, before, cluster.observe()));
  // The controller's batch was left empty: the next send goes through.
  const Scenario next = parsed(kWorld, "request-batch send update-metadata 1");
  const ComponentResult again = cluster.callComponent(next.calls[0].call);
  EXPECT_EQ(again.exception, ComponentException::None);
  EXPECT_EQ(cluster.observe().brokers[1].inbox.size(), 1u);
}

// ------------------------------------------------------------------ ControllerContext

TEST(ComponentCalls, ContextQueriesAnswerAndChangeNothing) {
  struct Case {
    std::string query;
    ComponentAnswer answer;
  };
  using Kind = ComponentAnswer::Kind;
  const std::vector<Case> cases = {
      {"live-broker-ids", {.kind = Kind::Brokers, .brokers = BrokerSet{0, 1}}},
      {"live-or-shutting-down-broker-ids", {.kind = Kind::Brokers, .brokers = BrokerSet{0, 1, 2}}},
      {"is-replica-online 2 t-0", {.kind = Kind::Boolean, .boolean = false}},
      {"is-replica-online 2 t-0 include-shutting-down", {.kind = Kind::Boolean, .boolean = true}},
      {"partition-replica-assignment t-1", {.kind = Kind::Brokers_in_order, .broker_list = BrokerList{2, 1}}},
      {"partition-full-replica-assignment t-1",
       {.kind = Kind::Assignment, .assignment = ReplicaAssignment(BrokerList{2, 1})}},
      {"all-partitions", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kT1, kU0}}},
      {"partitions-for-topic t", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kT1}}},
      {"partitions-on-broker 2", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kT1, kU0}}},
      {"replicas-for-topic t",
       {.kind = Kind::Replicas,
        .replicas = {PartitionAndReplica{kT0, 1}, PartitionAndReplica{kT0, 2}, PartitionAndReplica{kT1, 1},
                     PartitionAndReplica{kT1, 2}}}},
      {"replicas-on-brokers 2",
       {.kind = Kind::Replicas,
        .replicas = {PartitionAndReplica{kT0, 2}, PartitionAndReplica{kT1, 2}, PartitionAndReplica{kU0, 2}}}},
      {"replicas-for-partition t-1,u-0",
       {.kind = Kind::Replicas,
        .replicas = {PartitionAndReplica{kT1, 1}, PartitionAndReplica{kT1, 2}, PartitionAndReplica{kU0, 1},
                     PartitionAndReplica{kU0, 2}}}},
      {"partitions-in-states OnlinePartition", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kU0}}},
      {"partitions-in-states NewPartition,OnlinePartition topic t",
       {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kT1}}},
      {"partitions-in-states OfflinePartition", {.kind = Kind::Partitions}},
      // A shutting-down broker's replicas stay OnlineReplica.
      {"replicas-in-state u OnlineReplica",
       {.kind = Kind::Replicas, .replicas = {PartitionAndReplica{kU0, 1}, PartitionAndReplica{kU0, 2}}}},
      {"are-all-replicas-in-state u OnlineReplica", {.kind = Kind::Boolean, .boolean = true}},
      {"is-any-replica-in-state u OfflineReplica", {.kind = Kind::Boolean, .boolean = false}},
      {"leader-epoch u-0", {.kind = Kind::Count, .count = 3}},
      {"leader-epoch t-1", {.kind = Kind::Count, .count = -1}},
      {"partitions-with-leaders", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0, kU0}}},
      {"partitions-with-offline-leader", {.kind = Kind::Partitions, .partitions = PartitionSet{kU0}}},
      {"partition-leaders-on-broker 1", {.kind = Kind::Partitions, .partitions = PartitionSet{kT0}}},
      {"partitions-being-reassigned", {.kind = Kind::Partitions}},
      {"offline-partition-count", {.kind = Kind::Count, .count = 0}},
      {"partition-with-leaders-count", {.kind = Kind::Count, .count = 2}},
      {"is-topic-queued-up-for-deletion t", {.kind = Kind::Boolean, .boolean = false}},
      {"is-topic-deletion-in-progress t", {.kind = Kind::Boolean, .boolean = false}},
      {"is-topic-eligible-for-deletion t", {.kind = Kind::Boolean, .boolean = false}},
  };
  for (const Case& q : cases) {
    const Called c = call(kWorld, "controller-context " + q.query);
    EXPECT_EQ(c.result.exception, ComponentException::None) << q.query;
    EXPECT_EQ(c.result.answer, q.answer) << q.query << ": " << printComponentAnswer(c.scenario.config, c.result.answer);
    EXPECT_TRUE(c.after == c.before) << q.query << changes(c);
    EXPECT_EQ(c.log, "") << q.query;
  }
}

TEST(ComponentCalls, ContextQueriesOnADeletion) {
  // t queued and ineligible, u queued, deletion of u started.
  const std::string world =
      "# kcspec scenario v1\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\ntopic u\n  partition 0 replicas 1,2\n"
      "given\ncontroller 0\nbroker 0 alive\nbroker 1 alive\nbroker 2 alive\n"
      "topic t to-be-deleted ineligible-for-deletion\ntopic u to-be-deleted deletion-started\n"
      "partition t-0 leader 1 isr 1,2 leader-epoch 2 state OfflinePartition\n"
      "partition u-0 leader 1 isr 1,2 state NonExistentPartition\n"
      "replica 1 u-0 ReplicaDeletionStarted\nreplica 2 u-0 ReplicaDeletionStarted\n";
  using Kind = ComponentAnswer::Kind;
  const std::vector<std::pair<std::string, ComponentAnswer>> cases = {
      {"leader-epoch t-0", {.kind = Kind::Count, .count = -2}},
      {"is-topic-eligible-for-deletion t", {.kind = Kind::Boolean, .boolean = false}},
      {"is-topic-eligible-for-deletion u", {.kind = Kind::Boolean, .boolean = true}},  // the context's: started or not
      {"is-topic-deletion-in-progress t", {.kind = Kind::Boolean, .boolean = false}},
      {"is-topic-deletion-in-progress u", {.kind = Kind::Boolean, .boolean = true}},
      {"is-topic-queued-up-for-deletion t", {.kind = Kind::Boolean, .boolean = true}},
      {"partitions-with-leaders", {.kind = Kind::Partitions}},  // queued topics are left out
      {"partition-with-leaders-count", {.kind = Kind::Count, .count = 2}},  // the cache holds them
      {"offline-partition-count", {.kind = Kind::Count, .count = 1}},
      {"are-all-replicas-in-state u ReplicaDeletionStarted", {.kind = Kind::Boolean, .boolean = true}},
      {"are-all-replicas-in-state u ReplicaDeletionSuccessful", {.kind = Kind::Boolean, .boolean = false}},
      {"is-any-replica-in-state t ReplicaDeletionStarted", {.kind = Kind::Boolean, .boolean = false}},
      {"replicas-in-state u ReplicaDeletionStarted",
       {.kind = Kind::Replicas, .replicas = {PartitionAndReplica{kU0, 1}, PartitionAndReplica{kU0, 2}}}},
  };
  for (const auto& [query, answer] : cases) {
    const Called c = call(world, "controller-context " + query);
    EXPECT_EQ(c.result.exception, ComponentException::None) << query;
    EXPECT_EQ(c.result.answer, answer) << query << ": " << printComponentAnswer(c.scenario.config, c.result.answer);
    EXPECT_TRUE(c.after == c.before) << query << changes(c);
  }
}

TEST(ComponentCalls, PartitionsInStatesOfATopicWithAPartitionWithoutStateThrows) {
  // A world stated whole (as `given json` would): t-1 has an assignment but no partition state.
  const Scenario s = parsed(kWorld, "controller-context partitions-in-states NewPartition,OnlinePartition topic t");
  Observation world = s.given->world;
  world.brokers[0].controller.context.partitions[static_cast<std::size_t>(partitionIndex(kT1))].state.reset();
  const Called c = callOn(s, world);
  EXPECT_EQ(c.result.exception, ComponentException::Other);
  EXPECT_TRUE(c.after == c.before) << changes(c);
  // Without a topic only the partitions with a state count; u alone is fine.
  const Scenario all = parsed(kWorld, "controller-context partitions-in-states NewPartition,OnlinePartition");
  const Called c2 = callOn(all, world);
  EXPECT_EQ(c2.result.exception, ComponentException::None);
  EXPECT_EQ(c2.result.answer.partitions, (PartitionSet{kT0, kU0}));
  const Scenario u = parsed(kWorld, "controller-context partitions-in-states OnlinePartition topic u");
  const Called c3 = callOn(u, world);
  EXPECT_EQ(c3.result.exception, ComponentException::None);
  EXPECT_EQ(c3.result.answer.partitions, (PartitionSet{kU0}));
}

}  // namespace
}  // namespace kcspec::impl
