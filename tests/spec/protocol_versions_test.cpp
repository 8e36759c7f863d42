// inter.broker.protocol.version (issue 29 item 1; kafka.md Appendix A.6, docs/world.md convention
// 12): what the spec's controller and brokers do differently on older protocols — ISR changes
// written by leaders with /isr_change_notification and the reassignment watch (below 2.7-IV2),
// StopReplica without leader epochs (below 2.6-IV0), unclean leaders not RECOVERING (below 3.2-IV0).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "request_version_rows.hpp"
#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};

// t-0 on 1,2 (leader 1), reassignable to 2,3. The controller runs on broker 3.
std::string configAt(std::string_view version) {
  return "# kcspec scenario v1\n"
         "brokers 1 2 3\n"
         "alive-at-start 1 2 3\n"
         "inter.broker.protocol.version " +
         std::string(version) +
         "\n"
         "topic t\n"
         "  partition 0 replicas 1,2\n"
         "  reassign 0 to 2,3\n"
         "  exists-at-start true\n"
         "bound isr-shrinks 2\n"
         "bound reassignments 1\n"
         "bound crashes 1\n"
         "bound unclean-elections 1\n"
         "bound topic-deletions 1\n"
         "bound controller-failovers 1\n";
}

class ProtocolRun : public BasicSpecRun<ProtocolRun> {
 public:
  ProtocolRun(std::string_view version, const std::string& steps)
      : BasicSpecRun(configAt(version) + "steps\n" + steps, "protocol-versions.scenario") {}

  const BoundedList<ControllerEvent, kMaxControllerEvents>& events(BrokerId b) const { return controller(b).events; }
  std::vector<std::string_view> eventKinds(BrokerId b) const {
    std::vector<std::string_view> kinds;
    for (const ControllerEvent& e : events(b)) kinds.push_back(eventName(e.kind));
    return kinds;
  }
  // Broker b's queued StopReplica requests.
  std::vector<ControlRequest> stopReplicas(BrokerId b) const {
    std::vector<ControlRequest> out;
    for (const ControlRequest& r : broker(b).inbox) {
      if (r.kind == RequestKind::StopReplica) out.push_back(r);
    }
    return out;
  }
};

using Names = std::vector<std::string_view>;

TEST(IsrChangesBeforeAlterPartition, TheLeaderWritesTheStateZnodeAndANotification) {
  ProtocolRun run("2.4", "elect-controller 3\n");
  run.drain();
  ASSERT_EQ(run.znode(kT0)->leader_and_isr.isr, (BrokerList{1, 2}));
  const std::int32_t controller_epoch = run.znode(kT0)->controller_epoch;
  run.then("shrink-isr t-0 leader 1 remove 2");
  const PartitionStateZnode& written = *run.znode(kT0);
  EXPECT_EQ(written.leader_and_isr.isr, BrokerList{1});
  EXPECT_EQ(written.leader_and_isr.leader, 1);
  EXPECT_EQ(written.leader_and_isr.leader_epoch, 0) << "the leader does not bump its own epoch";
  EXPECT_EQ(written.leader_and_isr.partition_epoch, 1);
  EXPECT_EQ(written.controller_epoch, controller_epoch) << "the epoch of the leadership it holds";
  EXPECT_EQ(run.hosted(1, kT0).isr, BrokerList{1});
  EXPECT_EQ(run.hosted(1, kT0).partition_epoch, 1);
  EXPECT_FALSE(run.hosted(1, kT0).alter_partition_pending) << "written: committed at once";
  EXPECT_TRUE(run.events(3).empty()) << "no AlterPartition request, no notification yet";
  EXPECT_TRUE(run.zk().isr_change_notifications.empty());
  EXPECT_EQ(run.broker(1).pending_isr_changes, PartitionSet{kT0}) << "isrChangeSet, for the propagation task";
  EXPECT_FALSE(run.enabled("propagate-isr-changes 2")) << "broker 2 changed nothing";

  run.then("propagate-isr-changes 1");
  EXPECT_TRUE(run.broker(1).pending_isr_changes.empty());
  EXPECT_EQ(run.zk().isr_change_notifications, PartitionSet{kT0});
  EXPECT_EQ(run.eventKinds(3), Names{"IsrChangeNotification"});
  EXPECT_FALSE(run.enabled("propagate-isr-changes 1")) << "nothing left to write";
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr.isr, (BrokerList{1, 2})) << "the cache lags";

  run.then("process-event 3");
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr, written.leader_and_isr) << "reloaded from ZooKeeper";
  EXPECT_TRUE(run.zk().isr_change_notifications.empty()) << "deleted";
  EXPECT_EQ(run.eventKinds(3), Names{"IsrChangeNotification"}) << "the deletion fires the child watch";
  ASSERT_FALSE(run.broker(2).inbox.empty());
  const ControlRequest& metadata = run.broker(2).inbox.back();
  ASSERT_EQ(metadata.kind, RequestKind::UpdateMetadata);
  ASSERT_EQ(metadata.update_metadata.size(), 1u);
  EXPECT_EQ(metadata.update_metadata[0].isr, BrokerList{1});
  const Observation before = run.world();
  run.then("process-event 3");
  EXPECT_TRUE(run.events(3).empty());
  EXPECT_EQ(run.world().zk, before.zk) << "no notification left: nothing happens";
}

