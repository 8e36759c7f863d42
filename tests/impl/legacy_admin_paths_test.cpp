// The legacy ZooKeeper admin paths (issue 29 item 3; kafka.md §5.4 steps 12 and 14, §5.7.5–5.7.7,
// §5.8.1–5.8.2, §6.1–6.3): /admin/reassign_partitions and /admin/preferred_replica_election as
// the admin tools write them and the reference controller reads, trims, deletes and re-arms them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kT1{0, 1};

const ControllerEvent kZkPartitionReassignment{.kind = ControllerEventKind::ZkPartitionReassignment};
// ReplicaLeaderElection(None, PREFERRED, ZkTriggered)
const ControllerEvent kZkPreferredElection{.kind = ControllerEventKind::ReplicaLeaderElection,
                                           .election_type = ElectionType::PREFERRED,
                                           .zk_triggered = true};

// t-0 = [1,2] with the configured target 2,3; t-1 = [2,3] with the target 3,1.
Config legacyConfig(int zk_reassignments = 1, int zk_preferred_elections = 1) {
  return parseConfig(fmt::format(R"(name legacy-admin-paths
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 2,3
  reassign 0 to 2,3
  reassign 1 to 3,1
  exists-at-start true
bound crashes 1
bound reassignments 2
bound zk-reassignments {}
bound zk-preferred-elections {}
bound controller-failovers 1
)",
                                 zk_reassignments, zk_preferred_elections),
                     "legacy.config");
}

// A scenario's configuration and given world (its steps are the test's).
Scenario givenScenario(std::string_view text) { return parseScenario(text, "legacy.scenario"); }

// The legacy paths' events in broker b's queue, in order. (The controller's own writes of a topic
// znode also queue PartitionModifications through its data watch, as in Kafka; those are left out.)
std::vector<ControllerEvent> events(const ImplRun& run, BrokerId b) {
  std::vector<ControllerEvent> out;
  for (const ControllerEvent& e : run.broker(b).controller.events) {
    if (e.kind == ControllerEventKind::ZkPartitionReassignment || e.zk_triggered) out.push_back(e);
  }
  return out;
}

ReassignPartitionsZnode reassignZnode(const ImplRun& run) { return run.world().zk.reassign_partitions; }
PreferredReplicaElectionZnode preferredZnode(const ImplRun& run) { return run.world().zk.preferred_replica_election; }

BrokerList target(const ReassignPartitionsZnode& z, TopicPartition tp) {
  return z.targets[static_cast<std::size_t>(partitionIndex(tp))];
}

// ------------------------------------------------------------------ /admin/reassign_partitions

