// The reference implementation (ImplSystem) and spec + impl in lockstep (BothSystem) under the
// explorer: state counts of tiny configurations walked by hand, the same counts for 1, 2 and 4
// threads, lossless path encodings, and the impl's step record read from its state-change.log.
//
// Why the hand counts are the spec's (explorer_counts_test.cpp walks each configuration step by
// step): a state of ImplSystem is the impl's world, and its fingerprint covers the impl's
// observation, budget and hidden ZooKeeper state (znode versions and creation zxids). The impl
// reaches, step for step, the same observations as the spec (BothSystem checks exactly that on
// these configurations), and in these walks two histories that reach one observation also write
// the same znodes in the same order (the walks below note where two paths merge), so the hidden
// state splits no state: the impl has the spec's states and transitions. A BothSystem state is a
// pair that agrees, so it has them too.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "proofs/explorer/action_path.hpp"
#include "proofs/agreement/step_record.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "breadth_first_sample.hpp"
#include "tiny_configs.hpp"
#include "two_brokers.hpp"  // tests/common/

namespace kcspec::explorer {
namespace {

using testing::oneBroker;
using testing::oneBrokerOneTopic;

Config withCrash(Config config) {
  config.bounds.crashes = 1;
  return config;
}

using kcspec::test::twoBrokers;

template <class S>
ExploreResult<S> run(const S& system, unsigned threads = 2) {
  ExploreOptions options;
  options.threads = threads;
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  return explore(system, options);
}

template <class S>
void expectCounts(const S& system, std::uint64_t states, std::uint64_t transitions, int depth) {
  const auto result = run(system);
  EXPECT_EQ(result.states, states) << system.name();
  EXPECT_EQ(result.transitions, transitions) << system.name();
  EXPECT_EQ(result.max_depth, depth) << system.name();
  EXPECT_TRUE(result.complete()) << system.name();
  EXPECT_TRUE(result.liveness_checked) << system.name();
  for (const auto& v : result.violations) ADD_FAILURE() << system.name() << ": unexpected violation of " << v.property;
}

// Every election below ends (§5.4 step 14) by deleting the absent /admin/preferred_replica_election
// — a fenced delete that fails with NONODE and changes no znode, version or zxid — and queuing
// ReplicaLeaderElection(None, PREFERRED, ZkTriggered), RLE, on the controller's own queue;
// process-event takes it off again, finding no znode (the impl's watches stay registered, so the
// exists-check changes no hidden state either). The inbox and the queue interleave: after an
// election with k requests, a grid of (k + 1) × 2 states with 2k deliveries and k + 1
// process-events, where the two orders of a delivery and the process-event write the same
// znodes (none) and merge.
//
// S0 --elect-controller 0--> S1 (inbox: the failover's UpdateMetadata; queue: RLE), then the grid
// of one delivery: S1 -deliver-> S2, S1 -process-> S3, S2 -process-> S4, S3 -deliver-> S4
// (nothing enabled). 5 states, 5 transitions, depth 3.
TEST(ExplorerSystems, OneBrokerNoTopicsNoPerturbations) {
  expectCounts(ImplSystem(oneBroker()), 5, 5, 3);
  expectCounts(BothSystem(oneBroker()), 5, 5, 3);
}

// elect-controller 0 queues UpdateMetadata, then (t-0 New -> Online) LeaderAndIsr and
// UpdateMetadata t-0, and RLE: the grid of three deliveries and one process-event, 8 states,
// 6 deliveries and 4 process-events. 9 states, 11 transitions, depth 5.
TEST(ExplorerSystems, OneBrokerOneTopicCreatedAtStart) {
  expectCounts(ImplSystem(oneBrokerOneTopic()), 9, 11, 5);
  expectCounts(BothSystem(oneBrokerOneTopic()), 9, 11, 5);
}

// One crash, no topics (explorer_counts_test.cpp's walk):
//   S0: elect -> S1, crash -> C0;  S1..S4 the grid above, 4 transitions;  a crash at any of
//   S1..S4 -> X (the same X: the broker's data, its inbox and queue with it, is reset, and every
//   path wrote the same znodes: /controller_epoch version 1, /controller created and removed,
//   so the impl's hidden state merges them too);
//   C0: start -> C1 -> elect C2 and its grid C2..C5;  X: start X1 -> elect X2 and its grid X2..X5.
// 17 states, 2 + 4 + 4 + (1 + 1 + 4) × 2 = 22 transitions, depth 6 (X5).
TEST(ExplorerSystems, OneBrokerNoTopicsOneCrash) {
  expectCounts(ImplSystem(withCrash(oneBroker())), 17, 22, 6);
  expectCounts(BothSystem(withCrash(oneBroker())), 17, 22, 6);
}

// The topic with one crash: P0 and P's grid (9 states, 11 transitions); crash at P0 -> Q0, start,
// elect, Q's grid (10 states, 12 transitions besides the crash); a crash at any of P's 8 grid
// states -> one R0 (the state znode written at P1 is all ZooKeeper holds besides the
// registrations; 8 transitions); R0: start, elect, R's grid (10 states, 12 transitions).
// 29 states, 44 transitions, depth 8.
TEST(ExplorerSystems, OneBrokerOneTopicOneCrash) {
  expectCounts(ImplSystem(withCrash(oneBrokerOneTopic())), 29, 44, 8);
  expectCounts(BothSystem(withCrash(oneBrokerOneTopic())), 29, 44, 8);
}

// Larger configurations: whatever the counts, 1, 2 and 4 threads give the same ones, and the
// three systems agree on them (the impl has the spec's state space, see the top comment).
template <class S>
void expectSameForThreadCounts(const S& system, std::uint64_t spec_states, std::uint64_t spec_transitions) {
  const auto one = run(system, 1);
  const auto two = run(system, 2);
  const auto four = run(system, 4);
  EXPECT_EQ(one.states, spec_states) << system.name();
  EXPECT_EQ(one.transitions, spec_transitions) << system.name();
  for (const auto* other : {&two, &four}) {
    EXPECT_EQ(other->states, one.states) << system.name();
    EXPECT_EQ(other->transitions, one.transitions) << system.name();
    EXPECT_EQ(other->max_depth, one.max_depth) << system.name();
    EXPECT_EQ(other->violations.size(), one.violations.size()) << system.name();
  }
  EXPECT_TRUE(one.complete());
  EXPECT_TRUE(one.holds());
}

TEST(ExplorerSystems, SameCountsForOneTwoAndFourThreads) {
  for (const Config& config : {twoBrokers(Bounds{.crashes = 1}), twoBrokers(Bounds{.controlled_shutdowns = 1}),
                               twoBrokers(Bounds{.topic_deletions = 1})}) {
    const auto spec = run(SpecSystem(config), 2);
    ASSERT_TRUE(spec.complete());
    expectSameForThreadCounts(ImplSystem(config), spec.states, spec.transitions);
    expectSameForThreadCounts(BothSystem(config), spec.states, spec.transitions);
  }
}

// Every state of a small exploration decodes to itself, in any order (the replay cache must not
// confuse paths that share a prefix with ones that do not), into a fresh state or a reused one;
// nextInto (a reused successor, whose view is observed over the last successor's) agrees with next.
TEST(ExplorerSystems, PathEncodingsRoundTripInAnyOrder) {
  const Config config =
      twoBrokers(Bounds{.crashes = 1, .topic_creations = 1, .topic_deletions = 1, .reassignments = 1});
  const ImplSystem system(config);
  std::optional<ImplSystem::State> reused_successor;
  int topic_slots_replaced = 0;  // a reused successor whose last view held other topic znodes
  const std::vector<ImplSystem::State> states = testing::breadthFirstSample(
      system, 1500,
      [&](const ImplSystem::State& parent, const Action& action, const ImplSystem::State& successor, PropertyMask violated) {
        if (!reused_successor) reused_successor.emplace(successor);
        const bool other_topics = !(reused_successor->view.world.zk.topics == successor.view.world.zk.topics);
        PropertyMask violated_into = 0;
        system.nextInto(parent, action, violated_into, *reused_successor);
        if (other_topics) ++topic_slots_replaced;
        EXPECT_EQ(violated_into, violated);
        EXPECT_TRUE(reused_successor->view == successor.view) << reused_successor->path;
        EXPECT_EQ(reused_successor->path, successor.path);
        EXPECT_EQ(system.fingerprint(*reused_successor), system.fingerprint(successor));
      });
  ASSERT_GE(states.size(), 1500u);
  EXPECT_GT(topic_slots_replaced, 0);  // stale slots were there to be reset
  std::vector<std::size_t> order(states.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(1));  // a fixed seed: the same order every run
  ImplSystem::State reused = system.initialStates().front();
  for (std::size_t k : order) {
    std::string bytes;
    system.encode(states[k], bytes);
    const ImplSystem::State decoded = system.decode(bytes);
    system.decodeInto(bytes, reused);
    for (const ImplSystem::State* back : {&decoded, static_cast<const ImplSystem::State*>(&reused)}) {
      EXPECT_EQ(system.fingerprint(*back), system.fingerprint(states[k]));
      EXPECT_TRUE(back->view == states[k].view);
      EXPECT_EQ(back->path, states[k].path);
    }
  }
  // The action encoding alone: every action seen decodes to itself.
  for (const auto& state : states) {
    const std::vector<Action> path = decodeActions(state.path);
    std::string again;
    for (const Action& action : path) encodeAction(action, again);
    EXPECT_EQ(again, state.path);
  }
}

// BothSystem's encoding (the path and whether the views differed) decodes to the same state in
// any order, agreeing or not (mutant M16 makes the impl disagree after a crash), into a fresh
// state or a reused one; nextInto (a reused successor) agrees with next.
TEST(ExplorerSystems, BothSystemEncodingsRoundTripAgreeingOrNot) {
  const Config config = twoBrokers(Bounds{.crashes = 1, .topic_deletions = 1, .isr_shrinks = 1});
  const BothSystem system(config, impl::Mutants::of({impl::Mutant::M16}));
  std::optional<BothSystem::State> reused_successor;
  int disagreeing = 0;
  const std::vector<BothSystem::State> states = testing::breadthFirstSample(
      system, 400,
      [&](const BothSystem::State& parent, const Action& action, const BothSystem::State& successor, PropertyMask violated) {
        if (!reused_successor) reused_successor.emplace(successor);
        PropertyMask violated_into = 0;
        system.nextInto(parent, action, violated_into, *reused_successor);
        EXPECT_EQ(violated_into, violated);
        EXPECT_EQ(system.fingerprint(*reused_successor), system.fingerprint(successor));
        if (!successor.agree()) ++disagreeing;
      });
  ASSERT_GE(states.size(), 400u);
  EXPECT_GT(disagreeing, 0);  // the dead ends are covered too
  std::vector<std::size_t> order(states.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(2));  // a fixed seed: the same order every run
  BothSystem::State reused = system.initialStates().front();
  for (std::size_t k : order) {
    std::string bytes;
    system.encode(states[k], bytes);
    const BothSystem::State decoded = system.decode(bytes);
    system.decodeInto(bytes, reused);
    for (const BothSystem::State* back : {&decoded, static_cast<const BothSystem::State*>(&reused)}) {
      EXPECT_EQ(system.fingerprint(*back), system.fingerprint(states[k]));
      EXPECT_TRUE(back->spec == states[k].spec);
      EXPECT_EQ(back->path, states[k].path);
      EXPECT_EQ(back->agree(), states[k].agree());
      EXPECT_EQ(back->impl_refused, states[k].impl_refused);
      ASSERT_EQ(back->impl_view == nullptr, states[k].impl_view == nullptr);
      if (back->impl_view) {
        EXPECT_TRUE(*back->impl_view == *states[k].impl_view);
      }
      EXPECT_TRUE(back->cluster.observe() == states[k].cluster.observe());
    }
  }
}

// The impl's record of a step, read from its state-change.log, names the same state changes
// as the spec's record of that step (a deterministic walk through every action kind the
// configuration enables).
TEST(ExplorerSystems, ImplStepRecordFromItsLogMatchesTheSpecs) {
  const Config config =
      twoBrokers(Bounds{.crashes = 1, .controlled_shutdowns = 1, .topic_deletions = 1, .stop_replica_errors = 1});
  spec::ClusterState state = spec::initialState(config);
  impl::ImplCluster cluster(config);
  std::size_t changes = 0;
  for (std::size_t step = 0; step < 60; ++step) {
    const std::vector<Action> enabled = spec::enabledActions(config, state);
    if (enabled.empty()) break;
    const Action& action = enabled[(step * 5 + 3) % enabled.size()];
    spec::RecordingObserver observer;
    spec::ClusterState after = spec::next(config, state, action, observer);
    std::vector<impl::LogRecord> lines;
    const spec::ClusterState before_view{cluster.observe(), cluster.remaining()};
    agreement::applyLogged(cluster, action, lines);
    const spec::ClusterState after_view{cluster.observe(), cluster.remaining()};
    ASSERT_TRUE(after_view == after) << "step " << step;
    const spec::StepRecord mine = agreement::implStepRecord(config, lines, before_view, after_view);
    std::string log;
    for (const impl::LogRecord& line : lines) log += line.message + "\n";
    ASSERT_EQ(mine.state_changes.size(), observer.record.state_changes.size())
        << "step " << step << ", " << printAction(config, action) << ", the impl's log:\n" << log;
    for (std::size_t i = 0; i < mine.state_changes.size(); ++i) {
      const auto& a = mine.state_changes[i];
      const auto& b = observer.record.state_changes[i];
      EXPECT_EQ(a.is_replica, b.is_replica);
      EXPECT_EQ(a.tp, b.tp);
      EXPECT_EQ(a.from, b.from);
      EXPECT_EQ(a.to, b.to);
      EXPECT_EQ(a.outcome, b.outcome);
      EXPECT_EQ(a.strategy, b.strategy);
      if (a.is_replica) {
        EXPECT_EQ(a.replica, b.replica);
      }
    }
    changes += mine.state_changes.size();
    state = std::move(after);
  }
  EXPECT_GT(changes, 10u);
}

}  // namespace
}  // namespace kcspec::explorer
