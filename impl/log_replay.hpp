// The reference controller's state-change.log for a list of actions (`kcspec replay --impl`, tests).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "impl/mutants.hpp"
#include "impl/state_change_logger.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {

// Runs `actions` through impl::ImplCluster from the configuration's initial state and returns
// the state-change.log text every controller wrote, TRACE lines included (the level operators
// set to follow replica transitions), with the default fake clock. Throws std::invalid_argument
// naming the first action (1-based) that is not enabled where it occurs.
std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions);

// The same at a chosen threshold (LogLevel::INFO gives Kafka 3.8's default log), with
// the given mutants of the reference controller (impl/mutants.hpp) switched on.
std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions,
                                     LogLevel threshold, Mutants mutants = {});

// A component action whose stated result (`=> …`) the reference controller did not come to.
struct UnexpectedResult {
  int line = 0;
  std::string expected;
  std::string came_to;
};

// A scenario (spec/vocabulary/scenario_text.hpp): from its given world when it has one, with its
// component actions in their places among the actions; `unexpected`, when given, receives each
// component action whose stated result differs from the impl's (the run goes on).
std::string replayImplStateChangeLog(const kcspec::Scenario& scenario, LogLevel threshold, Mutants mutants = {},
                                     std::vector<UnexpectedResult>* unexpected = nullptr);

// The action that replayImplStateChangeLog found not enabled (0-based), with its message; from a
// scenario, also its line (0 otherwise), which for a component action with no active controller
// to call is that action's.
struct ImplStepNotEnabled : std::invalid_argument {
  ImplStepNotEnabled(std::size_t index_, const std::string& message, int line_ = 0)
      : std::invalid_argument(message), index(index_), line(line_) {}
  std::size_t index;
  int line;
};

}  // namespace kcspec::impl
