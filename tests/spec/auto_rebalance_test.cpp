// Auto leader rebalance (kafka.md §5.8.3, §5.4 step 15): the controller scheduler's task
// (`auto-rebalance-timer b`) queues AutoPreferredReplicaLeaderElection, whose handler moves
// leadership back to preferred replicas for brokers whose imbalance ratio exceeds 10%.
// Brokers 1,2,3 alive; the controller runs on broker 3; topic t: t-0 = [1,2], t-1 = [1,3],
// t-2 = [2,3]. Every step is checked against the invariant catalog (scenario_support.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scenario_support.hpp"

namespace kcspec::spec {
namespace {

using testing::act;
using testing::onTopic;
using testing::ScenarioRun;

constexpr TopicPartition kT0{0, 0}, kT1{0, 1}, kT2{0, 2};

Config rebalanceConfig(int partitions_on_1_2 = 0) {
  Config config;
  config.name = "auto-rebalance";
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  config.auto_leader_rebalance_enable = true;
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2}, BrokerList{1, 3}, BrokerList{2, 3}};
  config.topics = {t};
  if (partitions_on_1_2 > 0) {  // the threshold test: topics u0, u1, … whose partitions all prefer broker 1
    config.topics.clear();
    for (int left = partitions_on_1_2; left > 0; left -= kMaxPartitionsPerTopic) {
      TopicConfig u;
      u.name = "u" + std::to_string(config.topics.size());
      u.assignment.assign(static_cast<std::size_t>(std::min(left, kMaxPartitionsPerTopic)), BrokerList{1, 2});
      u.exists_at_start = true;
      config.topics.push_back(u);
    }
  }
  config.bounds.topic_creations = 1;
  config.bounds.topic_deletions = 1;
  config.bounds.crashes = 1;
  config.bounds.preferred_elections = 16;
  config.bounds.auto_rebalances = 3;
  return config;
}

Action expandIsr(TopicPartition tp, BrokerId leader, BrokerId follower) {
  return Action{.kind = ActionKind::ExpandIsr, .broker = leader, .tp = tp, .replica = follower};
}

LeaderAndIsr leaderAndIsr(BrokerId leader, std::int32_t leader_epoch, BrokerList isr, std::int32_t partition_epoch) {
  return LeaderAndIsr{leader, leader_epoch, LeaderRecoveryState::RECOVERED, isr, partition_epoch};
}

// Controller 3 creates t; broker 1 crashes (t-0 → 2, t-1 → 3) and comes back; only t-0 takes
// broker 1 back into its ISR.
ScenarioRun imbalanced() {
  ScenarioRun run(rebalanceConfig());
  run.step(act(ActionKind::ElectController, 3)).drain();
  run.step(onTopic(ActionKind::CreateTopic, 0)).drain();
  run.step(act(ActionKind::CrashBroker, 1)).drain();
  run.step(act(ActionKind::StartBroker, 1)).drain();
  run.step(expandIsr(kT0, 2, 1)).drain();
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr, leaderAndIsr(2, 1, {2, 1}, 2));
  EXPECT_EQ(run.stateZnode(kT1)->leader_and_isr, leaderAndIsr(3, 1, {3}, 1));
  return run;
}

TEST(AutoRebalance, ElectsThePreferredReplicaWhereItIsOnlineAndInTheIsr) {
  ScenarioRun run = imbalanced();
  run.step(act(ActionKind::AutoRebalanceTimer, 3));
  EXPECT_EQ(run.broker(3).controller.events.back().kind, ControllerEventKind::AutoPreferredReplicaLeaderElection);
  run.step(act(ActionKind::ProcessEvent, 3));
  // Broker 1 is preferred for t-0 and t-1 and leads neither: ratio 2/2 > 10%. t-0 moves back
  // to 1 (Online → Online, PreferredReplica: ISR kept, leader epoch + 1); t-1 stays, since 1 is
  // not in its ISR. Broker 2 leads its only preferred partition t-2.
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr, leaderAndIsr(1, 2, {2, 1}, 3));
  EXPECT_EQ(run.stateZnode(kT1)->leader_and_isr, leaderAndIsr(3, 1, {3}, 1));
  EXPECT_EQ(run.stateZnode(kT2)->leader_and_isr, leaderAndIsr(2, 0, {2, 3}, 0));
  EXPECT_EQ(run.partitionContext(3, kT0).leadership->leader_and_isr.leader, 1);
  // LeaderAndIsr for t-0 to both replicas.
  for (BrokerId b : {1, 2}) {
    bool sent = false;
    for (const ControlRequest& request : run.broker(b).inbox) sent = sent || request.kind == RequestKind::LeaderAndIsr;
    EXPECT_TRUE(sent) << "broker " << b;
  }
}

