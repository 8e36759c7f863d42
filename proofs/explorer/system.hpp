// The explorer's view of a system (Stateright-style): everything the model checker knows about
// what it explores is this interface. A system knows nothing of the checker; the checker knows
// a system only through the members below. Two systems implement it: SpecSystem (the executable
// spec, spec_system.hpp) and, later, the reference implementation.
//
// A System type S provides:
//
//   using State = …;         a copyable value (one world plus whatever bounds it carries)
//   using Action = …;        a copyable value naming one step
//   using Observation = …;   what an outsider sees of a state (conformance compares these)
//
//   std::string_view name() const;                          "spec", "impl", … (reports name it)
//   std::vector<State> initialStates() const;               in a fixed order
//   void actions(const State&, std::vector<Action>& out) const;
//       appends every action enabled in the state, in a FIXED order (the same state always gives
//       the same list): the checker names a transition by its position in this list
//   State next(const State&, const Action&, PropertyMask& violated) const;
//       the successor under an enabled action (deterministic: same inputs, same successor);
//       ORs into `violated` the bits of the step-safety properties the step breaks
//   Fingerprint fingerprint(const State&) const;
//       a 64-bit hash of the whole state, stable across runs, platforms and thread counts;
//       equal states have equal fingerprints (the checker treats equal fingerprints as equal
//       states: a collision would hide states, with probability about n²/2⁶⁵ for n states)
//   void encode(const State&, std::string& out) const;      appends a compact, lossless encoding
//   State decode(std::string_view bytes) const;             decode(encode(s)) == s
//       (the checker keeps its frontier encoded: states are large, encodings small)
//   const Observation& observe(const State&) const;
//   std::span<const PropertyInfo> properties() const;       at most 64; bit i of a PropertyMask is properties()[i]
//   PropertyMask violatedStateProperties(const State&) const;   bits of the state-safety properties that fail
//   PropertyMask goalsReached(const State&) const;
//       bits of the liveness properties whose goal this state reaches ("a good state for goal i")
//   bool isRecovery(const Action&) const;
//       recovery actions are the ones liveness may rely on: from every reachable state, recovery
//       actions alone must reach a state where each goal is reached (and one where all are)
//
// Every member is const and must be safe to call from several threads at once.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kcspec::explorer {

using Fingerprint = std::uint64_t;
using PropertyMask = std::uint64_t;  // bit i: the system's properties()[i]
inline constexpr std::size_t kMaxProperties = 64;

enum class PropertyKind : std::uint8_t {
  StateSafety,  // holds in every reachable state
  StepSafety,   // holds across every transition
  Liveness,     // a goal recovery actions alone must reach from every reachable state
};

struct PropertyInfo {
  std::string_view id;    // short and unique: "S1", "T3", "L2"
  std::string_view name;  // "LeaderInIsr"
  PropertyKind kind = PropertyKind::StateSafety;
};

template <class S>
concept System = requires(const S& system, const typename S::State& state, const typename S::Action& action,
                          std::vector<typename S::Action>& actions, PropertyMask& mask, std::string& bytes,
                          std::string_view view) {
  requires std::copyable<typename S::State>;
  requires std::copyable<typename S::Action>;
  typename S::Observation;
  { system.name() } -> std::convertible_to<std::string_view>;
  { system.initialStates() } -> std::same_as<std::vector<typename S::State>>;
  { system.actions(state, actions) } -> std::same_as<void>;
  { system.next(state, action, mask) } -> std::same_as<typename S::State>;
  { system.fingerprint(state) } -> std::same_as<Fingerprint>;
  { system.encode(state, bytes) } -> std::same_as<void>;
  { system.decode(view) } -> std::same_as<typename S::State>;
  { system.observe(state) } -> std::convertible_to<const typename S::Observation&>;
  { system.properties() } -> std::convertible_to<std::span<const PropertyInfo>>;
  { system.violatedStateProperties(state) } -> std::same_as<PropertyMask>;
  { system.goalsReached(state) } -> std::same_as<PropertyMask>;
  { system.isRecovery(action) } -> std::same_as<bool>;
};

