// A controller's ZooKeeper session expiring in the middle of an event (`zk-session-expiry`, issue 29
// item 4; docs/world.md convention 15, docs/kafka.md §6.3.9) as histories with their checks, shared
// by the tests of both versions. A `Run` is either version's test run with step(text), drain(),
// enabled(text) and world() (the impl's returns a value: copy it before looking inside).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "spec/vocabulary/observation.hpp"

namespace kcspec::testing {

inline constexpr TopicPartition kExpiryT0{0, 0};
inline constexpr TopicPartition kExpiryU0{1, 0};

// Brokers 1, 2, 3; t-0 on 1,2 exists, u-0 on 2,3 may be created.
inline std::string sessionExpiryScenario() {
  return "# kcspec scenario v1\nname session-expiry-test\nbrokers 1 2 3\nalive-at-start 1 2 3\n"
         "topic t\n  partition 0 replicas 1,2\n  exists-at-start true\ntopic u\n  partition 0 replicas 2,3\n"
         "bound crashes 1\nbound topic-creations 1\nbound broker-session-losses 1\nbound zk-session-expiries 2\n"
         "steps\n";
}

inline const PartitionStateZnode& stateOf(const Observation& world, TopicPartition tp) {
  const auto& state = world.zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
  EXPECT_TRUE(state.has_value()) << "no state znode";
  static const PartitionStateZnode kNone{};
  return state ? *state : kNone;
}

inline const ControllerData& moduleOf(const Observation& world, BrokerId b) {
  return world.brokers[static_cast<std::size_t>(b)].controller;
}

// What the expiry leaves once the event that met it is over: the broker's registration and the
// /controller it held are gone, the arming is spent, the module is session-lost with only Expire
// queued.
inline void expectExpiredDuringTheEvent(const Observation& world, BrokerId b) {
  EXPECT_FALSE(world.zk.brokers[static_cast<std::size_t>(b)].registered) << "the registration went with the session";
  EXPECT_EQ(world.zk.controller, kNoLeader) << "/controller went with the session";
  EXPECT_TRUE(world.zk.session_expiring_writes.empty()) << "the arming is spent";
  const ControllerData& module = moduleOf(world, b);
  EXPECT_TRUE(module.session_lost);
  ASSERT_EQ(module.events.size(), 1u) << "clearAndPut(Expire)";
  EXPECT_EQ(module.events.front().kind, ControllerEventKind::Expire);
}

// Only a partition in ZooKeeper, once.
template <class Run>
void armedOnceForAPartitionInZooKeeper(Run& run) {
  EXPECT_FALSE(run.enabled("zk-session-expiry u-0")) << "u is not created yet";
  run.step("zk-session-expiry t-0");
  EXPECT_FALSE(run.enabled("zk-session-expiry t-0")) << "armed already";
  const Observation world = run.world();
  EXPECT_EQ(world.zk.session_expiring_writes, PartitionSet{kExpiryT0});
}

// The controller's election of t-0 after broker 1 died meets the expiry: the write is not applied,
// the event goes on without ZooKeeper (replica 1 does not go OfflineReplica: reading t-0's state
// fails), then Expire resigns and RegisterBrokerAndReelect registers broker 3 again; the next
// controller elects t-0's leader.
template <class Run>
void anElectionMeetsTheExpiry(Run& run) {
  run.step("elect-controller 3").drain();
  const std::int64_t epoch_before = run.world().brokers[3].broker_epoch;
  run.step("zk-session-expiry t-0").step("crash 1").step("process-event 3");
  {
    const Observation world = run.world();
    expectExpiredDuringTheEvent(world, 3);
    const PartitionStateZnode& state = stateOf(world, kExpiryT0);
    EXPECT_EQ(state.leader_and_isr.leader, 1) << "the election's write was not applied";
    EXPECT_EQ(state.leader_and_isr.leader_epoch, 0);
    const ControllerData& module = moduleOf(world, 3);
    EXPECT_TRUE(module.active) << "it resigns when it processes Expire";
    const PartitionContext& t0 = module.context.partitions[static_cast<std::size_t>(partitionIndex(kExpiryT0))];
    EXPECT_EQ(t0.state, PartitionState::OfflinePartition) << "Offline before the election; Online failed";
    EXPECT_EQ(t0.replica_states[1], ReplicaState::OnlineReplica) << "reading t-0's state failed: no OfflineReplica";
  }
  run.step("process-event 3");
  {
    const Observation world = run.world();
    EXPECT_FALSE(moduleOf(world, 3).active);
    EXPECT_FALSE(moduleOf(world, 3).session_lost);
    ASSERT_EQ(moduleOf(world, 3).events.size(), 1u);
    EXPECT_EQ(moduleOf(world, 3).events.front().kind, ControllerEventKind::RegisterBrokerAndReelect);
  }
  run.step("process-event 3");
  EXPECT_GT(run.world().brokers[3].broker_epoch, epoch_before) << "registered again with a new session";
  run.step("elect-controller 2").drain();
  const Observation world = run.world();
  EXPECT_EQ(stateOf(world, kExpiryT0).leader_and_isr.leader, 2);
  // Elected once and replica 1 taken out of the ISR once (the new controller's failover).
  EXPECT_EQ(stateOf(world, kExpiryT0).leader_and_isr.leader_epoch, 2);
}

// A controller whose session is lost already meets no new expiry: its write goes through (the
// decision of convention 9) and the arming waits.
template <class Run>
void aLostSessionMeetsNoNewExpiry(Run& run) {
  run.step("elect-controller 3").drain();
  run.step("crash 1").step("lose-broker-session 3").step("zk-session-expiry t-0").step("process-event 3");
  const Observation world = run.world();
  EXPECT_EQ(world.zk.session_expiring_writes, PartitionSet{kExpiryT0}) << "the arming waits";
  EXPECT_EQ(stateOf(world, kExpiryT0).leader_and_isr.leader, 2) << "the write went through";
}

// New → Online of a created partition meets the expiry: no state znode, the partition stays
// NewPartition in the controller.
template <class Run>
void aPartitionCreationMeetsTheExpiry(Run& run) {
  run.step("elect-controller 3").drain();
  run.step("create-topic u").step("zk-session-expiry u-0").step("process-event 3");
  const Observation world = run.world();
  expectExpiredDuringTheEvent(world, 3);
  EXPECT_FALSE(world.zk.topics[1].states[0].has_value()) << "the creation was not applied";
  const PartitionContext& u0 = moduleOf(world, 3).context.partitions[static_cast<std::size_t>(partitionIndex(kExpiryU0))];
  EXPECT_EQ(u0.state, PartitionState::NewPartition);
  EXPECT_FALSE(u0.leadership.has_value());
}

// The first failover, whose New→Online of t-0 meets the expiry: the failover goes on until its next
// read of ZooKeeper fails, and triggerControllerMove's read fails too, so the module stays active
// (and session-lost) until its Expire; /controller went with the session, so another broker may win.
template <class Run>
void aFailoverMeetsTheExpiry(Run& run) {
  run.step("crash 1").step("zk-session-expiry t-0").step("elect-controller 3");
  const Observation world = run.world();
  expectExpiredDuringTheEvent(world, 3);
  EXPECT_TRUE(moduleOf(world, 3).active);
  EXPECT_FALSE(world.zk.topics[0].states[0].has_value()) << "the creation of t-0's state was not applied";
  EXPECT_TRUE(run.enabled("elect-controller 2"));
  run.step("process-event 3").step("process-event 3").step("elect-controller 2").drain();
  EXPECT_EQ(stateOf(run.world(), kExpiryT0).leader_and_isr.leader, 2);
}

}  // namespace kcspec::testing
