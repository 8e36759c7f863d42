// The spec and the reference implementation in lockstep as one explorer System (system.hpp):
// every edge is taken by both, and after every step their observations (and remaining budgets)
// must be equal, and in every state they must enable the same actions: exhaustive conformance.
//
// Properties: the invariant catalog, judged on the common view (the spec's state, which equals
// the impl's wherever the two agree; where they disagree the impl's view is judged too), with the
// spec's record of each step for the step properties; then two of its own:
//   C1 SpecImplAgree                after every step, the impl's observation and budget equal the spec's,
//                                   and both logged the same failed state changes (invalid transitions,
//                                   elections that found no leader with their strategy, …): the applied ones
//                                   show in the observation, the failed ones only in the log
//   C2 SpecImplEnableTheSameActions in every state, both enable the same actions in the same order
// A state where they disagree is a dead end (no actions, every liveness goal counted as reached):
// the explorer reports the shortest path to it, and BothSystem::disagreement describes it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/mutants.hpp"
#include "proofs/explorer/catalog_properties.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/persistent_delivery.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::explorer {

inline constexpr PropertyInfo kSpecImplAgree{"C1", "SpecImplAgree", PropertyKind::StepSafety};
inline constexpr PropertyInfo kSpecImplEnableTheSameActions{"C2", "SpecImplEnableTheSameActions",
                                                            PropertyKind::StateSafety};

class BothSystem {
 public:
  struct State {
    spec::ClusterState spec;
    impl::ImplCluster cluster;
    std::string path;  // the actions from the initial state (action_path.hpp)
    // Set when the last step made the two disagree: the impl's view after it.
    std::shared_ptr<const spec::ClusterState> impl_view;
    // Set when the last step's failed state changes differ: both lists, as text.
    std::shared_ptr<const std::string> failed_changes;
    bool impl_refused = false;  // the impl did not enable the last action (it was not applied)
    bool agree() const { return impl_view == nullptr && failed_changes == nullptr && !impl_refused; }
  };
  using Action = kcspec::Action;
  using Observation = kcspec::Observation;

  explicit BothSystem(Config config, impl::Mutants mutants = {});

  const Config& config() const { return config_; }
  impl::Mutants mutants() const { return mutants_; }

  std::string_view name() const { return "both"; }
  std::vector<State> initialStates() const;
  void actions(const State& state, std::vector<Action>& out) const;
  State next(const State& state, const Action& action, PropertyMask& violated) const;
  // next() into `successor`, reusing its storage (system.hpp's fast path).
  void nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const;
  Fingerprint fingerprint(const State& state) const;
  // The path (action_path.hpp), then one byte: bit 0 whether the impl's view disagreed after the
  // last step, bit 1 whether its failed state changes did (so decoding an agreeing state need
  // not observe the impl or read its log again to know it).
  void encode(const State& state, std::string& out) const {
    out.append(state.path);
    out.push_back(static_cast<char>((state.impl_view ? 1 : 0) | (state.failed_changes ? 2 : 0)));
  }
  State decode(std::string_view bytes) const;
  void decodeInto(std::string_view bytes, State& state) const;
  // The spec's observation (the impl's, where they disagree).
  const Observation& observe(const State& state) const { return state.impl_view ? state.impl_view->world : state.spec.world; }
  std::span<const PropertyInfo> properties() const { return catalog_.all(); }
  PropertyMask violatedStateProperties(const State& state) const;
  PropertyMask goalsReached(const State& state) const;
  bool isRecovery(const Action& action) const;
  // Partial-order reduction (system.hpp HasPersistentActions): persistent_delivery.hpp's choice on
  // the spec's world, while spec and impl agree (a disagreement is expanded in full).
  std::optional<std::size_t> persistentAction(const State& state, std::span<const Action> enabled) const {
    if (!state.agree()) return std::nullopt;
    return persistentDelivery(state.spec.world, persistenceScope(state.spec.budget), enabled);
  }
  // Each delivery lowers queuedRequests (persistent_delivery.hpp): the checker takes them in chains.
  std::uint64_t descentMeasure(const State& state) const { return queuedRequests(state.spec.world); }
  // What persistentAction(state, actions(state)) names, found without listing the enabled actions
  // (system.hpp FindsPersistentAction): a chain asks after each of its steps.
  std::optional<Action> persistentActionIn(const State& state) const;
  // Action coverage (system.hpp HasActionKinds): the vocabulary's kinds.
  std::span<const std::string_view> actionKinds() const { return kActionNames; }
  std::size_t actionKind(const Action& action) const { return static_cast<std::size_t>(action.kind); }

  PropertyMask bitOf(std::string_view id) const { return catalog_.bitOf(id); }

  // What differs between spec and impl in `state` (empty when they agree): the observation
  // diff (spec -> impl), the budget, and the actions only one of them enables.
  std::string disagreement(const State& state) const;

 private:
  struct Node;
  const Node& replay(std::string_view path) const;
  const std::vector<Action>& specEnabled(const State& state) const;
  void copyPair(const spec::ClusterState& from_spec, const impl::ImplCluster& from_cluster, spec::ClusterState& to_spec,
                impl::ImplCluster& to_cluster) const;
  bool stepPair(spec::ClusterState& spec_state, impl::ImplCluster& cluster, const Action& action,
                spec::StepObserver& observer, std::vector<impl::LogRecord>* impl_errors = nullptr) const;
  // The failed state changes of one step, spec's against the impl's (its ERROR log records),
  // when they differ; else null.
  std::shared_ptr<const std::string> failedChangesDisagreement(const spec::StepRecord& spec_record,
                                                               std::span<const impl::LogRecord> impl_errors,
                                                               const spec::ClusterState& before,
                                                               const spec::ClusterState& after) const;
  std::shared_ptr<const spec::ClusterState> disagreeingView(const impl::ImplCluster& cluster, const spec::ClusterState& spec) const;

  Config config_;
  impl::Mutants mutants_;
  CatalogProperties catalog_;
  StateShape shape_;  // the slots the configuration's spec states use (state_codec.hpp)
  std::uint64_t id_;
};

static_assert(System<BothSystem>);

}  // namespace kcspec::explorer
