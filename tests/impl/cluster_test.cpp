// ImplCluster as a transition system: initial state, candidate order, copies, failover and
// fencing, reassignment, the mutants, and the replay helper.
#include <gtest/gtest.h>

#include <algorithm>

#include "impl/log_replay.hpp"
#include "impl/mutants.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::impl {
namespace {

using testing::appendixBConfig;
using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};

TEST(ImplCluster, InitialStateRegistersBrokersInIdOrderAndWritesStartingTopics) {
  const Config config = *preset("every-perturbation");
  const ImplCluster cluster(config);
  const Observation world = cluster.observe();
  EXPECT_EQ(world.zk.brokers[1].broker_epoch, 1);
  EXPECT_EQ(world.zk.brokers[2].broker_epoch, 2);
  EXPECT_EQ(world.zk.brokers[3].broker_epoch, 3);
  EXPECT_EQ(world.zk.last_zxid, 3);
  EXPECT_EQ(world.zk.controller, kNoLeader);
  EXPECT_EQ(world.zk.controller_epoch_zk_version, -1);
  EXPECT_TRUE(world.zk.topics[0].exists);
  EXPECT_EQ(world.zk.topics[0].partitionCount(), 2);
  EXPECT_TRUE(world.zk.topics[0].lists(0) && world.zk.topics[0].lists(1));
  EXPECT_FALSE(world.zk.topics[0].states[0].has_value());
  EXPECT_FALSE(world.zk.topics[1].exists);
  EXPECT_TRUE(world.brokers[1].alive);
  EXPECT_EQ(world.brokers[1].broker_epoch, 1);
  EXPECT_EQ(cluster.remaining().crashes, 1);
  // No controller yet: admin requests are not enabled; elections are.
  const std::vector<Action> enabled = cluster.enabledActions();
  for (const Action& a : enabled) EXPECT_NE(a.kind, ActionKind::ElectPreferredLeader);
  // The candidates without arguments come first: zk-reassign-invalid needs no controller (an admin
  // tool writes /admin/reassign_partitions), so with its bound it leads, and zk-connection-loss-feature
  // with its own; then the topic actions.
  const auto delete_t = std::find(enabled.begin(), enabled.end(), Action{.kind = ActionKind::DeleteTopic, .topic = 0});
  ASSERT_NE(delete_t, enabled.end());
  const long argumentless = (config.bounds.zk_reassignments > 0 ? 1 : 0) + (config.bounds.zk_connection_losses > 0 ? 1 : 0);
  EXPECT_EQ(delete_t - enabled.begin(), argumentless);
  if (config.bounds.zk_reassignments > 0) {
    EXPECT_EQ(enabled.front(), (Action{.kind = ActionKind::ZkReassignInvalid}));
  }
  EXPECT_NE(std::find(enabled.begin(), enabled.end(), Action{.kind = ActionKind::ElectController, .broker = 2}), enabled.end());
}

TEST(ImplCluster, CopiesAreIndependent) {
  const Config config = *preset("every-perturbation");
  ImplCluster a(config);
  a.apply(Action{.kind = ActionKind::ElectController, .broker = 1});
  ImplCluster b = a;
  b.apply(Action{.kind = ActionKind::CrashBroker, .broker = 2});
  EXPECT_TRUE(a.observe().brokers[2].alive);
  EXPECT_FALSE(b.observe().brokers[2].alive);
  EXPECT_EQ(a.remaining().crashes, 1);
  EXPECT_EQ(b.remaining().crashes, 0);
  // Failover step 14 re-arms the preferred-election watch: ReplicaLeaderElection(None, PREFERRED,
  // ZkTriggered) is queued on every failover.
  EXPECT_EQ(a.observe().brokers[1].controller.events.size(), 1u);
  ASSERT_EQ(b.observe().brokers[1].controller.events.size(), 2u);  // … and BrokerChange
  EXPECT_EQ(b.observe().brokers[1].controller.events[1].kind, ControllerEventKind::BrokerChange);
}

TEST(ImplCluster, DrainingTheDefaultPresetSettlesEveryPartitionOnline) {
  ImplRun run(*preset("every-perturbation"));
  run.step("elect-controller 1").drain();
  const ControllerContextData context = run.context(1);
  EXPECT_EQ(context.partitions[0].state, PartitionState::OnlinePartition);
  EXPECT_EQ(context.partitions[1].state, PartitionState::OnlinePartition);
  EXPECT_EQ(run.stateZnode(TopicPartition{0, 1})->leader_and_isr.leader, 2);
  for (BrokerId b : {1, 2, 3}) EXPECT_EQ(run.broker(b).metadata_live_brokers, (BrokerSet{1, 2, 3}));
}

