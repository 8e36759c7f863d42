// Differential checking of the reference controller (impl/) against the executable spec: random
// histories whose actions are chosen with weights biased toward the corners where controller
// bugs live, and after every step the two observations and enabled sets must be equal and every
// safety property of the catalog (except the known Kafka deviations) must hold on the impl's
// state. Shared by `kcspec mutants` and the RapidCheck model-based tests (tests/property/).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/mutants.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::cli {

// The configurations the differential checks run on: the presets of kCheckPresetNames
// (spec/vocabulary/presets.hpp), parsed, in that order.
struct CheckConfig {
  std::string_view name;
  Config config;
};
const std::vector<CheckConfig>& checkConfigs();
const Config& checkConfig(std::string_view name);  // one of checkConfigs() by name

// The weight of an enabled action in `state` (≥ 1): recovery steps are frequent, and a
// perturbation weighs more where it reaches a corner — deleting or crashing while a broker is
// down or a deletion or reassignment is in progress, losing the controller session mid-deletion
// or mid-reassignment, controlled shutdown of a sole ISR member, restarting a broker whose death
// the controller has not processed yet (a quick bounce), StopReplica errors, unclean elections of
// leaderless partitions.
int actionWeight(const Config& config, const spec::ClusterState& state, const Action& action);

// The enabled action that `random` picks with those weights (`enabled` must not be empty).
const Action& chooseAction(const Config& config, const spec::ClusterState& state,
                           const std::vector<Action>& enabled, std::uint64_t random);

// What went wrong after a step: `by` names the check ("observation <path>", "enabled actions",
// "invariant S4 DeletionDisabledQueuesNothing"), `detail` shows it (the observation diff, …).
struct Verdict {
  bool ok = true;
  std::string by;
  std::string detail;
};

// Checks the impl after a step (or the initial state, with `before` == nullptr) against the
// spec's successor `after`: the impl's state keeps the safety properties (its step properties
// judged on what it recorded, `impl_record`, read from its state-change.log); the observations
// and budgets are equal; both asked for the same state changes and saw the same ones fail, for
// the same reasons (an election that fails names its strategy); both enable the same actions.
Verdict checkStep(const Config& config, const spec::ClusterState* before_impl, const spec::ClusterState& after,
                  const spec::StepRecord& spec_record, const spec::StepRecord& impl_record,
                  const impl::ImplCluster& impl);


// The impl's state as the spec's state type (its observation and remaining budget).
spec::ClusterState implState(const impl::ImplCluster& impl);

// Counts of what the checked histories exercised: actions by kind, the valid transitions of both
// tables, and election outcomes per strategy.
struct Coverage {
  std::array<std::uint64_t, kActionKindCount> actions{};
  std::array<std::uint64_t, 8> partition_transitions{};  // by index in kPartitionValidPrevious
  std::array<std::uint64_t, 14> replica_transitions{};   // by index in kReplicaValidPrevious
  // [strategy kind][0 = clean, 1 = unclean allowed][0 = failed, 1 = elected]
  std::array<std::array<std::array<std::uint64_t, 2>, 2>, 4> elections{};
  std::uint64_t histories = 0;
  std::uint64_t steps = 0;

  void merge(const Coverage& other);
  // The valid transitions never taken, e.g. "replica NewReplica -> OfflineReplica".
  std::vector<std::string> unreachedTransitions() const;
  std::string report() const;  // a table, one line per counter
};

// A StepObserver that keeps the step's record and counts transitions and elections.
class CoverageObserver : public spec::RecordingObserver {
 public:
  explicit CoverageObserver(Coverage* coverage) : coverage_(coverage) {}
  void stateChange(const spec::StateChangeRecord& change) override;
  void electionOutcome(TopicPartition tp, const spec::ElectionStrategy& strategy, bool elected) override;

 private:
  Coverage* coverage_;
};

// One step of both versions: the spec's successor (recorded) and the impl applied.
struct StepOutcome {
  spec::ClusterState after;
  Verdict verdict;
};
StepOutcome stepBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const Action& action, Coverage* coverage);

// A failing history: the steps up to and including the failing one, and what failed.
struct Counterexample {
  std::vector<Action> steps;
  Verdict verdict;
};

// Replays `steps` through both versions; the first failing prefix, or nothing if every step
// passes or a step is not enabled in the spec (the history does not apply).
std::optional<Counterexample> replayBoth(const Config& config, impl::Mutants mutants, const std::vector<Action>& steps);

// A random biased history of at most `max_steps` actions from `seed`; stops at the first failure.
std::optional<Counterexample> randomHistory(const Config& config, impl::Mutants mutants, std::uint64_t seed,
                                            int max_steps, Coverage* coverage = nullptr);

// Removes steps (chunks, then single steps) while the history still fails; keeps the failure's
// kind only loosely: any failure of the shorter history is accepted.
Counterexample shrink(const Config& config, impl::Mutants mutants, Counterexample failure);

}  // namespace kcspec::cli
