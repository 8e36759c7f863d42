// Before any search reduces by a configuration's symmetry (spec/vocabulary/symmetry.hpp), the
// claim it rests on is checked, as the independence relation of partial-order reduction is: in
// every reachable state s of small symmetric configurations, for every permutation σ of the group
// that keeps topics and partitions, the spec enables in σ(s) exactly the σ-images of what it
// enables in s, and each σ(a) leads from σ(s) to σ(next(s, a)) with the same property violations.
// A rule that looked at a broker id's value (a lowest-id choice, a list built in id order) would
// break it.
//
// The same for renumbering broker epochs (renumberBrokerEpochs), the other half of the symmetry
// reduction's classes: the renumbered state enables the same actions, each leads to a state whose
// renumbering is the renumbered successor's, with the same violations, state properties and goals.
// A rule that compared epochs of two brokers, or read an epoch's value, would break it. And the
// canonical fingerprint (proofs/explorer/canonical_fingerprint.hpp) is the same on every image of
// a state and merges states only within a class.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "proofs/explorer/canonical_fingerprint.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/symmetry.hpp"

namespace kcspec::explorer {
namespace {

struct Counts {
  std::size_t states = 0;
  std::size_t checked = 0;  // (state, permutation) pairs
};

// Every reachable state of `config` (at most max_states, breadth first), decoded; it stops at the
// first fatal failure (ASSERT_*), so that the first broken state is the one reported.
template <class F>
void forEachReachable(const SpecSystem& system, std::size_t max_states, F&& f) {
  std::unordered_set<Fingerprint> seen;
  std::deque<std::string> queue;
  for (const auto& initial : system.initialStates()) {
    if (seen.insert(system.fingerprint(initial)).second) system.encode(initial, queue.emplace_back());
  }
  std::vector<Action> actions;
  for (std::size_t states = 0; !queue.empty() && states < max_states && !::testing::Test::HasFatalFailure();
       ++states) {  // bounded by max_states
    const SpecSystem::State state = system.decode(queue.front());
    queue.pop_front();
    f(state);
    actions.clear();
    system.actions(state, actions);
    for (const Action& action : actions) {
      PropertyMask ignored = 0;
      const SpecSystem::State successor = system.next(state, action, ignored);
      if (seen.insert(system.fingerprint(successor)).second) system.encode(successor, queue.emplace_back());
    }
  }
}

// For every permutation the symmetry reduction uses (CanonicalFingerprint's: the group's
// permutations that keep topics and partitions).
void checkRelabelling(const Config& config, std::size_t max_states, Counts& counts) {
  const SpecSystem system(config);
  const std::vector<BrokerPermutation> group = CanonicalFingerprint(config).permutations();
  EXPECT_FALSE(group.empty()) << "the configuration has no symmetry to check";
  std::vector<Action> actions, mapped_actions;
  forEachReachable(system, max_states, [&](const SpecSystem::State& state) {
    ++counts.states;
    actions.clear();
    system.actions(state, actions);
    for (const BrokerPermutation& sigma : group) {
      ++counts.checked;
      const SpecSystem::State image{relabelled(state.world, sigma), state.budget};
      mapped_actions.clear();
      system.actions(image, mapped_actions);
      ASSERT_EQ(mapped_actions.size(), actions.size()) << "state " << counts.states;
      for (const Action& action : actions) {
        const Action mapped = relabelled(action, sigma);
        ASSERT_NE(std::find(mapped_actions.begin(), mapped_actions.end(), mapped), mapped_actions.end())
            << printAction(config, action) << " is enabled, " << printAction(config, mapped)
            << " is not in the relabelled state " << counts.states;
        PropertyMask violated = 0, mapped_violated = 0;
        const SpecSystem::State successor = system.next(state, action, violated);
        const SpecSystem::State mapped_successor = system.next(image, mapped, mapped_violated);
        ASSERT_TRUE(mapped_successor == (SpecSystem::State{relabelled(successor.world, sigma), successor.budget}))
            << printAction(config, action) << " and " << printAction(config, mapped) << " at state " << counts.states;
        ASSERT_EQ(violated, mapped_violated) << printAction(config, action);
      }
    }
  });
}

SpecSystem::State renumbered(const SpecSystem::State& state) {
  SpecSystem::State out = state;
  EXPECT_TRUE(renumberBrokerEpochs(out.world));
  return out;
}

// Returns how many states the renumbering changed (so that the check is seen to bite).
std::size_t checkRenumbering(const Config& config, std::size_t max_states) {
  const SpecSystem system(config);
  std::size_t changed = 0, states = 0;
  std::vector<Action> actions, renumbered_actions;
  forEachReachable(system, max_states, [&](const SpecSystem::State& state) {
    ++states;
    const SpecSystem::State r = renumbered(state);
    if (!(r == state)) ++changed;
    EXPECT_TRUE(renumbered(r) == r) << "renumbering twice changes state " << states;
    actions.clear();
    renumbered_actions.clear();
    system.actions(state, actions);
    system.actions(r, renumbered_actions);
    ASSERT_EQ(actions, renumbered_actions) << "state " << states;
    ASSERT_EQ(system.violatedStateProperties(state), system.violatedStateProperties(r)) << "state " << states;
    ASSERT_EQ(system.goalsReached(state), system.goalsReached(r)) << "state " << states;
    for (const Action& action : actions) {
      PropertyMask violated = 0, renumbered_violated = 0;
      const SpecSystem::State successor = system.next(state, action, violated);
      const SpecSystem::State renumbered_successor = system.next(r, action, renumbered_violated);
      ASSERT_TRUE(renumbered(successor) == renumbered(renumbered_successor))
          << printAction(config, action) << " at state " << states;
      ASSERT_EQ(violated, renumbered_violated) << printAction(config, action) << " at state " << states;
    }
  });
  EXPECT_GT(states, 100u);
  return changed;
}

TEST(SymmetryRenumbering, BrokerEpochsAreReadOnlyThroughTheirOrderInEveryReachableState) {
  // Two brokers restarting twice: epochs with gaps, stale epochs in queued requests and events.
  const Config bounces = parseConfig(
      "name bounces\nbrokers 1 2\nalive-at-start 1 2\ntopic t\n  partition 0 replicas 1,2\n  exists-at-start true\n"
      "bound crashes 2\nbound controlled-shutdowns 1\nbound isr-shrinks 1\nbound perturbations 3\n",
      "bounces.config");
  EXPECT_GT(checkRenumbering(bounces, 20'000), 1'000u);
  const Config failover = parseConfig(
      "name failover\nbrokers 1 2 3\nalive-at-start 1 2\ntopic t\n  partition 0 replicas 1,2\n  exists-at-start true\n"
      "bound crashes 2\nbound controller-failovers 1\n",
      "failover.config");
  EXPECT_GT(checkRenumbering(failover, 20'000), 1'000u);
}

TEST(SymmetryRenumbering, TheCanonicalFingerprintIsTheSameOnEveryImageAndMergesOnlyWithinAClass) {
  const Config config = parseConfig(
      "name three-alike\nbrokers 1 2 3\nalive-at-start 1 2 3\nbound crashes 2\nbound controlled-shutdowns 1\n"
      "bound controller-failovers 1\n",
      "three-alike.config");
  const SpecSystem system(config);
  const CanonicalFingerprint canonical(config);
  ASSERT_EQ(canonical.permutations().size(), 5u);
  std::unordered_set<Fingerprint> plain, classes;
  // For each class, one member (renumbered): a state whose class fingerprint is already known must
  // be a relabelling of that member.
  std::unordered_map<Fingerprint, SpecSystem::State> member;
  forEachReachable(system, 5'000, [&](const SpecSystem::State& state) {
    const Fingerprint fingerprint = canonical(state.world, state.budget);
    plain.insert(system.fingerprint(state));
    classes.insert(fingerprint);
    for (const BrokerPermutation& sigma : canonical.permutations()) {
      ASSERT_EQ(canonical(relabelled(state.world, sigma), state.budget), fingerprint);
    }
    const SpecSystem::State r = renumbered(state);
    const auto [known, inserted] = member.emplace(fingerprint, r);
    if (inserted) return;
    bool related = r == known->second;
    for (const BrokerPermutation& sigma : canonical.permutations()) {
      related = related || SpecSystem::State{relabelled(r.world, sigma), r.budget} == known->second;
    }
    EXPECT_TRUE(related) << "two states of different classes share a class fingerprint";
  });
  EXPECT_LT(classes.size() * 3, plain.size());  // six permutations: most states have images
}

TEST(SymmetryRelabelling, TwoIdleBrokersAreAlikeInEveryReachableState) {
  // Brokers 3 and 4 host nothing and may be reassignment targets either way round.
  const Config config = parseConfig(
      "name idle-pair\nbrokers 1 2 3 4\nalive-at-start 1 2 3 4\n"
      "topic t\n  partition 0 replicas 1,2\n  reassign 0 to 3,4\n  reassign 0 to 4,3\n  exists-at-start true\n"
      "bound crashes 1\nbound reassignments 1\nbound controller-failovers 1\n",
      "idle-pair.config");
  Counts counts;
  checkRelabelling(config, 5'000, counts);
  EXPECT_GT(counts.states, 100u);
  EXPECT_EQ(counts.checked, counts.states);  // one permutation besides the identity
}

TEST(SymmetryRelabelling, BrokersWithoutTopicsAreAlikeInEveryReachableState) {
  // Three brokers and nothing to tell them apart: every permutation of the group keeps the
  // (empty) topics, so all five others are checked.
  const Config config = parseConfig(
      "name three-alike\nbrokers 1 2 3\nalive-at-start 1 2 3\nbound crashes 2\nbound controlled-shutdowns 1\n"
      "bound controller-failovers 1\n",
      "three-alike.config");
  Counts counts;
  checkRelabelling(config, 5'000, counts);
  EXPECT_GT(counts.states, 100u);
  EXPECT_EQ(counts.checked, counts.states * 5);
}

}  // namespace
}  // namespace kcspec::explorer
