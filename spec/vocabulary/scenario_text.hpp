// A scenario: a configuration and a list of actions, in ONE self-contained file. Counterexamples
// are written in this format, so that every failure replays from its file (`kcspec replay`).
//
//   # kcspec scenario v1          the first line, exactly (the format's version)
//   <configuration statements>    config_text.hpp's grammar; comments and blank lines allowed
//   given [json] [unchecked]      optional: the world the steps start from (given_text.hpp);
//   <given statements>            without it they start from the configuration's initial state
//   steps                         the line that ends the configuration (and the given section)
//   <action>                      action_text.hpp's grammar, one per line, comments allowed, or a
//   …                             component action (component_call.hpp): `kcspec replay` runs those
//
// Every error is a TextError with the file and the line (1-based, counting the header).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/given_text.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

inline constexpr std::string_view kScenarioHeader = "# kcspec scenario v1";

struct Scenario {
  Config config;
  std::optional<Given> given;  // the stated world the steps start from, if any
  std::vector<Action> steps;
  std::vector<int> step_lines;  // the line of each step in the file it was parsed from
  // The component actions among the steps: each runs after `after_steps` of the actions above.
  struct Call {
    std::size_t after_steps = 0;
    int line = 0;
    ComponentCall call;
  };
  std::vector<Call> calls;
};

Scenario parseScenario(std::string_view text, std::string_view file);

// Visits a scenario's steps in file order: `on_action(i)` for steps[i], `on_call(call)` for each
// component action in its place among them. A visitor that returns false stops the walk;
// forEachStep then returns false.
template <class OnAction, class OnCall>
bool forEachStep(const Scenario& scenario, OnAction&& on_action, OnCall&& on_call) {
  std::size_t next_call = 0;
  for (std::size_t i = 0; i <= scenario.steps.size(); ++i) {  // bounded by the scenario's steps
    for (; next_call < scenario.calls.size() && scenario.calls[next_call].after_steps == i; ++next_call) {
      if (!on_call(scenario.calls[next_call])) return false;
    }
    if (i < scenario.steps.size() && !on_action(i)) return false;
  }
  return true;
}

// A scenario read a line at a time, so that a history of any length is run in bounded memory
// (`kcspec trace`, `kcspec itf`): the constructor reads the header and the configuration through
// the `steps` line, nextStep one action at a time. The same errors as parseScenario.
class ScenarioReader {
 public:
  // The next line without its line end; false at the end of the text.
  using NextLine = std::function<bool(std::string& line)>;

  // The configuration part is at most this many lines (it is kept until `steps`).
  static constexpr std::size_t kMaxConfigLines = 100'000;

  ScenarioReader(NextLine next_line, std::string file);

  const Config& config() const { return config_; }
  const std::optional<Given>& given() const { return given_; }
  // nullopt after the last step; a component action is a TextError naming its line (the commands
  // that read scenarios this way take cluster actions only).
  std::optional<Action> nextStep();
  // The next step of either kind.
  std::optional<std::variant<Action, ComponentCall>> nextStepOrCall();
  int stepLine() const { return step_line_; }     // the line of the step nextStep returned last

 private:
  bool nextLine();  // into line_, numbered

  NextLine next_line_;
  std::string file_;
  Config config_;
  std::optional<Given> given_;
  std::string line_;
  int line_number_ = 0;
  int step_line_ = 0;
};

// The canonical text (step_lines are not printed: they are where the steps land when parsed).
std::string printScenario(const Scenario& scenario);
// The same with `comments` (whole `# …` lines: what found the history, how to replay it) right
// after the header line.
std::string printScenario(const Scenario& scenario, std::string_view comments);

}  // namespace kcspec
