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

std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions) {
  return replayImplStateChangeLog(config, actions, LogLevel::TRACE);
}

}  // namespace kcspec::impl
