// The first states of a system in breadth-first order (duplicates kept), for tests that check
// something on each of a few hundred reachable states.
#pragma once

#include <cstddef>
#include <vector>

#include "proofs/explorer/system.hpp"

namespace kcspec::explorer::testing {

// At least `at_least` states when the system has that many steps from its initial states (the
// caller asserts it); `on_step(parent, action, successor, violated)` sees each step taken.
template <class S, class OnStep>
std::vector<typename S::State> breadthFirstSample(const S& system, std::size_t at_least, OnStep&& on_step) {
  std::vector<typename S::State> states = system.initialStates();
  std::vector<typename S::Action> actions;
  for (std::size_t i = 0; i < states.size() && states.size() < at_least; ++i) {
    actions.clear();
    system.actions(states[i], actions);
    for (const auto& action : actions) {
      PropertyMask violated = 0;
      states.push_back(system.next(states[i], action, violated));
      on_step(states[i], action, states.back(), violated);
    }
  }
  return states;
}

template <class S>
std::vector<typename S::State> breadthFirstSample(const S& system, std::size_t at_least) {
  return breadthFirstSample(system, at_least, [](const auto&, const auto&, const auto&, PropertyMask) {});
}

}  // namespace kcspec::explorer::testing
