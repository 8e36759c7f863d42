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
        return p < static_cast<int>(topic.assignment.size() + topic.added_partitions.size());
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

// Along random histories of every check preset, the enabled actions are candidates the spec
// enables one by one, each printed and parsed back unchanged.
TEST(ActionDefinitions, EnabledActionsAreCandidatesThatParseBack) {
  for (std::string_view name : kCheckPresetNames) {
    const Config config = *preset(name);
    std::mt19937_64 random(20261202);
    for (int history = 0; history < 5; ++history) {
      spec::ClusterState state = spec::initialState(config);
      for (int step = 0; step < 60; ++step) {
        const std::vector<Action> enabled = spec::enabledActions(config, state);
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
}

}  // namespace
}  // namespace kcspec