TEST(ImplLegacyAdminPaths, ZkReassignToADeadTargetStartsWhereTheApiRefusesIt) {
  ImplRun api(legacyConfig()), zk(legacyConfig());
  for (ImplRun* run : {&api, &zk}) {
    run->step("elect-controller 1").drain();
    run->step("crash 3").drain();
    ASSERT_FALSE(run->broker(3).alive);
  }
  // The API validates the target: 3 is not alive, INVALID_REPLICA_ASSIGNMENT.
  api.step("reassign t-0 2,3").step("process-event 1");
  EXPECT_FALSE(api.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(api.partitionContext(1, kT0).assignment, ReplicaAssignment(BrokerList{1, 2}));
  EXPECT_EQ(api.world().zk.topics[0].partitions[0], ReplicaAssignment(BrokerList{1, 2}));

  // The legacy path does not: the znode is written, the creation watch queues the event.
  zk.step("zk-reassign t-0 2,3");
  ReassignPartitionsZnode z = reassignZnode(zk);
  EXPECT_TRUE(z.exists);
  EXPECT_FALSE(z.invalid_json);
  EXPECT_EQ(z.partitions, PartitionSet{kT0});
  EXPECT_EQ(target(z, kT0), (BrokerList{2, 3}));
  EXPECT_EQ(events(zk, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
  zk.step("process-event 1");
  const ReplicaAssignment started(BrokerList{2, 3, 1}, BrokerList{3}, BrokerList{1});
  EXPECT_EQ(zk.partitionContext(1, kT0).assignment, started);
  EXPECT_TRUE(zk.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(zk.world().zk.topics[0].partitions[0], started);
  EXPECT_EQ(zk.stateZnode(kT0)->leader_and_isr.leader_epoch, 1);  // A1 (crash 3 did not touch t-0)
  // Not complete (3 is dead): the entry stays.
  EXPECT_EQ(reassignZnode(zk), z);
  EXPECT_TRUE(events(zk, 1).empty());
}

TEST(ImplLegacyAdminPaths, ZkReassignIsEnabledOnlyWhileTheZnodeIsAbsent) {
  ImplRun run(legacyConfig(/*zk_reassignments=*/2));
  const Action invalid{.kind = ActionKind::ZkReassignInvalid};
  const Action reassign{.kind = ActionKind::ZkReassign, .tp = kT0, .replicas = BrokerList{2, 3}};
  // No controller needed: the tool only writes ZooKeeper, and no watch is registered yet.
  EXPECT_TRUE(run.cluster().isEnabled(invalid));
  EXPECT_TRUE(run.cluster().isEnabled(reassign));
  EXPECT_FALSE(run.cluster().isEnabled(Action{.kind = ActionKind::ZkReassign, .tp = kT0, .replicas = BrokerList{3, 1}}));
  run.step("zk-reassign t-0 2,3");
  EXPECT_FALSE(run.cluster().isEnabled(invalid));  // NODEEXISTS
  EXPECT_FALSE(run.cluster().isEnabled(reassign));
  EXPECT_TRUE(events(run, 1).empty());  // nobody watched
  EXPECT_EQ(run.cluster().remaining().zk_reassignments, 1);
}

TEST(ImplLegacyAdminPaths, InvalidJsonChangesNothingUntilAnApiRequestDeletesIt) {
  // Whatever the API request holds — nothing to build (a cancel with no reassignment in
  // progress), or another partition's reassignment — the znode holding no entry is deleted.
  for (const std::string_view request : {"cancel-reassignment t-0", "reassign t-1 3,1"}) {
    SCOPED_TRACE(request);
    ImplRun run(legacyConfig());
    run.step("elect-controller 1").drain();
    run.step("zk-reassign-invalid");
    EXPECT_EQ(reassignZnode(run), (ReassignPartitionsZnode{.exists = true, .invalid_json = true}));
    EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
    Observation before = run.world();
    before.brokers[1].controller.events.clear();
    run.step("process-event 1");  // WARN "Ignoring partition reassignment due to invalid json": no entry
    EXPECT_TRUE(run.world() == before) << "the invalid znode changed the world";

    run.step(request).step("process-event 1");
    EXPECT_FALSE(reassignZnode(run).exists);
    EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});  // re-armed, a plain put
    EXPECT_EQ(run.context(1).partitions_being_reassigned.contains(kT1), request.starts_with("reassign"));
    run.step("process-event 1");  // the znode is gone: nothing
    EXPECT_TRUE(events(run, 1).empty());
    EXPECT_FALSE(reassignZnode(run).exists);
  }
}

TEST(ImplLegacyAdminPaths, AnApiRequestForTheSamePartitionWinsOverTheZnode) {
  ImplRun run(legacyConfig());
  run.step("elect-controller 1").drain();
  run.step("zk-reassign t-0 2,3").step("process-event 1").drain();
  ASSERT_TRUE(run.context(1).partitions_being_reassigned.contains(kT0));
  ASSERT_TRUE(reassignZnode(run).exists);
  run.step("cancel-reassignment t-0").step("process-event 1");
  EXPECT_FALSE(reassignZnode(run).exists);
  EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
  // The cancel ran: back to the origin replicas, in the order RS − AR gives them ([2,3,1] − [3]:
  // Kafka cannot restore the original order).
  EXPECT_FALSE(run.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(run.partitionContext(1, kT0).assignment, ReplicaAssignment(BrokerList{2, 1}));
}

TEST(ImplLegacyAdminPaths, AnInvalidApiRequestRewritesTheZnodeWithItsEntries) {
  ImplRun run(legacyConfig());
  run.step("elect-controller 1").drain();
  run.step("crash 3").drain();
  run.step("zk-reassign t-0 2,3").step("process-event 1").drain();
  const ReassignPartitionsZnode before = reassignZnode(run);
  const zk::Znode* node = run.cluster().zookeeper().find(zk::paths::kReassignPartitions);
  ASSERT_NE(node, nullptr);
  const std::int32_t version = node->stat.version;
  // 3 is dead: INVALID_REPLICA_ASSIGNMENT, nothing to remove, but maybeRemoveFromZkReassignment
  // still writes the remaining entries back (fenced).
  run.step("reassign t-0 2,3").step("process-event 1");
  EXPECT_EQ(run.partitionContext(1, kT0).assignment,
            ReplicaAssignment(BrokerList{2, 3, 1}, BrokerList{3}, BrokerList{1}));
  EXPECT_EQ(reassignZnode(run), before);
  EXPECT_EQ(run.cluster().zookeeper().find(zk::paths::kReassignPartitions)->stat.version, version + 1);
  EXPECT_TRUE(events(run, 1).empty());
}

TEST(ImplLegacyAdminPaths, CompletingAZkReassignmentDeletesTheZnodeAndQueuesZkPartitionReassignment) {
  ImplRun run(legacyConfig(/*zk_reassignments=*/2));
  run.step("elect-controller 1").drain();
  run.step("zk-reassign t-0 2,3").step("process-event 1").drain();
  ASSERT_TRUE(reassignZnode(run).exists);
  run.step("expand-isr t-0 leader 1 add 3").step("process-event 1");
  EXPECT_FALSE(run.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(run.partitionContext(1, kT0).assignment, ReplicaAssignment(BrokerList{2, 3}));
  EXPECT_FALSE(reassignZnode(run).exists);
  // B6's topic znode write queued PartitionModifications through the watch before B7's put (Kafka's
  // watch handler runs before the write's reply reaches the controller thread).
  const ControllerEvent modifications{.kind = ControllerEventKind::PartitionModifications, .topic = 0};
  const auto& queue = run.broker(1).controller.events;
  EXPECT_EQ(std::vector<ControllerEvent>(queue.begin(), queue.end()),
            (std::vector<ControllerEvent>{modifications, kZkPartitionReassignment}));
  run.drain();
  EXPECT_FALSE(reassignZnode(run).exists);
  EXPECT_TRUE(events(run, 1).empty());
  // The creation watch still reaches the controller.
  run.step("zk-reassign t-0 2,3");
  EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
}

TEST(ImplLegacyAdminPaths, AZkReassignmentThatIsAlreadyCompleteLeavesNoZnode) {
  // Target = the current replicas: phase B at once (B3 bumps the epoch), B7 removes the entry.
  Config config = legacyConfig();
  config.topics[0].reassignment_targets.push_back({0, BrokerList{1, 2}});
  ImplRun run(config);
  run.step("elect-controller 1").drain();
  run.step("zk-reassign t-0 1,2").step("process-event 1");
  EXPECT_FALSE(reassignZnode(run).exists);
  EXPECT_FALSE(run.context(1).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader_epoch, 1);
  EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
}

constexpr std::string_view kTwoEntries = R"(# kcspec scenario v1
name legacy-two-entries
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 2,3
bound controller-failovers 1
given
controller 1
broker 1 alive
broker 2 alive
broker 3 alive
partition t-0 leader 1 isr 1,2
partition t-1 leader 2 isr 2,3
reassign-partitions t-0 2,3 t-1 3,1
steps
)";

TEST(ImplLegacyAdminPaths, AFailoverStartsEveryEntryAndACompletionTrimsItsOwn) {
  const Scenario scenario = givenScenario(kTwoEntries);
  ImplRun run(scenario.config, scenario.given->world);
  EXPECT_EQ(run.world(), scenario.given->world);
  ASSERT_EQ(reassignZnode(run).partitions, (PartitionSet{kT0, kT1}));
  // Step 12: processZkPartitionReassignment starts both entries.
  run.step("lose-controller-session 1").step("elect-controller 2");
  EXPECT_EQ(run.context(2).partitions_being_reassigned, (PartitionSet{kT0, kT1}));
  EXPECT_EQ(run.partitionContext(2, kT0).assignment,
            ReplicaAssignment(BrokerList{2, 3, 1}, BrokerList{3}, BrokerList{1}));
  EXPECT_EQ(run.partitionContext(2, kT1).assignment,
            ReplicaAssignment(BrokerList{3, 1, 2}, BrokerList{1}, BrokerList{2}));
  EXPECT_EQ(reassignZnode(run).partitions, (PartitionSet{kT0, kT1}));
  // Step 14 always ends the failover with the preferred-election re-arm.
  EXPECT_EQ(events(run, 2), std::vector<ControllerEvent>{kZkPreferredElection});
  run.drain();
  // t-0 completes: only its entry goes, the znode is rewritten (no event).
  run.step("expand-isr t-0 leader 1 add 3").step("process-event 2");
  EXPECT_FALSE(run.context(2).partitions_being_reassigned.contains(kT0));
  const ReassignPartitionsZnode z = reassignZnode(run);
  EXPECT_TRUE(z.exists);
  EXPECT_EQ(z.partitions, PartitionSet{kT1});
  EXPECT_EQ(target(z, kT1), (BrokerList{3, 1}));
  EXPECT_TRUE(events(run, 2).empty());
}

// A reassignment started by the API to [2,3] while the znode asks for [3,2]: completing it removes
// the entry only on an exact list match (order included).
std::string orderScenario(std::string_view znode_target) {
  return fmt::format(R"(# kcspec scenario v1
name legacy-order
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 2,3
given
controller 1
broker 1 alive
broker 2 alive
broker 3 alive
partition t-0 replicas 2,3,1 adding 3 removing 1 leader 1 isr 1,2
partition t-1 leader 2 isr 2,3
reassign-partitions t-0 {}
steps
)",
                     znode_target);
}

TEST(ImplLegacyAdminPaths, ACompletionRemovesOnlyAnEntryWithExactlyItsReplicas) {
  for (const std::string_view znode_target : {"3,2", "2,3"}) {
    SCOPED_TRACE(znode_target);
    const Scenario scenario = givenScenario(orderScenario(znode_target));
    ImplRun run(scenario.config, scenario.given->world);
    ASSERT_TRUE(run.context(1).partitions_being_reassigned.contains(kT0));
    run.step("expand-isr t-0 leader 1 add 3").step("process-event 1");
    EXPECT_EQ(run.partitionContext(1, kT0).assignment, ReplicaAssignment(BrokerList{2, 3}));
    if (znode_target == "2,3") {
      EXPECT_FALSE(reassignZnode(run).exists);
      EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPartitionReassignment});
    } else {
      EXPECT_TRUE(reassignZnode(run).exists);
      EXPECT_EQ(target(reassignZnode(run), kT0), (BrokerList{3, 2}));
      EXPECT_TRUE(events(run, 1).empty());
    }
  }
}

