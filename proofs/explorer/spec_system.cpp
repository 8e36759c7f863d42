#include "proofs/explorer/spec_system.hpp"

#include <utility>

#include "proofs/explorer/state_codec.hpp"
#include "spec/rules/invariants.hpp"  // RecordingObserver
#include "spec/rules/step.hpp"
#include "spec/vocabulary/independence.hpp"

namespace kcspec::explorer {

// Recovery is exactly what is not a perturbation (spec/rules/step.hpp).
bool isRecoveryAction(const Action& action) { return !isPerturbation(action); }

SpecSystem::SpecSystem(Config config, Symmetry symmetry)
    : config_(std::move(config)), shape_(config_), canonical_(config_) {
  symmetry_ = symmetry == Symmetry::Reduced && !canonical_.permutations().empty();
  for (const std::uint8_t b : shape_.brokers()) every_broker_data_ |= brokerDataSegments(shape_, static_cast<BrokerId>(b));
}

Fingerprint SpecSystem::fingerprintOf(const Observation& world, const Bounds& budget, std::string_view encoding) const {
  return symmetry_ ? canonical_(world, budget) : hashEncoding(encoding);
}

PropertyMask SpecSystem::bitOf(std::string_view id) const { return catalog_.bitOf(id); }

std::vector<SpecSystem::State> SpecSystem::initialStates() const { return {spec::initialState(config_)}; }

void SpecSystem::actions(const State& state, std::vector<Action>& out) const {
  spec::enabledActions(config_, state, out);
}

std::optional<Action> SpecSystem::persistentActionIn(const State& state) const {
  return firstPersistentDelivery(config_, state.world, state.budget,
                                 [&](const Action& delivery) { return spec::isEnabled(config_, state, delivery); });
}

SpecSystem::State SpecSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  State successor = state;
  step(state, action, violated, successor);
  return successor;
}

void SpecSystem::nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const {
  copyWorld(state.world, successor.world, shape_);
  successor.budget = state.budget;
  step(state, action, violated, successor);
}

void SpecSystem::step(const State& before, const Action& action, PropertyMask& violated, State& after) const {
  thread_local spec::RecordingObserver observer;  // one per thread: its record's storage is reused
  observer.record.clear();
  spec::takeStep(config_, after, action, observer);
  violated |= catalog_.violatedStep(config_, before, after, observer.record);
}

void SpecSystem::advance(State& state, const Action& action) const {
  spec::StepObserver observer;  // ignores what the step reports
  spec::takeStep(config_, state, action, observer);
}

Fingerprint SpecSystem::fingerprint(const State& state) const {
  std::string bytes;
  return encodeFingerprinted(state, bytes);
}

void SpecSystem::encode(const State& state, std::string& out) const { encodeWorld(state.world, state.budget, shape_, out); }

Fingerprint SpecSystem::encodeFingerprinted(const State& state, std::string& out) const {
  const std::size_t begin = out.size();
  encodeWorld(state.world, state.budget, shape_, out);
  return fingerprintOf(state.world, state.budget, std::string_view(out).substr(begin));
}

SpecSystem::State SpecSystem::decode(std::string_view bytes) const {
  State state;
  decodeInto(bytes, state);
  return state;
}

void SpecSystem::decodeInto(std::string_view bytes, State& state) const {
  decodeWorld(bytes, shape_, state.world, state.budget);
}

void SpecSystem::assign(const State& from, State& to) const {
  copyWorld(from.world, to.world, shape_);
  to.budget = from.budget;
}

Fingerprint SpecSystem::stepEncoded(const State& state, std::string_view encoding, const Action& action,
                                    PropertyMask& violated, State& scratch, std::string& out,
                                    const SuccessorHook<State>* then) const {
  step(state, action, violated, scratch);
  if (then != nullptr) (*then)(scratch);
  // A delivery changes its broker's data only (processNextRequest): ZooKeeper, the controller
  // modules and, when it is taken alone, the other brokers need no comparison. A chain is made of
  // deliveries only (persistentAction names nothing else), to any broker.
  SegmentMask may_change = kEveryWorldSegment;
  if (action.kind == ActionKind::DeliverRequest) {
    may_change = then == nullptr ? brokerDataSegments(shape_, action.broker) : every_broker_data_;
  }
  const std::size_t begin = out.size();
  SegmentMask changed = 0;
  // One step, or a step and its chain (whose deliveries may take off what the step appended).
  encodeWorldAfter(state.world, state.budget, encoding, scratch.world, scratch.budget, shape_, out, changed, may_change,
                   /*one_step=*/then == nullptr);
  const Fingerprint fingerprint = fingerprintOf(scratch.world, scratch.budget, std::string_view(out).substr(begin));
  copyWorldSegments(state.world, scratch.world, shape_, changed);  // scratch is `state` again
  scratch.budget = state.budget;
  return fingerprint;
}

void SpecSystem::decodeOver(std::string_view bytes, std::string_view previous, State& state) const {
  decodeWorldOver(bytes, previous, shape_, state.world, state.budget);
}

PropertyMask SpecSystem::violatedStateProperties(const State& state) const {
  return catalog_.violatedState(config_, state);
}

PropertyMask SpecSystem::goalsReached(const State& state) const {
  return catalog_.goalsReached(config_, state);
}

}  // namespace kcspec::explorer
