// ZooKeeper connection losses (issue 29 item 4; kafka.md §6.3.8): the controller's connection
// drops right after ZooKeeper applied a write to a partition's state znode, KafkaZkClient sends the
// write again, and the controller sees the resend's answer — NODEEXISTS for the creation,
// BADVERSION for a setData — while the first send's change stays.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kU0{1, 0};

// t-0 on 1,2 (leader 1), reassignable to 2,3; u on 2,3, created during the history. The controller
// runs on broker 3.
const std::string kConfig =
    "# kcspec scenario v1\n"
    "brokers 1 2 3\n"
    "alive-at-start 1 2 3\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  reassign 0 to 2,3\n"
    "  exists-at-start true\n"
    "topic u\n"
    "  partition 0 replicas 2,3\n"
    "bound zk-connection-losses 2\n"
    "bound topic-creations 1\n"
    "bound topic-deletions 1\n"
    "bound reassignments 1\n"
    "bound crashes 1\n"
    "bound controller-failovers 1\n";

class LossRun : public BasicSpecRun<LossRun> {
 public:
  explicit LossRun(const std::string& steps) : BasicSpecRun(kConfig + "steps\n" + steps, "zk-connection-loss.scenario") {}


  // The leader epochs of every LeaderAndIsr entry for tp waiting in broker b's queue.
  std::vector<std::int32_t> queuedLeaderEpochs(BrokerId b, TopicPartition tp) const {
    std::vector<std::int32_t> epochs;
    for (const ControlRequest& r : broker(b).inbox) {
      for (const LeaderAndIsrPartitionState& s : r.leader_and_isr) {
        if (s.tp == tp) epochs.push_back(s.leadership.leader_and_isr.leader_epoch);
      }
    }
    return epochs;
  }
  std::vector<std::string_view> unmet() const { return unmetGoals(config(), state()); }
};

bool contains(const std::vector<std::string_view>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

TEST(ZkConnectionLoss, IsArmedOncePerPartitionInZooKeeperAndSpendsItsBound) {
  LossRun run("elect-controller 3\n");
  run.drain();
  EXPECT_FALSE(run.enabled("zk-connection-loss u-0")) << "u is not in ZooKeeper yet";
  ASSERT_TRUE(run.enabled("zk-connection-loss t-0"));
  run.then("zk-connection-loss t-0");
  EXPECT_EQ(run.zk().lost_write_responses, PartitionSet{kT0});
  EXPECT_FALSE(run.enabled("zk-connection-loss t-0")) << "armed already";
  run.then("create-topic u");
  ASSERT_TRUE(run.enabled("zk-connection-loss u-0"));
  run.then("zk-connection-loss u-0");
  EXPECT_EQ(run.zk().lost_write_responses, (PartitionSet{kT0, kU0}));
}

TEST(ZkConnectionLoss, ALostCreateLeavesThePartitionNewUntilAFailoverReadsItsZnode) {
  LossRun run("elect-controller 3\n");
  run.drain();
  run.then("create-topic u").then("zk-connection-loss u-0").then("process-event 3");
  // The create was applied; its resend answered NODEEXISTS.
  ASSERT_TRUE(run.znode(kU0).has_value());
  EXPECT_EQ(run.znode(kU0)->leader_and_isr.leader, 2);
  EXPECT_EQ(run.znode(kU0)->leader_and_isr.partition_epoch, 0);
  EXPECT_TRUE(run.zk().lost_write_responses.empty()) << "the loss is spent on the write that met it";
  EXPECT_EQ(run.partitionOf(3, kU0).state, PartitionState::NewPartition);
  EXPECT_FALSE(run.partitionOf(3, kU0).leadership.has_value()) << "nothing cached";
  EXPECT_TRUE(run.queuedLeaderEpochs(2, kU0).empty()) << "no LeaderAndIsr sent";
  run.drain();
  EXPECT_FALSE(run.hosted(2, kU0).present);
  ASSERT_TRUE(isQuiescent(run.config(), run.state()));
  EXPECT_TRUE(contains(run.unmet(), "L9"));
  EXPECT_FALSE(contains(run.unmet(), "L10"));

  // A broker's restart runs New->Online again: the znode exists, so NODEEXISTS again.
  run.then("crash 1").then("process-event 3").drain().then("start 1").then("process-event 3").drain();
  EXPECT_EQ(run.partitionOf(3, kU0).state, PartitionState::NewPartition);
  EXPECT_FALSE(run.hosted(2, kU0).present);

  // The failover's initializePartitionState reads the znode: leader 2 is alive, so Online.
  run.then("lose-controller-session 3").then("notice-session-expiry 3").then("process-event 3");
  run.then("elect-controller 1");
  EXPECT_EQ(run.partitionOf(1, kU0).state, PartitionState::OnlinePartition);
  run.drain();
  EXPECT_TRUE(run.hosted(2, kU0).is_leader);
  EXPECT_EQ(run.hosted(2, kU0).leader_epoch, 0);
}

TEST(ZkConnectionLoss, ALostElectionWriteIsElectedAgainOnTopOfItself) {
  LossRun run("elect-controller 3\n");
  run.drain();
  ASSERT_EQ(run.znode(kT0)->leader_and_isr.leader, 1);
  ASSERT_EQ(run.znode(kT0)->leader_and_isr.leader_epoch, 0);
  run.then("zk-connection-loss t-0").then("crash 1").then("process-event 3");
  const LeaderAndIsr& lai = run.znode(kT0)->leader_and_isr;
  EXPECT_EQ(lai.leader, 2) << "the offline election finds the same leader twice";
  EXPECT_EQ(lai.isr, BrokerList{2});
  EXPECT_EQ(lai.leader_epoch, 2) << "two elections, one bump each";
  EXPECT_EQ(lai.partition_epoch, 2);
  ASSERT_TRUE(run.partitionOf(3, kT0).leadership.has_value());
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr, lai) << "only the second result is cached";
  const std::vector<std::int32_t> sent = run.queuedLeaderEpochs(2, kT0);
  ASSERT_FALSE(sent.empty());
  EXPECT_TRUE(std::all_of(sent.begin(), sent.end(), [](std::int32_t e) { return e == 2; })) << "and sent";
  EXPECT_EQ(run.partitionOf(3, kT0).state, PartitionState::OnlinePartition);
}