TEST(ImplLegacyAdminPaths, AFailedEntryIsRemovedFromTheZnode) {
  // t-1 is queued for deletion: UNKNOWN_TOPIC_OR_PARTITION; its entry goes, t-0's stays.
  const Scenario scenario = givenScenario(R"(# kcspec scenario v1
name legacy-failed-entry
brokers 1 2 3
delete.topic.enable true
topic t
  partition 0 replicas 1,2
topic u
  partition 0 replicas 2,3
bound controller-failovers 1
given
controller 1
broker 1 alive
broker 2 alive
topic u to-be-deleted
partition t-0 leader 1 isr 1,2
partition u-0 leader 2 isr 2
reassign-partitions t-0 2,3 u-0 3,1
steps
)");
  ImplRun run(scenario.config, scenario.given->world);
  run.step("lose-controller-session 1").step("elect-controller 2");
  const TopicPartition u0{1, 0};
  EXPECT_FALSE(run.context(2).partitions_being_reassigned.contains(u0));
  EXPECT_TRUE(run.context(2).partitions_being_reassigned.contains(kT0));  // to a dead broker: nothing checks it
  const ReassignPartitionsZnode z = reassignZnode(run);
  EXPECT_TRUE(z.exists);
  EXPECT_EQ(z.partitions, PartitionSet{kT0});
}

