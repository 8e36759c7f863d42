// A running broker's ZooKeeper session expiring (kafka.md §6.3.7, §5.6 events 4 and 5) in the
// reference controller: the registration's ephemeral znode goes with the session (and
// /controller with the controller's), Expire queues RegisterBrokerAndReelect, which registers the
// broker again; the broker goes by the new epoch.
#include <gtest/gtest.h>

#include <string_view>

#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};

Config sessionConfig() {
  return parseConfig(R"(name broker-session-loss
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound broker-session-losses 2
)",
                     "broker-session.config");
}

std::int64_t registeredEpoch(const ImplRun& run, BrokerId b) {
  const zk::Znode* node = run.cluster().zookeeper().find(zk::paths::brokerId(b));
  return node == nullptr ? -1 : node->stat.czxid;
}

TEST(ImplBrokerSessionLoss, TheRegistrationGoesAndComesBackWithANewEpoch) {
  ImplRun run(sessionConfig());
  run.step("elect-controller 3").drain();
  const std::int64_t old_epoch = registeredEpoch(run, 1);
  ASSERT_GT(old_epoch, 0);
  run.step("lose-broker-session 1");
  EXPECT_EQ(registeredEpoch(run, 1), -1);
  EXPECT_TRUE(run.broker(1).alive);
  EXPECT_TRUE(run.broker(1).controller.session_lost);
  EXPECT_FALSE(run.cluster().isEnabled(Action{.kind = ActionKind::LoseBrokerSession, .broker = 1}));
  run.step("process-event 3");  // BrokerChange: onBrokerFailure(1)
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader, 2);
  run.step("notice-session-expiry 1").step("process-event 1");
  ASSERT_EQ(run.broker(1).controller.events.size(), 1U);
  EXPECT_EQ(run.broker(1).controller.events.front().kind, ControllerEventKind::RegisterBrokerAndReelect);
  run.step("process-event 1");
  const std::int64_t new_epoch = registeredEpoch(run, 1);
  EXPECT_GT(new_epoch, old_epoch);
  EXPECT_EQ(run.broker(1).broker_epoch, new_epoch);
  run.drain();
  EXPECT_EQ(run.context(3).live_broker_epochs[1], new_epoch);
  EXPECT_FALSE(run.broker(1).replicas[0].is_leader);
}

TEST(ImplBrokerSessionLoss, TheControllersSessionTakesControllerAlong) {
  ImplRun run(sessionConfig());
  run.step("elect-controller 3").drain();
  run.step("lose-broker-session 3");
  EXPECT_FALSE(run.cluster().zookeeper().exists(zk::paths::kController));
  EXPECT_EQ(registeredEpoch(run, 3), -1);
  run.step("notice-session-expiry 3").step("process-event 3");
  EXPECT_FALSE(run.cluster().isEnabled(Action{.kind = ActionKind::ElectController, .broker = 3}));
  run.step("elect-controller 2");
  EXPECT_EQ(run.context(2).live_broker_epochs[3], -1);
  run.step("process-event 3").drain();
  EXPECT_EQ(run.context(2).live_broker_epochs[3], registeredEpoch(run, 3));
}

TEST(ImplBrokerSessionLoss, AGivenWorldWithAnUnregisteredBrokerStepsAsTheClusterThatReachedIt) {
  ImplRun reached(sessionConfig());
  reached.step("elect-controller 3").drain();
  reached.step("lose-broker-session 1").step("process-event 3");
  const Observation world = reached.world();
  Config config = sessionConfig();
  config.bounds = reached.cluster().remaining();
  ImplRun loaded(config, world);
  ASSERT_EQ(loaded.world(), world);
  for (std::string_view text : {"notice-session-expiry 1", "process-event 1", "process-event 1", "process-event 3"}) {
    reached.step(text);
    loaded.step(text);
    ASSERT_EQ(loaded.world(), reached.world()) << text;
  }
}

}  // namespace
}  // namespace kcspec::impl
