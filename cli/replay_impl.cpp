// The reference controller's state-change.log for a list of actions (replay_impl.hpp).
#include "cli/replay_impl.hpp"

#include <stdexcept>

#include "impl/cluster.hpp"
#include "spec/vocabulary/action_text.hpp"

namespace kcspec::cli {

std::string replayImplStateChangeLog(const kcspec::Config& config, const std::vector<kcspec::Action>& actions,
                                     impl::LogLevel threshold, impl::Mutants mutants) {
  impl::TextLogSink sink(threshold);
  impl::FakeClock clock;
  impl::ImplCluster cluster(config, mutants, impl::LogTarget{&sink, &clock});
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
  return replayImplStateChangeLog(config, actions, impl::LogLevel::TRACE);
}

}  // namespace kcspec::cli
