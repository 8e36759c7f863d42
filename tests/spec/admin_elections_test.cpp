// Leader elections asked for by operators and brokers (kafka.md §5.8.1–5.8.2, §5.9, §5.12, Appendix
// B.3), driven through the transition system: brokers 1,2,3 alive, topic t with one partition,
// controller epoch 1. Each scenario checks the exact leader, ISR, leader epoch and partition
// epoch. Every step is also checked against the invariant catalog (scenario_support.hpp).
#include <gtest/gtest.h>

#include <vector>

#include "scenario_support.hpp"

namespace kcspec::spec {
namespace {

using testing::act;
using testing::onTopic;
using testing::ScenarioRun;

constexpr TopicPartition kT0{0, 0};
constexpr std::size_t kT0Index = 0;  // partitionIndex(kT0)

Config adminConfig(BrokerList assignment, BrokerSet alive_at_start = BrokerSet{1, 2, 3}) {
  Config config;
  config.name = "admin-elections";
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = alive_at_start;
  TopicConfig t;
  t.name = "t";
  t.assignment = {assignment};
  config.topics = {t};
  config.bounds.topic_creations = 1;
  config.bounds.topic_deletions = 1;
  config.bounds.crashes = 2;
  config.bounds.controlled_shutdowns = 1;
  config.bounds.preferred_elections = 1;
  config.bounds.unclean_elections = 1;
  config.bounds.isr_shrinks = 2;
  config.bounds.controller_failovers = 1;
  return config;
}

// The controller on `controller` wins with epoch 1, then t is created and everything settles.
ScenarioRun createdTopic(BrokerId controller, BrokerList assignment = {1, 2, 3},
                         BrokerSet alive_at_start = BrokerSet{1, 2, 3}) {
  ScenarioRun run(adminConfig(assignment, alive_at_start));
  run.step(act(ActionKind::ElectController, controller)).drain();
  run.step(onTopic(ActionKind::CreateTopic, 0)).drain();
  return run;
}

Action onPartition(ActionKind kind) { return Action{.kind = kind, .tp = kT0}; }
Action shrinkIsr(BrokerId leader, BrokerId follower) {
  return Action{.kind = ActionKind::ShrinkIsr, .broker = leader, .tp = kT0, .replica = follower};
}
Action expandIsr(BrokerId leader, BrokerId follower) {
  return Action{.kind = ActionKind::ExpandIsr, .broker = leader, .tp = kT0, .replica = follower};
}

LeaderAndIsr leaderAndIsr(BrokerId leader, std::int32_t leader_epoch, BrokerList isr, std::int32_t partition_epoch,
                          LeaderRecoveryState recovery = LeaderRecoveryState::RECOVERED) {
  return LeaderAndIsr{leader, leader_epoch, recovery, isr, partition_epoch};
}

// The state znode of t-0 is `expected`, written by controller epoch 1, and the controller on
// `controller` caches exactly that.
void expectPartitionState(const ScenarioRun& run, BrokerId controller, const LeaderAndIsr& expected) {
  const auto znode = run.stateZnode(kT0);
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr, expected);
  EXPECT_EQ(znode->controller_epoch, 1);
  EXPECT_EQ(run.partitionContext(controller, kT0).leadership, (LeaderIsrAndControllerEpoch{expected, 1}));
}

std::vector<ControlRequest> requestsOfKind(const ScenarioRun& run, BrokerId broker, RequestKind kind) {
  std::vector<ControlRequest> out;
  for (const ControlRequest& request : run.broker(broker).inbox) {
    if (request.kind == kind) out.push_back(request);
  }
  return out;
}

// `before` with its controller's next event taken off the queue: what processing an event that
// changes nothing leaves behind.
Observation withNextEventTaken(Observation world, BrokerId controller) {
  world.brokers[static_cast<std::size_t>(controller)].controller.events.erase_at(0);
  return world;
}

ControllerEventKind nextEventKind(const ScenarioRun& run, BrokerId controller) {
  return run.broker(controller).controller.events.front().kind;
}

// ---- ControlledShutdown (kafka.md §5.9, §2.9, Appendix B.3) ----------------------------------------

TEST(ControlledShutdown, OfTheLeaderMovesLeadershipTo2WithIsr23Epoch1) {
  ScenarioRun run = createdTopic(2);
  run.step(act(ActionKind::ControlledShutdown, 1)).step(act(ActionKind::ProcessEvent, 2));

  EXPECT_EQ(run.context(2).shutting_down_broker_ids, (BrokerSet{1}));
  expectPartitionState(run, 2, leaderAndIsr(2, 1, {2, 3}, 1));
  const PartitionContext& p = run.partitionContext(2, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  // The led partition's replica on the shutting-down broker is not moved to OfflineReplica.
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(p.replica_states[static_cast<std::size_t>(r)], ReplicaState::OnlineReplica);
  // LeaderAndIsr goes to every live-or-shutting-down replica, so broker 1 learns it follows now;
  // UpdateMetadata advertises the shutting-down replica as offline; no StopReplica.
  for (BrokerId b : {1, 2, 3}) {
    const auto leader_and_isr = requestsOfKind(run, b, RequestKind::LeaderAndIsr);
    ASSERT_EQ(leader_and_isr.size(), 1u) << "broker " << b;
    ASSERT_EQ(leader_and_isr[0].leader_and_isr.size(), 1u);
    EXPECT_EQ(leader_and_isr[0].leader_and_isr[0].leadership,
              (LeaderIsrAndControllerEpoch{leaderAndIsr(2, 1, {2, 3}, 1), 1}));
    EXPECT_FALSE(leader_and_isr[0].leader_and_isr[0].is_new);
    const auto update_metadata = requestsOfKind(run, b, RequestKind::UpdateMetadata);
    ASSERT_EQ(update_metadata.size(), 1u) << "broker " << b;
    ASSERT_EQ(update_metadata[0].update_metadata.size(), 1u);
    EXPECT_EQ(update_metadata[0].update_metadata[0].offline_replicas, (BrokerList{1}));
    EXPECT_TRUE(requestsOfKind(run, b, RequestKind::StopReplica).empty()) << "broker " << b;
  }

  run.drain();
  EXPECT_TRUE(run.broker(2).replicas[kT0Index].is_leader);
  EXPECT_EQ(run.broker(2).replicas[kT0Index].leader_epoch, 1);
  EXPECT_TRUE(run.broker(1).replicas[kT0Index].present);
  EXPECT_FALSE(run.broker(1).replicas[kT0Index].is_leader);
}

TEST(ControlledShutdown, OfAFollowerRemovesItFromTheIsrWithLeaderEpochPlusOne) {
  ScenarioRun run = createdTopic(2, {2, 1, 3});
  expectPartitionState(run, 2, leaderAndIsr(2, 0, {2, 1, 3}, 0));
  run.step(act(ActionKind::ControlledShutdown, 1)).step(act(ActionKind::ProcessEvent, 2));

  EXPECT_EQ(run.context(2).shutting_down_broker_ids, (BrokerSet{1}));
  expectPartitionState(run, 2, leaderAndIsr(2, 1, {2, 3}, 1));
  const PartitionContext& p = run.partitionContext(2, kT0);
  EXPECT_EQ(p.state, PartitionState::OnlinePartition);
  EXPECT_EQ(p.replica_states[1], ReplicaState::OfflineReplica);
  EXPECT_EQ(p.replica_states[2], ReplicaState::OnlineReplica);
  EXPECT_EQ(p.replica_states[3], ReplicaState::OnlineReplica);
  // StopReplica(delete=false) twice: KafkaController's batch, then the replica state machine's.
  const auto stop_replica = requestsOfKind(run, 1, RequestKind::StopReplica);
  ASSERT_EQ(stop_replica.size(), 2u);
  for (const ControlRequest& request : stop_replica) {
    ASSERT_EQ(request.stop_replica.size(), 1u);
    EXPECT_FALSE(request.stop_replica[0].delete_partition);
  }
  // LeaderAndIsr with the shrunk ISR goes to the other replicas only.
  EXPECT_TRUE(requestsOfKind(run, 1, RequestKind::LeaderAndIsr).empty());
  for (BrokerId b : {2, 3}) {
    const auto leader_and_isr = requestsOfKind(run, b, RequestKind::LeaderAndIsr);
    ASSERT_EQ(leader_and_isr.size(), 1u) << "broker " << b;
    EXPECT_EQ(leader_and_isr[0].leader_and_isr[0].leadership.leader_and_isr, leaderAndIsr(2, 1, {2, 3}, 1));
  }

  run.drain();
  EXPECT_FALSE(run.broker(1).replicas[kT0Index].present);
  EXPECT_EQ(run.broker(2).replicas[kT0Index].isr, (BrokerList{2, 3}));
}

TEST(ControlledShutdown, WithAStaleBrokerEpochDoesNothing) {
  ScenarioRun run = createdTopic(1);
  // Broker 2 asks to shut down, then bounces; the controller learns its new epoch (from the
  // BrokerChange already queued by broker 3's crash) before it gets to the request.
  run.step(act(ActionKind::CrashBroker, 3));
  run.step(act(ActionKind::ControlledShutdown, 2));
  const std::int64_t old_epoch = run.broker(2).broker_epoch;
  run.step(act(ActionKind::CrashBroker, 2)).step(act(ActionKind::StartBroker, 2));
  ASSERT_EQ(nextEventKind(run, 1), ControllerEventKind::BrokerChange);
  run.step(act(ActionKind::ProcessEvent, 1));
  ASSERT_GT(run.context(1).live_broker_epochs[2], old_epoch);
  ASSERT_EQ(nextEventKind(run, 1), ControllerEventKind::ControlledShutdown);

  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));
  EXPECT_TRUE(run.context(1).shutting_down_broker_ids.empty());
}