TEST(IsrChangesBeforeAlterPartition, ChangesShareANotificationAndDieWithTheirBroker) {
  ProtocolRun run("2.4", "elect-controller 3\n");
  run.drain();
  run.then("shrink-isr t-0 leader 1 remove 2").then("expand-isr t-0 leader 1 add 2");
  EXPECT_EQ(run.broker(1).pending_isr_changes, PartitionSet{kT0}) << "a set: the two writes are one entry";
  EXPECT_EQ(run.znode(kT0)->leader_and_isr.partition_epoch, 2);
  // The leader dies before its task runs: the controller never hears of either change.
  run.then("crash 1");
  EXPECT_FALSE(run.enabled("propagate-isr-changes 1"));
  EXPECT_TRUE(run.zk().isr_change_notifications.empty());
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr.partition_epoch, 0) << "the cache is two writes behind";
  // BrokerChange elects 2: the controller's write meets BADVERSION, reads the znode and retries.
  run.drain();
  EXPECT_EQ(run.znode(kT0)->leader_and_isr.leader, 2);
  EXPECT_EQ(run.znode(kT0)->leader_and_isr.partition_epoch, 3);
  EXPECT_EQ(run.partitionOf(3, kT0).leadership->leader_and_isr, run.znode(kT0)->leader_and_isr);
}

TEST(IsrChangesBeforeAlterPartition, AWriteOverANewerVersionStaysPendingUntilALeaderAndIsr) {
  ProtocolRun run("2.4", "elect-controller 3\n");
  run.drain();
  run.then("crash 2").then("process-event 3");  // the controller removes 2 from the ISR: version 1
  ASSERT_EQ(run.znode(kT0)->leader_and_isr.partition_epoch, 1);
  ASSERT_EQ(run.hosted(1, kT0).partition_epoch, 0) << "its LeaderAndIsr is still queued";
  const PartitionStateZnode before = *run.znode(kT0);
  run.then("shrink-isr t-0 leader 1 remove 2");
  EXPECT_EQ(*run.znode(kT0), before) << "BADVERSION: nothing written";
  EXPECT_TRUE(run.hosted(1, kT0).alter_partition_pending) << "INVALID_UPDATE_VERSION: awaiting new metadata";
  EXPECT_TRUE(run.zk().isr_change_notifications.empty());
  EXPECT_FALSE(run.enabled("shrink-isr t-0 leader 1 remove 2"));
  run.drain();
  EXPECT_FALSE(run.hosted(1, kT0).alter_partition_pending) << "the LeaderAndIsr replaced the pending state";
  EXPECT_EQ(run.hosted(1, kT0).partition_epoch, 1);
}