TEST(ImplCluster, AStaleControllerIsFencedAndResigns) {
  Config config = appendixBConfig();
  config.bounds.controller_failovers = 1;
  ImplRun run(config);
  run.step("elect-controller 1").drain();
  run.step("create-topic t").drain();
  run.step("lose-controller-session 1");
  EXPECT_TRUE(run.broker(1).controller.session_lost);
  run.step("elect-controller 2");
  EXPECT_EQ(run.world().zk.controller_epoch, 2);
  EXPECT_EQ(run.context(2).epoch, 2);
  // Broker 3 dies; the zombie on 1 never hears of it (events go to 2) ...
  run.step("crash 3");
  EXPECT_TRUE(run.broker(1).controller.events.empty());
  ASSERT_EQ(run.broker(2).controller.events.size(), 2u);  // its failover's ZkTriggered re-arm, BrokerChange
  EXPECT_EQ(run.broker(2).controller.events[1].kind, ControllerEventKind::BrokerChange);
  run.step("process-event 2").drain();
  EXPECT_EQ(run.stateZnode(kT0)->controller_epoch, 2);
  // ... and its session expiry makes it resign.
  run.step("notice-session-expiry 1").step("process-event 1");
  EXPECT_FALSE(run.broker(1).controller.active);
  EXPECT_FALSE(run.broker(1).controller.session_lost);
  EXPECT_EQ(run.context(1).epoch, 0);
}

TEST(ImplCluster, ReassignmentCompletesOnceTheNewReplicaJoinsTheIsr) {
  Config config;
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2}};
  t.reassignment_targets = {{0, BrokerList{2, 3}}};
  t.exists_at_start = true;
  config.topics = {t};
  config.bounds.reassignments = 1;
  ImplRun run(config);
  run.step("elect-controller 1").drain();
  run.step("reassign t-0 2,3").step("process-event 1");
  EXPECT_EQ(run.partitionContext(1, kT0).assignment,
            (ReplicaAssignment(BrokerList{2, 3, 1}, BrokerList{3}, BrokerList{1})));
  EXPECT_TRUE(run.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader_epoch, 1);  // A1
  EXPECT_EQ(run.world().zk.topics[0].partitions[0]->adding_replicas, (BrokerList{3}));
  run.drain();
  // The leader (1) proposes 3 into the ISR; the controller completes the reassignment.
  run.step("expand-isr t-0 leader 1 add 3").drain();
  EXPECT_FALSE(run.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(run.partitionContext(1, kT0).assignment, ReplicaAssignment(BrokerList{2, 3}));
  EXPECT_EQ(run.world().zk.topics[0].partitions[0], ReplicaAssignment(BrokerList{2, 3}));
  const auto znode = run.stateZnode(kT0);
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_FALSE(run.partitionContext(1, kT0).replica_states[1].has_value());
  EXPECT_FALSE(run.broker(1).replicas[0].present);
}

TEST(ImplCluster, ABounceIsNoticedUnlessMutantM8) {
  for (const bool mutant : {false, true}) {
    ImplRun run(appendixBConfig(), mutant ? Mutants::of({Mutant::M8}) : Mutants{});
    run.step("elect-controller 1").drain();
    run.step("create-topic t").drain();
    run.step("crash 3").step("start 3").step("process-event 1").drain();
    EXPECT_EQ(run.context(1).live_broker_epochs[3], mutant ? 3 : 4);
    EXPECT_EQ(run.broker(3).replicas[0].present, !mutant) << "mutant " << mutant;
  }
}

TEST(ImplCluster, MutantsAreListedByNameAndFoundByName) {
  ASSERT_EQ(kMutants.size(), 17u);  // M1–M8 (historic bugs) and kcspec's own M9–M17
  for (const MutantInfo& info : kMutants) {
    EXPECT_EQ(mutantNamed(info.name), info.id);
    EXPECT_EQ(mutantNamed(info.ticket), info.id);
    EXPECT_FALSE(info.description.empty());
  }
  EXPECT_EQ(mutantNamed("m7"), Mutant::M7);
  EXPECT_EQ(mutantNamed("m12"), Mutant::M12);
  EXPECT_FALSE(mutantNamed("M18").has_value());
  EXPECT_TRUE(Mutants{}.none());
}

TEST(ImplCluster, MutantM7LeavesReplicasInDeletionStarted) {
  Config config = appendixBConfig();
  for (const bool mutant : {false, true}) {
    ImplRun run(config, mutant ? Mutants::of({Mutant::M7}) : Mutants{});
    run.step("elect-controller 1").drain();
    run.step("create-topic t").drain();
    run.step("delete-topic t").step("process-event 1");
    run.step("crash 3").step("process-event 1");
    EXPECT_EQ(run.partitionContext(1, kT0).replica_states[3],
              mutant ? ReplicaState::ReplicaDeletionStarted : ReplicaState::ReplicaDeletionIneligible);
  }
}

TEST(ImplCluster, ReplayProducesTheStateChangeLog) {
  const Config config = appendixBConfig();
  // The first process-event is the failover's ReplicaLeaderElection(None, PREFERRED, ZkTriggered).
  const std::vector<Action> actions = {Action{.kind = ActionKind::ElectController, .broker = 1},
                                       Action{.kind = ActionKind::ProcessEvent, .broker = 1},
                                       Action{.kind = ActionKind::CreateTopic, .topic = 0},
                                       Action{.kind = ActionKind::ProcessEvent, .broker = 1}};
  const std::string log = replayImplStateChangeLog(config, actions, LogLevel::INFO);
  EXPECT_NE(log.find("Changed partition t-0 from NewPartition to OnlinePartition"), std::string::npos);
  EXPECT_EQ(log.find("TRACE"), std::string::npos);
  EXPECT_NE(replayImplStateChangeLog(config, actions).find("TRACE"), std::string::npos);
  EXPECT_THROW(replayImplStateChangeLog(config, {Action{.kind = ActionKind::ProcessEvent, .broker = 1}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace kcspec::impl