TEST(ControlledShutdown, OnAControllerThatLostItsSessionWritesNothingAndDoesNotResign) {
  ScenarioRun run = createdTopic(1);
  run.step(act(ActionKind::ControlledShutdown, 2));
  run.step(act(ActionKind::LoseControllerSession, 1)).step(act(ActionKind::ElectController, 2));
  ASSERT_EQ(nextEventKind(run, 1), ControllerEventKind::ControlledShutdown);
  const auto znode_before = run.stateZnode(kT0);
  run.step(act(ActionKind::ProcessEvent, 1));
  // Broker 2 follows t-0: its ISR removal is the first fenced write, and ZooKeeper rejects it.
  EXPECT_EQ(run.stateZnode(kT0), znode_before);
  // Kafka's Try hands the ControllerMovedException to the broker: no maybeResign. The controller
  // keeps what it did before the write until it processes Expire.
  EXPECT_TRUE(run.broker(1).controller.active);
  EXPECT_EQ(run.context(1).shutting_down_broker_ids, (BrokerSet{2}));
  run.step(act(ActionKind::NoticeSessionExpiry, 1)).step(act(ActionKind::ProcessEvent, 1));
  EXPECT_FALSE(run.broker(1).controller.active);
}

// ---- ReplicaLeaderElection PREFERRED (kafka.md §5.8.1–5.8.2, §2.8) ---------------------------------

