// inter.broker.protocol.version in the reference controller (issue 29 item 1; kafka.md Appendix
// A.6): leaders' own ISR writes and /isr_change_notification below 2.7-IV2 (the client, the broker
// and the controller's handlers), StopReplica without leader epochs below 2.6-IV0 (with Kafka's
// log lines), and unclean leaders RECOVERED below 3.2-IV0.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "request_version_rows.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};

Config configAt(std::string_view version) {
  return parseConfig(fmt::format(R"(name protocol-versions
brokers 1 2 3
alive-at-start 1 2 3
inter.broker.protocol.version {}
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
bound isr-shrinks 2
bound reassignments 1
bound crashes 1
bound unclean-elections 1
bound topic-deletions 1
)",
                                 version),
                     "protocol-versions.config");
}

using Names = std::vector<std::string_view>;

Names eventKinds(const ImplRun& run, BrokerId b) {
  Names kinds;
  for (const ControllerEvent& e : run.broker(b).controller.events) kinds.push_back(eventName(e.kind));
  return kinds;
}

// ------------------------------------------------------------------ the client

class LeaderIsrWrites : public ::testing::Test {
 protected:
  LeaderIsrWrites() : config_(configAt("2.4")), client_(store_, config_) {
    client_.createTopLevelPaths();
    client_.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{1, 2})}});
    client_.createTopicPartitionStatesRaw({{kT0, LeaderIsrAndControllerEpoch{LeaderAndIsr::make(1, BrokerList{1, 2}), 4}}}, -1);
  }
  Config config_;
  zk::Store store_;
  zk::KafkaZkClient client_;
};

TEST_F(LeaderIsrWrites, AreConditionalOnTheVersionTheLeaderHolds) {
  const LeaderAndIsr shrunk{1, 0, LeaderRecoveryState::RECOVERED, BrokerList{1}, 0};
  const auto [written, version] = client_.updateLeaderAndIsrByLeader(kT0, shrunk, 4);
  EXPECT_TRUE(written);
  EXPECT_EQ(version, 1);
  const zk::PartitionStateRead read = client_.getTopicPartitionState(kT0);
  ASSERT_TRUE(read.state.has_value());
  EXPECT_EQ(read.state->leader_and_isr, shrunk.withPartitionEpoch(1));
  EXPECT_EQ(read.state->controller_epoch, 4);
  // The same write again meets BADVERSION; the znode holds exactly it, so the checker says done.
  const auto [again, again_version] = client_.updateLeaderAndIsrByLeader(kT0, shrunk, 4);
  EXPECT_TRUE(again);
  EXPECT_EQ(again_version, 1);
  // Another ISR over the old version does not pass.
  const LeaderAndIsr other{1, 0, LeaderRecoveryState::RECOVERED, BrokerList{1, 3}, 0};
  EXPECT_FALSE(client_.updateLeaderAndIsrByLeader(kT0, other, 4).first);
  // Nor the same ISR written with another controller epoch.
  EXPECT_FALSE(client_.updateLeaderAndIsrByLeader(kT0, shrunk, 5).first);
}

TEST_F(LeaderIsrWrites, NotificationsAreSequentialChildrenReadTogetherAndDeletedFenced) {
  client_.propagateIsrChanges(PartitionSet{kT0});
  client_.propagateIsrChanges(PartitionSet{kT0});
  const std::vector<std::string> sequence_numbers = client_.getAllIsrChangeNotifications();
  EXPECT_EQ(sequence_numbers, (std::vector<std::string>{"0000000000", "0000000001"}));
  const zk::Znode* first = store_.find("/isr_change_notification/isr_change_0000000000");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->data, R"({"partitions":[{"partition":0,"topic":"t"}],"version":1})");
  EXPECT_EQ(client_.getPartitionsFromIsrChangeNotifications(sequence_numbers), PartitionSet{kT0});
  client_.deleteIsrChangeNotifications(-1);
  EXPECT_TRUE(client_.getAllIsrChangeNotifications().empty());
}

// ------------------------------------------------------------------ the cluster

