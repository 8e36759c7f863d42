#include "proofs/agreement/agreement.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "proofs/agreement/step_record.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::agreement {
namespace {

std::string propertyLabel(std::string_view id) {
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (p.id == id) return fmt::format("invariant {} {}", p.id, p.name);
  }
  return fmt::format("invariant {}", id);
}


}  // namespace

spec::ClusterState implState(const impl::ImplCluster& impl) { return spec::ClusterState{impl.observe(), impl.remaining()}; }

Verdict checkStep(const Config& config, const spec::ClusterState* before_impl, const spec::ClusterState& after,
                  const spec::StepRecord& spec_record, const spec::StepRecord& impl_record,
                  const impl::ImplCluster& impl) {
  const spec::ClusterState mine = implState(impl);
  // A violated invariant names the bug better than the diff it causes: check the impl's state first.
  for (std::string_view id : spec::violatedStateProperties(config, mine)) {
    if (spec::isKnownKafkaDeviation(id)) continue;  // checking them would report Kafka, not the impl
    return Verdict{false, propertyLabel(id), renderObservationText(config, mine.world)};
  }
  if (before_impl != nullptr) {
    for (std::string_view id : spec::violatedStepProperties(config, *before_impl, mine, impl_record)) {
      if (spec::isKnownKafkaDeviation(id)) continue;
      return Verdict{false, propertyLabel(id), renderObservationText(config, mine.world)};
    }
  }
  if (!(mine.world == after.world)) {
    const std::vector<Change> diff = diffObservations(config, after.world, mine.world);
    return Verdict{false, "observation " + (diff.empty() ? std::string("?") : diff.front().path),
                   "spec -> impl:\n" + renderChangesText(diff)};
  }
  if (!(mine.budget == after.budget)) return Verdict{false, "remaining budget", ""};
  if (std::string diff = stateChangeDisagreement(config, spec_record.state_changes, impl_record.state_changes);
      !diff.empty()) {
    return Verdict{false, "state changes", std::move(diff)};
  }
  const std::vector<Action> spec_enabled = spec::enabledActions(config, after);
  const std::vector<Action> impl_enabled = impl.enabledActions();
  if (std::string diff = enabledActionsDisagreement(config, spec_enabled, impl_enabled); !diff.empty()) {
    return Verdict{false, "enabled actions", std::move(diff)};
  }
  return Verdict{};
}

std::string enabledActionsDisagreement(const Config& config, std::span<const Action> in_spec,
                                       std::span<const Action> in_impl) {
  if (std::equal(in_spec.begin(), in_spec.end(), in_impl.begin(), in_impl.end())) return "";
  std::string out;
  for (const Action& a : in_spec) {
    if (std::find(in_impl.begin(), in_impl.end(), a) == in_impl.end()) out += "  only spec: " + printAction(config, a) + "\n";
  }
  for (const Action& a : in_impl) {
    if (std::find(in_spec.begin(), in_spec.end(), a) == in_spec.end()) out += "  only impl: " + printAction(config, a) + "\n";
  }
  if (out.empty()) out = "  the same actions in a different order\n";
  return out;
}

StepOutcome stepBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const Action& action, Coverage* coverage) {
  // The impl's state before the step equals `before`: the previous step's check compared them.
  CoverageObserver observer(coverage);
  StepOutcome out{spec::next(config, before, action, observer), Verdict{}};
  thread_local std::vector<impl::LogRecord> log;
  log.clear();
  applyLogged(impl, action, log);
  if (coverage != nullptr) {
    ++coverage->actions[static_cast<std::size_t>(action.kind)];
    ++coverage->steps;
  }
  const spec::StepRecord impl_record = implStepRecord(config, log, before, implState(impl));
  out.verdict = checkStep(config, &before, out.after, observer.record, impl_record, impl);
  return out;
}

std::optional<Counterexample> replayBoth(const Config& config, impl::Mutants mutants, const std::vector<Action>& steps) {
  spec::ClusterState state = spec::initialState(config);
  impl::ImplCluster impl(config, mutants);
  Verdict initial = checkStep(config, nullptr, state, spec::StepRecord{}, spec::StepRecord{}, impl);
  if (!initial.ok) return Counterexample{{}, initial};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!spec::isEnabled(config, state, steps[i])) return std::nullopt;
    if (!impl.isEnabled(steps[i])) return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1},
                                                         Verdict{false, "enabled actions", "not enabled in impl"}};
    StepOutcome step = stepBoth(config, state, impl, steps[i], nullptr);
    if (!step.verdict.ok) {
      return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1}, step.verdict};
    }
    state = std::move(step.after);
  }
  return std::nullopt;
}

}  // namespace kcspec::agreement