// ------------------------------------------------------------------ /admin/preferred_replica_election

TEST(ImplLegacyAdminPaths, ZkElectPreferredMovesLeadershipDeletesTheZnodeAndReArms) {
  ImplRun run(legacyConfig());
  run.step("elect-controller 3").drain();
  run.step("crash 1").drain();
  run.step("start 1").drain();
  run.step("expand-isr t-0 leader 2 add 1").drain();
  ASSERT_EQ(run.stateZnode(kT0)->leader_and_isr.leader, 2);
  ASSERT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{2, 1}));
  const std::int32_t epoch = run.stateZnode(kT0)->leader_and_isr.leader_epoch;

  run.step("zk-elect-preferred t-0");
  EXPECT_EQ(preferredZnode(run), (PreferredReplicaElectionZnode{true, PartitionSet{kT0}}));
  EXPECT_EQ(events(run, 3), std::vector<ControllerEvent>{kZkPreferredElection});
  EXPECT_FALSE(run.cluster().isEnabled(Action{.kind = ActionKind::ZkElectPreferred, .tp = kT1}));  // NODEEXISTS
  run.step("process-event 3");
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader, 1);
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader_epoch, epoch + 1);
  EXPECT_FALSE(preferredZnode(run).exists);
  EXPECT_EQ(events(run, 3), std::vector<ControllerEvent>{kZkPreferredElection});  // the re-arm
  run.step("process-event 3");  // no znode: nothing
  EXPECT_TRUE(events(run, 3).empty());
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.leader_epoch, epoch + 1);
}