TEST(AutoRebalance, TheTimerFiresOnlyAtAnActiveControllerWithNoTaskQueued) {
  ScenarioRun run = imbalanced();
  EXPECT_FALSE(isEnabled(run.config(), run.state(), act(ActionKind::AutoRebalanceTimer, 1)));  // not the controller
  run.step(act(ActionKind::AutoRebalanceTimer, 3));
  EXPECT_FALSE(isEnabled(run.config(), run.state(), act(ActionKind::AutoRebalanceTimer, 3)));  // one queued already
  run.step(act(ActionKind::ProcessEvent, 3)).drain();
  EXPECT_TRUE(isEnabled(run.config(), run.state(), act(ActionKind::AutoRebalanceTimer, 3)));  // re-scheduled
  EXPECT_EQ(run.state().budget.auto_rebalances, 2);

  Config disabled = rebalanceConfig();
  disabled.auto_leader_rebalance_enable = false;
  ScenarioRun off(disabled);
  off.step(act(ActionKind::ElectController, 3)).drain();
  EXPECT_FALSE(isEnabled(off.config(), off.state(), act(ActionKind::AutoRebalanceTimer, 3)));
}

TEST(AutoRebalance, DoesNothingWhenBalancedOrAfterResignation) {
  ScenarioRun run(rebalanceConfig());
  run.step(act(ActionKind::ElectController, 3)).drain();
  run.step(onTopic(ActionKind::CreateTopic, 0)).drain();
  const Observation before = run.world();
  run.step(act(ActionKind::AutoRebalanceTimer, 3)).step(act(ActionKind::ProcessEvent, 3));
  EXPECT_TRUE(run.world() == before);  // every leader is its preferred replica

  ScenarioRun moved = imbalanced();
  const Observation imbalanced_world = moved.world();
  moved.step(act(ActionKind::AutoRebalanceTimer, 3));
  // The controller is no longer active when the task's event is processed: nothing happens.
  Observation world = moved.world();
  world.brokers[3].controller.active = false;
  ClusterState state = moved.state();
  state.world = world;
  const ClusterState after = next(moved.config(), state, act(ActionKind::ProcessEvent, 3));
  EXPECT_EQ(after.world.zk.topics[0].states[0]->leader_and_isr, imbalanced_world.zk.topics[0].states[0]->leader_and_isr);
}

TEST(AutoRebalance, SkipsTopicsQueuedForDeletion) {
  ScenarioRun run = imbalanced();
  run.step(onTopic(ActionKind::DeleteTopic, 0));
  run.step(act(ActionKind::ProcessEvent, 3));  // TopicDeletion: t queued (its deletion starts)
  run.step(act(ActionKind::AutoRebalanceTimer, 3));
  const auto t0_before = run.stateZnode(kT0);
  run.step(act(ActionKind::ProcessEvent, 3));
  EXPECT_EQ(run.stateZnode(kT0), t0_before);
}

// The imbalance ratio must exceed 10% strictly: one partition of ten led elsewhere is 10%.
TEST(AutoRebalance, TheImbalanceRatioMustExceedTenPercent) {
  for (const int not_preferred : {1, 2}) {
    SCOPED_TRACE(not_preferred);
    ScenarioRun run(rebalanceConfig(10));
    std::vector<TopicPartition> partitions;
    for (TopicIndex t = 0; t < run.config().topicCount(); ++t) {
      for (int p = 0; p < static_cast<int>(run.config().topics[static_cast<std::size_t>(t)].assignment.size()); ++p) {
        partitions.push_back(TopicPartition{t, p});
      }
    }
    ASSERT_EQ(partitions.size(), 10u);
    run.step(act(ActionKind::ElectController, 3)).drain();
    run.step(act(ActionKind::CrashBroker, 1)).drain();  // every partition: leader 2, ISR [2]
    run.step(act(ActionKind::StartBroker, 1)).drain();
    for (TopicPartition tp : partitions) run.step(expandIsr(tp, 2, 1)).drain();
    for (std::size_t i = static_cast<std::size_t>(not_preferred); i < partitions.size(); ++i) {
      run.step(Action{.kind = ActionKind::ElectPreferredLeader, .tp = partitions[i]}).drain();
    }
    for (std::size_t i = 0; i < partitions.size(); ++i) {
      EXPECT_EQ(run.stateZnode(partitions[i])->leader_and_isr.leader, i < static_cast<std::size_t>(not_preferred) ? 2 : 1);
    }
    run.step(act(ActionKind::AutoRebalanceTimer, 3)).step(act(ActionKind::ProcessEvent, 3));
    for (std::size_t i = 0; i < static_cast<std::size_t>(not_preferred); ++i) {
      // 1/10 is not more than 10%: nothing moves; 2/10 is: both move to broker 1.
      EXPECT_EQ(run.stateZnode(partitions[i])->leader_and_isr.leader, not_preferred == 1 ? 2 : 1) << i;
    }
  }
}

}  // namespace
}  // namespace kcspec::spec