// Broker 1 (the preferred replica) crashes, leadership moves to 2, and broker 1 comes back as a
// follower outside the ISR. The controller runs on broker 3.
ScenarioRun preferredReplicaBack() {
  ScenarioRun run = createdTopic(3);
  run.step(act(ActionKind::CrashBroker, 1)).drain();
  expectPartitionState(run, 3, leaderAndIsr(2, 1, {2, 3}, 1));
  run.step(act(ActionKind::StartBroker, 1)).drain();
  EXPECT_EQ(run.broker(1).replicas[kT0Index].leader_epoch, 1);
  return run;
}

TEST(PreferredElection, MovesLeadershipBackToThePreferredReplicaOnceInSync) {
  ScenarioRun run = preferredReplicaBack();
  run.step(expandIsr(2, 1)).drain();
  expectPartitionState(run, 3, leaderAndIsr(2, 1, {2, 3, 1}, 2));

  run.step(onPartition(ActionKind::ElectPreferredLeader)).step(act(ActionKind::ProcessEvent, 3));
  // leaderEpoch + 1, ISR unchanged (newLeader), partitionEpoch + 1.
  expectPartitionState(run, 3, leaderAndIsr(1, 2, {2, 3, 1}, 3));
  EXPECT_EQ(run.partitionContext(3, kT0).state, PartitionState::OnlinePartition);
  // LeaderAndIsr to every assigned replica.
  for (BrokerId b : {1, 2, 3}) {
    EXPECT_EQ(requestsOfKind(run, b, RequestKind::LeaderAndIsr).size(), 1u) << "broker " << b;
  }

  run.drain();
  EXPECT_TRUE(run.broker(1).replicas[kT0Index].is_leader);
  EXPECT_EQ(run.broker(1).replicas[kT0Index].leader_epoch, 2);
  EXPECT_FALSE(run.broker(2).replicas[kT0Index].is_leader);
}