TEST(ImplLegacyAdminPaths, APartitionWithoutLeadershipAbandonsTheElectionAndKeepsTheZnode) {
  const Scenario scenario = givenScenario(R"(# kcspec scenario v1
name legacy-no-leadership
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 3
bound zk-preferred-elections 1
given
controller 1
broker 1 alive
broker 2 alive
partition t-0 leader 1 isr 1,2
partition t-1 state NewPartition
steps
)");
  ImplRun run(scenario.config, scenario.given->world);
  ASSERT_FALSE(run.partitionContext(1, kT1).leadership.has_value());
  run.step("zk-elect-preferred t-1");
  const Observation before = run.world();
  run.step("process-event 1");  // NoSuchElementException before onReplicaElection
  Observation expected = before;
  expected.brokers[1].controller.events.clear();
  EXPECT_TRUE(run.world() == expected);
  EXPECT_TRUE(preferredZnode(run).exists);
}

TEST(ImplLegacyAdminPaths, AStaleControllerIsFencedAtTheZnodeDeleteAndQueuesNothing) {
  ImplRun run(legacyConfig(/*zk_reassignments=*/1, /*zk_preferred_elections=*/2));
  run.step("elect-controller 1").drain();
  run.step("zk-elect-preferred t-0");  // reaches 1
  run.step("lose-controller-session 1").step("elect-controller 2");
  EXPECT_FALSE(preferredZnode(run).exists);  // 2's failover deleted it (step 14)
  run.step("zk-elect-preferred t-0");       // reaches 2 only, absorbed by the equal queued re-arm
  EXPECT_EQ(events(run, 2), (std::vector<ControllerEvent>{kZkPreferredElection}));
  ASSERT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPreferredElection});
  // 1 still believes it is active: t-0's leader is preferred (nothing to elect), but the
  // finally-block's fenced delete fails, ControllerMovedException: it resigns, queues nothing and
  // leaves the znode to 2.
  run.step("process-event 1");
  EXPECT_FALSE(run.broker(1).controller.active);
  EXPECT_TRUE(events(run, 1).empty());
  EXPECT_TRUE(preferredZnode(run).exists);
  run.step("process-event 2");
  EXPECT_FALSE(preferredZnode(run).exists);
}

