#include "cli/starting_state.hpp"

#include <fmt/format.h>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::cli {

spec::ClusterState startingState(const Scenario& scenario, std::string_view file, std::vector<GivenWorldBreak>& breaks) {
  breaks.clear();
  if (!scenario.given) return spec::initialState(scenario.config);
  const Given& given = *scenario.given;
  spec::ClusterState state = spec::givenState(scenario.config, given.world);
  for (const GivenBreak& b : given.breaks) {
    std::string statement;
    for (const GivenRule& rule : kGivenRules) {
      if (rule.id == b.rule) statement = rule.statement;
    }
    breaks.push_back(GivenWorldBreak{std::string(b.rule), statement, b.line, b.message, false});
  }
  for (std::string_view id : spec::violatedStateProperties(scenario.config, state)) {
    const spec::Property* property = spec::catalogProperty(id);
    const bool known = spec::isKnownKafkaDeviation(id);
    if (!given.unchecked && !known) {
      throw TextError(file, given.line,
                      fmt::format("the given world breaks {} ({}); `given unchecked` states it anyway", id,
                                  property != nullptr ? property->name : ""));
    }
    breaks.push_back(GivenWorldBreak{std::string(id), property != nullptr ? std::string(property->name) : "", given.line,
                                     "", known});
  }
  return state;
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
  if (!scenario.calls.empty()) {
    throw TextError(file, scenario.calls.front().line,
                    fmt::format("`kcspec {}` takes cluster actions only: this is a component action (`kcspec replay` "
                                "runs them)",
                                command));
  }
}

}  // namespace kcspec::cli
