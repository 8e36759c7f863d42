// State counts of tiny configurations, checked against counts walked by hand (each test's
// comment walks the transitions). Broker 0 is the only broker; it is alive at start; all
// perturbation bounds are 0 unless said otherwise. Rules used (docs/world.md, spec/rules/):
// - initially /controller is absent, so the only enabled action is `elect-controller 0`
//   (process-event, deliver-request need a non-empty queue; start needs a dead broker);
// - elect-controller runs onControllerFailover atomically: it always sends one UpdateMetadata
//   (no partitions) to every live broker, then the replica and partition state machines start;
//   last (§5.4 step 14) onReplicaElection(pending, PREFERRED, ZkTriggered) runs, here always with
//   no partition pending (no /admin/preferred_replica_election), and its finally-block deletes
//   that absent znode (ZooKeeper is unchanged) and queues ReplicaLeaderElection(None, PREFERRED,
//   ZkTriggered) — written RLE below — on the new controller's own event queue;
// - deliver-request 0 takes one request off broker 0's inbox; nothing else gets enabled by it;
// - process-event 0 takes RLE off the queue; with no znode it changes nothing else (it only
//   re-arms the watch) and queues nothing. The inbox and the queue are independent, so after an
//   election the k deliveries and the one process-event interleave freely: a grid of (k + 1) × 2
//   states, reached from its corner by k × 2 deliveries and k + 1 process-events (the two orders
//   of a delivery and the process-event reach the same state);
// - crash resets the broker's whole BrokerData (inbox, caches, controller module and its event
//   queue) and removes its registration and /controller, leaving the rest of ZooKeeper as it is;
// - start registers the broker with epoch last_zxid + 1 (it queues BrokerChange only on an
//   active controller, and after a crash there is none).
#include <gtest/gtest.h>

#include <algorithm>

#include "spec/rules/invariants.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "tiny_configs.hpp"

