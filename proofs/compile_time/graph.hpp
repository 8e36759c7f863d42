// constexpr graph questions over a lifecycle's (previous → target) pairs, for static_assert.
#pragma once

#include <array>
#include <cstddef>

#include "spec/vocabulary/states.hpp"

namespace kcspec::proofs {

template <class State>
using StateSet = std::array<bool, StateTraits<State>::count>;

template <class State, std::size_t N>
constexpr bool contains(const std::array<Transition<State>, N>& edges, Transition<State> edge) {
  for (const auto& e : edges) {
    if (e == edge) return true;
  }
  return false;
}

template <class State, std::size_t N>
constexpr bool hasDuplicates(const std::array<Transition<State>, N>& edges) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (edges[i] == edges[j]) return true;
    }
  }
  return false;
}

// Every edge of `a` is in `b`.
template <class State, std::size_t N, std::size_t M>
constexpr bool isSubset(const std::array<Transition<State>, N>& a,
                        const std::array<Transition<State>, M>& b) {
  for (const auto& e : a) {
    if (!contains(b, e)) return false;
  }
  return true;
}

// The states reachable from `start` following edges forward (`forward`) or backward.
template <class State, std::size_t N>
constexpr StateSet<State> closure(const std::array<Transition<State>, N>& edges, State start,
                                  bool forward) {
  StateSet<State> seen{};
  seen[stateIndex(start)] = true;
  for (std::size_t round = 0; round < StateTraits<State>::count; ++round) {  // fixpoint, bounded
    for (const auto& e : edges) {
      const State from = forward ? e.from : e.to;
      const State to = forward ? e.to : e.from;
      if (seen[stateIndex(from)]) seen[stateIndex(to)] = true;
    }
  }
  return seen;
}

template <class State, std::size_t N>
constexpr StateSet<State> reachableFrom(const std::array<Transition<State>, N>& edges, State start) {
  return closure(edges, start, true);
}

// The states from which `goal` is reachable.
template <class State, std::size_t N>
constexpr StateSet<State> canReach(const std::array<Transition<State>, N>& edges, State goal) {
  return closure(edges, goal, false);
}

template <class State>
constexpr StateSet<State> setOf(std::initializer_list<State> states) {
  StateSet<State> set{};
  for (State s : states) set[stateIndex(s)] = true;
  return set;
}

template <class State>
constexpr StateSet<State> allStates() {
  StateSet<State> set{};
  for (bool& member : set) member = true;
  return set;
}

// The states of `set`'s kind that are not in it.
template <class State>
constexpr StateSet<State> outside(StateSet<State> set) {
  for (bool& member : set) member = !member;
  return set;
}

// The states s with (s → s) among the edges.
template <class State, std::size_t N>
constexpr StateSet<State> selfLoops(const std::array<Transition<State>, N>& edges) {
  StateSet<State> loops{};
  for (const auto& e : edges) {
    if (e.from == e.to) loops[stateIndex(e.from)] = true;
  }
  return loops;
}

// The valid previous states of `target`.
template <class State, std::size_t N>
constexpr StateSet<State> previousOf(const std::array<Transition<State>, N>& edges, State target) {
  StateSet<State> previous{};
  for (const auto& e : edges) {
    if (e.to == target) previous[stateIndex(e.from)] = true;
  }
  return previous;
}

}  // namespace kcspec::proofs
