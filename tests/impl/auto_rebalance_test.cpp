// The reference controller's auto leader rebalance (kafka.md §5.8.3): the same situations as
// tests/spec/auto_rebalance_test.cpp, checked on ImplCluster by their exact values.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "impl_scenario.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

Config rebalanceConfig() {
  Config config;
  config.name = "auto-rebalance";
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  config.auto_leader_rebalance_enable = true;
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2}, BrokerList{1, 3}, BrokerList{2, 3}};
  t.exists_at_start = true;
  config.topics = {t};
  config.bounds.crashes = 1;
  config.bounds.topic_deletions = 1;
  config.bounds.preferred_elections = 16;
  config.bounds.auto_rebalances = 2;
  return config;
}

LeaderAndIsr leaderAndIsr(BrokerId leader, std::int32_t leader_epoch, BrokerList isr, std::int32_t partition_epoch) {
  return LeaderAndIsr{leader, leader_epoch, LeaderRecoveryState::RECOVERED, isr, partition_epoch};
}

TEST(ImplAutoRebalance, ElectsThePreferredReplicaWhereItIsOnlineAndInTheIsr) {
  ImplRun run(rebalanceConfig());
  run.step("elect-controller 3").drain();
  run.step("crash 1").drain();
  run.step("start 1").drain();
  run.step("expand-isr t-0 leader 2 add 1").drain();
  EXPECT_FALSE(run.cluster().isEnabled(parseAction(run.cluster().config(), "auto-rebalance-timer 2", "test", 1)));
  run.step("auto-rebalance-timer 3");
  EXPECT_FALSE(run.cluster().isEnabled(parseAction(run.cluster().config(), "auto-rebalance-timer 3", "test", 1)));
  run.step("process-event 3");
  EXPECT_EQ(run.stateZnode(TopicPartition{0, 0})->leader_and_isr, leaderAndIsr(1, 2, {2, 1}, 3));
  EXPECT_EQ(run.stateZnode(TopicPartition{0, 1})->leader_and_isr, leaderAndIsr(3, 1, {3}, 1));
  EXPECT_EQ(run.stateZnode(TopicPartition{0, 2})->leader_and_isr, leaderAndIsr(2, 0, {2, 3}, 0));
  EXPECT_TRUE(run.cluster().isEnabled(parseAction(run.cluster().config(), "auto-rebalance-timer 3", "test", 1)));
}

TEST(ImplAutoRebalance, SkipsTopicsQueuedForDeletionAndNeedsTheFlag) {
  ImplRun run(rebalanceConfig());
  run.step("elect-controller 3").drain();
  run.step("crash 1").drain();
  run.step("start 1").drain();
  run.step("expand-isr t-0 leader 2 add 1").drain();
  run.step("delete-topic t").step("process-event 3");
  const auto before = run.stateZnode(TopicPartition{0, 0});
  run.step("auto-rebalance-timer 3").step("process-event 3");
  EXPECT_EQ(run.stateZnode(TopicPartition{0, 0}), before);

  Config disabled = rebalanceConfig();
  disabled.auto_leader_rebalance_enable = false;
  ImplRun off(disabled);
  off.step("elect-controller 3").drain();
  EXPECT_FALSE(off.cluster().isEnabled(parseAction(off.cluster().config(), "auto-rebalance-timer 3", "test", 1)));
}

}  // namespace
}  // namespace kcspec::impl