TEST(IsrChangesBeforeAlterPartition, NeedNoControllerAndAFailoverDeletesTheirNotifications) {
  ProtocolRun run("2.4", "elect-controller 3\n");
  run.drain();
  run.then("lose-controller-session 3").then("notice-session-expiry 3").then("process-event 3");
  ASSERT_EQ(activeControllerOf(run.world()), kNoLeader);
  ASSERT_TRUE(run.enabled("shrink-isr t-0 leader 1 remove 2")) << "no request: no controller needed";
  run.then("shrink-isr t-0 leader 1 remove 2");
  ASSERT_TRUE(run.enabled("propagate-isr-changes 1")) << "nor does its propagation";
  run.then("propagate-isr-changes 1");
  EXPECT_EQ(run.zk().isr_change_notifications, PartitionSet{kT0});
  run.then("elect-controller 1");
  EXPECT_TRUE(run.zk().isr_change_notifications.empty()) << "onControllerFailover step 4";
  EXPECT_EQ(run.partitionOf(1, kT0).leadership->leader_and_isr.isr, BrokerList{1}) << "read at failover";
  ASSERT_FALSE(run.events(1).empty());
  EXPECT_EQ(eventName(run.events(1).front().kind), "IsrChangeNotification") << "the deletion fires the watch";
}

TEST(IsrChangesBeforeAlterPartition, AReassignmentCompletesThroughTheStateZnodeWatch) {
  ProtocolRun run("2.4", "elect-controller 3\n");
  run.drain();
  run.then("reassign t-0 2,3").then("process-event 3");
  EXPECT_EQ(run.controller(3).context.reassignment_isr_watches, PartitionSet{kT0});
  // updateLeaderEpoch wrote the watched znode: the controller's own write fires the watch (after
  // the topic znode's rewrite fired PartitionModifications).
  EXPECT_EQ(run.eventKinds(3), (Names{"PartitionModifications", "PartitionReassignmentIsrChange"}));
  EXPECT_EQ(run.events(3).back().tp, kT0);
  run.drain();
  ASSERT_TRUE(run.controller(3).context.partitions_being_reassigned.contains(kT0)) << "3 is not in the ISR yet";
  run.then("expand-isr t-0 leader 1 add 3");
  EXPECT_EQ(run.eventKinds(3), Names{"PartitionReassignmentIsrChange"}) << "the state znode's watch";
  run.then("propagate-isr-changes 1");
  EXPECT_EQ(run.eventKinds(3), (Names{"PartitionReassignmentIsrChange", "IsrChangeNotification"}))
      << "then the notification's";
  run.then("process-event 3");  // PartitionReassignmentIsrChange: the target replicas 2, 3 are in the ISR
  EXPECT_FALSE(run.controller(3).context.partitions_being_reassigned.contains(kT0));
  EXPECT_TRUE(run.controller(3).context.reassignment_isr_watches.empty()) << "unregistered at completion";
  EXPECT_EQ(run.zk().topics[0].partitions[0]->replicas, (BrokerList{2, 3}));
  run.drain();
  EXPECT_TRUE(run.zk().isr_change_notifications.empty());
}

TEST(IsrChangesBeforeAlterPartition, AControllerOnANewerProtocolWatchesNothing) {
  ProtocolRun run("2.7-IV2", "elect-controller 3\n");
  run.drain();
  run.then("reassign t-0 2,3").then("process-event 3");
  EXPECT_TRUE(run.controller(3).context.reassignment_isr_watches.empty());
  EXPECT_EQ(run.eventKinds(3), Names{"PartitionModifications"});
  run.drain();
  run.then("expand-isr t-0 leader 1 add 3");
  EXPECT_EQ(run.eventKinds(3), Names{"AlterPartitionReceived"});
  EXPECT_TRUE(run.zk().isr_change_notifications.empty());
}

