// Worked examples for the spec pages, produced by running the spec (spec/rules/step.hpp), so
// they are true by construction: a configuration, a setup (a prefix of actions), then the step
// the example shows, with the observation before and after it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::docs {

// The configuration every worked example runs on (its text, as config_text.hpp parses it).
std::string_view docsExampleConfigText();
const Config& docsExampleConfig();

// The configuration a worked example's script runs on: the example configuration, at the
// inter.broker.protocol.version its first line names (`protocol <version>`) when it names one.
Config workedExampleConfig(std::string_view script);

// A worked example's script: one step per line; blank lines and `#` comments are ignored.
// A line is an action (action_text.hpp's grammar) or a directive that expands into the actions
// the spec has enabled, chosen deterministically (the first enabled one, in enabledActions order):
//   settle                 process events, deliver requests and StopReplica responses (without
//                          error) until none is enabled
//   settle-requests        the same, but leave StopReplica responses in the brokers' outboxes
//   settle-until <Event>   settle, but stop as soon as some controller's next event is <Event>
//                          (a ControllerEventKind name, e.g. BrokerChange)
//   protocol <version>     first line only: the script runs at this inter.broker.protocol.version
//                          (workedExampleConfig); the other lines cannot use it
// The last line must be an action: the step the example shows.
struct WorkedExample {
  std::vector<Action> prefix;  // the setup, directives expanded
  Action step;
  spec::ClusterState before;   // the state the step is taken in
  spec::ClusterState after;
  std::vector<Change> changes;  // before → after, observation_text.hpp's paths

  // The prefix followed by the step.
  std::vector<Action> allSteps() const;
};

// Runs `script` on `config`. Throws std::logic_error naming `name` when the script does not
// parse, an action is not enabled, a directive does not terminate, or the step changes nothing:
// the example and the spec disagree, and the docs cannot be generated.
WorkedExample runWorkedExample(const Config& config, std::string_view script, std::string_view name);

}  // namespace kcspec::docs