TEST(ImplProtocolVersions, ALeaderWritesItsIsrAndTheControllerLearnsFromTheNotification) {
  ImplRun run(configAt("2.4"));
  run.step("elect-controller 3").drain();
  const std::int32_t controller_epoch = run.stateZnode(kT0)->controller_epoch;
  run.step("shrink-isr t-0 leader 1 remove 2");
  ASSERT_TRUE(run.stateZnode(kT0).has_value());
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, BrokerList{1});
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.partition_epoch, 1);
  EXPECT_EQ(run.stateZnode(kT0)->controller_epoch, controller_epoch);
  EXPECT_TRUE(run.world().zk.isr_change_notifications.empty()) << "the propagation task has not run";
  EXPECT_EQ(run.broker(1).pending_isr_changes, PartitionSet{kT0});
  run.step("propagate-isr-changes 1");
  EXPECT_TRUE(run.broker(1).pending_isr_changes.empty());
  EXPECT_EQ(run.world().zk.isr_change_notifications, PartitionSet{kT0});
  EXPECT_EQ(eventKinds(run, 3), Names{"IsrChangeNotification"});
  EXPECT_EQ(run.broker(1).replicas[0].partition_epoch, 1);
  EXPECT_FALSE(run.broker(1).replicas[0].alter_partition_pending);
  run.step("process-event 3");
  EXPECT_EQ(run.partitionContext(3, kT0).leadership->leader_and_isr.isr, BrokerList{1});
  EXPECT_TRUE(run.world().zk.isr_change_notifications.empty());
  EXPECT_EQ(eventKinds(run, 3), Names{"IsrChangeNotification"});
}

TEST(ImplProtocolVersions, AReassignmentWatchesTheStateZnodeAndCompletesThroughIt) {
  ImplRun run(configAt("2.4"));
  run.step("elect-controller 3").drain();
  run.step("reassign t-0 2,3").step("process-event 3");
  EXPECT_EQ(run.context(3).reassignment_isr_watches, PartitionSet{kT0});
  EXPECT_EQ(eventKinds(run, 3), (Names{"PartitionModifications", "PartitionReassignmentIsrChange"}));
  run.drain();
  run.step("expand-isr t-0 leader 1 add 3");
  EXPECT_EQ(eventKinds(run, 3), Names{"PartitionReassignmentIsrChange"});
  run.step("propagate-isr-changes 1");
  EXPECT_EQ(eventKinds(run, 3), (Names{"PartitionReassignmentIsrChange", "IsrChangeNotification"}));
  run.step("process-event 3");
  EXPECT_TRUE(run.context(3).partitions_being_reassigned.empty());
  EXPECT_TRUE(run.context(3).reassignment_isr_watches.empty());
  run.drain();
}

TEST(ImplProtocolVersions, StopReplicaBefore26GoesWithoutLeaderEpochsAndLogsItsFlag) {
  ImplRun run(configAt("2.5"));
  run.step("elect-controller 3").drain();
  run.takeLog();
  run.step("delete-topic t").step("process-event 3");
  const std::string log = run.takeLog();
  EXPECT_NE(log.find("Sending StopReplica request (delete = false) for 1 replicas to broker 1"), std::string::npos) << log;
  EXPECT_NE(log.find("Sending StopReplica request (delete = true) for 1 replicas to broker 1"), std::string::npos) << log;
  EXPECT_EQ(log.find("Sending StopReplica request for"), std::string::npos) << log;
  for (const ControlRequest& r : run.broker(1).inbox) {
    for (const StopReplicaPartitionState& entry : r.stop_replica) EXPECT_EQ(entry.leader_epoch, LeaderAndIsr::kNoEpoch);
  }
  run.drain();
  EXPECT_FALSE(run.world().zk.topics[0].exists);
}

TEST(ImplProtocolVersions, StopReplicaFrom26IsOneRequestWithLeaderEpochs) {
  ImplRun run(configAt("2.6"));
  run.step("elect-controller 3").drain();
  run.takeLog();
  run.step("delete-topic t").step("process-event 3");
  const std::string log = run.takeLog();
  EXPECT_NE(log.find("Sending StopReplica request for 1 replicas to broker 1"), std::string::npos) << log;
  EXPECT_EQ(log.find("(delete = "), std::string::npos) << log;
}

TEST(ImplProtocolVersions, AnUncleanLeaderIsRecoveredBefore32) {
  for (const char* version : {"3.1", "3.2"}) {
    SCOPED_TRACE(version);
    ImplRun run(configAt(version));
    run.step("elect-controller 3").drain();
    run.step("shrink-isr t-0 leader 1 remove 2").drain();
    run.step("crash 1").drain();
    run.step("elect-unclean t-0").step("process-event 3");
    EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader, 2);
    EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.recovery_state,
              std::string_view(version) == "3.2" ? LeaderRecoveryState::RECOVERING : LeaderRecoveryState::RECOVERED);
  }
}

