// ZooKeeper connection losses (issue 29 item 4; kafka.md §6.3.8) in the reference controller: the
// store's connection loses the response to the next write ZooKeeper applies to an armed path, and
// KafkaZkClient.retryRequestUntilConnected sends the write again — its caller sees the resend's
// answer — and what the controller makes of NODEEXISTS and BADVERSION.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kU0{1, 0};

// t-0 on 1,2 (reassignable to 2,3); u on 2,3, created during the history.
Config lossConfig(int zk_connection_losses = 2) {
  return parseConfig(fmt::format(R"(name zk-connection-loss
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
topic u
  partition 0 replicas 2,3
bound zk-connection-losses {}
bound topic-creations 1
bound reassignments 1
bound crashes 1
bound controller-failovers 1
)",
                                 zk_connection_losses),
                     "zk-connection-loss.config");
}

Action loss(TopicPartition tp) { return Action{.kind = ActionKind::LoseZkConnection, .tp = tp}; }

std::vector<std::int32_t> queuedLeaderEpochs(const ImplRun& run, BrokerId b, TopicPartition tp) {
  std::vector<std::int32_t> epochs;
  for (const ControlRequest& r : run.broker(b).inbox) {
    for (const LeaderAndIsrPartitionState& s : r.leader_and_isr) {
      if (s.tp == tp) epochs.push_back(s.leadership.leader_and_isr.leader_epoch);
    }
  }
  return epochs;
}

// ------------------------------------------------------------------ the client and the store

class RetryRequestUntilConnected : public ::testing::Test {
 protected:
  RetryRequestUntilConnected() : config_(lossConfig()), client_(store_, config_) {
    client_.createTopLevelPaths();
    client_.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{1, 2})}});
  }
  std::string statePath() const { return zk::paths::topicPartitionState("t", 0); }
  const zk::Znode* state() const { return store_.find(statePath()); }
  std::map<TopicPartition, LeaderIsrAndControllerEpoch> initial() const {
    return {{kT0, LeaderIsrAndControllerEpoch{LeaderAndIsr::make(1, BrokerList{1, 2}), 1}}};
  }

  Config config_;
  zk::Store store_;
  zk::KafkaZkClient client_;
};

TEST_F(RetryRequestUntilConnected, ACreateWhoseResponseIsLostAnswersNodeExistsButStays) {
  store_.view().loseNextResponse(statePath());
  const auto responses = client_.createTopicPartitionStatesRaw(initial(), zk::kMatchAnyVersion);
  ASSERT_EQ(responses.size(), 1U);
  EXPECT_EQ(responses[0].second, zk::Code::NODEEXISTS);
  ASSERT_NE(state(), nullptr) << "the first send was applied";
  EXPECT_EQ(state()->stat.version, 0);
  EXPECT_TRUE(store_.lostResponses().empty());
  // Without a loss armed, the same create is a plain NODEEXISTS and the next one is OK.
  EXPECT_EQ(client_.createTopicPartitionStatesRaw(initial(), zk::kMatchAnyVersion)[0].second, zk::Code::NODEEXISTS);
}

TEST_F(RetryRequestUntilConnected, ASetDataWhoseResponseIsLostAnswersBadVersionButStays) {
  ASSERT_EQ(client_.createTopicPartitionStatesRaw(initial(), zk::kMatchAnyVersion)[0].second, zk::Code::OK);
  store_.view().loseNextResponse(statePath());
  const LeaderAndIsr shrunk = LeaderAndIsr::make(1, BrokerList{1, 2}).newLeaderAndIsr(1, BrokerList{1});
  const zk::UpdateLeaderAndIsrResult result = client_.updateLeaderAndIsr({{kT0, shrunk}}, 1, zk::kMatchAnyVersion);
  EXPECT_TRUE(result.finished.empty());
  EXPECT_EQ(result.retry, std::vector<TopicPartition>{kT0});
  EXPECT_EQ(state()->stat.version, 1) << "the first send was applied";
  EXPECT_EQ(client_.getTopicPartitionState(kT0).state->leader_and_isr.isr, BrokerList{1});
  EXPECT_TRUE(store_.lostResponses().empty());
}

TEST_F(RetryRequestUntilConnected, AWriteZooKeeperRefusesKeepsTheLossForTheNextApplied) {
  ASSERT_EQ(client_.createTopicPartitionStatesRaw(initial(), zk::kMatchAnyVersion)[0].second, zk::Code::OK);
  store_.view().loseNextResponse(statePath());
  LeaderAndIsr stale = LeaderAndIsr::make(1, BrokerList{1, 2}).withPartitionEpoch(5);
  EXPECT_EQ(client_.updateLeaderAndIsr({{kT0, stale}}, 1, zk::kMatchAnyVersion).retry.size(), 1U);
  EXPECT_EQ(state()->stat.version, 0) << "a real BADVERSION: nothing applied";
  EXPECT_EQ(store_.lostResponses().size(), 1U) << "still armed";
}

TEST_F(RetryRequestUntilConnected, AFencedWriteIsResentWithItsEpochCheck) {
  store_.view().create(std::string(zk::paths::kControllerEpoch), "1");
  ASSERT_EQ(client_.createTopicPartitionStatesRaw(initial(), 0)[0].second, zk::Code::OK);
  store_.view().loseNextResponse(statePath());
  const LeaderAndIsr bumped = LeaderAndIsr::make(1, BrokerList{1, 2}).newEpoch();
  EXPECT_EQ(client_.updateLeaderAndIsr({{kT0, bumped}}, 1, 0).retry, std::vector<TopicPartition>{kT0});
  EXPECT_EQ(state()->stat.version, 1);
}

