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

namespace kcspec::explorer {
namespace {

using testing::oneBroker;
using testing::oneBrokerOneTopic;

Config withCrash(Config config) {
  config.bounds.crashes = 1;
  return config;
}

// Brokers 1 and 2, topic t with partition 0 on both, in ZooKeeper at start.
Config twoBrokers(Bounds bounds) {
  Config config;
  config.name = "two-brokers";
  config.brokers = BrokerSet{1, 2};
  config.brokers_alive_at_start = BrokerSet{1, 2};
  TopicConfig topic;
  topic.name = "t";
  topic.assignment = {BrokerList{1, 2}};
  topic.exists_at_start = true;
  config.topics.push_back(topic);
  config.bounds = bounds;
  return config;
}

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

// S0 --elect-controller 0--> S1 (inbox: the failover's UpdateMetadata) --deliver-request 0--> S2
// (nothing enabled). 3 states, 2 transitions, depth 2.
TEST(ExplorerSystems, OneBrokerNoTopicsNoPerturbations) {
  expectCounts(ImplSystem(oneBroker()), 3, 2, 2);
  expectCounts(BothSystem(oneBroker()), 3, 2, 2);
}

// elect-controller 0 queues UpdateMetadata, then (t-0 New -> Online) LeaderAndIsr and
// UpdateMetadata t-0: three deliveries follow one by one. 5 states, 4 transitions, depth 4.
TEST(ExplorerSystems, OneBrokerOneTopicCreatedAtStart) {
  expectCounts(ImplSystem(oneBrokerOneTopic()), 5, 4, 4);
  expectCounts(BothSystem(oneBrokerOneTopic()), 5, 4, 4);
}

// One crash, no topics (explorer_counts_test.cpp's walk):
//   S0: elect -> S1, crash -> C0;  S1: deliver -> S2, crash -> X;  S2: crash -> X (the same X:
//   the broker's data is reset, and both paths wrote the same znodes: /controller_epoch version
//   1, /controller created and removed, so the impl's hidden state merges them too);
//   C0: start -> C1 -> elect C2 -> deliver C3;  X: start X1 -> elect X2 -> deliver X3.
// 11 states, 11 transitions, depth 5.
TEST(ExplorerSystems, OneBrokerNoTopicsOneCrash) {
  expectCounts(ImplSystem(withCrash(oneBroker())), 11, 11, 5);
  expectCounts(BothSystem(withCrash(oneBroker())), 11, 11, 5);
}

// The topic with one crash: P0..P4 (5 states, 4 deliveries); crash at P0 -> Q0, start, elect,
// three deliveries (6 states, 6 transitions); crash at P1..P4 -> one R0 (the state znode written
// at P1 is all ZooKeeper holds besides the registrations; 4 transitions); R0: start, elect, three
// deliveries (6 states, 5 transitions). 17 states, 19 transitions, depth 7.
TEST(ExplorerSystems, OneBrokerOneTopicOneCrash) {
  expectCounts(ImplSystem(withCrash(oneBrokerOneTopic())), 17, 19, 7);
  expectCounts(BothSystem(withCrash(oneBrokerOneTopic())), 17, 19, 7);
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
// confuse paths that share a prefix with ones that do not).
TEST(ExplorerSystems, PathEncodingsRoundTripInAnyOrder) {
  const Config config = twoBrokers(Bounds{.crashes = 1, .topic_deletions = 1});
  const ImplSystem system(config);
  const std::vector<ImplSystem::State> states = testing::breadthFirstSample(system, 400);
  ASSERT_GE(states.size(), 400u);
  std::vector<std::size_t> order(states.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(1));  // a fixed seed: the same order every run
  for (std::size_t k : order) {
    std::string bytes;
    system.encode(states[k], bytes);
    const ImplSystem::State decoded = system.decode(bytes);
    EXPECT_EQ(system.fingerprint(decoded), system.fingerprint(states[k]));
    EXPECT_TRUE(decoded.view == states[k].view);
    EXPECT_EQ(decoded.path, states[k].path);
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
