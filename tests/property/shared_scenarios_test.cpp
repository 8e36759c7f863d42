// The shared scenario files (tests/scenarios/ and tests/cli/) run through the spec and the
// reference controller give identical observations and identical enabled actions after every
// step — the conformance relation of DESIGN.md on hand-written histories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "impl/cluster.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "shared_scenarios.hpp"

namespace kcspec {
namespace {

using testing::sharedScenarios;

TEST(SharedScenarios, SpecAndImplAgreeAfterEveryStep) {
  int scenarios = 0;
  for (const auto& file : sharedScenarios()) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    Scenario scenario;
    try {
      scenario = parseScenario(text.str(), file.string());
    } catch (const TextError&) {
      continue;  // the deliberately broken files of tests/cli
    }
    ++scenarios;
    const Config& config = scenario.config;
    spec::ClusterState spec_state = spec::initialState(config);
    impl::ImplCluster impl(config);
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
      const Action& action = scenario.steps[i];
      const std::string where = file.filename().string() + ":" + std::to_string(scenario.step_lines[i]);
      const bool enabled = spec::isEnabled(config, spec_state, action);
      ASSERT_EQ(enabled, impl.isEnabled(action)) << where << " " << printAction(config, action);
      if (!enabled) break;  // not_enabled.scenario stops here, in both
      spec_state = spec::next(config, spec_state, action);
      impl.apply(action);
      const Observation observed = impl.observe();
      ASSERT_TRUE(observed == spec_state.world)
          << where << " " << printAction(config, action) << "\nspec -> impl:\n"
          << renderChangesText(diffObservations(config, spec_state.world, observed));
      ASSERT_EQ(spec::enabledActions(config, spec_state), impl.enabledActions()) << where;
    }
  }
  EXPECT_GE(scenarios, 5);
}

}  // namespace
}  // namespace kcspec
