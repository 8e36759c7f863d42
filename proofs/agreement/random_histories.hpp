// Random histories of both versions (docs/testing.md): each action one of the spec's enabled
// actions, chosen with weights biased toward the corners where controller bugs live; every step
// checked for agreement (agreement.hpp); a failing history shrunk to a shorter one that still fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "impl/mutants.hpp"
#include "proofs/agreement/agreement.hpp"
#include "proofs/agreement/coverage.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::agreement {

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

// The seed of the i-th history of check configuration `config` in a run seeded `seed` (what
// `kcspec mutants`, hand-written or generated, runs: one run's histories are reproducible).
constexpr std::uint64_t historySeed(std::uint64_t seed, std::size_t config, int i) {
  return seed * 1000003u + config * 7919u + static_cast<std::uint64_t>(i);
}

// A random biased history of at most `max_steps` actions from `seed`; stops at the first failure.
std::optional<Counterexample> randomHistory(const Config& config, impl::Mutants mutants, std::uint64_t seed,
                                            int max_steps, Coverage* coverage = nullptr);

// Removes steps while the history still fails (shrink.hpp, at most kMaxShrinkReplays replays);
// keeps the failure's kind only loosely: any failure of the shorter history is accepted.
inline constexpr int kMaxShrinkReplays = 2000;
Counterexample shrink(const Config& config, impl::Mutants mutants, Counterexample failure);

}  // namespace kcspec::agreement
