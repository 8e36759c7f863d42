// Partition reassignment (kafka.md §5.7) through the spec's transition system: the worked example
// of §5.7.8 phase by phase, its leader-epoch accounting, cancellation, rejected requests and
// topic deletion.
#include <gtest/gtest.h>

#include <optional>
#include <utility>

#include "spec/rules/step.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};

// A history under construction: every action must be enabled.
class History {
 public:
  explicit History(Config config) : config_(std::move(config)), state_(initialState(config_)) {}

  bool enabled(const Action& action) const { return isEnabled(config_, state_, action); }

  void take(const Action& action) {
    ASSERT_TRUE(enabled(action)) << "not enabled: " << actionName(action.kind) << " broker " << action.broker;
    state_ = next(config_, state_, action);
  }

  // Processes events, delivers requests and error-free StopReplica responses until none is left.
  void drain() {
    for (int steps = 0; steps < 10000; ++steps) {
      const std::optional<Action> recovery = nextRecovery();
      if (!recovery) return;
      state_ = next(config_, state_, *recovery);
    }
    FAIL() << "drain did not settle";
  }

  void processEvent(BrokerId controller) { take(Action{.kind = ActionKind::ProcessEvent, .broker = controller}); }

  void reassign(const BrokerList& target) {
    take(Action{.kind = ActionKind::ReassignPartition, .tp = kT0, .replicas = target});
  }

  // The leader proposes `follower` back into the ISR, and the controller handles it.
  void expandIsr(BrokerId leader, BrokerId follower) {
    take(Action{.kind = ActionKind::ExpandIsr, .broker = leader, .tp = kT0, .replica = follower});
    drain();
  }

  const Observation& world() const { return state_.world; }
  const TopicZnodes& topicZnodes() const { return world().zk.topics[0]; }
  const std::optional<PartitionStateZnode>& stateZnode() const { return topicZnodes().states[0]; }
  const BrokerData& broker(BrokerId b) const { return world().brokers[static_cast<std::size_t>(b)]; }
  const ControllerContextData& context() const { return broker(1).controller.context; }
  const PartitionContext& partitionContext() const {
    return context().partitions[static_cast<std::size_t>(partitionIndex(kT0))];
  }
  std::optional<ReplicaState> replicaState(BrokerId r) const {
    return partitionContext().replica_states[static_cast<std::size_t>(r)];
  }
  const HostedReplica& hosted(BrokerId b) const { return broker(b).replicas[static_cast<std::size_t>(partitionIndex(kT0))]; }

 private:
  std::optional<Action> nextRecovery() const {
    std::optional<Action> found;
    config_.brokers.forEach([&](BrokerId b) {
      for (const Action& a : {Action{.kind = ActionKind::ProcessEvent, .broker = b},
                              Action{.kind = ActionKind::DeliverRequest, .broker = b},
                              Action{.kind = ActionKind::DeliverStopReplicaResponse, .broker = b}}) {
        if (!found && enabled(a)) found = a;
      }
    });
    return found;
  }

  Config config_;
  ClusterState state_;
};

// Brokers `brokers`, all alive; topic t with t-0 = `replicas`, reassignable to `target`.
Config clusterConfig(BrokerSet brokers, BrokerList replicas, BrokerList target) {
  Config config;
  config.name = "reassignment";
  config.brokers = brokers;
  config.brokers_alive_at_start = brokers;
  TopicConfig t;
  t.name = "t";
  t.assignment = {replicas};
  t.reassignment_targets = {{0, target}, {0, BrokerList{4, 5, 1}}, {0, BrokerList{3, 1, 2}}};
  config.topics = {t};
  config.bounds.topic_creations = 2;
  config.bounds.topic_deletions = 1;
  config.bounds.reassignments = 3;
  config.bounds.crashes = 1;
  return config;
}

// Controller on broker 1 (epoch 1), then t created: leader 1, ISR = the replicas, leader epoch 0.
History createdTopic(Config config) {
  History run(std::move(config));
  run.take(Action{.kind = ActionKind::ElectController, .broker = 1});
  run.drain();
  run.take(Action{.kind = ActionKind::CreateTopic, .topic = 0});
  run.drain();
  return run;
}

History workedExample() { return createdTopic(clusterConfig(BrokerSet{1, 2, 3, 4, 5, 6}, {1, 2, 3}, {4, 5, 6})); }

