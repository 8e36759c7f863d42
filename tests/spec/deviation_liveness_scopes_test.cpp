// The liveness findings of the preset `default` (three perturbations per history; called
// `three-perturbations` when they were found, in session 24) that are Kafka 3.8's own behaviour
// (docs/spec/rules.md "Findings so far"), and the scopes of L3 and L5 that leave them to L7, L8,
// S7 and L11.
// Each history of tests/scenarios/ is replayed, then the recovery walk its comments give (what the
// explorer printed after "from here, recovery actions alone never reach the goal"), and the goals
// are judged in the quiescent state it ends in; the same state with the scope's condition undone
// must fail the scoped property, so the scope is what excuses it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "recovery_walk.hpp"  // tests/common/

namespace kcspec::spec {
namespace {

struct Replayed {
  Config config;
  ClusterState state;
};

bool goalHolds(std::string_view id, const Config& config, const ClusterState& state) {
  const Property* p = catalogProperty(id);
  EXPECT_NE(p, nullptr) << id;
  EXPECT_EQ(p->kind, PropertyKind::Liveness) << id;
  return p->holds(config, state);
}

bool isRecoveryStep(const Action& action) {
  const ActionDefinition& definition = kActionDefinitions[static_cast<std::size_t>(action.kind)];
  return definition.perturbs == Perturbs::Never ||
         (action.kind == ActionKind::DeliverStopReplicaResponse && !action.error);
}

bool quiescent(const ClusterState& state) {
  for (const BrokerData& broker : state.world.brokers) {
    if (!broker.inbox.empty() || !broker.outbox.empty() || !broker.controller.events.empty()) return false;
  }
  return true;
}

// The scenario's steps, then the commented recovery walk: every action enabled when taken, every
// walk action a recovery step, and the walk ends quiescent.
Replayed replayWithRecoveryWalk(const std::string& name) {
  const std::filesystem::path file = std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/scenarios" / name;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const Scenario scenario = parseScenario(text.str(), file.string());
  Replayed r{scenario.config, initialState(scenario.config)};
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    EXPECT_TRUE(isEnabled(r.config, r.state, scenario.steps[i])) << name << ":" << scenario.step_lines[i];
    r.state = next(r.config, r.state, scenario.steps[i]);
  }
  int walked = 0;
  for (const test_common::WalkStep& step : test_common::recoveryWalk(r.config, text.str(), file.string())) {
    EXPECT_TRUE(isRecoveryStep(step.action)) << name << ":" << step.line;
    EXPECT_TRUE(isEnabled(r.config, r.state, step.action)) << name << ":" << step.line;
    r.state = next(r.config, r.state, step.action);
    ++walked;
  }
  EXPECT_GT(walked, 0) << name << ": no recovery walk in the comments";
  EXPECT_TRUE(quiescent(r.state)) << name << ": the walk does not end quiescent";
  return r;
}

// The active controller whose session is live, or nullptr.
ControllerData* activeController(ClusterState& state) {
  ControllerData* controller = nullptr;
  for (BrokerData& broker : state.world.brokers) {
    if (broker.alive && broker.controller.active && !broker.controller.session_lost) controller = &broker.controller;
  }
  return controller;
}

TEST(DeviationL7, IsAKnownKafkaDeviationWithItsStoryAndL3IsNot) {
  ASSERT_TRUE(isKnownKafkaDeviation("L7"));
  EXPECT_NE(catalogProperty("L7")->kafka_deviation.find("LeaderDuringDelete"), std::string_view::npos);
  EXPECT_FALSE(isKnownKafkaDeviation("L3"));
  EXPECT_FALSE(isKnownKafkaDeviation("L5"));
}

TEST(DeviationL7, ABrokerKeepsADeletedTopicAnOldControllerSentAndOnlyL7AsksItAfterASessionLoss) {
  Replayed r = replayWithRecoveryWalk("deviation_l7_zombie_metadata.scenario");
  // Broker 3 still caches t-0 although the active controller no longer knows t.
  const ControllerData* controller = activeController(r.state);
  ASSERT_NE(controller, nullptr);
  EXPECT_FALSE(controller->context.all_topics.contains(TopicIndex{0}));
  EXPECT_TRUE(r.state.world.brokers[3].metadata_cache[0].has_value());
  EXPECT_FALSE(goalHolds("L7", r.config, r.state));
  EXPECT_TRUE(goalHolds("L3", r.config, r.state));
  // The same state in a history where no controller lost its session: L3 asks it too.
  ClusterState no_session_lost = r.state;
  no_session_lost.budget.controller_failovers = r.config.bounds.controller_failovers;
  EXPECT_FALSE(goalHolds("L3", r.config, no_session_lost));
}

TEST(DeviationS7, ARecreatedTopicKeepsTheStaleReassignmentEntryAndL5CountsItAsS7s) {
  Replayed r = replayWithRecoveryWalk("deviation_s7_recreated_during_reassignment.scenario");
  ControllerData* controller = activeController(r.state);
  ASSERT_NE(controller, nullptr);
  const TopicPartition t0{0, 0};
  ASSERT_TRUE(controller->context.partitions_being_reassigned.contains(t0));
  std::optional<ReplicaAssignment>& assignment = controller->context.partitions[0].assignment;
  ASSERT_TRUE(assignment.has_value());
  EXPECT_FALSE(assignment->isBeingReassigned());
  EXPECT_TRUE(goalHolds("L5", r.config, r.state));
  // An entry whose assignment still has a replica to add (one outside the ISR) is a reassignment
  // L5 waits for.
  ASSERT_EQ(assignment->replicas, (BrokerList{1, 2}));
  assignment->replicas = BrokerList{1, 2, 3};
  assignment->adding_replicas = BrokerList{3};
  EXPECT_FALSE(goalHolds("L5", r.config, r.state));
}

TEST(DeviationL8, AControllerReElectedWithAnUnflushedBatchNeverSendsARestartedBrokerItsReplicas) {
  ASSERT_TRUE(isKnownKafkaDeviation("L8"));
  EXPECT_NE(catalogProperty("L8")->kafka_deviation.find("KAFKA-12315"), std::string_view::npos);
  Replayed r = replayWithRecoveryWalk("deviation_l8_kafka12315_reelected.scenario");
  ControllerData* controller = activeController(r.state);
  ASSERT_NE(controller, nullptr);
  EXPECT_TRUE(controller->rsm_batch_unflushed);
  EXPECT_FALSE(r.state.world.brokers[2].metadata_cache[0].has_value());  // broker 2 never learns t-0
  EXPECT_FALSE(goalHolds("L8", r.config, r.state));
  EXPECT_TRUE(goalHolds("L3", r.config, r.state));
  // The same caches under a controller whose replica state machine works: L3 asks them to agree.
  controller->rsm_batch_unflushed = false;
  EXPECT_FALSE(goalHolds("L3", r.config, r.state));
  EXPECT_TRUE(goalHolds("L8", r.config, r.state));
}

TEST(DeviationL11, AReassignmentBegunBeforeItsPartitionHadAZnodeIsCompleteButNeverNoticedAndL5LeavesItToL11) {
  ASSERT_TRUE(isKnownKafkaDeviation("L11"));
  EXPECT_NE(catalogProperty("L11")->kafka_deviation.find("onBrokerStartup"), std::string_view::npos);
  Replayed r = replayWithRecoveryWalk("deviation_l11_reassigned_before_creation.scenario");
  ControllerData* controller = activeController(r.state);
  ASSERT_NE(controller, nullptr);
  const TopicPartition t0{0, 0};
  // t-0 is still being reassigned, although its first ISR already holds the target (2) and the
  // replica to remove (1).
  ASSERT_TRUE(controller->context.partitions_being_reassigned.contains(t0));
  const std::optional<ReplicaAssignment>& assignment = controller->context.partitions[0].assignment;
  ASSERT_TRUE(assignment.has_value());
  EXPECT_EQ(assignment->targetReplicas(), BrokerList{2});
  std::optional<PartitionStateZnode>& znode = r.state.world.zk.topics[0].states[0];
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, LeaderAndIsr::kInitialPartitionEpoch);
  EXPECT_TRUE(znode->leader_and_isr.isr.contains(1) && znode->leader_and_isr.isr.contains(2));
  EXPECT_FALSE(goalHolds("L11", r.config, r.state));
  EXPECT_TRUE(goalHolds("L5", r.config, r.state));
  // The same ISR written by a later change (a leader's AlterPartition, whose processing runs
  // maybeCompleteReassignment): L5 waits for that reassignment, and L11 does not.
  znode->leader_and_isr.partition_epoch = 1;
  EXPECT_FALSE(goalHolds("L5", r.config, r.state));
  EXPECT_TRUE(goalHolds("L11", r.config, r.state));
  // The first ISR without the replica to remove: its broker's return makes the leader propose it,
  // and that AlterPartition completes the reassignment, so L5 waits for it.
  znode->leader_and_isr.partition_epoch = LeaderAndIsr::kInitialPartitionEpoch;
  znode->leader_and_isr.isr = BrokerList{2};
  EXPECT_FALSE(goalHolds("L5", r.config, r.state));
  EXPECT_TRUE(goalHolds("L11", r.config, r.state));
}

}  // namespace
}  // namespace kcspec::spec
