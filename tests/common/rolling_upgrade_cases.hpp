// Rolling upgrades and /feature (issue 29 item 1; docs/world.md convention 14, docs/kafka.md
// Appendix A.6 "Rolling upgrades") as histories with their checks, shared by the tests of both
// versions. A `Run` is either version's test run with step(text), drain(), enabled(text) and
// world(); each history below says what the world must show on the way.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "request_version_rows.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::testing {

inline constexpr TopicPartition kUpgradeT0{0, 0};

// Brokers 1, 2, 3 on `from`; t-0 on 1,2 exists, u-0 on 2,3 may be created. With `to`, a rolling
// upgrade to it (every broker may be upgraded once).
inline std::string rollingUpgradeScenario(std::string_view from, std::string_view to = {}) {
  std::string text = "# kcspec scenario v1\nname rolling-upgrade-test\nbrokers 1 2 3\nalive-at-start 1 2 3\n";
  text += "inter.broker.protocol.version " + std::string(from) + "\n";
  if (!to.empty()) text += "upgrade inter.broker.protocol.version " + std::string(to) + "\nbound ibp-upgrades 3\n";
  text += "topic t\n  partition 0 replicas 1,2\n  exists-at-start true\ntopic u\n  partition 0 replicas 2,3\n";
  text += "bound crashes 3\nbound isr-shrinks 1\nbound topic-creations 1\nbound zk-connection-losses 1\nsteps\n";
  return text;
}

// One row of §5.4 step 1: the /feature a controller on `protocol` leaves.
struct FeatureRow {
  const char* protocol;
  FeatureZnodeStatus status;
  std::uint8_t format_version;
};
inline constexpr FeatureRow kFeatureRows[] = {
    {"2.6-IV0", FeatureZnodeStatus::Disabled, 1}, {"2.7-IV0", FeatureZnodeStatus::Enabled, 1},
    {"3.2-IV0", FeatureZnodeStatus::Enabled, 1},  {"3.3-IV0", FeatureZnodeStatus::Enabled, 2},
    {"3.8-IV0", FeatureZnodeStatus::Enabled, 2},
};

inline void expectFeature(const Observation& world, FeatureZnodeStatus status, std::uint8_t format_version) {
  EXPECT_EQ(world.zk.feature.status, status) << "/feature status";
  EXPECT_EQ(world.zk.feature.format_version, format_version) << "/feature version";
}

// No /feature before the first failover; the first controller writes it (`run` on row.protocol).
template <class Run>
void featureAtFailover(Run& run, const FeatureRow& row) {
  expectFeature(run.world(), FeatureZnodeStatus::Absent, 0);
  run.step("elect-controller 3");
  expectFeature(run.world(), row.status, row.format_version);
}

// `run`: 2.4 with an upgrade to 3.8. Only a stopped broker is upgraded, once, and it stays upgraded
// through a later crash.
template <class Run>
void upgradeNeedsAStoppedBroker(Run& run) {
  EXPECT_FALSE(run.enabled("upgrade-ibp 1")) << "a running broker";
  run.step("crash 1");
  ASSERT_TRUE(run.enabled("upgrade-ibp 1"));
  run.step("upgrade-ibp 1");
  EXPECT_TRUE(run.world().brokers[1].ibp_upgraded);
  EXPECT_FALSE(run.world().brokers[2].ibp_upgraded);
  EXPECT_FALSE(run.enabled("upgrade-ibp 1")) << "upgraded already";
  run.step("start 1");
  EXPECT_TRUE(run.world().brokers[1].ibp_upgraded);
  run.step("crash 1");
  EXPECT_TRUE(run.world().brokers[1].ibp_upgraded) << "its server.properties survive a crash";
}

// `run`: 2.4 without an upgrade: nothing to upgrade to.
template <class Run>
void noUpgradeWithoutAVersion(Run& run) {
  run.step("crash 1");
  EXPECT_FALSE(run.enabled("upgrade-ibp 1"));
}

// `run`: 2.4 with an upgrade to 3.8. A controller follows its own broker's version: on 2.4 it sends
// LeaderAndIsr v4 and UpdateMetadata v6, leaves /feature Disabled and t without a topic id; once
// broker 3 restarted upgraded and is elected again it sends v7 and v8, sets /feature Enabled in
// format 2 and gives t an id; a controller back on a 2.4 broker switches /feature to Disabled.
template <class Run>
void aControllerFollowsItsOwnBroker(Run& run) {
  run.step("elect-controller 3");
  expectAllAtVersion(requestsOf(run, 1, RequestKind::LeaderAndIsr), 4);
  expectAllAtVersion(requestsOf(run, 1, RequestKind::UpdateMetadata), 6);
  expectFeature(run.world(), FeatureZnodeStatus::Disabled, 1);
  EXPECT_EQ(run.world().zk.topics[0].topic_id, kNoTopicId);
  run.drain();
  run.step("crash 3").step("upgrade-ibp 3").step("start 3").step("elect-controller 3");
  expectAllAtVersion(requestsOf(run, 1, RequestKind::LeaderAndIsr), 7);
  expectAllAtVersion(requestsOf(run, 1, RequestKind::UpdateMetadata), 8);
  expectFeature(run.world(), FeatureZnodeStatus::Enabled, 2);
  EXPECT_EQ(run.world().zk.topics[0].topic_id, 1) << "processTopicIds at failover (usesTopicId on 3.8)";
  run.drain();
  EXPECT_EQ(run.world().brokers[1].replicas[0].topic_id, 1) << "LeaderAndIsr v5+ carried it";
  run.step("crash 3").step("elect-controller 1");
  expectFeature(run.world(), FeatureZnodeStatus::Disabled, 1);
  expectAllAtVersion(requestsOf(run, 2, RequestKind::UpdateMetadata), 6);
}