const ReplicaAssignment kDuringReassignment{BrokerList{4, 5, 6, 1, 2, 3}, BrokerList{4, 5, 6}, BrokerList{1, 2, 3}};

// ---- §5.7.8 worked example: ORS = [1,2,3], TRS = [4,5,6] -------------------------------------

TEST(Reassignment, PhaseAWritesTheFullAssignmentAndBumpsTheLeaderEpoch) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.processEvent(1);  // ApiPartitionReassignment

  // Phase U: RS = TRS ∪ ORS (TRS first), AR = TRS − ORS, RR = ORS − TRS, in ZK and in the context.
  EXPECT_EQ(run.topicZnodes().partitions[0], kDuringReassignment);
  EXPECT_EQ(run.partitionContext().assignment, kDuringReassignment);
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});

  // A1: leader epoch + 1, partition epoch + 1, leader and ISR unchanged.
  ASSERT_TRUE(run.stateZnode().has_value());
  const LeaderAndIsr expected{1, 1, LeaderRecoveryState::RECOVERED, BrokerList{1, 2, 3}, 1};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, expected);
  EXPECT_EQ(run.stateZnode()->controller_epoch, 1);
  EXPECT_EQ(run.partitionContext().leadership, (LeaderIsrAndControllerEpoch{expected, 1}));

  // A1's batch: isNew=false to ORS, isNew=true to AR, all with the new epoch and full assignment.
  for (BrokerId b : {1, 2, 3, 4, 5, 6}) {
    const ControlRequest* first = nullptr;
    for (const ControlRequest& request : run.broker(b).inbox) {
      if (request.kind == RequestKind::LeaderAndIsr && first == nullptr) first = &request;
    }
    ASSERT_NE(first, nullptr) << "broker " << b;
    ASSERT_EQ(first->leader_and_isr.size(), 1u);
    const LeaderAndIsrPartitionState& entry = first->leader_and_isr[0];
    EXPECT_EQ(entry.is_new, b >= 4) << "broker " << b;
    EXPECT_EQ(entry.leadership, (LeaderIsrAndControllerEpoch{expected, 1})) << "broker " << b;
    EXPECT_EQ(entry.assignment, kDuringReassignment) << "broker " << b;
  }

  // A2: the adding replicas are NewReplica; the origin replicas stay online.
  for (BrokerId r : {4, 5, 6}) EXPECT_EQ(run.replicaState(r), ReplicaState::NewReplica) << r;
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(run.replicaState(r), ReplicaState::OnlineReplica) << r;
  EXPECT_EQ(run.partitionContext().state, PartitionState::OnlinePartition);

  run.drain();
  for (BrokerId b : {4, 5, 6}) {
    EXPECT_TRUE(run.hosted(b).present) << b;
    EXPECT_FALSE(run.hosted(b).is_leader) << b;
    EXPECT_EQ(run.hosted(b).leader_epoch, 1) << b;
  }
}

TEST(Reassignment, StaysInPhaseAUntilEveryTargetReplicaIsInTheIsr) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.expandIsr(1, 4);
  run.expandIsr(1, 5);

  ASSERT_TRUE(run.stateZnode().has_value());
  EXPECT_EQ(run.stateZnode()->leader_and_isr.leader, 1);
  EXPECT_EQ(run.stateZnode()->leader_and_isr.isr, (BrokerList{1, 2, 3, 4, 5}));
  EXPECT_EQ(run.stateZnode()->leader_and_isr.leader_epoch, 1);  // AlterPartition keeps the leader epoch
  EXPECT_EQ(run.topicZnodes().partitions[0], kDuringReassignment);
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});
  for (BrokerId r : {4, 5, 6}) EXPECT_EQ(run.replicaState(r), ReplicaState::NewReplica) << r;
}

