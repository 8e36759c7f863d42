// The component scenarios (tests/components/: a given world and component actions, issue 28) run
// through the spec and the reference controller give identical observations, the same exception
// from every component action and identical enabled actions after every step — the conformance
// relation of DESIGN.md, for components called without an event.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "impl/cluster.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

std::vector<std::filesystem::path> componentScenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/components")) {
    if (entry.path().extension() == ".scenario") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Scenario read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return parseScenario(text.str(), file.string());
}

// Runs `scenario` on both versions in lockstep; returns the number of component actions run.
int expectAgreement(const Scenario& scenario, const std::string& name) {
  const Config& config = scenario.config;
  spec::ClusterState spec_state =
      scenario.given ? spec::givenState(config, scenario.given->world) : spec::initialState(config);
  impl::ImplCluster impl = scenario.given ? impl::ImplCluster(config, scenario.given->world) : impl::ImplCluster(config);
  const auto same = [&](const std::string& where) {
    const Observation observed = impl.observe();
    EXPECT_TRUE(observed == spec_state.world) << where << "\nspec -> impl:\n"
                                              << renderChangesText(diffObservations(config, spec_state.world, observed));
    return observed == spec_state.world;
  };
  if (!same(name + ": the given world")) return 0;
  int calls = 0;
  std::size_t next_call = 0;
  for (std::size_t i = 0; i <= scenario.steps.size(); ++i) {
    for (; next_call < scenario.calls.size() && scenario.calls[next_call].after_steps == i; ++next_call) {
      const Scenario::Call& call = scenario.calls[next_call];
      const std::string where = name + ":" + std::to_string(call.line) + " " + printComponentCall(config, call.call);
      EXPECT_TRUE(spec::componentCallPossible(spec_state)) << where;
      EXPECT_TRUE(impl.activeController().has_value()) << where;
      if (!spec::componentCallPossible(spec_state) || !impl.activeController()) return calls;
      spec::StepObserver ignore;
      const ComponentException spec_thrown = spec::callComponent(config, spec_state, call.call, ignore);
      const ComponentException impl_thrown = impl.callComponent(call.call);
      EXPECT_EQ(componentExceptionName(spec_thrown), componentExceptionName(impl_thrown)) << where;
      if (!same(where)) return calls;
      ++calls;
    }
    if (i == scenario.steps.size()) break;
    const Action& action = scenario.steps[i];
    const std::string where = name + ":" + std::to_string(scenario.step_lines[i]) + " " + printAction(config, action);
    EXPECT_TRUE(spec::isEnabled(config, spec_state, action)) << where;
    EXPECT_TRUE(impl.isEnabled(action)) << where;
    if (!spec::isEnabled(config, spec_state, action) || !impl.isEnabled(action)) return calls;
    spec_state = spec::next(config, spec_state, action);
    impl.apply(action);
    if (!same(where)) return calls;
    EXPECT_EQ(spec::enabledActions(config, spec_state), impl.enabledActions()) << where;
  }
  return calls;
}

TEST(ComponentScenarios, SpecAndImplAgreeAfterEveryComponentActionAndStep) {
  int calls = 0;
  const std::vector<std::filesystem::path> files = componentScenarios();
  for (const auto& file : files) calls += expectAgreement(read(file), file.filename().string());
  EXPECT_GE(files.size(), 7u);
  EXPECT_GE(calls, 15);
}

// A fenced write in a component action: both versions throw ControllerMovedException and leave
// ZooKeeper as it was (a given world where another controller has since written /controller_epoch).
TEST(ComponentScenarios, AFencedWriteThrowsTheSameOnBothVersions) {
  Scenario scenario = read(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/components/psm_controlled_shutdown.scenario");
  ASSERT_TRUE(scenario.given.has_value());
  ++scenario.given->world.zk.controller_epoch_zk_version;
  ++scenario.given->world.zk.controller_epoch;
  EXPECT_EQ(expectAgreement(scenario, "fenced"), 1);
  spec::ClusterState spec_state = spec::givenState(scenario.config, scenario.given->world);
  spec::StepObserver ignore;
  EXPECT_EQ(spec::callComponent(scenario.config, spec_state, scenario.calls[0].call, ignore), ComponentException::ControllerMoved);
}

}  // namespace
}  // namespace kcspec