// `run`: 2.4 with an upgrade to 3.8. A leader follows its own version: broker 1, upgraded before
// the first controller (on 2.4) runs, proposes an ISR change with AlterPartition; under a
// controller on an upgraded broker, a leader on 2.4 writes the state znode itself.
template <class Run>
void aLeaderFollowsItsOwnVersion(Run& upgraded_leader, Run& old_leader) {
  upgraded_leader.step("crash 1").step("upgrade-ibp 1").step("start 1").step("elect-controller 3").drain();
  upgraded_leader.step("shrink-isr t-0 leader 1 remove 2");
  const Observation after = upgraded_leader.world();  // a copy: the reference controller's is a value
  bool alter_partition = false;
  for (const ControllerEvent& e : after.brokers[3].controller.events) {
    alter_partition |= e.kind == ControllerEventKind::AlterPartitionReceived;
  }
  EXPECT_TRUE(alter_partition) << "an upgraded leader sends AlterPartition to a controller on 2.4";
  EXPECT_TRUE(after.brokers[1].pending_isr_changes.empty());

  old_leader.step("crash 3").step("upgrade-ibp 3").step("start 3").step("elect-controller 3").drain();
  old_leader.step("shrink-isr t-0 leader 1 remove 2");
  EXPECT_TRUE(old_leader.world().brokers[1].pending_isr_changes.contains(kUpgradeT0))
      << "a leader on 2.4 writes its ISR to ZooKeeper itself";
  const std::optional<PartitionStateZnode> znode = old_leader.world().zk.topics[0].states[0];
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{1}));
}

// `run`s: 2.4 with an upgrade to 3.8. The admin's CreateTopics writes a topic id when the broker
// /controller names uses them.
template <class Run>
void createTopicsFollowsTheController(Run& upgraded_controller, Run& old_controller) {
  upgraded_controller.step("crash 3").step("upgrade-ibp 3").step("start 3").step("elect-controller 3").drain();
  upgraded_controller.step("create-topic u");
  EXPECT_EQ(upgraded_controller.world().zk.topics[1].topic_id, 1);
  old_controller.step("crash 3").step("upgrade-ibp 3").step("start 3").step("elect-controller 1").drain();
  old_controller.step("create-topic u");
  EXPECT_EQ(old_controller.world().zk.topics[1].topic_id, kNoTopicId);
}

// `zk-connection-loss-feature` (kafka.md §6.3.8): a lost response to /feature's creation is resent
// and answered NODEEXISTS, so the first failover fails and the controller moves; the next one
// finds /feature as it wants it and writes nothing. `run` on 3.8-IV0.
template <class Run>
void aLostFeatureCreationFailsTheFailover(Run& run) {
  run.step("zk-connection-loss-feature");
  EXPECT_TRUE(run.world().zk.lost_feature_write_response);
  EXPECT_FALSE(run.enabled("zk-connection-loss-feature")) << "armed already";
  run.step("elect-controller 3");
  expectFeature(run.world(), FeatureZnodeStatus::Enabled, 2);  // the first send was applied
  EXPECT_FALSE(run.world().zk.lost_feature_write_response);
  EXPECT_EQ(run.world().zk.controller, kNoLeader) << "triggerControllerMove deleted /controller";
  EXPECT_FALSE(run.world().brokers[3].controller.active);
  EXPECT_EQ(run.world().zk.controller_epoch, 1);
  run.step("elect-controller 2").drain();
  EXPECT_EQ(run.world().zk.controller, 2);
  EXPECT_TRUE(run.world().brokers[2].controller.active);
  EXPECT_EQ(run.world().zk.controller_epoch, 2);
  expectFeature(run.world(), FeatureZnodeStatus::Enabled, 2);
}

// The same loss on a rewrite (setData at any version) changes nothing: its resend succeeds too.
// `run`: 2.4 with an upgrade to 3.8.
template <class Run>
void aLostFeatureRewriteChangesNothing(Run& run) {
  run.step("elect-controller 3").drain();
  expectFeature(run.world(), FeatureZnodeStatus::Disabled, 1);
  run.step("zk-connection-loss-feature");
  run.step("crash 3").step("upgrade-ibp 3").step("start 3").step("elect-controller 3");
  expectFeature(run.world(), FeatureZnodeStatus::Enabled, 2);
  EXPECT_FALSE(run.world().zk.lost_feature_write_response);
  EXPECT_EQ(run.world().zk.controller, 3);
  EXPECT_TRUE(run.world().brokers[3].controller.active);
}

}  // namespace kcspec::testing