TEST_F(RetryRequestUntilConnected, ADeletesResendIsIgnored) {
  ASSERT_EQ(client_.createTopicPartitionStatesRaw(initial(), zk::kMatchAnyVersion)[0].second, zk::Code::OK);
  store_.view().loseNextResponse(statePath());
  client_.deleteTopicZNode(0, zk::kMatchAnyVersion);
  EXPECT_EQ(state(), nullptr);
  EXPECT_FALSE(store_.exists(zk::paths::topic("t")));
  EXPECT_TRUE(store_.lostResponses().empty());
}

// ------------------------------------------------------------------ the controller

TEST(ImplZkConnectionLoss, IsEnabledOncePerPartitionInZooKeeperWithinItsBound) {
  ImplRun run(lossConfig(/*zk_connection_losses=*/1));
  run.step("elect-controller 3").drain();
  EXPECT_FALSE(run.cluster().isEnabled(loss(kU0))) << "u is not in ZooKeeper";
  ASSERT_TRUE(run.cluster().isEnabled(loss(kT0)));
  run.step(loss(kT0));
  EXPECT_EQ(run.world().zk.lost_write_responses, PartitionSet{kT0});
  EXPECT_FALSE(run.cluster().isEnabled(loss(kT0)));
  run.step("create-topic u");
  EXPECT_FALSE(run.cluster().isEnabled(loss(kU0))) << "zk-connection-losses 1 is spent";
  EXPECT_EQ(run.cluster().remaining().zk_connection_losses, 0);
}

TEST(ImplZkConnectionLoss, ALostCreateLogsNodeExistsAndLeavesThePartitionNew) {
  ImplRun run(lossConfig());
  run.step("elect-controller 3").drain();
  run.takeLog();
  run.step("create-topic u").step(loss(kU0)).step("process-event 3");
  const std::string log = run.takeLog();
  EXPECT_NE(log.find("ERROR [Controller id=3 epoch=1] Controller 3 epoch 1 failed to change state for partition u-0 "
                     "from NewPartition to OnlinePartition (state.change.logger)\n"
                     "org.apache.zookeeper.KeeperException$NodeExistsException: KeeperErrorCode = NodeExists"),
            std::string::npos)
      << log;
  EXPECT_EQ(run.partitionContext(3, kU0).state, PartitionState::NewPartition);
  EXPECT_FALSE(run.partitionContext(3, kU0).leadership.has_value());
  ASSERT_TRUE(run.stateZnode(kU0).has_value());
  EXPECT_EQ(run.stateZnode(kU0)->leader_and_isr.leader, 2);
  EXPECT_TRUE(queuedLeaderEpochs(run, 2, kU0).empty());
  // The failover reads the znode and brings u-0 online.
  run.drain().step("lose-controller-session 3").step("notice-session-expiry 3").step("process-event 3");
  run.step("elect-controller 1");
  EXPECT_EQ(run.partitionContext(1, kU0).state, PartitionState::OnlinePartition);
  const std::vector<std::int32_t> sent = queuedLeaderEpochs(run, 2, kU0);
  ASSERT_FALSE(sent.empty());
  EXPECT_TRUE(std::all_of(sent.begin(), sent.end(), [](std::int32_t e) { return e == 0; }));
}

TEST(ImplZkConnectionLoss, ALostElectionWriteIsElectedAgain) {
  ImplRun run(lossConfig());
  run.step("elect-controller 3").drain();
  run.step(loss(kT0)).step("crash 1").step("process-event 3");
  const LeaderAndIsr lai = run.stateZnode(kT0)->leader_and_isr;
  EXPECT_EQ(lai.leader, 2);
  EXPECT_EQ(lai.leader_epoch, 2);
  EXPECT_EQ(lai.partition_epoch, 2);
  EXPECT_EQ(run.partitionContext(3, kT0).leadership->leader_and_isr, lai);
  const std::vector<std::int32_t> sent = queuedLeaderEpochs(run, 2, kT0);
  ASSERT_FALSE(sent.empty());
  EXPECT_TRUE(std::all_of(sent.begin(), sent.end(), [](std::int32_t e) { return e == 2; }));
}

TEST(ImplZkConnectionLoss, ALostAlterPartitionAnswersInvalidUpdateVersionAndReloadsNothing) {
  ImplRun run(lossConfig());
  run.step("elect-controller 3").drain();
  run.step("reassign t-0 2,3").drain();
  const std::int32_t cached = run.partitionContext(3, kT0).leadership->leader_and_isr.partition_epoch;
  run.step(loss(kT0)).step("expand-isr t-0 leader 1 add 3").step("process-event 3");
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1, 2, 3}));
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.partition_epoch, cached + 1);
  EXPECT_EQ(run.partitionContext(3, kT0).leadership->leader_and_isr.partition_epoch, cached);
  EXPECT_TRUE(run.broker(1).replicas[0].alter_partition_pending);
  run.drain();
  EXPECT_EQ(run.context(3).partitions_being_reassigned, PartitionSet{kT0});
}

TEST(ImplZkConnectionLoss, AGivenWorldArmsTheSameLosses) {
  ImplRun reached(lossConfig());
  reached.step("elect-controller 3").drain();
  reached.step(loss(kT0));
  const Observation world = reached.world();
  ASSERT_EQ(world.zk.lost_write_responses, PartitionSet{kT0});
  Config config = lossConfig();
  config.bounds = reached.cluster().remaining();
  ImplRun loaded(config, world);
  ASSERT_EQ(loaded.world(), world);
  for (std::string_view text : {"crash 1", "process-event 3"}) {
    reached.step(text);
    loaded.step(text);
    ASSERT_EQ(loaded.world(), reached.world()) << text;
  }
  EXPECT_EQ(loaded.stateZnode(kT0)->leader_and_isr.leader_epoch, 2);
}

}  // namespace
}  // namespace kcspec::impl
