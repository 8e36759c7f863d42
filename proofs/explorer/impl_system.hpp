// The reference implementation (impl/cluster.hpp ImplCluster) as an explorer System
// (system.hpp), optionally with mutants (impl/mutants.hpp). Its properties are the invariant
// catalog, judged on the impl's own view: its Observation and remaining budget, the same
// spec::ClusterState value the catalog is written over.
//
// - Step properties need what the step did (spec::StepRecord). The impl reports it the way Kafka
//   does: in its state-change.log. Each step's lines are parsed with the conformance
//   checker's line parser (proofs/conformance/log_line.hpp): "Changed partition/state of
//   replica … from X to Y" is an applied change, "failed to change state …" a failed one, whose
//   exception says why (an invalid transition, a failed election, …). Accepted
//   fenced writes (T4) are read from ZooKeeper: every partition-state znode the step wrote, with
//   the controller epoch it carries.
// - Fingerprint: the view over the configuration's slots (state_codec.hpp's fingerprintWorld with
//   the StateShape) and every znode's path, data and stat (versions and creation zxids the
//   Observation does not show), and the last zxid. The rest of the impl's state (controller
//   modules, brokers) is what its Observation shows. The impl sets no slot outside the shape, a
//   mutant's neither: brokers outside the configuration are never started, and a broker or a
//   controller learns of a partition only from ZooKeeper's assignments, whose topics and
//   partitions the configuration names (the shape holds every partition a topic can reach).
// - Encoding: the path from the initial state (action_path.hpp), decoded by replay.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/mutants.hpp"
#include "proofs/agreement/step_record.hpp"
#include "proofs/explorer/catalog_properties.hpp"
#include "proofs/explorer/persistent_delivery.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::explorer {

// One fingerprint of two (order matters).
Fingerprint combineFingerprints(Fingerprint first, Fingerprint second);

// The hash of the impl's ZooKeeper beyond what the Observation shows (every znode's path, data
// and stat, the last zxid).
Fingerprint hiddenZooKeeperFingerprint(const impl::ImplCluster& cluster);

class ImplSystem {
 public:
  struct State {
    impl::ImplCluster cluster;
    spec::ClusterState view;  // cluster.observe() and cluster.remaining()
    std::string path;         // the actions from the initial state (action_path.hpp)
  };
  using Action = kcspec::Action;
  using Observation = kcspec::Observation;

  explicit ImplSystem(Config config, impl::Mutants mutants = {});

  const Config& config() const { return config_; }
  impl::Mutants mutants() const { return mutants_; }

  std::string_view name() const { return "impl"; }
  std::vector<State> initialStates() const;
  void actions(const State& state, std::vector<Action>& out) const;
  State next(const State& state, const Action& action, PropertyMask& violated) const;
  // next() and decode() into a state of this configuration, reusing its storage (system.hpp
  // StepsInto, DecodesInto): only the configured brokers are copied, and the view is observed
  // into the value it replaces once that value's configured slots are reset.
  void nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const;
  void decodeInto(std::string_view bytes, State& state) const;
  // Over the configuration's slots of the view (state_codec.hpp's StateShape), and the znodes.
  Fingerprint fingerprint(const State& state) const;
  void encode(const State& state, std::string& out) const { out.append(state.path); }
  State decode(std::string_view bytes) const;
  const Observation& observe(const State& state) const { return state.view.world; }
  std::span<const PropertyInfo> properties() const { return catalog_.all(); }
  PropertyMask violatedStateProperties(const State& state) const { return catalog_.violatedState(config_, state.view); }
  PropertyMask goalsReached(const State& state) const { return catalog_.goalsReached(config_, state.view); }
  bool isRecovery(const Action& action) const;
  // Partial-order reduction (system.hpp HasPersistentActions): persistent_delivery.hpp's choice.
  std::optional<std::size_t> persistentAction(const State& state, std::span<const Action> enabled) const {
    return persistentDelivery(state.view.world, persistenceScope(state.view.budget), enabled);
  }
  // The same choice without the enabled actions (persistent_delivery.hpp firstPersistentDelivery,
  // with the impl's own enabling).
  std::optional<Action> persistentActionIn(const State& state) const;
  // Each delivery lowers queuedRequests (persistent_delivery.hpp): the checker takes them in chains.
  std::uint64_t descentMeasure(const State& state) const { return queuedRequests(state.view.world); }
  // Action coverage (system.hpp HasActionKinds): the vocabulary's kinds.
  std::span<const std::string_view> actionKinds() const { return kActionNames; }
  std::size_t actionKind(const Action& action) const { return static_cast<std::size_t>(action.kind); }

  PropertyMask bitOf(std::string_view id) const { return catalog_.bitOf(id); }

 private:
  // The step's log lines and view, for step properties (the view is the successor's).
  void judgeStep(const State& state, const Action& action, PropertyMask& violated, State& successor) const;
  // successor.view = the view of successor.cluster, reusing its storage.
  void observeInto(State& successor) const;

  Config config_;
  impl::Mutants mutants_;
  StateShape shape_;
  CatalogProperties catalog_;
  std::uint64_t id_;
};

static_assert(System<ImplSystem>);

}  // namespace kcspec::explorer
