// The legacy ZooKeeper admin paths (issue 29 item 3; kafka.md §5.4 steps 12 and 14, §5.7.5,
// §5.7.6, §5.8.1, §5.8.2): /admin/reassign_partitions and /admin/preferred_replica_election,
// written by an admin tool, processed, trimmed and deleted by the controller.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kT1{0, 1};

// Brokers 1–3 alive, 4 configured but never started; t-0 on 1,2 (reassignable to 2,3 and 2,4),
// t-1 on 2,3 (reassignable to 3,1); topic u on 3,1, to create and delete.
const std::string kConfig =
    "# kcspec scenario v1\n"
    "brokers 1 2 3 4\n"
    "alive-at-start 1 2 3\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  partition 1 replicas 2,3\n"
    "  reassign 0 to 2,3\n"
    "  reassign 0 to 2,4\n"
    "  reassign 1 to 3,1\n"
    "  exists-at-start true\n"
    "topic u\n"
    "  partition 0 replicas 3,1\n"
    "  reassign 0 to 1,2\n"
    "bound reassignments 2\n"
    "bound zk-reassignments 2\n"
    "bound zk-preferred-elections 2\n"
    "bound topic-creations 1\n"
    "bound topic-deletions 1\n"
    "bound controller-failovers 1\n";

const ControllerEvent kZkReassignmentEvent{.kind = ControllerEventKind::ZkPartitionReassignment};
const ControllerEvent kZkPreferredElectionEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                                                .election_type = ElectionType::PREFERRED,
                                                .zk_triggered = true};

// A run of the legacy configuration, with the accessors these tests read.
class AdminRun : public BasicSpecRun<AdminRun> {
 public:
  explicit AdminRun(const std::string& given_and_steps) : BasicSpecRun(kConfig + given_and_steps, "legacy.scenario") {}


  const PartitionContext& partition(BrokerId controller_id, TopicPartition tp) const {
    return controller(controller_id).context.partitions[static_cast<std::size_t>(partitionIndex(tp))];
  }
  const ReplicaAssignment& assignmentInZooKeeper(TopicPartition tp) const {
    return *zk().topics[static_cast<std::size_t>(tp.topic)].partitions[static_cast<std::size_t>(tp.partition)];
  }
  BrokerId leaderInZooKeeper(TopicPartition tp) const {
    return zk().topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)]->leader_and_isr.leader;
  }
};

TEST(LegacyAdminPaths, EveryFailoverQueuesTheZkTriggeredPreferredElection) {
  // Failover step 14 runs onReplicaElection(∅, PREFERRED, ZkTriggered) even without the znode:
  // its finally-block queues ReplicaLeaderElection(None, PREFERRED, ZkTriggered).
  AdminRun run("steps\nelect-controller 1\n");
  ASSERT_EQ(run.controller(1).events.size(), 1u);
  EXPECT_EQ(run.controller(1).events.front(), kZkPreferredElectionEvent);
  const Observation before = run.world();
  run.then("process-event 1");  // no znode: the exists-check only re-arms the watch
  EXPECT_TRUE(run.controller(1).events.empty());
  Observation expected = before;
  expected.brokers[1].controller.events.clear();
  EXPECT_EQ(run.world(), expected);
}

TEST(LegacyAdminPaths, ZkReassignmentAcceptsADeadTargetThatTheApiRefuses) {
  AdminRun api("steps\nelect-controller 1\n");
  api.drain().then("reassign t-0 2,4").drain();
  EXPECT_FALSE(api.assignmentInZooKeeper(kT0).isBeingReassigned()) << "the API checks that adding replicas are alive";
  EXPECT_FALSE(api.controller(1).context.partitions_being_reassigned.contains(kT0));

  AdminRun zk("steps\nelect-controller 1\n");
  zk.drain().then("zk-reassign t-0 2,4");
  ASSERT_EQ(zk.controller(1).events.size(), 1u);
  EXPECT_EQ(zk.controller(1).events.front(), kZkReassignmentEvent);
  zk.drain();
  const ReplicaAssignment& assignment = zk.assignmentInZooKeeper(kT0);
  EXPECT_EQ(assignment.adding_replicas, (BrokerList{4}));
  EXPECT_EQ(assignment.removing_replicas, (BrokerList{1}));
  EXPECT_TRUE(zk.controller(1).context.partitions_being_reassigned.contains(kT0));
  EXPECT_TRUE(zk.zk().reassign_partitions.exists) << "the entry stays until the reassignment completes";
  EXPECT_FALSE(zk.enabled("zk-reassign t-1 3,1")) << "the tool's create fails while the znode exists";
}

