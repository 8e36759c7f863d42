// A running broker's ZooKeeper session expiring (issue 29 item 4; kafka.md §6.3.7, §5.6 events 4
// and 5): its registration goes while it runs on, Expire and RegisterBrokerAndReelect bring it
// back with a new broker epoch.
#include <gtest/gtest.h>

#include <string>

#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};

// t-0 on 1,2 (leader 1); the controller runs on broker 3.
const std::string kConfig =
    "# kcspec scenario v1\n"
    "brokers 1 2 3\n"
    "alive-at-start 1 2 3\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  exists-at-start true\n"
    "bound broker-session-losses 2\n"
    "bound crashes 1\n";

class SessionRun : public BasicSpecRun<SessionRun> {
 public:
  explicit SessionRun(const std::string& steps) : BasicSpecRun(kConfig + "steps\n" + steps, "broker-session.scenario") {}
  const BrokerRegistration& registration(BrokerId b) const { return zk().brokers[static_cast<std::size_t>(b)]; }
  const HostedReplica& hosted(BrokerId b) const { return broker(b).replicas[static_cast<std::size_t>(partitionIndex(kT0))]; }
  const LeaderAndIsr& stateZnode() const { return zk().topics[0].states[0]->leader_and_isr; }
};

TEST(BrokerSessionLoss, TheBrokerRunsOnUnregisteredAndComesBackWithANewEpoch) {
  SessionRun run("elect-controller 3\n");
  run.drain();
  ASSERT_TRUE(run.hosted(1).is_leader);
  const std::int64_t old_epoch = run.broker(1).broker_epoch;
  run.then("lose-broker-session 1");
  EXPECT_FALSE(run.registration(1).registered);
  EXPECT_TRUE(run.broker(1).alive) << "the process runs on";
  EXPECT_TRUE(run.broker(1).controller.session_lost);
  EXPECT_FALSE(run.enabled("lose-broker-session 1")) << "one expiry at a time";
  EXPECT_FALSE(isQuiescent(run.config(), run.state())) << "an unregistered broker is not settled";

  // The controller treats broker 1 as failed; broker 1 still believes it leads.
  run.then("process-event 3");
  EXPECT_EQ(run.stateZnode().leader, 2);
  EXPECT_EQ(run.controller(3).context.live_broker_epochs[1], -1);
  run.drain();
  EXPECT_TRUE(run.hosted(1).is_leader);
  EXPECT_EQ(run.hosted(1).leader_epoch, 0) << "a zombie leader until a LeaderAndIsr reaches it";

  run.then("notice-session-expiry 1").then("process-event 1");
  EXPECT_FALSE(run.broker(1).controller.session_lost);
  ASSERT_EQ(run.broker(1).controller.events.size(), 1U);
  EXPECT_EQ(run.broker(1).controller.events.front().kind, ControllerEventKind::RegisterBrokerAndReelect);
  run.then("process-event 1");
  EXPECT_TRUE(run.registration(1).registered);
  EXPECT_GT(run.registration(1).broker_epoch, old_epoch);
  EXPECT_EQ(run.broker(1).broker_epoch, run.registration(1).broker_epoch) << "the broker goes by its new epoch";

  run.drain();
  EXPECT_EQ(run.controller(3).context.live_broker_epochs[1], run.registration(1).broker_epoch);
  EXPECT_FALSE(run.hosted(1).is_leader);
  EXPECT_EQ(run.hosted(1).leader_epoch, 1) << "onBrokerStartup's LeaderAndIsr made it a follower";
  EXPECT_TRUE(isQuiescent(run.config(), run.state()));
}

TEST(BrokerSessionLoss, TheControllersBrokerLosesControllerAndRegistrationTogether) {
  SessionRun run("elect-controller 3\n");
  run.drain();
  run.then("lose-broker-session 3");
  EXPECT_EQ(run.zk().controller, kNoLeader);
  EXPECT_FALSE(run.registration(3).registered);
  EXPECT_FALSE(run.enabled("elect-controller 3")) << "session-lost";
  ASSERT_TRUE(run.enabled("elect-controller 1"));
  run.then("notice-session-expiry 3").then("process-event 3");
  EXPECT_FALSE(run.broker(3).controller.active);
  EXPECT_FALSE(run.enabled("elect-controller 3")) << "not registered again yet: RegisterBrokerAndReelect comes first";
  run.then("elect-controller 1");
  EXPECT_EQ(run.controller(1).context.live_broker_epochs[3], -1) << "the failover leaves the unregistered broker out";
  run.then("process-event 3");
  EXPECT_TRUE(run.registration(3).registered);
  run.drain();
  EXPECT_EQ(run.controller(1).context.live_broker_epochs[3], run.registration(3).broker_epoch);
}

TEST(BrokerSessionLoss, ACrashOfAnUnregisteredBrokerFiresNoWatch) {
  SessionRun run("elect-controller 3\n");
  run.drain();
  run.then("lose-broker-session 1").then("process-event 3").drain();
  ASSERT_TRUE(run.broker(3).controller.events.empty());
  run.then("crash 1");
  EXPECT_TRUE(run.broker(3).controller.events.empty()) << "/brokers/ids/1 was already gone";
  run.then("start 1");
  EXPECT_EQ(run.broker(3).controller.events.size(), 1U);
}

}  // namespace
}  // namespace kcspec::spec