// ------------------------------------------------------------------ failover (steps 12 and 14)

TEST(ImplLegacyAdminPaths, EveryFailoverQueuesTheZkTriggeredPreferredElection) {
  ImplRun run(legacyConfig());
  run.step("elect-controller 1");
  EXPECT_EQ(events(run, 1), std::vector<ControllerEvent>{kZkPreferredElection});
  run.step("process-event 1");  // no znode: nothing, nothing re-queued
  EXPECT_TRUE(events(run, 1).empty());
  run.step("lose-controller-session 1").step("elect-controller 3");
  EXPECT_EQ(events(run, 3), std::vector<ControllerEvent>{kZkPreferredElection});
}

constexpr std::string_view kBothZnodes = R"(# kcspec scenario v1
name legacy-failover
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 2,3
bound controller-failovers 1
given
controller 1
broker 1 alive
broker 2 alive
broker 3 alive
partition t-0 leader 1 isr 1,2
partition t-1 leader 3 isr 3,2 leader-epoch 4
reassign-partitions t-0 2,3
preferred-replica-election t-1
steps
)";

TEST(ImplLegacyAdminPaths, AFailoverProcessesBothZnodes) {
  const Scenario scenario = givenScenario(kBothZnodes);
  ImplRun run(scenario.config, scenario.given->world);
  EXPECT_EQ(run.world(), scenario.given->world);
  run.step("lose-controller-session 1").step("elect-controller 2");
  ASSERT_TRUE(run.broker(2).controller.active);
  // Step 12: t-0's entry started; it stays until the reassignment completes.
  EXPECT_TRUE(run.context(2).partitions_being_reassigned.contains(kT0));
  EXPECT_EQ(reassignZnode(run).partitions, PartitionSet{kT0});
  // Step 14: t-1's preferred replica (2) leads; the znode is deleted and the watch re-armed.
  EXPECT_EQ(run.stateZnode(kT1)->leader_and_isr.leader, 2);
  EXPECT_EQ(run.stateZnode(kT1)->leader_and_isr.leader_epoch, 5);
  EXPECT_FALSE(preferredZnode(run).exists);
  EXPECT_EQ(events(run, 2), std::vector<ControllerEvent>{kZkPreferredElection});
}

TEST(ImplLegacyAdminPaths, AFailoverThatFindsAPendingPartitionWithoutLeadershipMovesTheController) {
  // t-1's only replica is dead: after PSM startup it is still NewPartition without leadership, and
  // fetchPendingPreferredReplicaElections' `.get` throws: "Error while electing or becoming
  // controller … Trigger controller movement".
  const Scenario scenario = givenScenario(R"(# kcspec scenario v1
name legacy-failover-fails
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 3
bound controller-failovers 1
given
controller 1
broker 1 alive
broker 2 alive
partition t-0 leader 1 isr 1,2
partition t-1 state NewPartition
preferred-replica-election t-1
steps
)");
  ImplRun run(scenario.config, scenario.given->world);
  run.step("lose-controller-session 1").step("elect-controller 2");
  const Observation world = run.world();
  EXPECT_EQ(world.zk.controller_epoch, 2);
  EXPECT_EQ(world.zk.controller, kNoLeader);  // triggerControllerMove deleted /controller
  EXPECT_FALSE(world.brokers[2].controller.active);
  EXPECT_TRUE(world.zk.preferred_replica_election.exists);
  EXPECT_TRUE(events(run, 2).empty());
}

