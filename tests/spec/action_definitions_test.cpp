// The action definitions (spec/vocabulary/action.hpp) are the one place an action kind is
// described: these tests hold the table to what the rest of the code reads from it.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/action_candidates.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec {
namespace {

TEST(ActionDefinitions, NamesAreUniqueAndEveryUsageStartsWithItsName) {
  std::set<std::string_view> names;
  for (const ActionDefinition& d : kActionDefinitions) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
    if (d.args == ActionArgs::None) {
      EXPECT_EQ(d.usage, d.name);
    } else {
      EXPECT_TRUE(d.usage.starts_with(std::string(d.name) + " ")) << d.usage;
    }
    EXPECT_FALSE(d.summary.empty()) << d.name;
    EXPECT_TRUE(d.category == "admin" || d.category == "broker" || d.category == "controller" || d.category == "delivery")
        << d.name;
    EXPECT_EQ(d.args == ActionArgs::LeaderFollower, !d.word.empty()) << d.name;
    EXPECT_EQ(d.bound == nullptr, boundName(d.bound).empty()) << d.name;
  }
}

TEST(ActionDefinitions, PerturbationsSpendTheirKindsBound) {
  for (const ActionDefinition& d : kActionDefinitions) {
    for (const bool error : {false, true}) {
      const Action a{.kind = d.kind, .error = error};
      const bool perturbs = d.perturbs == Perturbs::Always || (d.perturbs == Perturbs::WhenError && error);
      EXPECT_EQ(isPerturbation(a), perturbs) << d.name << (error ? " error" : "");
      EXPECT_EQ(boundSpentBy(a), perturbs ? d.bound : nullptr) << d.name;
    }
  }
}

// Every candidate of a configuration prints as text that parses back to the same action, no
// candidate is offered twice, and every kind is offered in a configuration that can use it.
TEST(ActionDefinitions, CandidatesRoundTripThroughTextAndCoverEveryKind) {
  const Config config = *preset("every-perturbation");
  std::set<ActionKind> kinds;
  std::set<std::string> printed;
  int candidates = 0;
  forEachCandidate(
      config,
      [&](TopicIndex t, int p) {
        const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
        return p < static_cast<int>(topic.partitionCount());
      },
      [&](const Action& a) {
        ++candidates;
        kinds.insert(a.kind);
        const std::string text = printAction(config, a);
        EXPECT_TRUE(printed.insert(text).second) << "offered twice: " << text;
        EXPECT_EQ(parseAction(config, text, "candidate", 1), a) << text;
      });
  EXPECT_EQ(kinds.size(), kActionKindCount);
  EXPECT_GT(candidates, static_cast<int>(kActionKindCount));
}

// Asking for some kinds names exactly every candidate of those kinds (and of the error variants
// asked for), in the order of every candidate.
TEST(ActionDefinitions, CandidatesOfTheKindsAskedForKeepTheirOrder) {
  const Config config = *preset("every-perturbation");
  const auto in_zookeeper = [&](TopicIndex t, int p) {
    const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
    return p < static_cast<int>(topic.partitionCount());
  };
  std::vector<Action> every;
  forEachCandidate(config, in_zookeeper, [&](const Action& a) { every.push_back(a); });
  std::mt19937_64 random(20261206);
  for (int round = 0; round < 40; ++round) {
    CandidateKinds asked;
    for (std::size_t k = 0; k < kActionKindCount; ++k) {
      asked.kinds.set(k, random() % 2 == 0);
      asked.error_variants.set(k, random() % 2 == 0);
    }
    std::vector<Action> expected;
    for (const Action& a : every) {
      if (asked.has(a.kind) && (!a.error || asked.hasErrorVariant(a.kind))) expected.push_back(a);
    }
    std::vector<Action> named;
    forEachCandidate(config, in_zookeeper, asked, [&](const Action& a) { named.push_back(a); });
    EXPECT_EQ(named, expected) << "round " << round;
  }
  std::vector<Action> none;
  forEachCandidate(config, in_zookeeper, CandidateKinds{}, [&](const Action& a) { none.push_back(a); });
  EXPECT_TRUE(none.empty());
}

// Along random histories of every check preset, the enabled actions are the candidates the spec
// enables one by one, in the candidates' order (none left out by a spent bound's kind that could
// be enabled), each printed and parsed back unchanged.
TEST(ActionDefinitions, EnabledActionsAreCandidatesThatParseBack) {
  std::size_t spent_kinds_seen = 0;
  for (std::string_view name : kCheckPresetNames) {
    const Config config = *preset(name);
    std::mt19937_64 random(20261202);
    for (int history = 0; history < 5; ++history) {
      spec::ClusterState state = spec::initialState(config);
      for (int step = 0; step < 60; ++step) {
        const std::vector<Action> enabled = spec::enabledActions(config, state);
        std::vector<Action> every_enabled;
        forEachCandidate(
            config, [&](TopicIndex t, int p) { return state.world.zk.topics[static_cast<std::size_t>(t)].lists(p); },
            [&](const Action& a) {
              if (spec::isEnabled(config, state, a)) every_enabled.push_back(a);
            });
        ASSERT_EQ(enabled, every_enabled) << name;
        spent_kinds_seen += state.budget.perturbations == 0 ? 1 : 0;
        if (enabled.empty()) break;
        for (const Action& a : enabled) {
          ASSERT_TRUE(spec::isEnabled(config, state, a)) << name << ": " << printAction(config, a);
          ASSERT_EQ(parseAction(config, printAction(config, a), "enabled", 1), a) << name;
        }
        const Action& chosen = enabled[random() % enabled.size()];
        state = spec::next(config, state, chosen);
      }
    }
  }
  EXPECT_GT(spent_kinds_seen, 0u);  // histories reached states whose every bound is spent
}

}  // namespace
}  // namespace kcspec
