// State counts of tiny configurations, checked against counts walked by hand (each test's
// comment walks the transitions). Broker 0 is the only broker; it is alive at start; all
// perturbation bounds are 0 unless said otherwise. Rules used (docs/world.md, spec/rules/):
// - initially /controller is absent, so the only enabled action is `elect-controller 0`
//   (process-event, deliver-request need a non-empty queue; start needs a dead broker);
// - elect-controller runs onControllerFailover atomically: it always sends one UpdateMetadata
//   (no partitions) to every live broker, then the replica and partition state machines start;
// - deliver-request 0 takes one request off broker 0's inbox; nothing else gets enabled by it;
// - crash resets the broker's whole BrokerData (inbox, caches, controller module) and removes
//   its registration and /controller, leaving the rest of ZooKeeper as it is;
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
//   --elect-controller 0--> S1 (controller 0, epoch 1; inbox: UpdateMetadata)
//   --deliver-request 0-->  S2 (inbox empty; nothing is enabled any more)
// 3 states, 2 transitions, depth 2.
TEST(ExplorerCounts, OneBrokerNoTopicsNoPerturbations) {
  const auto result = run(oneBroker());
  EXPECT_EQ(result.states, 3u);
  EXPECT_EQ(result.transitions, 2u);
  EXPECT_EQ(result.max_depth, 2);
  expectClean(result);
}

// Topic t, partition 0 on broker 0, in ZooKeeper at start without a partition state.
// elect-controller 0: the failover's UpdateMetadata (1); the replica state machine moves replica
// 0 Online -> Online with no leadership yet (no request); the partition state machine moves t-0
// New -> Online: it writes the state znode (leader 0, ISR 0) and batches LeaderAndIsr to 0 and
// UpdateMetadata (t-0) to 0 (2 and 3). So the inbox holds 3 requests, delivered one at a time:
// S0 -> S1 -> S2 -> S3 -> S4. 5 states, 4 transitions, depth 4.
TEST(ExplorerCounts, OneBrokerOneTopicCreatedAtStart) {
  const auto result = run(oneBrokerOneTopic());
  EXPECT_EQ(result.states, 5u);
  EXPECT_EQ(result.transitions, 4u);
  EXPECT_EQ(result.max_depth, 4);
  expectClean(result);
}

// One crash allowed, no topics. Depths are BFS depths (shortest distance).
//   S0 (d0): elect -> S1, crash -> C0
//   S1 (d1, inbox UM): deliver -> S2, crash -> X
//   C0 (d1, dead, never elected): start -> C1
//   S2 (d2): crash -> X                        (crash from S1 and S2 give the same X: the broker's
//   X  (d2, dead, /controller_epoch 1)          data is reset and ZooKeeper is the same)
//   C1 (d2, zxid 2, epoch 0 never written): elect -> C2
//   X: start -> X1 (d3);  C2 (d3, inbox UM): deliver -> C3 (d4)
//   X1: elect -> X2 (d4, epoch 2, inbox UM);  X2: deliver -> X3 (d5)
// States: S0 S1 S2 C0 C1 C2 C3 X X1 X2 X3 = 11; transitions: 2 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 = 11;
// depth 5.
TEST(ExplorerCounts, OneBrokerNoTopicsOneCrash) {
  Config config = oneBroker();
  config.bounds.crashes = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 11u);
  EXPECT_EQ(result.transitions, 11u);
  EXPECT_EQ(result.max_depth, 5);
  expectClean(result);
}

// The topic configuration with one crash.
//   P0 -> P1 -> P2 -> P3 -> P4: the 5 states and 4 deliveries above (P1 is elected, depth i).
//   Crash at P0 -> Q0 (d1); start -> Q1 (d2, zxid 2); elect -> Q2 (d3, the same 3 requests as
//   P1 since nothing was in ZooKeeper yet); 3 deliveries -> Q3, Q4, Q5 (d4..d6): 6 states,
//   6 transitions.
//   Crash at P1, P2, P3 or P4 -> the same R0 (d2): ZooKeeper holds the state znode written at
//   P1 and nothing else differs once broker 0's data is reset (4 transitions).
//   R0: start -> R1 (d3); elect -> R2 (d4): failover reads leadership (leader 0) from the znode;
//   UpdateMetadata (1); replica 0 Online -> Online now with leadership: LeaderAndIsr and
//   UpdateMetadata t-0 (2, 3); t-0 is Online already (no election). 3 deliveries -> R3..R5
//   (d5..d7): 6 states, 5 transitions.
// States 5 + 6 + 6 = 17; transitions 4 + 6 + 4 + 5 = 19; depth 7.
TEST(ExplorerCounts, OneBrokerOneTopicOneCrash) {
  Config config = oneBrokerOneTopic();
  config.bounds.crashes = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 17u);
  EXPECT_EQ(result.transitions, 19u);
  EXPECT_EQ(result.max_depth, 7);
  expectClean(result);
}

// The overall bound (`bound perturbations 1`) with two crashes allowed: once one crash has
// happened no perturbation is enabled, so the second crash never is — exactly the 11 states and
// 11 transitions of OneBrokerNoTopicsOneCrash. Without the overall bound the second crash adds
// states (the broker can die again after its restart).
TEST(ExplorerCounts, TheOverallBoundStopsASecondCrash) {
  Config config = oneBroker();
  config.bounds.crashes = 2;
  const auto unbounded = run(config);
  EXPECT_GT(unbounded.states, 11u);
  config.bounds.perturbations = 1;
  const auto result = run(config);
  EXPECT_EQ(result.states, 11u);
  EXPECT_EQ(result.transitions, 11u);
  EXPECT_EQ(result.max_depth, 5);
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
  EXPECT_EQ(result.states, 17u);
  EXPECT_EQ(result.transitions, 19u);
  EXPECT_EQ(result.threads, 1u);
}

std::uint64_t firedOf(const ExploreResult<SpecSystem>& result, std::string_view kind) {
  for (const auto& [name, count] : result.action_counts) {
    if (name == kind) return count;
  }
  ADD_FAILURE() << "no action kind " << kind;
  return 0;
}

// Action coverage: the walk above has 2 transitions, one elect-controller and one
// deliver-request; every other kind is listed with 0 (a kind that never fired is visible).
TEST(ExplorerCounts, ActionCoverageCountsTransitionsByKind) {
  const auto result = run(oneBroker());
  ASSERT_EQ(result.action_counts.size(), kActionKindCount);
  EXPECT_EQ(firedOf(result, "elect-controller"), 1u);
  EXPECT_EQ(firedOf(result, "deliver-request"), 1u);
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
