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

// The action that replayImplStateChangeLog found not enabled (0-based), with its message.
struct ImplStepNotEnabled : std::invalid_argument {
  ImplStepNotEnabled(std::size_t index_, const std::string& message) : std::invalid_argument(message), index(index_) {}
  std::size_t index;
};

}  // namespace kcspec::impl