TEST(ImplProtocolVersions, AGivenWorldKeepsItsNotificationsAndWatches) {
  ImplRun run(configAt("2.4"));
  run.step("elect-controller 3").drain();
  run.step("reassign t-0 2,3").step("process-event 3").drain();
  run.step("expand-isr t-0 leader 1 add 3");
  ASSERT_FALSE(run.world().brokers[1].pending_isr_changes.empty());
  ImplRun restored_pending(configAt("2.4"), run.world());
  EXPECT_EQ(restored_pending.world(), run.world()) << "the propagation task's changes are restored too";
  restored_pending.step("propagate-isr-changes 1");
  run.step("propagate-isr-changes 1");
  EXPECT_EQ(restored_pending.world(), run.world());
  const Observation world = run.world();
  ASSERT_FALSE(world.zk.isr_change_notifications.empty());
  ASSERT_FALSE(world.brokers[3].controller.context.reassignment_isr_watches.empty());
  ImplRun restored(configAt("2.4"), world);
  EXPECT_EQ(restored.world(), world);
  run.step("process-event 3");
  restored.step("process-event 3");
  EXPECT_EQ(restored.world(), run.world()) << "and the restored watch completes the reassignment alike";
}

// ------------------------------------------------------------------ request versions


using kcspec::testing::requestsOf;

TEST(ImplRequestVersions, AreTheNewestTheControllersProtocolReaches) {
  for (const kcspec::testing::RequestVersionRow& row : kcspec::testing::kRequestVersionRows) {  // kafka.md A.6
    SCOPED_TRACE(row.protocol);
    ImplRun run(configAt(row.protocol));
    run.step("elect-controller 3");
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::LeaderAndIsr), row.leader_and_isr);
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::UpdateMetadata), row.update_metadata);
    run.drain();
    run.step("delete-topic t").step("process-event 3");
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::StopReplica), row.stop_replica);
  }
}

TEST(ImplRequestVersions, CarryOnlyTheFieldsOfTheirVersionWhileTheLogShowsThemWhole) {
  for (const char* version : {"2.1", "2.2"}) {  // the broker epoch: from 2.2-IV0
    SCOPED_TRACE(version);
    const bool carried = std::string_view(version) == "2.2";
    ImplRun run(configAt(version));
    run.step("elect-controller 3");
    const std::int64_t epoch = run.broker(1).broker_epoch;
    ASSERT_GE(epoch, 0);
    for (const ControlRequest& r : run.broker(1).inbox) EXPECT_EQ(r.broker_epoch, carried ? epoch : -1);
  }
  for (const char* version : {"0.11.0", "1.0"}) {  // isNew: from 1.0-IV0
    SCOPED_TRACE(version);
    ImplRun run(configAt(version));
    run.step("elect-controller 3");
    const std::vector<ControlRequest> leader_and_isr = requestsOf(run, 1, RequestKind::LeaderAndIsr);
    ASSERT_EQ(leader_and_isr.size(), 1u);
    EXPECT_EQ(leader_and_isr[0].leader_and_isr[0].is_new, std::string_view(version) == "1.0");
    EXPECT_NE(run.log().find("isNew=true"), std::string::npos) << "the TRACE line is written before serialization";
  }
  for (const char* version : {"2.3", "2.4-IV0"}) {  // adding and removing replicas: from 2.4-IV0
    SCOPED_TRACE(version);
    const bool carried = std::string_view(version) == "2.4-IV0";
    ImplRun run(configAt(version));
    run.step("elect-controller 3").drain();
    run.step("reassign t-0 2,3").step("process-event 3");
    const std::vector<ControlRequest> leader_and_isr = requestsOf(run, 1, RequestKind::LeaderAndIsr);
    ASSERT_FALSE(leader_and_isr.empty());
    const LeaderAndIsrPartitionState& entry = leader_and_isr.back().leader_and_isr[0];
    EXPECT_EQ(entry.assignment.adding_replicas, carried ? BrokerList{3} : BrokerList{});
    EXPECT_EQ(entry.assignment.removing_replicas, carried ? BrokerList{1} : BrokerList{});
    EXPECT_EQ(run.partitionContext(3, kT0).assignment->adding_replicas, BrokerList{3});
  }
}

}  // namespace
}  // namespace kcspec::impl