TEST(Reassignment, PhaseBCompletesOnceTheLastTargetReplicaJoinsTheIsr) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.expandIsr(1, 4);
  run.expandIsr(1, 5);
  run.expandIsr(1, 6);  // ISR 1,2,3,4,5,6: maybeCompleteReassignment runs phase B

  // B6: RS = TRS in ZK, AR = RR = []; B2 in the context.
  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{4, 5, 6}));
  EXPECT_EQ(run.partitionContext().assignment, ReplicaAssignment(BrokerList{4, 5, 6}));
  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());

  // B3 elects 4 (first of TRS alive and in the ISR); B4 removes 1, 2, 3 from the ISR, one write each.
  ASSERT_TRUE(run.stateZnode().has_value());
  const LeaderAndIsr& final_state = run.stateZnode()->leader_and_isr;
  EXPECT_EQ(final_state.leader, 4);
  EXPECT_EQ(final_state.isr, (BrokerList{4, 5, 6}));
  EXPECT_EQ(final_state.leader_epoch, 5);      // A1 +1, B3 +1, B4 +3
  EXPECT_EQ(final_state.partition_epoch, 8);   // and three AlterPartition writes
  EXPECT_EQ(run.partitionContext().leadership->leader_and_isr, final_state);

  // B1, B5: the new replicas are online, the removed ones have no replica-state entry.
  for (BrokerId r : {4, 5, 6}) EXPECT_EQ(run.replicaState(r), ReplicaState::OnlineReplica) << r;
  for (BrokerId r : {1, 2, 3}) EXPECT_FALSE(run.replicaState(r).has_value()) << r;
  EXPECT_EQ(run.partitionContext().state, PartitionState::OnlinePartition);

  // The brokers: 1, 2, 3 deleted their replicas, 4 leads, B8 told everyone.
  for (BrokerId b : {1, 2, 3}) EXPECT_FALSE(run.hosted(b).present) << b;
  EXPECT_TRUE(run.hosted(4).is_leader);
  EXPECT_EQ(run.hosted(4).leader_epoch, 5);
  for (BrokerId b : {1, 2, 3, 4, 5, 6}) {
    const auto& cached = run.broker(b).metadata_cache[static_cast<std::size_t>(partitionIndex(kT0))];
    ASSERT_TRUE(cached.has_value()) << b;
    EXPECT_EQ(cached->leader, 4) << b;
    EXPECT_EQ(cached->replicas, (BrokerList{4, 5, 6})) << b;
    EXPECT_EQ(cached->isr, (BrokerList{4, 5, 6})) << b;
  }
}

// §5.7.8: ControllerIntegrationTest.testPartitionReassignment, [c] → [o] ends at leader epoch 3.
TEST(Reassignment, OneReplicaMoveEndsAtLeaderEpoch3) {
  History run = createdTopic(clusterConfig(BrokerSet{1, 2}, {1}, {2}));
  run.reassign({2});
  run.drain();
  ASSERT_TRUE(run.stateZnode().has_value());
  EXPECT_EQ(run.stateZnode()->leader_and_isr.leader_epoch, 1);  // A1
  run.expandIsr(1, 2);

  const LeaderAndIsr& final_state = run.stateZnode()->leader_and_isr;
  EXPECT_EQ(final_state.leader, 2);
  EXPECT_EQ(final_state.isr, (BrokerList{2}));
  EXPECT_EQ(final_state.leader_epoch, 3);  // A1 +1, B3 +1 (Reassign election), B4 +1 (ISR [1,2] → [2])
  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{2}));
  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());
  EXPECT_FALSE(run.replicaState(1).has_value());
  EXPECT_FALSE(run.hosted(1).present);
}

// A target that only reorders the replicas is not a reassignment: phase B at once, the leader
// (alive and in TRS) keeps leading with an epoch bump so the brokers learn the new order.
TEST(Reassignment, ReorderingCompletesAtOnce) {
  History run = workedExample();
  run.reassign({3, 1, 2});
  run.drain();

  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{3, 1, 2}));
  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());
  const LeaderAndIsr expected{1, 1, LeaderRecoveryState::RECOVERED, BrokerList{1, 2, 3}, 1};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, expected);
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(run.replicaState(r), ReplicaState::OnlineReplica) << r;
}

