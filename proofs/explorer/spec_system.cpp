#include "proofs/explorer/spec_system.hpp"

#include <stdexcept>
#include <utility>

#include "proofs/explorer/state_codec.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"

namespace kcspec::explorer {

bool isRecoveryAction(const Action& action) {
  switch (action.kind) {
    case ActionKind::ProcessEvent:
    case ActionKind::StartBroker:
    case ActionKind::ElectController:
    case ActionKind::NoticeSessionExpiry:
    case ActionKind::DeliverRequest:
    case ActionKind::ExpandIsr:
      return true;
    case ActionKind::DeliverStopReplicaResponse:
      return !action.error;
    default:
      return false;
  }
}

namespace {

PropertyKind kindOf(spec::PropertyKind kind) {
  switch (kind) {
    case spec::PropertyKind::StateSafety: return PropertyKind::StateSafety;
    case spec::PropertyKind::StepSafety: return PropertyKind::StepSafety;
    case spec::PropertyKind::Liveness: return PropertyKind::Liveness;
  }
  throw std::logic_error("unknown property kind");
}

}  // namespace

SpecSystem::SpecSystem(Config config) : config_(std::move(config)) {
  for (const spec::Property& property : spec::invariantCatalog()) {
    if (properties_.size() == kMaxProperties) throw std::length_error("the invariant catalog has more than 64 properties");
    if (property.kind == spec::PropertyKind::Liveness) liveness_ |= propertyBit(properties_.size());
    properties_.push_back(PropertyInfo{property.id, property.name, kindOf(property.kind)});
  }
}

PropertyMask SpecSystem::bitOf(std::string_view id) const {
  for (std::size_t i = 0; i < properties_.size(); ++i) {
    if (properties_[i].id == id) return propertyBit(i);
  }
  return 0;
}

std::vector<SpecSystem::State> SpecSystem::initialStates() const { return {spec::initialState(config_)}; }

void SpecSystem::actions(const State& state, std::vector<Action>& out) const {
  for (const Action& action : spec::enabledActions(config_, state)) out.push_back(action);
}

SpecSystem::State SpecSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  spec::RecordingObserver observer;
  State successor = spec::next(config_, state, action, observer);
  for (std::string_view id : spec::violatedStepProperties(config_, state, successor, observer.record)) {
    violated |= bitOf(id);
  }
  return successor;
}

Fingerprint SpecSystem::fingerprint(const State& state) const { return fingerprintWorld(state.world, state.budget); }

void SpecSystem::encode(const State& state, std::string& out) const { encodeWorld(state.world, state.budget, out); }

SpecSystem::State SpecSystem::decode(std::string_view bytes) const {
  State state;
  decodeWorld(bytes, state.world, state.budget);
  return state;
}

PropertyMask SpecSystem::violatedStateProperties(const State& state) const {
  PropertyMask violated = 0;
  for (std::string_view id : spec::violatedStateProperties(config_, state)) violated |= bitOf(id);
  return violated;
}

PropertyMask SpecSystem::goalsReached(const State& state) const {
  if (!spec::isQuiescent(config_, state)) return 0;
  PropertyMask reached = liveness_;
  for (std::string_view id : spec::unmetGoals(config_, state)) reached &= ~bitOf(id);
  return reached;
}

}  // namespace kcspec::explorer
