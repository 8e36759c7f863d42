#include "cli/starting_state.hpp"

#include <fmt/format.h>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::cli {

spec::ClusterState startingState(const Scenario& scenario, std::string_view file, std::vector<GivenWorldBreak>& breaks) {
  return startingState(scenario.config, scenario.given, file, breaks);
}

spec::ClusterState startingState(const Config& config, const std::optional<Given>& given, std::string_view file,
                                 std::vector<GivenWorldBreak>& breaks) {
  breaks.clear();
  if (!given) return spec::initialState(config);
  return conformance::givenStartingState(config, *given, file, breaks, "`given unchecked` states it anyway");
}

void requireNoGiven(const std::optional<Given>& given, std::string_view file, std::string_view command) {
  if (given) {
    throw TextError(file, given->line,
                    fmt::format("`kcspec {}` starts from the configuration's initial state: it does not run a given "
                                "section (`kcspec replay` does)",
                                command));
  }
}

void requireClusterScenario(const Scenario& scenario, std::string_view file, std::string_view command) {
  requireNoGiven(scenario.given, file, command);
  requireNoComponentActions(scenario, file, command);
}

void requireNoComponentActions(const Scenario& scenario, std::string_view file, std::string_view command) {
  if (!scenario.calls.empty()) {
    throw TextError(file, scenario.calls.front().line,
                    fmt::format("`kcspec {}` takes cluster actions only: this is a component action (`kcspec replay` "
                                "runs them)",
                                command));
  }
}

}  // namespace kcspec::cli