bool violates(const Config& config, const ClusterState& state, std::string_view id) {
  const std::vector<std::string_view> ids = violatedStateProperties(config, state);
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Found by the preset `old-protocol` (docs/spec/rules.md "Findings", S7): the stale reassignment of
// a deleted topic "completes" on the state znode's watch and writes an empty assignment, which S7
// flags and S5 lets pass — and only that one.
TEST(IsrChangesBeforeAlterPartition, AStaleReassignmentOfADeletedTopicCompletesEmptyAndOnlyS7FlagsIt) {
  const std::string file = KCSPEC_SOURCE_DIR "/tests/scenarios/deviation_s7_stale_reassignment_of_a_deleted_topic.scenario";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const Scenario scenario = parseScenario(text.str(), file);
  ASSERT_FALSE(scenario.steps.empty());
  ClusterState state = initialState(scenario.config);
  for (std::size_t i = 0; i + 1 < scenario.steps.size(); ++i) state = next(scenario.config, state, scenario.steps[i]);
  const ControllerData& before = state.world.brokers[1].controller;
  ASSERT_EQ(before.events.front().kind, ControllerEventKind::PartitionReassignmentIsrChange);
  EXPECT_FALSE(before.context.all_topics.contains(0));
  EXPECT_TRUE(before.context.partitions_being_reassigned.contains(kT0));
  EXPECT_TRUE(violates(scenario.config, state, "S7"));
  EXPECT_FALSE(violates(scenario.config, state, "S5"));

  state = next(scenario.config, state, scenario.steps.back());
  const PartitionContext& p = state.world.brokers[1].controller.context.partitions[0];
  ASSERT_TRUE(p.assignment.has_value()) << "B2 wrote the empty assignment it read";
  EXPECT_TRUE(p.assignment->replicas.empty());
  EXPECT_FALSE(p.leadership.has_value()) << "B3 found none and threw";
  EXPECT_TRUE(violates(scenario.config, state, "S7")) << "the entry's topic is unknown";
  EXPECT_FALSE(violates(scenario.config, state, "S5"));
  // Any other leftover of the deleted topic still breaks S5.
  ClusterState leftover = state;
  leftover.world.brokers[1].controller.context.partitions[0].assignment = ReplicaAssignment(BrokerList{2, 3});
  EXPECT_TRUE(violates(scenario.config, leftover, "S5"));
  leftover = state;
  leftover.world.brokers[1].controller.context.partitions_being_reassigned.erase(kT0);
  EXPECT_TRUE(violates(scenario.config, leftover, "S5")) << "an empty assignment outside a stale reassignment";
}

TEST(StopReplicaBeforeLeaderEpochs, GoesAsRequestsWithoutLeaderEpochs) {
  for (const char* version : {"2.5", "2.6"}) {
    SCOPED_TRACE(version);
    const bool old = std::string_view(version) == "2.5";
    ProtocolRun run(version, "elect-controller 3\n");
    run.drain();
    run.then("delete-topic t").then("process-event 3");
    // onTopicDeletion: the replicas go OfflineReplica (delete=false), then ReplicaDeletionStarted
    // (delete=true), each its own batch.
    const std::vector<ControlRequest> requests = run.stopReplicas(1);
    ASSERT_EQ(requests.size(), 2u);
    for (const ControlRequest& r : requests) {
      ASSERT_EQ(r.stop_replica.size(), 1u);
      EXPECT_EQ(r.stop_replica[0].leader_epoch, old ? LeaderAndIsr::kNoEpoch : LeaderAndIsr::kEpochDuringDelete)
          << "v0–v2 carry none: the broker reads -1";
    }
    EXPECT_FALSE(requests[0].stop_replica[0].delete_partition);
    EXPECT_TRUE(requests[0].response_wanted.empty());
    EXPECT_TRUE(requests[1].stop_replica[0].delete_partition);
    EXPECT_EQ(requests[1].response_wanted, PartitionSet{kT0});
    run.drain();
    EXPECT_FALSE(run.zk().topics[0].exists) << "the deletion completes either way";
  }
}

TEST(LeaderRecovery, AnUncleanLeaderRecoversOnlyFrom32IV0) {
  for (const char* version : {"3.1", "3.2-IV0"}) {
    SCOPED_TRACE(version);
    const bool recovering = std::string_view(version) == "3.2-IV0";
    ProtocolRun run(version, "elect-controller 3\n");
    run.drain();
    // 2 leaves the ISR, then 1 dies: only 2 is left, outside the ISR.
    run.then("shrink-isr t-0 leader 1 remove 2").drain();
    run.then("crash 1").drain();
    ASSERT_EQ(run.znode(kT0)->leader_and_isr.leader, kNoLeader);
    run.then("elect-unclean t-0").then("process-event 3");
    const LeaderAndIsr& lai = run.znode(kT0)->leader_and_isr;
    EXPECT_EQ(lai.leader, 2);
    EXPECT_EQ(lai.isr, BrokerList{2});
    EXPECT_EQ(lai.recovery_state, recovering ? LeaderRecoveryState::RECOVERING : LeaderRecoveryState::RECOVERED);
  }
}


using kcspec::testing::requestsOf;

TEST(RequestVersions, AreTheNewestTheControllersProtocolReaches) {
  for (const kcspec::testing::RequestVersionRow& row : kcspec::testing::kRequestVersionRows) {  // kafka.md A.6
    SCOPED_TRACE(row.protocol);
    ProtocolRun run(row.protocol, "elect-controller 3\n");
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::LeaderAndIsr), row.leader_and_isr);
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::UpdateMetadata), row.update_metadata);
    run.drain();
    run.then("delete-topic t").then("process-event 3");
    kcspec::testing::expectAllAtVersion(requestsOf(run, 1, RequestKind::StopReplica), row.stop_replica);
  }
}

