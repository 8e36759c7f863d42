// A violation's counterexample, rebuilt from the fingerprints of the states on its path (the search
// keeps parents, not actions): replayed from the initial state, each step takes the parent's first
// action whose successor — the end of its chain of persistent actions, with chains — has the
// child's fingerprint (the one the search found it by). A reduced search's safety counterexample is
// then shortened; a liveness violator gets a recovery walk that never reaches the goal. Shared by
// the one-process search (explorer.hpp) and the distributed one (distributed/), whose paths come
// from parent links kept on other ranks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "proofs/explorer/explore_result.hpp"
#include "proofs/explorer/stepper.hpp"
#include "proofs/explorer/system.hpp"
#include "proofs/explorer/visited_set.hpp"
#include "spec/vocabulary/capacity.hpp"

namespace kcspec::explorer::detail {

template <System S>
class Counterexamples {
  using State = typename S::State;
  using Action = typename S::Action;

 public:
  static constexpr std::uint32_t kNoAction = std::numeric_limits<std::uint32_t>::max();

  // `chains`: the search took persistent actions in chains; `reduced`: it expanded persistent
  // actions alone (its paths need not be the shortest, and are shortened).
  Counterexamples(const S& system, bool chains, bool reduced) : system_(system), chains_(chains), reduced_(reduced) {}

  // A safety violation: `states` are the stored fingerprints (VisitedSet::stored) from an initial
  // state to the violating state; `ordinal` is the position of the violating action among that
  // state's actions for a step property, kNoAction for a state property.
  Violation<S> safety(std::span<const Fingerprint> states, std::size_t property, const PropertyInfo& info, bool known,
                      std::uint64_t count, std::uint32_t ordinal) const {
    Violation<S> v = describe(info, known, count);
    State state = replay(states, v.path, v.initial_state);
    if (ordinal != kNoAction) {
      std::vector<Action> actions;
      system_.actions(state, actions);
      // The action the search found the violation by. A system whose fingerprint merges states
      // that differ only in names (symmetry reduction) may have replayed into another state of
      // the class, where that action is renamed: then the first action that violates the
      // property from there (the class's states have the same violations, renamed).
      const PropertyMask bit = propertyBit(property);
      std::size_t taken = ordinal;
      PropertyMask violated = 0;
      State next = system_.next(state, actions.at(taken), violated);
      for (std::size_t k = 0; (violated & bit) == 0 && k < actions.size(); ++k) {
        violated = 0;
        next = system_.next(state, actions[k], violated);
        taken = k;
      }
      if ((violated & bit) == 0) throw std::logic_error("replay diverged: no action violates the step property");
      state = std::move(next);
      v.path.push_back(actions[taken]);
    }
    // A reduced search's path need not be the shortest: shortened where dropping actions keeps it.
    if (reduced_) {
      if (std::optional<State> end = shorten(v.path, v.initial_state, property, info.kind)) state = std::move(*end);
    }
    v.last = system_.observe(state);
    return v;
  }

  // A history that outgrows the modeled world: `states` lead to the state whose action at
  // `ordinal` (with chains, or a persistent action of the chain after it) threw CapacityExceeded.
  // With symmetry reduction the replay may reach another state of the class: then the first action
  // that throws from there (the class's states step alike, renamed).
  CapacityFinding<S> capacity(std::span<const Fingerprint> states, std::uint32_t ordinal) const {
    CapacityFinding<S> finding;
    const State state = replay(states, finding.path, finding.initial_state);
    std::vector<Action> actions;
    system_.actions(state, actions);
    const Stepper<S> stepper(system_);
    const std::size_t replayed = finding.path.size();
    // Whether action k, and the chain after it, throws; its steps up to the one that threw are
    // appended to the path.
    const auto throwsFrom = [&](std::size_t k) {
      finding.path.erase(finding.path.begin() + static_cast<std::ptrdiff_t>(replayed), finding.path.end());
      typename Stepper<S>::ChainScratch scratch;
      try {
        PropertyMask ignored = 0;
        finding.path.push_back(actions[k]);
        std::optional<State> current(system_.next(state, actions[k], ignored));
        while (chains_) {
          const Action* persistent = stepper.persistentIn(*current, scratch);
          if (persistent == nullptr) break;
          finding.path.push_back(*persistent);
          current.emplace(system_.next(*current, *persistent, ignored));  // a descending measure ends it
        }
      } catch (const CapacityExceeded& e) {
        finding.what = e.what();
        return true;
      }
      return false;
    };
    if (ordinal < actions.size() && throwsFrom(ordinal)) return finding;
    for (std::size_t k = 0; k < actions.size(); ++k) {
      if (throwsFrom(k)) return finding;
    }
    throw std::logic_error("replay diverged: no action outgrows the modeled world");
  }

  // A liveness violator: the path to it and a recovery walk from it that never reaches the goal.
  Violation<S> liveness(std::span<const Fingerprint> states, const PropertyInfo& info, bool known,
                        std::uint64_t count) const {
    Violation<S> v = describe(info, known, count);
    State state = replay(states, v.path, v.initial_state);
    v.recovery = stuckWalk(state);
    v.last = system_.observe(state);
    return v;
  }