TEST(PreferredElection, FailsWhenThePreferredReplicaIsNotInTheIsr) {
  ScenarioRun run = preferredReplicaBack();
  run.step(onPartition(ActionKind::ElectPreferredLeader));
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 3));
  // No fallback: no write, no request, the partition stays Online under leader 2.
  EXPECT_EQ(run.world(), withNextEventTaken(before, 3));
  expectPartitionState(run, 3, leaderAndIsr(2, 1, {2, 3}, 1));
  EXPECT_EQ(run.partitionContext(3, kT0).state, PartitionState::OnlinePartition);
}

TEST(PreferredElection, IsNotNeededWhenThePreferredReplicaLeads) {
  ScenarioRun run = createdTopic(1);
  run.step(onPartition(ActionKind::ElectPreferredLeader));
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));  // ELECTION_NOT_NEEDED
}

TEST(PreferredElection, OfAPartitionWithoutLeaderChangesNothing) {
  // t-0 = [3] with broker 3 down: the partition stays NewPartition, without leadership.
  ScenarioRun run = createdTopic(1, {3}, BrokerSet{1, 2});
  ASSERT_FALSE(run.partitionContext(1, kT0).leadership.has_value());
  run.step(onPartition(ActionKind::ElectPreferredLeader));
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));
}

// KAFKA-5107 (historic bug M4): Kafka 3.8 skips partitions of topics queued for deletion before
// any election and marks nothing ineligible, so the deletion still completes.
TEST(PreferredElection, SkipsATopicQueuedForDeletionWithoutHaltingItsDeletion) {
  ScenarioRun run = createdTopic(1);
  run.step(onTopic(ActionKind::DeleteTopic, 0)).step(act(ActionKind::ProcessEvent, 1));
  ASSERT_TRUE(run.context(1).topics_to_be_deleted.contains(0));
  run.step(onPartition(ActionKind::ElectPreferredLeader));
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));  // INVALID_TOPIC_EXCEPTION
  EXPECT_TRUE(run.context(1).topics_ineligible_for_deletion.empty());

  run.drain();
  EXPECT_FALSE(run.world().zk.topics[0].exists);
  EXPECT_TRUE(run.context(1).all_topics.empty());
}

// ---- ReplicaLeaderElection UNCLEAN (kafka.md §5.8.1–5.8.2, §2.7–2.8) -------------------------------

TEST(UncleanElection, ElectsALiveOutOfSyncReplicaWhenTheOnlyIsrMemberIsDead) {
  ScenarioRun run = createdTopic(3);
  run.step(shrinkIsr(1, 3)).drain();
  run.step(shrinkIsr(1, 2)).drain();
  expectPartitionState(run, 3, leaderAndIsr(1, 0, {1}, 2));
  // The leader dies: no clean election; the sole ISR member stays in the ISR, leader −1.
  run.step(act(ActionKind::CrashBroker, 1)).drain();
  expectPartitionState(run, 3, leaderAndIsr(kNoLeader, 1, {1}, 3));
  EXPECT_EQ(run.partitionContext(3, kT0).state, PartitionState::OfflinePartition);

  run.step(onPartition(ActionKind::ElectUncleanLeader)).step(act(ActionKind::ProcessEvent, 3));
  expectPartitionState(run, 3, leaderAndIsr(2, 2, {2}, 4, LeaderRecoveryState::RECOVERING));
  EXPECT_EQ(run.partitionContext(3, kT0).state, PartitionState::OnlinePartition);
  EXPECT_EQ(run.context(3).offline_partition_count, 0);

  run.drain();
  EXPECT_TRUE(run.broker(2).replicas[kT0Index].is_leader);
  EXPECT_EQ(run.broker(2).replicas[kT0Index].leader_epoch, 2);
}