namespace kcspec::explorer {
namespace {

using testing::oneBroker;
using testing::oneBrokerOneTopic;

ExploreResult<SpecSystem> run(const Config& config, unsigned threads = 2) {
  ExploreOptions options;
  options.threads = threads;
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  return explore(SpecSystem(config), options);
}

void expectClean(const ExploreResult<SpecSystem>& result) {
  EXPECT_TRUE(result.complete());
  EXPECT_TRUE(result.liveness_checked);
  for (const auto& v : result.violations) ADD_FAILURE() << "unexpected violation of " << v.property;
}

// S0 (broker 0 registered, no controller)
//   --elect-controller 0--> S1 (controller 0, epoch 1; inbox: UpdateMetadata; queue: RLE)
//   S1 --deliver-request 0--> S2 (inbox empty; queue RLE)
//   S1 --process-event 0-->   S3 (inbox UpdateMetadata; queue empty)
//   S2 --process-event 0--> S4, S3 --deliver-request 0--> S4 (both empty; nothing is enabled)
// The grid of 1 delivery: 2 × 2 states, 2 deliveries and 2 process-events.
// 5 states, 1 + 4 = 5 transitions, depth 3 (S4).
TEST(ExplorerCounts, OneBrokerNoTopicsNoPerturbations) {
  const auto result = run(oneBroker());
  EXPECT_EQ(result.states, 5u);
  EXPECT_EQ(result.transitions, 5u);
  EXPECT_EQ(result.max_depth, 3);
  expectClean(result);
}

// Topic t, partition 0 on broker 0, in ZooKeeper at start without a partition state.
// elect-controller 0: the failover's UpdateMetadata (1); the replica state machine moves replica
// 0 Online -> Online with no leadership yet (no request); the partition state machine moves t-0
// New -> Online: it writes the state znode (leader 0, ISR 0) and batches LeaderAndIsr to 0 and
// UpdateMetadata (t-0) to 0 (2 and 3); step 14 finds no znode and queues RLE. So the inbox
// holds 3 requests, delivered one at a time, and the queue RLE: S0 -elect-> S1, then the grid of
// 3 deliveries, (3 + 1) × 2 = 8 states (S1 is its corner) with 3 × 2 = 6 deliveries and 4
// process-events; the far corner (all delivered and processed) is 3 + 1 steps from S1.
// 1 + 8 = 9 states, 1 + 6 + 4 = 11 transitions, depth 1 + 4 = 5.
TEST(ExplorerCounts, OneBrokerOneTopicCreatedAtStart) {
  const auto result = run(oneBrokerOneTopic());
  EXPECT_EQ(result.states, 9u);
  EXPECT_EQ(result.transitions, 11u);
  EXPECT_EQ(result.max_depth, 5);
  expectClean(result);
}

// One crash allowed, no topics. Depths are BFS depths (shortest distance). UM is the failover's
// UpdateMetadata.
//   S0 (d0): elect -> S1, crash -> C0
//   S1 (d1, inbox UM, queue RLE): deliver -> S2, process -> S3, crash -> X
//   C0 (d1, dead, never elected): start -> C1
//   S2 (d2, queue RLE): process -> S4, crash -> X   (a crash from any of S1..S4 gives the same
//   S3 (d2, inbox UM):  deliver -> S4, crash -> X    X: the broker's data, its inbox and queue
//   X  (d2, dead, /controller_epoch 1)               with it, is reset and ZooKeeper is the same)
//   C1 (d2, zxid 2, epoch 0 never written): elect -> C2
//   S4 (d3, both empty): crash -> X
//   X: start -> X1 (d3);  C2 (d3, inbox UM, queue RLE): the grid C2..C5 (d3..d5)
//   X1: elect -> X2 (d4, epoch 2, inbox UM, queue RLE): the grid X2..X5 (d4..d6)
// Each grid is that of OneBrokerNoTopicsNoPerturbations: 4 states, 2 deliveries, 2 process-events.
// States: S0..S4 (5) + C0 C1 + C2..C5 (6) + X X1 + X2..X5 (6) = 17; transitions: S0 2, S1 3,
// S2 2, S3 2, S4 1 (10) + C0 start, C1 elect, the grid 4 (6) + X start, X1 elect, the grid 4 (6)
// = 22; depth 6 (X5).
TEST(ExplorerCounts, OneBrokerNoTopicsOneCrash) {
  Config config = oneBroker();
  config.bounds.crashes = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 17u);
  EXPECT_EQ(result.transitions, 22u);
  EXPECT_EQ(result.max_depth, 6);
  expectClean(result);
}

// The topic configuration with one crash. A grid below is that of OneBrokerOneTopicCreatedAtStart:
// 3 requests and RLE, 8 states, 6 deliveries and 4 process-events, its far corner 4 steps from
// its first.
//   P0, elect -> P1 and the grid P1..: the 9 states and 11 transitions above (P1 at depth 1).
//   Crash at P0 -> Q0 (d1); start -> Q1 (d2, zxid 2); elect -> Q2 (d3, the same 3 requests and
//   RLE as P1 since nothing was in ZooKeeper yet); the grid from Q2 (d3..d7): 2 + 8 = 10 states,
//   1 + 1 + 10 = 12 transitions besides the crash.
//   Crash at any of the 8 grid states of P -> the same R0 (d2): ZooKeeper holds the state znode
//   written at P1 and nothing else differs once broker 0's data, its queue with it, is reset
//   (8 transitions).
//   R0: start -> R1 (d3); elect -> R2 (d4): failover reads leadership (leader 0) from the znode;
//   UpdateMetadata (1); replica 0 Online -> Online now with leadership: LeaderAndIsr and
//   UpdateMetadata t-0 (2, 3); t-0 is Online already (no election); step 14: still no znode,
//   nothing pending, RLE is queued. R0, R1 and the grid from R2 (d4..d8): 2 + 8 = 10 states,
//   1 + 1 + 10 = 12 transitions.
// States 9 + 10 + 10 = 29; transitions 11 + 1 + 12 + 8 + 12 = 44; depth 8.
TEST(ExplorerCounts, OneBrokerOneTopicOneCrash) {
  Config config = oneBrokerOneTopic();
  config.bounds.crashes = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 29u);
  EXPECT_EQ(result.transitions, 44u);
  EXPECT_EQ(result.max_depth, 8);
  expectClean(result);
}

