// The reference controller's state-change.log for a list of actions (log_replay.hpp).
#include "impl/log_replay.hpp"

#include <stdexcept>

#include "impl/cluster.hpp"
#include "spec/vocabulary/action_text.hpp"

namespace kcspec::impl {

std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions,
                                     LogLevel threshold, Mutants mutants) {
  TextLogSink sink(threshold);
  FakeClock clock;
  ImplCluster cluster(config, mutants, LogTarget{&sink, &clock});
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (!cluster.isEnabled(actions[i])) {
      throw ImplStepNotEnabled(i, "action " + std::to_string(i + 1) + " (" + printAction(config, actions[i]) +
                                      ") is not enabled");
    }
    cluster.apply(actions[i]);
  }
  return sink.text();
}

std::string replayImplStateChangeLog(const kcspec::Scenario& scenario, LogLevel threshold, Mutants mutants,
                                     std::vector<UnexpectedResult>* unexpected) {
  TextLogSink sink(threshold);
  FakeClock clock;
  const Config& config = scenario.config;
  ImplCluster cluster = scenario.given ? ImplCluster(config, scenario.given->world, mutants, LogTarget{&sink, &clock})
                                       : ImplCluster(config, mutants, LogTarget{&sink, &clock});
  forEachStep(
      scenario,
      [&](std::size_t i) {
        const Action& action = scenario.steps[i];
        if (!cluster.isEnabled(action)) {
          throw ImplStepNotEnabled(i, "action " + std::to_string(i + 1) + " (" + printAction(config, action) + ") is not enabled",
                                   scenario.step_lines.empty() ? 0 : scenario.step_lines[i]);
        }
        cluster.apply(action);
        return true;
      },
      [&](const Scenario::Call& call) {
        if (!cluster.callComponentPossible(call.call)) {
          throw ImplStepNotEnabled(call.after_steps, "no active controller to call: " + printComponentCall(config, call.call),
                                   call.line);
        }
        const ComponentResult result = cluster.callComponent(call.call);
        if (unexpected && call.call.expected && resultText(config, result) != *call.call.expected) {
          unexpected->push_back(UnexpectedResult{call.line, *call.call.expected, resultText(config, result)});
        }
        return true;
      });
  return sink.text();
}

std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions) {
  return replayImplStateChangeLog(config, actions, LogLevel::TRACE);
}

}  // namespace kcspec::impl