TEST(ZkConnectionLoss, ALostEpochBumpOfAReassignmentIsMadeTwice) {
  LossRun run("elect-controller 3\n");
  run.drain();
  run.then("zk-connection-loss t-0").then("reassign t-0 2,3").then("process-event 3");
  // onPartitionReassignment A1: updateLeaderEpoch read, bumped, written; the resend answered
  // BADVERSION, so it read and bumped again.
  const LeaderAndIsr& lai = run.znode(kT0)->leader_and_isr;
  EXPECT_EQ(lai.leader, 1);
  EXPECT_EQ(lai.leader_epoch, 2);
  EXPECT_EQ(lai.partition_epoch, 2);
  const std::vector<std::int32_t> sent = run.queuedLeaderEpochs(3, kT0);
  ASSERT_FALSE(sent.empty());
  EXPECT_TRUE(std::all_of(sent.begin(), sent.end(), [](std::int32_t e) { return e == 2; }))
      << "the adding replica hears of epoch 2 only";
  EXPECT_TRUE(run.zk().lost_write_responses.empty());
}

TEST(ZkConnectionLoss, ALostIsrRemovalIsCachedAsWrittenOrWrittenAgainForASoleMember) {
  LossRun run("elect-controller 3\n");
  run.drain();
  // Broker 2 follows t-0 (ISR 1,2): its crash removes it from the ISR, leader 1 stays.
  run.then("zk-connection-loss t-0").then("crash 2").then("process-event 3");
  const LeaderAndIsr& lai = run.znode(kT0)->leader_and_isr;
  EXPECT_EQ(lai.leader, 1);
  EXPECT_EQ(lai.isr, BrokerList{1});
  EXPECT_EQ(lai.leader_epoch, 1) << "the second read finds 2 gone: no second write";
  EXPECT_EQ(lai.partition_epoch, 1);
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr, lai);
}

TEST(ZkConnectionLoss, ALostAlterPartitionLeavesTheCacheBehindAndTheReassignmentWaiting) {
  LossRun run("elect-controller 3\n");
  run.drain();
  run.then("reassign t-0 2,3").drain();
  ASSERT_EQ(run.controller(3).context.partitions_being_reassigned, PartitionSet{kT0});
  const std::int32_t cached_epoch = run.partitionOf(3, kT0).leadership->leader_and_isr.partition_epoch;
  run.then("zk-connection-loss t-0").then("expand-isr t-0 leader 1 add 3").then("process-event 3");
  EXPECT_EQ(run.znode(kT0)->leader_and_isr.isr, (BrokerList{1, 2, 3})) << "the write was applied";
  EXPECT_EQ(run.znode(kT0)->leader_and_isr.partition_epoch, cached_epoch + 1);
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr.partition_epoch, cached_epoch)
      << "INVALID_UPDATE_VERSION: the cache is not reloaded";
  EXPECT_TRUE(run.hosted(1, kT0).alter_partition_pending) << "the leader waits for a LeaderAndIsr";
  EXPECT_EQ(run.hosted(1, kT0).isr, (BrokerList{1, 2}));
  run.drain();
  EXPECT_EQ(run.controller(3).context.partitions_being_reassigned, PartitionSet{kT0}) << "the reassignment waits";
  // Quiescent: L10 is not met, and L5 excuses the reassignment the lost response stopped.
  ASSERT_TRUE(isQuiescent(run.config(), run.state()));
  const std::vector<std::string_view> unmet = run.unmet();
  EXPECT_TRUE(contains(unmet, "L10"));
  EXPECT_FALSE(contains(unmet, "L5"));
  EXPECT_FALSE(contains(unmet, "L9"));
}

TEST(ZkConnectionLoss, DeletingTheTopicSpendsTheArmedLoss) {
  LossRun run("elect-controller 3\n");
  run.drain();
  // TopicDeletion's ISR removals write t-0's znode; the loss armed after them meets the recursive
  // delete that completes the deletion.
  run.then("delete-topic t").then("process-event 3").then("zk-connection-loss t-0").drain();
  EXPECT_FALSE(run.zk().topics[0].exists);
  EXPECT_TRUE(run.zk().lost_write_responses.empty()) << "the recursive delete met it; its resend's NONODE is ignored";
}

}  // namespace
}  // namespace kcspec::spec
