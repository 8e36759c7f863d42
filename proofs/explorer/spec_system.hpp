// The executable spec (spec/rules/step.hpp) as an explorer System (system.hpp): states are
// spec::ClusterState, actions the vocabulary's Action, properties the invariant catalog
// (spec/rules/invariants.hpp) in catalog order.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/explorer/canonical_fingerprint.hpp"
#include "proofs/explorer/catalog_properties.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/persistent_delivery.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::explorer {

// The actions liveness may rely on (DESIGN.md: recovery is never bounded): processing events,
// restarting brokers, electing a controller, noticing a lost session, delivering requests,
// delivering StopReplica responses without an error, and a caught-up follower rejoining the ISR.
bool isRecoveryAction(const Action& action);

class SpecSystem {
 public:
  using State = spec::ClusterState;
  using Action = kcspec::Action;
  using Observation = kcspec::Observation;

  // With `symmetry`, states are fingerprinted up to the configuration's broker symmetries
  // (canonical_fingerprint.hpp; `--reduction full`): the search keeps one state of each class.
  enum class Symmetry : std::uint8_t { Ignored, Reduced };
  explicit SpecSystem(Config config, Symmetry symmetry = Symmetry::Ignored);

  // The permutations the fingerprint reduces by (empty unless Symmetry::Reduced and the
  // configuration has a symmetry that keeps topics and partitions).
  std::size_t symmetryPermutations() const { return symmetry_ ? canonical_.permutations().size() : 0; }

  const Config& config() const { return config_; }

  std::string_view name() const { return "spec"; }
  std::vector<State> initialStates() const;
  void actions(const State& state, std::vector<Action>& out) const;
  State next(const State& state, const Action& action, PropertyMask& violated) const;
  // The fingerprint is the hash of the encoding, which covers the configuration's slots only
  // (state_codec.hpp's StateShape); with symmetry reduced, the hash of the class's least encoding.
  Fingerprint fingerprint(const State& state) const;
  void encode(const State& state, std::string& out) const;
  State decode(std::string_view bytes) const;
  // The explorer's fast paths (system.hpp): encode and fingerprint in one walk; decode into a
  // state of this configuration, reusing its storage.
  Fingerprint encodeFingerprinted(const State& state, std::string& out) const;
  // next(), into a state of this configuration (reusing its storage, copying only the
  // configuration's brokers).
  void nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const;
  void decodeInto(std::string_view bytes, State& state) const;
  // The segmented fast paths (system.hpp): a step on a scratch copy of the state encodes only
  // the parts it changed (the parent's bytes for the rest) and puts back only those; a decode
  // skips the parts `state` already holds.
  void assign(const State& from, State& to) const;
  Fingerprint stepEncoded(const State& state, std::string_view encoding, const Action& action, PropertyMask& violated,
                          State& scratch, std::string& out, const SuccessorHook<State>* then = nullptr) const;
  void decodeOver(std::string_view bytes, std::string_view previous, State& state) const;
  const Observation& observe(const State& state) const { return state.world; }
  std::span<const PropertyInfo> properties() const { return catalog_.all(); }
  PropertyMask violatedStateProperties(const State& state) const;
  // The liveness goals that hold, in a quiescent state (spec::isQuiescent); none otherwise.
  PropertyMask goalsReached(const State& state) const;
  bool isRecovery(const Action& action) const { return isRecoveryAction(action); }
  // Partial-order reduction (system.hpp HasPersistentActions): persistent_delivery.hpp's choice.
  std::optional<std::size_t> persistentAction(const State& state, std::span<const Action> enabled) const {
    return persistentDelivery(state.world, persistenceScope(state.budget), enabled);
  }
  // The same choice without the enabled actions (persistent_delivery.hpp firstPersistentDelivery,
  // with the spec's own enabling).
  std::optional<Action> persistentActionIn(const State& state) const;
  // Each delivery lowers queuedRequests (persistent_delivery.hpp): the checker takes them in chains.
  std::uint64_t descentMeasure(const State& state) const { return queuedRequests(state.world); }
  // A step in place, for a delivery persistentAction named (no step property checked: invisible).
  void advance(State& state, const Action& action) const;
  // Action coverage (system.hpp HasActionKinds): the vocabulary's kinds.
  std::span<const std::string_view> actionKinds() const { return kActionNames; }
  std::size_t actionKind(const Action& action) const { return static_cast<std::size_t>(action.kind); }

  // The bit of the catalog property `id` (0 when there is none).
  PropertyMask bitOf(std::string_view id) const;

 private:
  // `after` holds a copy of `before`; it becomes the successor.
  void step(const State& before, const Action& action, PropertyMask& violated, State& after) const;

  // The fingerprint of a state whose world and budget are these.
  Fingerprint fingerprintOf(const Observation& world, const Bounds& budget, std::string_view encoding) const;

  Config config_;
  StateShape shape_;
  CatalogProperties catalog_;
  CanonicalFingerprint canonical_;
  bool symmetry_ = false;           // Symmetry::Reduced with a permutation to reduce by
  SegmentMask every_broker_data_ = 0;  // brokerDataSegments of every broker: what a chain of deliveries changes
};

static_assert(System<SpecSystem> && StepsEncoded<SpecSystem> && DecodesOver<SpecSystem>);

}  // namespace kcspec::explorer
