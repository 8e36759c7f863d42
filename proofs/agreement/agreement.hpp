// The agreement of the two versions (DESIGN.md "Comparing the two versions"): after a step the
// reference controller (impl/) must keep every safety property of the catalog that Kafka keeps,
// show the spec's observation and remaining budget, have asked for the same state changes with
// the same outcomes (the failed ones show only in the log), and enable the same actions. One
// definition, used by `kcspec mutants`, the property tests (tests/property), `kcspec prove`'s
// AGREE theorems and the explorer's lockstep system (proofs/explorer/both_system.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/mutants.hpp"
#include "proofs/agreement/coverage.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::agreement {

// What went wrong after a step: `by` names the check ("observation <path>", "state changes",
// "enabled actions", "invariant S4 DeletionDisabledQueuesNothing"), `detail` shows it.
struct Verdict {
  bool ok = true;
  std::string by;
  std::string detail;
};

// The impl's state as the spec's state type (its observation and remaining budget).
spec::ClusterState implState(const impl::ImplCluster& impl);

// Checks the impl after a step (or the initial state, with `before` == nullptr) against the
// spec's successor `after`: the impl's state keeps the safety properties (its step properties
// judged on what it recorded, `impl_record`, read from its state-change.log); the observations
// and budgets are equal; both asked for the same state changes and saw the same ones fail, for
// the same reasons (an election that fails names its strategy); both enable the same actions.
Verdict checkStep(const Config& config, const spec::ClusterState* before_impl, const spec::ClusterState& after,
                  const spec::StepRecord& spec_record, const spec::StepRecord& impl_record,
                  const impl::ImplCluster& impl);

// The part of checkStep that compares the versions (observation, budget, state changes, enabled
// actions), without judging the impl's state by the catalog: what a component action is checked
// by, since a method called outside its event may leave a property broken in both.
Verdict checkAgreement(const Config& config, const spec::ClusterState& after, const spec::StepRecord& spec_record,
                       const spec::StepRecord& impl_record, const impl::ImplCluster& impl);

// The actions only one version enables, one per line ("  only spec: …", "  only impl: …"), or
// that both enable them in another order; "" when the lists are equal.
std::string enabledActionsDisagreement(const Config& config, std::span<const Action> in_spec,
                                       std::span<const Action> in_impl);

// One step of both versions: the spec's successor (recorded) and the impl applied.
struct StepOutcome {
  spec::ClusterState after;
  Verdict verdict;
};
// Without `judge_properties`, checkAgreement alone (for a world stated `given unchecked`, which
// may break a property in both versions from the start).
StepOutcome stepBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const Action& action, Coverage* coverage, bool judge_properties = true);
// stepBoth, or nothing when the step outgrows the modeled world (CapacityExceeded, docs/spec/rules.md
// "Histories that outgrow the model"): then `what`, when given, says what was full, and `impl` is
// half-stepped (the history ends there).
std::optional<StepOutcome> stepBothWithinModel(const Config& config, const spec::ClusterState& before,
                                               impl::ImplCluster& impl, const Action& action, Coverage* coverage,
                                               bool judge_properties = true, std::string* what = nullptr);

// A failing history: the steps up to and including the failing one, and what failed.
struct Counterexample {
  std::vector<Action> steps;
  Verdict verdict;
};

// One component action (spec/vocabulary/component_call.hpp) on both versions: the spec's state
// after it, and checkAgreement's verdict plus the exceptions that escaped (they must be the same).
// Both versions must have an active controller.
StepOutcome callBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const ComponentCall& call);

// Where a scenario run on both versions first disagrees: the line of the step or component
// action, its text, and the verdict ("enabled actions" when one version cannot take the step).
struct ScenarioDisagreement {
  int line = 0;
  std::string step;
  Verdict verdict;
};
// A scenario's step that outgrows the modeled world (CapacityExceeded, docs/spec/rules.md).
struct ScenarioBeyondModel {
  int line = 0;
  std::string what;
};
// What running a scenario on both versions came to: the steps and component actions taken, and
// the first disagreement, if any. From its given world when it has one, with its component actions
// in their places. A step neither version can take ends the run (`stopped_at` names its line), and
// so does a step that outgrows the modeled world (`beyond_model`).
struct ScenarioRun {
  int steps = 0;
  int calls = 0;
  int stopped_at = 0;
  std::optional<ScenarioDisagreement> disagreement;
  std::optional<ScenarioBeyondModel> beyond_model;
};
ScenarioRun runScenarioBoth(const Scenario& scenario, impl::Mutants mutants = {});

// Replays `steps` through both versions; the first failing prefix, or nothing if every step
// passes or a step is not enabled in the spec or outgrows the modeled world (the history does not
// apply).
// From `given` (a scenario's given world) when not null, else from the initial state.
std::optional<Counterexample> replayBoth(const Config& config, impl::Mutants mutants, const std::vector<Action>& steps,
                                         const Observation* given = nullptr);

}  // namespace kcspec::agreement