TEST(RequestVersions, CarryOnlyTheFieldsOfTheirVersion) {
  // The broker epoch: LeaderAndIsr v2, UpdateMetadata v5, StopReplica v1 — all from 2.2-IV0.
  for (const char* version : {"2.1", "2.2"}) {
    SCOPED_TRACE(version);
    const bool carried = std::string_view(version) == "2.2";
    ProtocolRun run(version, "elect-controller 3\n");
    const std::int64_t epoch = run.broker(1).broker_epoch;
    ASSERT_GE(epoch, 0);
    for (const ControlRequest& r : run.broker(1).inbox) EXPECT_EQ(r.broker_epoch, carried ? epoch : -1);
    run.drain();
    run.then("delete-topic t").then("process-event 3");
    for (const ControlRequest& r : requestsOf(run, 1, RequestKind::StopReplica)) {
      EXPECT_EQ(r.broker_epoch, carried ? epoch : -1);
    }
  }
  // isNew (LeaderAndIsr v1) and offline replicas (UpdateMetadata v4): both from 1.0-IV0.
  for (const char* version : {"0.11.0", "1.0"}) {
    SCOPED_TRACE(version);
    const bool carried = std::string_view(version) == "1.0";
    ProtocolRun run(version, "elect-controller 3\n");
    const std::vector<ControlRequest> leader_and_isr = requestsOf(run, 1, RequestKind::LeaderAndIsr);
    ASSERT_EQ(leader_and_isr.size(), 1u);
    ASSERT_EQ(leader_and_isr[0].leader_and_isr.size(), 1u);
    EXPECT_EQ(leader_and_isr[0].leader_and_isr[0].is_new, carried) << "a failover's first LeaderAndIsr is new";
    run.drain();
    run.then("crash 2").then("process-event 3");
    bool offline_seen = false;
    for (const ControlRequest& r : requestsOf(run, 1, RequestKind::UpdateMetadata)) {
      for (const UpdateMetadataPartitionState& entry : r.update_metadata) {
        if (entry.tp == kT0) offline_seen = offline_seen || entry.offline_replicas == BrokerList{2};
        if (!carried) {
          EXPECT_TRUE(entry.offline_replicas.empty());
        }
      }
    }
    EXPECT_EQ(offline_seen, carried);
  }
  // Adding and removing replicas (LeaderAndIsr v3): from 2.4-IV0.
  for (const char* version : {"2.3", "2.4-IV0"}) {
    SCOPED_TRACE(version);
    const bool carried = std::string_view(version) == "2.4-IV0";
    ProtocolRun run(version, "elect-controller 3\n");
    run.drain();
    run.then("reassign t-0 2,3").then("process-event 3");
    const std::vector<ControlRequest> leader_and_isr = requestsOf(run, 1, RequestKind::LeaderAndIsr);
    ASSERT_FALSE(leader_and_isr.empty());
    const LeaderAndIsrPartitionState& entry = leader_and_isr.back().leader_and_isr[0];
    EXPECT_EQ(entry.assignment.replicas, (BrokerList{2, 3, 1}));
    EXPECT_EQ(entry.assignment.adding_replicas, carried ? BrokerList{3} : BrokerList{});
    EXPECT_EQ(entry.assignment.removing_replicas, carried ? BrokerList{1} : BrokerList{});
    // The controller's own cache keeps the reassignment whole: only the wire drops it.
    EXPECT_EQ(run.partitionOf(3, kT0).assignment->adding_replicas, BrokerList{3});
  }
}

}  // namespace
}  // namespace kcspec::spec