// §5.7.2 U3: a new target replaces the one in progress; the origin survives the replacement and
// the adding replica the new target drops (6) is stopped and forgotten. A2 asks again for 4 and 5
// → NewReplica, an invalid New → New that Kafka logs and skips (kafka.md §1.4).
TEST(Reassignment, ReplacingAReassignmentStopsTheAbandonedAddingReplica) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.reassign({4, 5, 1});
  run.drain();

  const ReplicaAssignment expected{BrokerList{4, 5, 1, 2, 3}, BrokerList{4, 5}, BrokerList{2, 3}};
  EXPECT_EQ(run.topicZnodes().partitions[0], expected);
  EXPECT_EQ(run.partitionContext().assignment, expected);
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});
  // 6 was not in the ISR, so only the new A1 bumps the epoch.
  const LeaderAndIsr state{1, 2, LeaderRecoveryState::RECOVERED, BrokerList{1, 2, 3}, 2};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, state);
  EXPECT_FALSE(run.replicaState(6).has_value());
  EXPECT_FALSE(run.hosted(6).present);
  for (BrokerId r : {4, 5}) {
    EXPECT_EQ(run.replicaState(r), ReplicaState::NewReplica) << r;
    EXPECT_EQ(run.hosted(r).leader_epoch, 2) << r;
  }
}

// ---- Cancellation ------------------------------------------------------------------------------

TEST(Reassignment, CancelRestoresTheOriginReplicas) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.take(Action{.kind = ActionKind::CancelReassignment, .tp = kT0});
  run.drain();

  // reassignTo(ORS) = ([1,2,3], [], []); U3 stops 4, 5, 6; B3 bumps the epoch (leader 1 alive, in TRS).
  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{1, 2, 3}));
  EXPECT_EQ(run.partitionContext().assignment, ReplicaAssignment(BrokerList{1, 2, 3}));
  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());
  const LeaderAndIsr expected{1, 2, LeaderRecoveryState::RECOVERED, BrokerList{1, 2, 3}, 2};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, expected);
  for (BrokerId r : {4, 5, 6}) {
    EXPECT_FALSE(run.replicaState(r).has_value()) << r;
    EXPECT_FALSE(run.hosted(r).present) << r;
  }
  for (BrokerId r : {1, 2, 3}) EXPECT_EQ(run.replicaState(r), ReplicaState::OnlineReplica) << r;
  EXPECT_TRUE(run.hosted(1).is_leader);
  EXPECT_EQ(run.hosted(1).leader_epoch, 2);
}

TEST(Reassignment, CancelShrinksTheIsrOfAnAddingReplicaThatCaughtUp) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.expandIsr(1, 4);
  run.take(Action{.kind = ActionKind::CancelReassignment, .tp = kT0});
  run.drain();

  // U3: OfflineReplica for 4 removes it from ISR [1,2,3,4] (+1); 5 and 6 were not in it; B3 +1.
  const LeaderAndIsr expected{1, 3, LeaderRecoveryState::RECOVERED, BrokerList{1, 2, 3}, 4};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, expected);
  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{1, 2, 3}));
  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());
}

TEST(Reassignment, CancelWithNothingInProgressChangesNothing) {
  History run = workedExample();
  const Observation before = run.world();
  run.take(Action{.kind = ActionKind::CancelReassignment, .tp = kT0});
  run.processEvent(1);
  EXPECT_EQ(run.world(), before);
}

// ---- Rejected requests ---------------------------------------------------------------------------

TEST(Reassignment, TargetWithADeadBrokerIsRejected) {
  History run = workedExample();
  run.take(Action{.kind = ActionKind::CrashBroker, .broker = 6});
  run.drain();
  const Observation before = run.world();
  run.reassign({4, 5, 6});
  run.processEvent(1);
  EXPECT_EQ(run.world(), before);
}

TEST(Reassignment, EmptyOrDuplicateTargetIsRejected) {
  History run = workedExample();
  const Observation before = run.world();
  run.reassign({});
  run.processEvent(1);
  EXPECT_EQ(run.world(), before);
  run.reassign({4, 4, 5});
  run.processEvent(1);
  EXPECT_EQ(run.world(), before);
}

// ---- Topic deletion ------------------------------------------------------------------------------

// The TopicDeletion event marks topics under reassignment ineligible before queueing them, which
// does nothing (marking applies only to queued topics): the deletion runs to completion.
TEST(Reassignment, DeletingATopicUnderReassignmentDeletesIt) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.take(Action{.kind = ActionKind::DeleteTopic, .topic = 0});
  run.drain();

  EXPECT_FALSE(run.topicZnodes().exists);
  EXPECT_TRUE(run.context().all_topics.empty());
  EXPECT_TRUE(run.context().topics_to_be_deleted.empty());
  EXPECT_FALSE(run.partitionContext().assignment.has_value());
  for (BrokerId b : {1, 2, 3, 4, 5, 6}) {
    EXPECT_FALSE(run.replicaState(b).has_value()) << b;
    EXPECT_FALSE(run.hosted(b).present) << b;
  }
  // ControllerContext.removeTopic does not touch partitionsBeingReassigned (kafka.md §4.1).
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});
}

