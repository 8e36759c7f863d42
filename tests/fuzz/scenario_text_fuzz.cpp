// Fuzz target: scenario files (spec/vocabulary/scenario_text.hpp) and what `kcspec replay` does
// with them. Any input either throws TextError or parses; a parsed scenario prints and parses
// back to the same text, and its steps run through the spec (stopping at the first step that is
// not enabled, as replay does) without breaking an invariant of the spec's code.
#include <string>

#include "fuzz_support.hpp"
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

  spec::ClusterState state = spec::initialState(scenario.config);
  for (std::size_t i = 0; i < scenario.steps.size() && i < kMaxReplayedSteps; ++i) {
    if (!spec::isEnabled(scenario.config, state, scenario.steps[i])) break;
    state = spec::next(scenario.config, state, scenario.steps[i]);
  }
  return 0;
}