TEST(LegacyAdminPaths, CompletionDeletesTheZnodeAndReArmsItsWatch) {
  // t-0 [1,2] → [2,3]: complete as soon as 3 is in the ISR.
  AdminRun run("steps\nelect-controller 1\n");
  run.drain().then("zk-reassign t-0 2,3").drain();
  ASSERT_TRUE(run.zk().reassign_partitions.exists);
  run.then("expand-isr t-0 leader 1 add 3").then("process-event 1");
  EXPECT_EQ(run.assignmentInZooKeeper(kT0), ReplicaAssignment(BrokerList{2, 3}));
  EXPECT_FALSE(run.zk().reassign_partitions.exists) << "no entry left: deleted";
  ASSERT_FALSE(run.controller(1).events.empty());
  EXPECT_EQ(run.controller(1).events.back(), kZkReassignmentEvent) << "the controller re-arms the creation watch";
  EXPECT_TRUE(run.enabled("zk-reassign t-1 3,1"));
}

TEST(LegacyAdminPaths, InvalidJsonStaysUntilAnApiRequestDeletesIt) {
  AdminRun run("steps\nelect-controller 1\n");
  run.drain();
  const Observation before = run.world();
  run.then("zk-reassign-invalid").drain();
  EXPECT_TRUE(run.zk().reassign_partitions.exists);
  EXPECT_TRUE(run.zk().reassign_partitions.invalid_json);
  Observation expected = before;
  expected.zk.reassign_partitions = ReassignPartitionsZnode{.exists = true, .invalid_json = true};
  EXPECT_EQ(run.world(), expected) << "read as empty: nothing else changes";
  EXPECT_FALSE(run.enabled("zk-reassign t-0 2,3"));
  // An API reassignment of any partition rewrites the znode without its (no) entries: deleted.
  run.then("reassign t-1 3,1").then("process-event 1");
  EXPECT_FALSE(run.zk().reassign_partitions.exists);
  EXPECT_TRUE(run.assignmentInZooKeeper(kT1).isBeingReassigned());
  EXPECT_TRUE(run.controller(1).events.contains(kZkReassignmentEvent));
}

TEST(LegacyAdminPaths, AnApiReassignmentSupersedesTheZooKeeperEntry) {
  AdminRun run("steps\nelect-controller 1\n");
  run.drain().then("zk-reassign t-0 2,4").drain();
  ASSERT_TRUE(run.zk().reassign_partitions.partitions.contains(kT0));
  run.then("reassign t-0 2,3").then("process-event 1");
  EXPECT_FALSE(run.zk().reassign_partitions.exists);
  EXPECT_EQ(run.assignmentInZooKeeper(kT0).adding_replicas, (BrokerList{3}));
}

TEST(LegacyAdminPaths, AnEntryForATopicBeingDeletedFailsAndIsRemoved) {
  AdminRun run("steps\nelect-controller 1\n");
  run.drain().then("create-topic u").drain().then("delete-topic u").then("process-event 1");
  ASSERT_TRUE(run.controller(1).context.topics_to_be_deleted.contains(1));
  run.then("zk-reassign u-0 1,2").then("process-event 1");
  EXPECT_FALSE(run.zk().reassign_partitions.exists) << "\"Skipping reassignment … being deleted\": entry removed";
  EXPECT_TRUE(run.controller(1).events.contains(kZkReassignmentEvent));
}