TEST(ImplLegacyAdminPaths, AFailoverThatFailsAtStep14KeepsTheEventsItsEarlierStepsQueued) {
  // Step 12 moves t-0 to [2,1] at once (a topic znode write: PartitionModifications through the
  // watch; the entry removed: the znode deleted and ZkPartitionReassignment put), then step 14
  // throws on t-1. Kafka's watch handlers ran before the failure, and resigning clears no queue.
  const Scenario scenario = givenScenario(R"(# kcspec scenario v1
name legacy-failover-move
brokers 1 2 3
topic t
  partition 0 replicas 1,2
  partition 1 replicas 3
bound controller-failovers 1
given
controller 1
broker 1 alive
broker 2 alive
partition t-0 leader 1 isr 1,2
partition t-1 state NewPartition
reassign-partitions t-0 2,1
preferred-replica-election t-1
steps
)");
  ImplRun run(scenario.config, scenario.given->world);
  run.step("lose-controller-session 1").step("elect-controller 2");
  const Observation world = run.world();
  EXPECT_EQ(world.zk.controller, kNoLeader);
  EXPECT_FALSE(world.brokers[2].controller.active);
  EXPECT_FALSE(world.zk.reassign_partitions.exists);
  EXPECT_EQ(world.zk.topics[0].partitions[0], ReplicaAssignment(BrokerList{2, 1}));
  EXPECT_TRUE(world.zk.preferred_replica_election.exists);
  const auto& queue = world.brokers[2].controller.events;
  const std::vector<ControllerEvent> queued(queue.begin(), queue.end());
  EXPECT_EQ(queued, (std::vector<ControllerEvent>{
                        ControllerEvent{.kind = ControllerEventKind::PartitionModifications, .topic = 0},
                        kZkPartitionReassignment,
                    }));
}

// ------------------------------------------------------------------ observation and given world

TEST(ImplLegacyAdminPaths, TheZnodesRoundTripThroughAGivenWorld) {
  const Scenario scenario = givenScenario(kBothZnodes);
  const ImplCluster cluster(scenario.config, scenario.given->world);
  const Observation world = cluster.observe();
  EXPECT_EQ(world.zk.reassign_partitions.partitions, PartitionSet{kT0});
  EXPECT_EQ(world.zk.reassign_partitions.targets[0], (BrokerList{2, 3}));
  EXPECT_EQ(world.zk.preferred_replica_election, (PreferredReplicaElectionZnode{true, PartitionSet{kT1}}));
  // Kafka's payloads, read back by name.
  const zk::Znode* reassign = cluster.zookeeper().find(zk::paths::kReassignPartitions);
  ASSERT_NE(reassign, nullptr);
  EXPECT_EQ(reassign->data, R"({"partitions":[{"partition":0,"replicas":[2,3],"topic":"t"}],"version":1})");
  const zk::Znode* preferred = cluster.zookeeper().find(zk::paths::kPreferredReplicaElection);
  ASSERT_NE(preferred, nullptr);
  EXPECT_EQ(preferred->data, R"({"partitions":[{"partition":1,"topic":"t"}],"version":1})");

  Observation invalid = world;
  invalid.zk.reassign_partitions = ReassignPartitionsZnode{.exists = true, .invalid_json = true};
  invalid.zk.preferred_replica_election = PreferredReplicaElectionZnode{};
  const ImplCluster loaded(scenario.config, invalid);
  EXPECT_TRUE(loaded.observe() == invalid);
  EXPECT_FALSE(loaded.zookeeper().exists(zk::paths::kPreferredReplicaElection));
}

TEST(ImplLegacyAdminPaths, PayloadsThatAreNotTheirJsonReadAsInvalid) {
  EXPECT_FALSE(zk::payload::decodeReassignPartitions("not json").has_value());
  EXPECT_FALSE(zk::payload::decodeReassignPartitions(R"({"version":1})").has_value());
  // An entry without its replicas: Jackson's mapping fails.
  EXPECT_FALSE(
      zk::payload::decodeReassignPartitions(R"({"version":1,"partitions":[{"topic":"t","partition":0}]})").has_value());
  const auto decoded = zk::payload::decodeReassignPartitions(R"({"version":1,"partitions":[]})");
  ASSERT_TRUE(decoded.has_value());
  EXPECT_TRUE(decoded->empty());
  EXPECT_TRUE(zk::payload::decodePreferredReplicaElection("not json").empty());
}

}  // namespace
}  // namespace kcspec::impl