  // A violation without its path: what was violated and how often.
  static Violation<S> describe(const PropertyInfo& info, bool known, std::uint64_t count) {
    Violation<S> v;
    v.property = std::string(info.id);
    v.name = std::string(info.name);
    v.kind = info.kind;
    v.known_deviation = known;
    v.occurrences = count;
    return v;
  }

 private:
  // Replays the path through `states` from its initial state; returns the state, fills the actions.
  State replay(std::span<const Fingerprint> states, std::vector<Action>& path, std::size_t& initial_state) const {
    KCSPEC_ASSERT(!states.empty());
    const std::vector<State> initial = system_.initialStates();
    initial_state = initial.size();
    for (std::size_t i = 0; i < initial.size(); ++i) {
      if (VisitedSet::stored(system_.fingerprint(initial[i])) == states.front()) {
        initial_state = i;
        break;
      }
    }
    if (initial_state == initial.size()) throw std::logic_error("replay diverged: the system is not deterministic");
    State state = initial[initial_state];
    const Stepper<S> stepper(system_);
    std::vector<Action> actions;
    typename Stepper<S>::ChainScratch scratch;
    std::vector<Action> chained;  // the chain of persistent actions after a step (chains_)
    for (std::size_t step = 1; step < states.size(); ++step) {
      actions.clear();
      system_.actions(state, actions);
      bool found = false;
      for (const Action& action : actions) {
        PropertyMask ignored = 0;
        std::optional<State> next(system_.next(state, action, ignored));
        chained.clear();
        std::optional<State>& end = chains_ ? stepper.followChain(next, scratch.spare, scratch, &chained) : next;
        if (VisitedSet::stored(system_.fingerprint(*end)) != states[step]) continue;
        state = std::move(*end);
        // `end` may be the chain's spare: left moved-from, it would be stepped into as it is by the
        // next chain (followChain seeds the spare only when it is empty) — a moved-from impl
        // cluster has no configuration (the lockstep system crashed here).
        end.reset();
        path.push_back(action);
        path.insert(path.end(), chained.begin(), chained.end());
        found = true;
        break;
      }
      if (!found) throw std::logic_error("replay diverged: the system is not deterministic");
    }
    return state;
  }

  // Recovery steps from `state` that avoid revisiting a state, until none is left (or 64 steps).
  std::vector<Action> stuckWalk(State state) const {
    std::vector<Action> walk;
    std::vector<Fingerprint> seen{system_.fingerprint(state)};
    std::vector<Action> actions;
    for (int step = 0; step < 64; ++step) {
      actions.clear();
      system_.actions(state, actions);
      bool moved = false;
      for (const Action& action : actions) {
        if (!system_.isRecovery(action)) continue;
        PropertyMask ignored = 0;
        State next = system_.next(state, action, ignored);
        const Fingerprint fingerprint = system_.fingerprint(next);
        if (std::find(seen.begin(), seen.end(), fingerprint) != seen.end()) continue;
        seen.push_back(fingerprint);
        walk.push_back(action);
        state = std::move(next);
        moved = true;
        break;
      }
      if (!moved) break;
    }
    return walk;
  }

  // Replays `path` from initial state `initial`: the state it ends in when every action is enabled
  // where it is taken and the end shows the safety property `property` violated (a state property
  // in the last state, a step property by the last step), else none. `budget` counts the steps
  // taken.
  std::optional<State> replayShowing(const std::vector<Action>& path, std::size_t initial, std::size_t property,
                                     PropertyKind kind, std::uint64_t& budget) const {
    const PropertyMask bit = propertyBit(property);
    State state = system_.initialStates().at(initial);
    std::vector<Action> enabled;
    PropertyMask last = 0;
    for (const Action& action : path) {
      enabled.clear();
      system_.actions(state, enabled);
      if (std::find(enabled.begin(), enabled.end(), action) == enabled.end()) return std::nullopt;
      last = 0;
      state = system_.next(state, action, last);
      if (budget > 0) --budget;
    }
    const bool shows = kind == PropertyKind::StepSafety ? (last & bit) != 0 && !path.empty()
                                                        : (system_.violatedStateProperties(state) & bit) != 0;
    if (!shows) return std::nullopt;
    return state;
  }

  // Drops actions from a safety counterexample, the last first, while the rest still replays and
  // still shows the violation at its end; passes again while a pass dropped one. Bounded by a
  // budget of replayed steps (kShortenSteps). Returns the end state when the path got shorter.
  static constexpr std::uint64_t kShortenSteps = 2'000'000;
  std::optional<State> shorten(std::vector<Action>& path, std::size_t initial, std::size_t property,
                               PropertyKind kind) const {
    if (kind == PropertyKind::Liveness) return std::nullopt;  // a goal's verdict needs the whole graph
    std::uint64_t budget = kShortenSteps;
    std::optional<State> end;
    for (bool dropped = true; dropped && budget > 0;) {
      dropped = false;
      for (std::size_t i = path.size(); i-- > 0 && budget > 0;) {
        std::vector<Action> candidate = path;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
        if (std::optional<State> shown = replayShowing(candidate, initial, property, kind, budget)) {
          path = std::move(candidate);
          end = std::move(shown);
          dropped = true;
        }
      }
    }
    return end;
  }

  const S& system_;
  bool chains_ = false;
  bool reduced_ = false;
};

}  // namespace kcspec::explorer::detail
