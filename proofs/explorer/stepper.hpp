// How the explorer takes one step of a system (system.hpp): decode a kept state, list what it may
// do, compute a successor — through the system's fastest path (the segmented step, one walk for
// encoding and fingerprint, or next + fingerprint + encode) and, with partial-order reduction's
// chains, through the persistent actions after it — and append the successor's encoding. Shared
// by the one-process search (explorer.hpp), the distributed one (distributed/) and the
// counterexamples (counterexample.hpp), so that all three reach the same states by the same steps.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/explorer/frontier.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer::detail {

template <System S>
class Stepper {
 public:
  using State = typename S::State;
  using Action = typename S::Action;

  // Whether the system's persistent actions can be taken in chains: they descend a measure, and a
  // system with the segmented step can take them in place on its scratch copy.
  static constexpr bool kChains =
      PersistentActionsDescend<S> && (!StepsEncoded<S> || (StepsEncodedWithHook<S> && AdvancesInPlace<S>));

  // A worker's storage for chains of persistent actions.
  struct ChainScratch {
    std::vector<Action> actions;
    std::optional<State> spare;  // the other state of two, for a system that does not advance in place
    std::uint64_t steps = 0;     // taken since the owner last reset it
  };

  // A worker's storage for successors: the scratch copy a segmented step works on, and the chains.
  struct Scratch {
    std::optional<State> next;
    ChainScratch chain;
  };

  // What expanding a state found, besides its successors: its violated state properties, its
  // goal bits (liveness) and where its successors are in the chunk.
  struct Expanded {
    PropertyMask state_violations = 0;
    std::uint32_t goals = 0;
    std::uint32_t first_successor = 0;
    std::uint32_t successor_count = 0;
  };

  // A worker thread's storage while it expands frontier states.
  struct Worker {
    std::vector<Action> actions;
    std::optional<State> state;
    Scratch step;             // its successors' scratch states
    std::string held;         // the encoding `state` holds
    Frontier::Cursor cursor;  // its decoding of the frontier
  };

  explicit Stepper(const S& system) : system_(system) {}

  // Expands frontier states [begin, end) into `chunk` (its `states`, `successors`, `truncated` and
  // `done`), the same way for every search: each state's checks (the state properties, and
  // goals(reached) for liveness), then — with `expand`; else a state with actions only marks the
  // chunk truncated — its successors as expandThrough chooses them: add(state, encoding, actions,
  // k) appends successor k to chunk.successors, kept() decides a persistent one. False, the chunk
  // not done, when stopped() says so between two states. worker.step.chain.steps counts the chains'
  // steps from 0.
  template <class Chunk, class Stopped, class Goals, class Add, class Kept>
  bool expandRange(const Frontier& frontier, std::size_t begin, std::size_t end, bool expand, bool reduce, Chunk& chunk,
                   Worker& worker, Stopped&& stopped, Goals&& goals, Add&& add, Kept&& kept) const {
    chunk.states.reserve(end - begin);
    worker.step.chain.steps = 0;
    for (std::size_t position = begin; position < end; ++position) {
      if (stopped()) return false;
      const std::string_view encoding = frontier.at(position, worker.cursor);  // valid until the next at()
      decodeInto(encoding, worker.state, worker.held);
      const State& state = *worker.state;
      Expanded expanded;
      expanded.state_violations = system_.violatedStateProperties(state);
      expanded.goals = goals(state);
      expanded.first_successor = static_cast<std::uint32_t>(chunk.successors.size());
      worker.actions.clear();
      system_.actions(state, worker.actions);
      if (!expand) {
        chunk.truncated |= !worker.actions.empty();
        chunk.states.push_back(expanded);
        continue;
      }
      prepare(state, worker.step);
      const std::span<const Action> actions(worker.actions);
      const bool reduced =
          expandThrough(state, actions, reduce, [&](std::size_t k) { add(state, encoding, actions, k); }, kept);
      expanded.successor_count = static_cast<std::uint32_t>(reduced ? 1 : actions.size());
      chunk.states.push_back(expanded);
    }
    chunk.done = true;
    return true;
  }

  // A kept state into `scratch` (reusing its storage when the system can, and the parts it already
  // holds when the system decodes over a previous state). `held` is the encoding `scratch` was last
  // decoded from (meaningful while `scratch` holds a state).
  void decodeInto(std::string_view bytes, std::optional<State>& scratch, std::string& held) const {
    if (!scratch) {
      scratch.emplace(system_.decode(bytes));
    } else if constexpr (DecodesOver<S>) {
      system_.decodeOver(bytes, held, *scratch);
    } else if constexpr (DecodesInto<S>) {
      system_.decodeInto(bytes, *scratch);
    } else {
      scratch.emplace(system_.decode(bytes));
    }
    held.assign(bytes);
  }

  // Before the successors of `state`: the segmented step works on a scratch copy of it.
  void prepare(const State& state, Scratch& scratch) const {
    if constexpr (StepsEncoded<S>) {
      if (scratch.next) {
        system_.assign(state, *scratch.next);
      } else {
        scratch.next.emplace(state);
      }
    }
  }

