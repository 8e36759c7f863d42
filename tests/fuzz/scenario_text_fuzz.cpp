// Fuzz target: scenario files (spec/vocabulary/scenario_text.hpp) and what `kcspec replay` does
// with them. Any input either throws TextError or parses; a parsed scenario prints and parses
// back to the same text, and its steps run through the spec (stopping at the first step that is
// not enabled, as replay does) without breaking an invariant of the spec's code.
#include <string>

#include "fuzz_support.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  for (std::string_view name : kPresetNames) {
    if (auto text = presetText(name)) {
      seeds.emplace_back("preset-" + std::string(name) + ".scenario",
                         std::string(kScenarioHeader) + "\n" + std::string(*text) + "steps\nelect-controller 1\n");
    }
  }
  // A given world and component actions (docs/scenarios.md).
  seeds.emplace_back("given-component-actions.scenario",
                     std::string(kScenarioHeader) +
                         "\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\nbound crashes 1\ngiven\ncontroller 0 epoch 2\n"
                         "broker 0 alive\nbroker 1 alive\nbroker 2 shutting-down epoch 7\npartition t-0 leader 1 isr 1,2\n"
                         "replica 2 t-0 OnlineReplica\nsteps\npartition-state-machine handle-state-changes t-0 OnlinePartition "
                         "election controlled-shutdown\ncrash 1\nreplica-state-machine handle-state-changes 2:t-0 "
                         "OfflineReplica\nprocess-event 0\n");
  // Every other component (docs/scenarios.md "Component actions"), with stated results.
  seeds.emplace_back("every-component.scenario",
                     std::string(kScenarioHeader) +
                         "\nbrokers 0 1 2\ntopic t\n  partition 0 replicas 1,2\n  partition 1 replicas 2,1\ntopic u\n"
                         "  partition 0 replicas 2,1\ngiven\ncontroller 0\nbroker 0 alive\nbroker 1 alive\nbroker 2 "
                         "shutting-down\ntopic u\npartition t-0 leader 1 isr 1,2\nsteps\n"
                         "elect offline assignment 2,1 isr none live 1 unclean => leader 1\n"
                         "elect controlled-shutdown assignment 1,2 isr 1,2 live-or-shutting-down 1,2 shutting-down 2\n"
                         "elect controlled-shutdown partitions t-0,t-1\n"
                         "request-batch send leader-and-isr 1,2 t-0 is-new; stop-replica 2 t-1 delete; update-metadata 0,1\n"
                         "controller-context partitions-in-states OnlinePartition topic t => partitions t-0,t-1\n"
                         "controller-context replicas-on-brokers 1,2\n"
                         "topic-deletion-manager init u ineligible u\ntopic-deletion-manager enqueue-topics-for-deletion t\n"
                         "topic-deletion-manager fail-replica-deletion 2:t-0\ntopic-deletion-manager resume-deletion-for-topics t,u\n"
                         "topic-deletion-manager complete-replica-deletion 1:t-0,1:t-1\n"
                         "topic-deletion-manager is-topic-queued-up-for-deletion t => true\n");
  seeds.emplace_back("given-unchecked.scenario", std::string(kScenarioHeader) +
                                                     "\nbrokers 1 2\ntopic t\n  partition 0 replicas 1,2\ngiven unchecked\n"
                                                     "controller 1\nbroker 1 alive\npartition t-0 leader 2 isr none\nsteps\n");
  return seeds;
}

}  // namespace kcspec::fuzz

namespace {
// Steps run through the spec per input: enough for every scenario of tests/, small enough that
// libFuzzer spends its time on new inputs.
constexpr std::size_t kMaxReplayedSteps = 64;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  Scenario scenario;
  try {
    scenario = parseScenario(fuzz::asText(data, size), "fuzz.scenario");
  } catch (const TextError&) {
    return 0;
  }
  const std::string printed = printScenario(scenario);
  std::string again;
  try {
    again = printScenario(parseScenario(printed, "printed.scenario"));
  } catch (const TextError& e) {
    fuzz::fail(std::string("the canonical text does not parse: ") + e.what(), printed);
  }
  if (again != printed) fuzz::fail("printing is not a fixed point", printed, again);

  // A world stated `given unchecked` may break what the spec's code assumes (docs/scenarios.md):
  // only checked worlds are run.
  if (scenario.given && scenario.given->unchecked) return 0;
  spec::ClusterState state =
      scenario.given ? spec::givenState(scenario.config, scenario.given->world) : spec::initialState(scenario.config);
  forEachStep(
      scenario,
      [&](std::size_t i) {
        if (i >= kMaxReplayedSteps || !spec::isEnabled(scenario.config, state, scenario.steps[i])) return false;
        state = spec::next(scenario.config, state, scenario.steps[i]);
        return true;
      },
      [&](const Scenario::Call& call) {
        if (call.after_steps >= kMaxReplayedSteps || !spec::componentCallPossible(state, call.call)) return false;
        spec::StepObserver ignore;
        spec::callComponent(scenario.config, state, call.call, ignore);
        return true;
      });
  return 0;
}