// Optional fast paths the explorer uses when a system has them:
//   Fingerprint encodeFingerprinted(const State&, std::string& out) const;
//       appends encode(state) to `out` and returns fingerprint(state), in one walk
//   void decodeInto(std::string_view bytes, State& state) const;
//       state = decode(bytes), reusing the storage of `state` (a state of the same system)
//   void nextInto(const State&, const Action&, PropertyMask& violated, State& successor) const;
//       successor = next(state, action, violated), reusing the storage of `successor` (a state
//       of the same system, not `state` itself)
// Optional, for the report's action coverage (how often each kind of action fired, and which
// never did, as TLC reports per action):
//   std::span<const std::string_view> actionKinds() const;  the kinds' names, at most 255
//   std::size_t actionKind(const Action&) const;            the action's kind, an index into them
template <class S>
concept HasActionKinds = requires(const S& system, const typename S::Action& action) {
  { system.actionKinds() } -> std::convertible_to<std::span<const std::string_view>>;
  { system.actionKind(action) } -> std::convertible_to<std::size_t>;
};
// Optional, for partial-order reduction (ExploreOptions::reduction, docs/proofs.md "Partial-order
// reduction"):
//   std::optional<std::size_t> persistentAction(const State&, std::span<const Action> enabled) const;
//       the position in `enabled` (= actions(state)) of an action the checker may take alone, or
//       none. The system promises, for the action a it names in state s:
//       - persistent: on every path from s that does not take a, every action is independent of a
//         (each leaves the other enabled; in either order they reach the same state, with the
//         same step violations) or absorbs it (taken after a, it reaches the state it reaches
//         alone);
//       - invisible: a changes no state-safety property's value and violates no step-safety
//         property, in s and in every state reached from s without taking a; it is a recovery
//         action, and no state on a recovery path from s that does not take a reaches a goal
//         (goalsReached() is 0 there: a goal needs a taken);
//       - a is not absorbed by a recovery action.
//       The checker adds the cycle proviso itself (a successor already known at the same depth
//       or shallower makes it expand every action), unless the system also has:
//   std::uint64_t descentMeasure(const State&) const;
//       a natural number that every action persistentAction names lowers (for the catalog's
//       systems: the requests queued on every broker, which a delivery lowers by one). The checker
//       then takes persistent actions in chains (docs/proofs.md, "Partial-order reduction"): after
//       each step it takes the persistent action while there is one and keeps only the state where
//       the chain ends, checking that the measure falls at every step (std::logic_error if not). A
//       chain ends within that many steps, so every cycle of the reduced graph has a state expanded
//       in full, and no proviso is needed.
//   void advance(State& state, const Action& action) const;
//       optional with descentMeasure: next(state, action) in place, for an action persistentAction
//       named (invisible: no step property is checked)
template <class S>
concept HasPersistentActions = requires(const S& system, const typename S::State& state,
                                        std::span<const typename S::Action> enabled) {
  { system.persistentAction(state, enabled) } -> std::same_as<std::optional<std::size_t>>;
};
template <class S>
concept PersistentActionsDescend = HasPersistentActions<S> && requires(const S& system, const typename S::State& state) {
  { system.descentMeasure(state) } -> std::convertible_to<std::uint64_t>;
};
//   std::optional<Action> persistentActionIn(const State&) const;
//       optional with descentMeasure: the action persistentAction(state, actions(state)) names,
//       found without listing every enabled action (a chain asks after each of its steps)
template <class S>
concept FindsPersistentAction = PersistentActionsDescend<S> && requires(const S& system, const typename S::State& state) {
  { system.persistentActionIn(state) } -> std::same_as<std::optional<typename S::Action>>;
};
template <class S>
concept AdvancesInPlace = requires(const S& system, typename S::State& state, const typename S::Action& action) {
  { system.advance(state, action) } -> std::same_as<void>;
};

// What the checker hands a system's stepEncoded (below) to take further steps on the successor in
// place before it is encoded: the chain of persistent actions.
template <class State>
class SuccessorHook {
 public:
  template <class F>
  explicit SuccessorHook(F& f) : context_(&f), call_([](void* c, State& s) { (*static_cast<F*>(c))(s); }) {}
  void operator()(State& successor) const { call_(context_, successor); }

 private:
  void* context_;
  void (*call_)(void*, State&);
};

template <class S>
concept EncodesFingerprinted = requires(const S& system, const typename S::State& state, std::string& bytes) {
  { system.encodeFingerprinted(state, bytes) } -> std::same_as<Fingerprint>;
};
template <class S>
concept DecodesInto = requires(const S& system, std::string_view view, typename S::State& state) {
  { system.decodeInto(view, state) } -> std::same_as<void>;
};

// Three more, for systems whose encodings are made of parts (state_codec.hpp's segments):
//   void assign(const State& from, State& to) const;
//       to = from, for states of the system (copying only what its states can use)
//   Fingerprint stepEncoded(const State& state, std::string_view encoding, const Action& action,
//                           PropertyMask& violated, State& scratch, std::string& out) const;
//       for `encoding` = encode(state) and a `scratch` equal to `state`: appends the encoding of
//       next(state, action, violated) to `out` (ORing the step's violations into `violated`) and
//       returns its fingerprint; `scratch` equals `state` again on return. The parts of the
//       successor the step left unchanged are neither copied nor encoded again. With a seventh
//       argument `const SuccessorHook<State>* then`, it calls (*then)(scratch) after the step and
//       encodes what that leaves
//   void decodeOver(std::string_view bytes, std::string_view previous, State& state) const;
//       decodeInto(bytes, state) for a `state` that holds decode(previous): the parts whose
//       bytes equal the previous ones are already in place
template <class S>
concept StepsEncoded = requires(const S& system, const typename S::State& state, typename S::State& scratch,
                                const typename S::Action& action, PropertyMask& mask, std::string_view view,
                                std::string& bytes) {
  { system.assign(state, scratch) } -> std::same_as<void>;
  { system.stepEncoded(state, view, action, mask, scratch, bytes) } -> std::same_as<Fingerprint>;
};
template <class S>
concept StepsEncodedWithHook = StepsEncoded<S> && requires(const S& system, const typename S::State& state,
                                                           typename S::State& scratch, const typename S::Action& action,
                                                           PropertyMask& mask, std::string_view view, std::string& bytes,
                                                           const SuccessorHook<typename S::State>* then) {
  { system.stepEncoded(state, view, action, mask, scratch, bytes, then) } -> std::same_as<Fingerprint>;
};
template <class S>
concept DecodesOver = requires(const S& system, std::string_view view, typename S::State& state) {
  { system.decodeOver(view, view, state) } -> std::same_as<void>;
};

template <class S>
concept StepsInto = requires(const S& system, const typename S::State& state, const typename S::Action& action,
                             PropertyMask& mask, typename S::State& successor) {
  { system.nextInto(state, action, mask, successor) } -> std::same_as<void>;
};

constexpr PropertyMask propertyBit(std::size_t index) { return PropertyMask{1} << index; }

}  // namespace kcspec::explorer