  // The successor of `state` (whose encoding is `encoding`, after prepare()) by `action` — with
  // `chains`, the end of the chain of persistent actions after it — ORing the step's violations
  // into `violations`: its fingerprint, and its encoding appended to `arena` unless
  // known(fingerprint) says it is known (then `arena` is as it was). `encoded` tells which.
  template <class Known>
  Fingerprint successor(const State& state, std::string_view encoding, const Action& action, bool chains,
                        PropertyMask& violations, Scratch& scratch, std::string& arena, bool& encoded,
                        Known&& known) const {
    const std::size_t offset = arena.size();
    Fingerprint fingerprint = 0;
    if constexpr (StepsEncoded<S>) {
      // Step, encoding (the parent's bytes for what the step left alone) and fingerprint at
      // once, on a scratch copy of the state that is the state again afterwards. With chains,
      // the successor is the end of its chain, reached on the same scratch copy.
      if constexpr (kChains) {
        auto follow = [&](State& successor_state) { followChainInPlace(successor_state, scratch.chain); };
        const SuccessorHook<State> hook(follow);
        fingerprint =
            system_.stepEncoded(state, encoding, action, violations, *scratch.next, arena, chains ? &hook : nullptr);
      } else {
        fingerprint = system_.stepEncoded(state, encoding, action, violations, *scratch.next, arena);
      }
    } else {
      if constexpr (StepsInto<S>) {
        if (!scratch.next) scratch.next.emplace(state);
        system_.nextInto(state, action, violations, *scratch.next);
      } else {
        scratch.next.emplace(system_.next(state, action, violations));
      }
      const State& next = chains ? *followChain(scratch.next, scratch.chain.spare, scratch.chain, nullptr) : *scratch.next;
      if constexpr (EncodesFingerprinted<S>) {
        fingerprint = system_.encodeFingerprinted(next, arena);  // one walk gives both
      } else {
        fingerprint = system_.fingerprint(next);
        encoded = !known(fingerprint);  // encoded only when new
        if (encoded) system_.encode(next, arena);
        return fingerprint;
      }
    }
    encoded = !known(fingerprint);
    if (!encoded) arena.resize(offset);
    return fingerprint;
  }

  // Partial-order reduction's choice, the same for every search: with `reduce`, the action the
  // system names persistent in `state` alone — add(k) for its position k, then kept(), which may
  // undo it (the one-process search's cycle proviso) — else every action: add(k) for each k in
  // order. Returns whether the state was expanded through its persistent action alone.
  template <class Add, class Kept>
  bool expandThrough(const State& state, std::span<const Action> actions, bool reduce, Add&& add, Kept&& kept) const {
    if constexpr (HasPersistentActions<S>) {
      if (reduce) {
        if (const std::optional<std::size_t> persistent = system_.persistentAction(state, actions)) {
          KCSPEC_ASSERT(*persistent < actions.size());
          add(*persistent);
          if (kept()) return true;
        }
      }
    }
    for (std::size_t k = 0; k < actions.size(); ++k) add(k);
    return false;
  }

  // The action the system names persistent in `state` (held in chain.actions), or nullptr.
  const Action* persistentIn(const State& state, ChainScratch& chain) const {
    if constexpr (FindsPersistentAction<S>) {
      chain.actions.clear();
      std::optional<Action> persistent = system_.persistentActionIn(state);
      if (!persistent) return nullptr;
      chain.actions.push_back(std::move(*persistent));
      return &chain.actions.front();
    } else if constexpr (HasPersistentActions<S>) {
      chain.actions.clear();
      system_.actions(state, chain.actions);
      const std::optional<std::size_t> persistent =
          system_.persistentAction(state, std::span<const Action>(chain.actions));
      if (!persistent) return nullptr;
      KCSPEC_ASSERT(*persistent < chain.actions.size());
      return &chain.actions[*persistent];
    } else {
      return nullptr;
    }
  }

  // The end of the chain of persistent actions from `state`, in place (AdvancesInPlace): while the
  // system names a persistent action, take it. The measure falls at every step, which bounds the loop.
  void followChainInPlace(State& state, ChainScratch& chain) const {
    if constexpr (kChains && AdvancesInPlace<S>) {
      std::uint64_t measure = system_.descentMeasure(state);
      while (const Action* action = persistentIn(state, chain)) {
        system_.advance(state, *action);
        measure = checkDescent(measure, system_.descentMeasure(state));
        ++chain.steps;
      }
    }
  }

  // The same for any system, stepping between `start` and `spare`: returns the one that holds the
  // state where the chain ends. `taken`, when given, receives the actions.
  std::optional<State>& followChain(std::optional<State>& start, std::optional<State>& spare, ChainScratch& chain,
                                    std::vector<Action>* taken) const {
    std::optional<State>* current = &start;
    if constexpr (kChains) {
      std::optional<State>* other = &spare;
      std::uint64_t measure = system_.descentMeasure(**current);
      while (const Action* persistent = persistentIn(**current, chain)) {
        const Action& action = *persistent;
        PropertyMask violated = 0;
        if constexpr (StepsInto<S>) {
          if (!*other) other->emplace(**current);
          system_.nextInto(**current, action, violated, **other);
        } else {
          other->emplace(system_.next(**current, action, violated));
        }
        // A step that breaks a step property (spec and impl disagreeing, under --system both) is not
        // passed through: the chain ends before it, and the state keeps it as its persistent
        // action, taken alone on an edge of its own where the violation is recorded.
        if (violated != 0) break;
        if (taken != nullptr) taken->push_back(action);
        std::swap(current, other);
        measure = checkDescent(measure, system_.descentMeasure(**current));
        ++chain.steps;
      }
    }
    return *current;
  }

  static std::uint64_t checkDescent(std::uint64_t before, std::uint64_t after) {
    if (after >= before) throw std::logic_error("a persistent action did not lower the system's descent measure");
    return after;
  }

 private:
  const S& system_;
};

}  // namespace kcspec::explorer::detail
