// A scenario: a configuration and a list of actions, in ONE self-contained file. Counterexamples
// are written in this format, so that every failure replays from its file (`kcspec replay`).
//
//   # kcspec scenario v1          the first line, exactly (the format's version)
//   <configuration statements>    config_text.hpp's grammar; comments and blank lines allowed
//   steps                         the line that ends the configuration
//   <action>                      action_text.hpp's grammar, one per line, comments allowed
//   …
//
// Every error is a TextError with the file and the line (1-based, counting the header).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

inline constexpr std::string_view kScenarioHeader = "# kcspec scenario v1";

struct Scenario {
  Config config;
  std::vector<Action> steps;
  std::vector<int> step_lines;  // the line of each step in the file it was parsed from
};

Scenario parseScenario(std::string_view text, std::string_view file);

// The canonical text (step_lines are not printed: they are where the steps land when parsed).
std::string printScenario(const Scenario& scenario);

}  // namespace kcspec