// A broker restarting after that deletion finds a reassigning partition without an assignment:
// its target replicas are empty, so nothing is resumed (kafka.md §5.5.2 step 7).
TEST(Reassignment, BrokerStartupAfterDeletingATopicUnderReassignmentResumesNothing) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.take(Action{.kind = ActionKind::DeleteTopic, .topic = 0});
  run.drain();
  run.take(Action{.kind = ActionKind::CrashBroker, .broker = 4});
  run.drain();
  run.take(Action{.kind = ActionKind::StartBroker, .broker = 4});
  run.drain();

  EXPECT_FALSE(run.topicZnodes().exists);
  EXPECT_FALSE(run.partitionContext().assignment.has_value());
  EXPECT_TRUE(run.broker(1).controller.active);
}

// The leftover mark survives a re-creation of the topic: the next startup of a broker among its
// replicas runs onPartitionReassignment on an assignment not being reassigned — phase B at once,
// whose B3 bumps the leader epoch (leader alive and in TRS), and B7 clears the mark.
TEST(Reassignment, RecreatedTopicInheritsTheLeftoverMarkUntilABrokerStarts) {
  History run = workedExample();
  run.reassign({4, 5, 6});
  run.drain();
  run.take(Action{.kind = ActionKind::DeleteTopic, .topic = 0});
  run.drain();
  run.take(Action{.kind = ActionKind::CreateTopic, .topic = 0});
  run.drain();
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});
  EXPECT_EQ(run.stateZnode()->leader_and_isr.leader_epoch, 0);

  run.take(Action{.kind = ActionKind::CrashBroker, .broker = 2});
  run.drain();  // OfflineReplica for 2: ISR [1,3], leader epoch 1
  run.take(Action{.kind = ActionKind::StartBroker, .broker = 2});
  run.drain();

  EXPECT_TRUE(run.context().partitions_being_reassigned.empty());
  const LeaderAndIsr expected{1, 2, LeaderRecoveryState::RECOVERED, BrokerList{1, 3}, 2};
  EXPECT_EQ(run.stateZnode()->leader_and_isr, expected);
  EXPECT_EQ(run.topicZnodes().partitions[0], ReplicaAssignment(BrokerList{1, 2, 3}));
}

// A topic queued for deletion cannot be reassigned (kafka.md §5.7.6). Broker 3 is down, so the
// deletion halts with t queued.
TEST(Reassignment, TopicQueuedForDeletionIsNotReassigned) {
  History run = workedExample();
  run.take(Action{.kind = ActionKind::CrashBroker, .broker = 3});
  run.drain();
  run.take(Action{.kind = ActionKind::DeleteTopic, .topic = 0});
  run.drain();
  ASSERT_TRUE(run.context().topics_to_be_deleted.contains(0));
  const Observation before = run.world();
  run.reassign({4, 5, 6});
  run.processEvent(1);
  EXPECT_EQ(run.world(), before);
}

// ---- A partition without leadership (reassignment.cpp, first Decision) ------------------------

// t-0 = [3] is created while 3 is down, so it has no state znode. Phase U happens; A1 finds no
// state znode (Kafka: IllegalStateException) and the reassignment stops there, A2 not run.
TEST(Reassignment, PartitionWithoutStateZnodeStopsAfterPhaseU) {
  Config config = clusterConfig(BrokerSet{1, 2, 3}, {3}, {2});
  config.brokers_alive_at_start = BrokerSet{1, 2};
  History run = createdTopic(config);
  ASSERT_FALSE(run.stateZnode().has_value());
  run.reassign({2});
  run.drain();

  const ReplicaAssignment expected{BrokerList{2, 3}, BrokerList{2}, BrokerList{3}};
  EXPECT_EQ(run.topicZnodes().partitions[0], expected);
  EXPECT_EQ(run.partitionContext().assignment, expected);
  EXPECT_EQ(run.context().partitions_being_reassigned, PartitionSet{kT0});
  EXPECT_FALSE(run.stateZnode().has_value());
  EXPECT_FALSE(run.replicaState(2).has_value());
}

}  // namespace
}  // namespace kcspec::spec