TEST(UncleanElection, IsNotNeededWhileTheLeaderIsLive) {
  ScenarioRun run = createdTopic(1);
  run.step(onPartition(ActionKind::ElectUncleanLeader));
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));  // ELECTION_NOT_NEEDED
}

// ---- AlterPartition (kafka.md §5.12, §6.3) ----------------------------------------------------------

TEST(AlterPartition, ShrinkIsAcceptedWithPartitionEpochPlusOne) {
  ScenarioRun run = createdTopic(1);
  run.step(shrinkIsr(1, 3)).step(act(ActionKind::ProcessEvent, 1));

  // The leader epoch is unchanged; the write carries the current controller epoch.
  expectPartitionState(run, 1, leaderAndIsr(1, 0, {1, 2}, 1));
  // The response reached the leader.
  EXPECT_EQ(run.broker(1).replicas[kT0Index].isr, (BrokerList{1, 2}));
  EXPECT_EQ(run.broker(1).replicas[kT0Index].partition_epoch, 1);
  // UpdateMetadata for t-0 to every registered broker; no LeaderAndIsr.
  for (BrokerId b : {1, 2, 3}) {
    const auto update_metadata = requestsOfKind(run, b, RequestKind::UpdateMetadata);
    ASSERT_EQ(update_metadata.size(), 1u) << "broker " << b;
    ASSERT_EQ(update_metadata[0].update_metadata.size(), 1u);
    EXPECT_EQ(update_metadata[0].update_metadata[0].isr, (BrokerList{1, 2}));
    EXPECT_EQ(update_metadata[0].update_metadata[0].zk_version, 1);
    EXPECT_TRUE(requestsOfKind(run, b, RequestKind::LeaderAndIsr).empty());
  }
  run.drain();
  EXPECT_EQ(run.broker(3).metadata_cache[kT0Index]->isr, (BrokerList{1, 2}));
}

TEST(AlterPartition, OneProposalAtATime) {
  ScenarioRun run = createdTopic(1);
  run.step(shrinkIsr(1, 3));
  // The leader waits for the answer (Kafka's pending ISR state, docs/world.md §7).
  EXPECT_TRUE(run.broker(1).replicas[kT0Index].alter_partition_pending);
  EXPECT_FALSE(isEnabled(run.config(), run.state(), shrinkIsr(1, 2)));
  run.step(act(ActionKind::ProcessEvent, 1));
  EXPECT_FALSE(run.broker(1).replicas[kT0Index].alter_partition_pending);
  EXPECT_TRUE(isEnabled(run.config(), run.state(), shrinkIsr(1, 2)));
}

TEST(AlterPartition, AProposalFromAStaleLeaderViewIsRejectedWithFencedLeaderEpoch) {
  ScenarioRun run = createdTopic(1);
  // The controller moves the partition on (follower 3 shuts down: ISR [1,2], leader epoch 1)
  // before it reads the leader's proposal, made from its view (ISR [1,2,3], leader epoch 0).
  run.step(act(ActionKind::ControlledShutdown, 3)).step(shrinkIsr(1, 2));
  run.step(act(ActionKind::ProcessEvent, 1));
  expectPartitionState(run, 1, leaderAndIsr(1, 1, {1, 2}, 1));

  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  // Nothing is written or cached and the leader keeps its view and waits...
  EXPECT_EQ(run.world().zk, before.zk);
  EXPECT_EQ(run.context(1), before.brokers[1].controller.context);
  EXPECT_EQ(run.broker(1).replicas, before.brokers[1].replicas);
  EXPECT_TRUE(run.broker(1).replicas[kT0Index].alter_partition_pending);
  expectPartitionState(run, 1, leaderAndIsr(1, 1, {1, 2}, 1));
  // ...but, as in Kafka, UpdateMetadata for the partition still goes out.
  for (BrokerId b : {1, 2, 3}) {
    const auto& inbox_before = before.brokers[static_cast<std::size_t>(b)].inbox;
    EXPECT_EQ(run.broker(b).inbox.size(), inbox_before.size() + 1) << "broker " << b;
    EXPECT_EQ(run.broker(b).inbox.back().kind, RequestKind::UpdateMetadata);
  }
  // The LeaderAndIsr of the new leader epoch ends the wait.
  run.drain();
  EXPECT_FALSE(run.broker(1).replicas[kT0Index].alter_partition_pending);
  EXPECT_EQ(run.broker(1).replicas[kT0Index].leader_epoch, 1);
}

