// Before any search reduces by a configuration's symmetry (spec/vocabulary/symmetry.hpp), the
// claim it rests on is checked, as the independence relation of partial-order reduction is: in
// every reachable state s of small symmetric configurations, for every permutation σ of the group
// that keeps topics and partitions, the spec enables in σ(s) exactly the σ-images of what it
// enables in s, and each σ(a) leads from σ(s) to σ(next(s, a)) with the same property violations.
// A rule that looked at a broker id's value (a lowest-id choice, a list built in id order) would
// break it.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

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

// Fatal failures return at once (ASSERT_*): the first broken state is the one reported.
void checkRelabelling(const Config& config, std::size_t max_states, Counts& counts) {
  const SpecSystem system(config);
  std::vector<BrokerPermutation> group;
  for (const BrokerPermutation& sigma : configSymmetry(config).permutations) {
    if (!sigma.isIdentity() && keepsTopicsAndPartitions(config, sigma)) group.push_back(sigma);
  }
  EXPECT_FALSE(group.empty()) << "the configuration has no symmetry to check";
  std::unordered_set<Fingerprint> seen;
  std::deque<std::string> queue;
  for (const auto& initial : system.initialStates()) {
    if (seen.insert(system.fingerprint(initial)).second) system.encode(initial, queue.emplace_back());
  }
  std::vector<Action> actions, mapped_actions;
  while (!queue.empty() && counts.states < max_states) {  // bounded by max_states
    const SpecSystem::State state = system.decode(queue.front());
    queue.pop_front();
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
    for (const Action& action : actions) {
      PropertyMask ignored = 0;
      const SpecSystem::State successor = system.next(state, action, ignored);
      if (seen.insert(system.fingerprint(successor)).second) system.encode(successor, queue.emplace_back());
    }
  }
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