// The overall bound (`bound perturbations 1`) with two crashes allowed: once one crash has
// happened no perturbation is enabled, so the second crash never is — exactly the 17 states and
// 22 transitions of OneBrokerNoTopicsOneCrash. Without the overall bound the second crash adds
// states (the broker can die again after its restart).
TEST(ExplorerCounts, TheOverallBoundStopsASecondCrash) {
  Config config = oneBroker();
  config.bounds.crashes = 2;
  const auto unbounded = run(config);
  EXPECT_GT(unbounded.states, 17u);
  config.bounds.perturbations = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 17u);
  EXPECT_EQ(result.transitions, 22u);
  EXPECT_EQ(result.max_depth, 6);
  expectClean(result);
}

// With a crash and a controller failover allowed but at most one perturbation in a history,
// the states are those of the crash-only configuration and those of the failover-only one,
// which share exactly the states without a perturbation (the configuration with neither):
// states(both, 1) = states(crash) + states(failover) − states(neither), and likewise for the
// transitions.
TEST(ExplorerCounts, OnePerturbationOfTwoKindsIsTheUnionOfEachKindAlone) {
  const Config neither = oneBrokerOneTopic();
  Config crash = neither;
  crash.bounds.crashes = 1;
  Config failover = neither;
  failover.bounds.controller_failovers = 1;
  Config both = neither;
  both.bounds.crashes = 1;
  both.bounds.controller_failovers = 1;
  both.bounds.perturbations = 1;
  const auto n = run(neither), c = run(crash), f = run(failover), b = run(both);
  EXPECT_EQ(b.states, c.states + f.states - n.states);
  EXPECT_EQ(b.transitions, c.transitions + f.transitions - n.transitions);
  EXPECT_EQ(b.max_depth, std::max(c.max_depth, f.max_depth));
  EXPECT_GT(f.states, n.states);  // the failover does add states
  Config unbounded = both;
  unbounded.bounds.perturbations = kAnyNumberOfPerturbations;
  EXPECT_GT(run(unbounded).states, b.states);  // a crash after a failover, and the other way round
  expectClean(b);
}

TEST(ExplorerCounts, OneThreadGivesTheSameCounts) {
  Config config = oneBrokerOneTopic();
  config.bounds.crashes = 1;
  const auto result = run(config, 1);
  EXPECT_EQ(result.states, 29u);
  EXPECT_EQ(result.transitions, 44u);
  EXPECT_EQ(result.threads, 1u);
}

std::uint64_t firedOf(const ExploreResult<SpecSystem>& result, std::string_view kind) {
  for (const auto& [name, count] : result.action_counts) {
    if (name == kind) return count;
  }
  ADD_FAILURE() << "no action kind " << kind;
  return 0;
}

// Action coverage: the walk of OneBrokerNoTopicsNoPerturbations has 5 transitions, one
// elect-controller, two deliver-requests (S1 -> S2, S3 -> S4) and two process-events (S1 -> S3,
// S2 -> S4); every other kind is listed with 0 (a kind that never fired is visible).
TEST(ExplorerCounts, ActionCoverageCountsTransitionsByKind) {
  const auto result = run(oneBroker());
  ASSERT_EQ(result.action_counts.size(), kActionKindCount);
  EXPECT_EQ(firedOf(result, "elect-controller"), 1u);
  EXPECT_EQ(firedOf(result, "deliver-request"), 2u);
  EXPECT_EQ(firedOf(result, "process-event"), 2u);
  std::uint64_t total = 0;
  for (const auto& [name, count] : result.action_counts) total += count;
  EXPECT_EQ(total, result.transitions);
  EXPECT_EQ(firedOf(result, "crash"), 0u);
}

// The same coverage on any number of threads (the merge counts, in the frontier's order).
TEST(ExplorerCounts, ActionCoverageIsTheSameOnOneAndTwoThreads) {
  Config config = oneBrokerOneTopic();
  config.bounds.crashes = 1;
  const auto one = run(config, 1);
  const auto two = run(config, 2);
  EXPECT_EQ(one.action_counts, two.action_counts);
  EXPECT_GT(firedOf(one, "crash"), 0u);
}

}  // namespace
}  // namespace kcspec::explorer
