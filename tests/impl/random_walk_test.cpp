// Random walks through ImplCluster over the presets, with every mutant off and on: no step may
// break an assertion, and a few structural facts hold after every step.
#include <gtest/gtest.h>

#include <random>

#include "impl/cluster.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::impl {
namespace {

void checkWorld(const ImplCluster& cluster, const Observation& world, const std::string& where) {
  for (TopicIndex t = 0; t < cluster.config().topicCount(); ++t) {
    const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(t)];
    for (std::size_t p = 0; p < topic.states.size(); ++p) {
      if (!topic.states[p]) continue;
      const LeaderAndIsr& lai = topic.states[p]->leader_and_isr;
      EXPECT_FALSE(lai.isr.empty()) << where;
      EXPECT_TRUE(lai.leader == kNoLeader || lai.isr.contains(lai.leader)) << where;
    }
  }
  int active = 0;
  for (const BrokerData& b : world.brokers) active += b.alive && b.controller.active && !b.controller.session_lost ? 1 : 0;
  EXPECT_LE(active, 1) << where;
}

void walk(const Config& config, Mutants mutants, unsigned seed, int steps) {
  std::mt19937 random(seed);
  ImplCluster cluster(config, mutants);
  std::string history;
  for (int i = 0; i < steps; ++i) {
    const std::vector<Action> enabled = cluster.enabledActions();
    if (enabled.empty()) break;
    const Action action = enabled[std::uniform_int_distribution<std::size_t>(0, enabled.size() - 1)(random)];
    history += printAction(config, action) + "\n";
    cluster.apply(action);
    const ImplCluster copy = cluster;
    const Observation world = cluster.observe();
    EXPECT_EQ(copy.observe(), world);
    // M15 and M16 exist to break exactly these facts (a shutting-down leader outside the new ISR,
    // an emptied ISR), so only the no-assertion part of the walk applies to them.
    if (!mutants.has(Mutant::M15) && !mutants.has(Mutant::M16)) checkWorld(cluster, world, history);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(ImplRandomWalk, PresetsWithoutMutants) {
  for (const char* name : {"default", "stress-4", "stress-5"}) {
    const Config config = *preset(name);
    for (unsigned seed = 0; seed < 40; ++seed) walk(config, Mutants{}, seed, 120);
  }
}

TEST(ImplRandomWalk, PresetsWithEveryMutant) {
  const Config config = *preset("stress-4");
  for (const MutantInfo& info : kMutants) {
    for (unsigned seed = 0; seed < 15; ++seed) walk(config, Mutants::of({info.id}), seed, 120);
  }
}

}  // namespace
}  // namespace kcspec::impl