TEST(AlterPartition, ExpandIsAcceptedWithPartitionEpochPlusOne) {
  ScenarioRun run = createdTopic(1);
  run.step(shrinkIsr(1, 3)).drain();
  expectPartitionState(run, 1, leaderAndIsr(1, 0, {1, 2}, 1));

  run.step(expandIsr(1, 3)).step(act(ActionKind::ProcessEvent, 1));
  expectPartitionState(run, 1, leaderAndIsr(1, 0, {1, 2, 3}, 2));
  EXPECT_EQ(run.broker(1).replicas[kT0Index].isr, (BrokerList{1, 2, 3}));
  EXPECT_EQ(run.broker(1).replicas[kT0Index].partition_epoch, 2);
}

TEST(AlterPartition, AnIneligibleReplicaEndsTheProposalAndOnlyThatChangeWaitsForTheControllersViewToChange) {
  ScenarioRun run = createdTopic(1);
  run.step(shrinkIsr(1, 3)).drain();
  expectPartitionState(run, 1, leaderAndIsr(1, 0, {1, 2}, 1));
  // Broker 3 starts a controlled shutdown before the controller reads the leader's proposal to
  // take it back into the ISR: rule 9 answers INELIGIBLE_REPLICA (kafka.md §5.12).
  run.step(act(ActionKind::ControlledShutdown, 3)).step(expandIsr(1, 3));
  run.step(act(ActionKind::ProcessEvent, 1));
  ASSERT_EQ(run.context(1).shutting_down_broker_ids, (BrokerSet{3}));
  run.step(act(ActionKind::ProcessEvent, 1));
  expectPartitionState(run, 1, leaderAndIsr(1, 0, {1, 2}, 1));
  // The leader's proposal has ended (Partition.handleAlterPartitionError): its ISR is the
  // committed one, it may propose another change, and not this one until the controller's view
  // of the brokers may have changed.
  const HostedReplica& leader = run.broker(1).replicas[kT0Index];
  EXPECT_FALSE(leader.alter_partition_pending);
  EXPECT_EQ(leader.refused_expansions, (BrokerSet{3}));
  EXPECT_TRUE(leader.refused_shrinks.empty());
  EXPECT_EQ(leader.isr, (BrokerList{1, 2}));
  EXPECT_TRUE(isEnabled(run.config(), run.state(), shrinkIsr(1, 2)));
  // The refusal's own UpdateMetadata (same controller, same live brokers) changes nothing.
  run.drain();
  EXPECT_EQ(run.broker(1).replicas[kT0Index].refused_expansions, (BrokerSet{3}));
  // Broker 3 goes: the controller's UpdateMetadata names other live brokers, with no LeaderAndIsr
  // for t-0 (3 is not in its ISR), and the refusal is forgotten.
  run.step(act(ActionKind::CrashBroker, 3)).drain();
  EXPECT_EQ(run.broker(1).replicas[kT0Index].leader_epoch, 0);
  EXPECT_TRUE(run.broker(1).replicas[kT0Index].refused_expansions.empty());
}

TEST(AlterPartition, OnAControllerThatLostItsSessionWritesNothingAndDoesNotResign) {
  ScenarioRun run = createdTopic(1);
  run.step(shrinkIsr(1, 3));
  run.step(act(ActionKind::LoseControllerSession, 1)).step(act(ActionKind::ElectController, 2));
  ASSERT_EQ(nextEventKind(run, 1), ControllerEventKind::AlterPartitionReceived);
  const Observation before = run.world();
  run.step(act(ActionKind::ProcessEvent, 1));
  // The fenced write fails: UNKNOWN_SERVER_ERROR, no UpdateMetadata, no resignation.
  EXPECT_EQ(run.world(), withNextEventTaken(before, 1));
  EXPECT_TRUE(run.broker(1).controller.active);
}

}  // namespace
}  // namespace kcspec::spec