TEST(LegacyAdminPaths, TheZnodeIsTrimmedToTheEntriesStillInProgress) {
  // At failover (step 12) both entries start; t-0, half-way to 2,3 with 3 already in the ISR,
  // completes at once, so only t-1's entry remains.
  AdminRun run(
      "given\n"
      "broker 1 alive\nbroker 2 alive\nbroker 3 alive\n"
      "partition t-0 replicas 2,3,1 adding 3 removing 1 leader 1 isr 1,2,3\n"
      "partition t-1 leader 2 isr 2,3\n"
      "reassign-partitions t-0 2,3 t-1 3,1\n"
      "steps\n"
      "elect-controller 1\n");
  EXPECT_EQ(run.assignmentInZooKeeper(kT0), ReplicaAssignment(BrokerList{2, 3}));
  EXPECT_TRUE(run.assignmentInZooKeeper(kT1).isBeingReassigned());
  const ReassignPartitionsZnode& znode = run.zk().reassign_partitions;
  EXPECT_TRUE(znode.exists);
  EXPECT_EQ(znode.partitions, PartitionSet{kT1});
  EXPECT_EQ(znode.targets[static_cast<std::size_t>(partitionIndex(kT1))], (BrokerList{3, 1}));
  EXPECT_FALSE(run.controller(1).events.contains(kZkReassignmentEvent)) << "rewritten, not deleted";
}

TEST(LegacyAdminPaths, ZkPreferredElectionElectsDeletesAndReArms) {
  AdminRun run(
      "given\n"
      "controller 1\n"
      "broker 1 alive\nbroker 2 alive\nbroker 3 alive\n"
      "partition t-0 leader 2 isr 1,2\n"
      "steps\n"
      "zk-elect-preferred t-0\n");
  ASSERT_EQ(run.controller(1).events.size(), 1u);
  EXPECT_EQ(run.controller(1).events.front(), kZkPreferredElectionEvent);
  EXPECT_FALSE(run.enabled("zk-elect-preferred t-1")) << "the tool's create fails while the znode exists";
  run.then("process-event 1");
  EXPECT_EQ(run.leaderInZooKeeper(kT0), 1);
  EXPECT_FALSE(run.zk().preferred_replica_election.exists);
  ASSERT_EQ(run.controller(1).events.size(), 1u);
  EXPECT_EQ(run.controller(1).events.front(), kZkPreferredElectionEvent) << "queued by the controller to re-arm";
}

TEST(LegacyAdminPaths, AZkElectionAbandonedForALeaderlessPartitionLeavesTheZnode) {
  // t-1 is known but has no state znode: partitionLeadershipInfo(t-1).get throws before
  // onReplicaElection, so its finally-block (the deletion) never runs.
  AdminRun run(
      "given\n"
      "controller 1\n"
      "broker 1 alive\nbroker 2 alive\nbroker 3 alive\n"
      "partition t-0 leader 2 isr 1,2\n"
      "partition t-1 state NewPartition\n"
      "steps\n"
      "zk-elect-preferred t-1\n"
      "process-event 1\n");
  EXPECT_TRUE(run.zk().preferred_replica_election.exists);
  EXPECT_TRUE(run.controller(1).events.empty());
}

TEST(LegacyAdminPaths, FailoverRunsThePendingPreferredElections) {
  AdminRun run(
      "given\n"
      "broker 1 alive\nbroker 2 alive\nbroker 3 alive\n"
      "partition t-0 leader 2 isr 1,2\n"
      "preferred-replica-election t-0\n"
      "steps\n"
      "elect-controller 3\n");
  EXPECT_EQ(run.leaderInZooKeeper(kT0), 1);
  EXPECT_FALSE(run.zk().preferred_replica_election.exists);
  ASSERT_EQ(run.controller(3).events.size(), 1u);
  EXPECT_EQ(run.controller(3).events.front(), kZkPreferredElectionEvent);
}

TEST(LegacyAdminPaths, FailoverMovesAwayWhenAPendingElectionNamesALeaderlessPartition) {
  // t-1's replicas (2, 3) are dead, so the failover cannot initialize its leader and it has no
  // leadership by step 14: fetchPendingPreferredReplicaElections reads
  // partitionLeadershipInfo(t-1).get, the failover fails and the controller moves ("Trigger
  // controller movement immediately").
  AdminRun run(
      "given\n"
      "broker 1 alive\n"
      "partition t-0 leader 1 isr 1\n"
      "partition t-1 state NewPartition\n"
      "preferred-replica-election t-1\n"
      "steps\n"
      "elect-controller 1\n");
  EXPECT_FALSE(run.controller(1).active);
  EXPECT_EQ(run.zk().controller, kNoLeader);
  EXPECT_TRUE(run.zk().preferred_replica_election.exists);
}

}  // namespace
}  // namespace kcspec::spec
