#include "proofs/agreement/agreement.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "proofs/agreement/step_record.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/capacity.hpp"
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
  return checkAgreement(config, after, spec_record, impl_record, impl);
}

Verdict checkAgreement(const Config& config, const spec::ClusterState& after, const spec::StepRecord& spec_record,
                       const spec::StepRecord& impl_record, const impl::ImplCluster& impl) {
  const spec::ClusterState mine = implState(impl);
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
                     const Action& action, Coverage* coverage, bool judge_properties) {
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
  out.verdict = judge_properties ? checkStep(config, &before, out.after, observer.record, impl_record, impl)
                                 : checkAgreement(config, out.after, observer.record, impl_record, impl);
  return out;
}

std::optional<StepOutcome> stepBothWithinModel(const Config& config, const spec::ClusterState& before,
                                               impl::ImplCluster& impl, const Action& action, Coverage* coverage,
                                               bool judge_properties, std::string* what) {
  try {
    return stepBoth(config, before, impl, action, coverage, judge_properties);
  } catch (const CapacityExceeded& e) {
    if (what != nullptr) *what = e.what();
    return std::nullopt;
  }
}

StepOutcome callBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const ComponentCall& call) {
  spec::RecordingObserver observer;
  StepOutcome out{before, Verdict{}};
  const ComponentResult spec_result = spec::callComponent(config, out.after, call, observer);
  thread_local std::vector<impl::LogRecord> log;
  log.clear();
  ComponentResult impl_result;
  callLogged(impl, call, impl_result, log);
  const spec::StepRecord impl_record = implStepRecord(config, log, before, implState(impl));
  out.verdict = checkAgreement(config, out.after, observer.record, impl_record, impl);
  if (out.verdict.ok && spec_result.exception != impl_result.exception) {
    out.verdict = Verdict{false, "exception", fmt::format("spec: {}, impl: {}", componentExceptionName(spec_result.exception),
                                                          componentExceptionName(impl_result.exception))};
  }
  if (out.verdict.ok && spec_result.answer != impl_result.answer) {
    out.verdict = Verdict{false, "answer", fmt::format("spec: {}, impl: {}", printComponentAnswer(config, spec_result.answer),
                                                       printComponentAnswer(config, impl_result.answer))};
  }
  if (out.verdict.ok && call.expected && resultText(config, spec_result) != *call.expected) {
    out.verdict = Verdict{false, "result", fmt::format("expected => {}, both versions: {}", *call.expected,
                                                       resultText(config, spec_result))};
  }
  return out;
}

ScenarioRun runScenarioBoth(const Scenario& scenario, impl::Mutants mutants) {
  const Config& config = scenario.config;
  ScenarioRun run;
  spec::ClusterState state =
      scenario.given ? spec::givenState(config, scenario.given->world) : spec::initialState(config);
  impl::ImplCluster impl =
      scenario.given ? impl::ImplCluster(config, scenario.given->world, mutants) : impl::ImplCluster(config, mutants);
  const int given_line = scenario.given ? scenario.given->line : 1;
  if (Verdict v = checkAgreement(config, state, {}, {}, impl); !v.ok) {
    run.disagreement = ScenarioDisagreement{given_line, scenario.given ? "given" : "the initial state", v};
    return run;
  }
  const bool judge = !(scenario.given && scenario.given->unchecked);
  // Where a step or component action ends the run: neither version takes it, or only one does.
  const auto stops = [&](int line, const std::string& text, bool in_spec, bool in_impl, std::string_view what,
                         std::string_view detail_spec, std::string_view detail_impl) {
    if (in_spec && in_impl) return false;
    if (!in_spec && !in_impl) {
      run.stopped_at = line;
    } else {
      run.disagreement = ScenarioDisagreement{
          line, text, Verdict{false, std::string(what), std::string(in_spec ? detail_spec : detail_impl)}};
    }
    return true;
  };
  forEachStep(
      scenario,
      [&](std::size_t i) {
        const Action& action = scenario.steps[i];
        const int line = scenario.step_lines.empty() ? 0 : scenario.step_lines[i];
        const std::string text = printAction(config, action);
        if (stops(line, text, spec::isEnabled(config, state, action), impl.isEnabled(action), "enabled actions",
                  "  only spec\n", "  only impl\n")) {
          return false;
        }
        std::string beyond;
        std::optional<StepOutcome> stepped = stepBothWithinModel(config, state, impl, action, nullptr, judge, &beyond);
        if (!stepped) {
          run.beyond_model = ScenarioBeyondModel{line, std::move(beyond)};
          return false;
        }
        StepOutcome& out = *stepped;
        ++run.steps;
        if (!out.verdict.ok) run.disagreement = ScenarioDisagreement{line, text, out.verdict};
        state = std::move(out.after);
        return out.verdict.ok;
      },
      [&](const Scenario::Call& call) {
        const std::string text = printComponentCall(config, call.call);
        if (stops(call.line, text, spec::componentCallPossible(state, call.call), impl.callComponentPossible(call.call),
                  "active controller", "only the spec has one", "only the impl has one")) {
          return false;
        }
        StepOutcome out = callBoth(config, state, impl, call.call);
        ++run.calls;
        if (!out.verdict.ok) run.disagreement = ScenarioDisagreement{call.line, text, out.verdict};
        state = std::move(out.after);
        return out.verdict.ok;
      });
  return run;
}

std::optional<Counterexample> replayBoth(const Config& config, impl::Mutants mutants, const std::vector<Action>& steps,
                                         const Observation* given) {
  spec::ClusterState state = given != nullptr ? spec::givenState(config, *given) : spec::initialState(config);
  impl::ImplCluster impl = given != nullptr ? impl::ImplCluster(config, *given, mutants) : impl::ImplCluster(config, mutants);
  Verdict initial = checkStep(config, nullptr, state, spec::StepRecord{}, spec::StepRecord{}, impl);
  if (!initial.ok) return Counterexample{{}, initial};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!spec::isEnabled(config, state, steps[i])) return std::nullopt;
    if (!impl.isEnabled(steps[i])) return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1},
                                                         Verdict{false, "enabled actions", "not enabled in impl"}};
    std::optional<StepOutcome> stepped = stepBothWithinModel(config, state, impl, steps[i], nullptr);
    if (!stepped) return std::nullopt;  // beyond the modeled world: the history does not apply
    StepOutcome& step = *stepped;
    if (!step.verdict.ok) {
      return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1}, step.verdict};
    }
    state = std::move(step.after);
  }
  return std::nullopt;
}

}  // namespace kcspec::agreement
