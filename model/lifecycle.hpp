// The runtime face of model/: ask a Boost.MSM lifecycle whether a partition or replica in state
// `current` may move to `target`, and where it ends up. impl/ makes every partition and replica
// transition through here (DESIGN.md: "Every transition in impl goes through the Boost.MSM
// machines"). Callers keep the state itself as a one-byte value; the machines live in
// lifecycle.cpp, so including this header does not pull Boost.MSM into a translation unit.
#pragma once

#include <vector>

#include "spec/vocabulary/states.hpp"

namespace kcspec::model {

template <class State>
struct MoveOutcome {
  State before;
  State after;    // == before when the request was rejected
  bool accepted;  // false: (before → target) has no Row; MSM's no_transition fired
};

// Runs MoveTo<target> on the lifecycle machine parked in `current`.
MoveOutcome<PartitionState> requestMove(PartitionState current, PartitionState target);
MoveOutcome<ReplicaState> requestMove(ReplicaState current, ReplicaState target);

// One partition's or replica's lifecycle: a state that only changes through requestMove.
template <class State>
class Lifecycle {
 public:
  Lifecycle() = default;
  // Kafka's "silent put" at controller startup (kafka.md §2.1, §3.1) sets a state without a check.
  static Lifecycle restoredAt(State state) { return Lifecycle(state); }

  State current() const { return state_; }

  MoveOutcome<State> request(State target) {
    MoveOutcome<State> outcome = requestMove(state_, target);
    state_ = outcome.after;
    return outcome;
  }

  friend bool operator==(const Lifecycle&, const Lifecycle&) = default;

 private:
  explicit Lifecycle(State state) : state_(state) {}
  State state_ = StateTraits<State>::initial;
};

// The transition tables, walked from the MSM types (mpl::for_each over transition_table), in
// row order. The single source of `kcspec tables` and of the generated state pages.
std::vector<Transition<PartitionState>> partitionTableFromMsm();
std::vector<Transition<ReplicaState>> replicaTableFromMsm();

template <class State>
std::vector<Transition<State>> tableFromMsm() {
  if constexpr (std::is_same_v<State, PartitionState>) {
    return partitionTableFromMsm();
  } else {
    return replicaTableFromMsm();
  }
}

}  // namespace kcspec::model
