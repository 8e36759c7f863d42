// ReplicaState's lifecycle as a Boost.MSM machine: exactly Kafka 3.8's validPreviousStates
// (kafka.md §1.2), one Row per (previous → target) pair, grouped by target.
#pragma once

#include <boost/mpl/vector.hpp>

#include "model/lifecycle_def.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::model {

struct ReplicaLifecycleDef : LifecycleDef<ReplicaLifecycleDef, ReplicaState> {
  static constexpr auto New = ReplicaState::NewReplica;
  static constexpr auto Online = ReplicaState::OnlineReplica;
  static constexpr auto Offline = ReplicaState::OfflineReplica;
  static constexpr auto Started = ReplicaState::ReplicaDeletionStarted;
  static constexpr auto Successful = ReplicaState::ReplicaDeletionSuccessful;
  static constexpr auto Ineligible = ReplicaState::ReplicaDeletionIneligible;
  static constexpr auto NonExistent = ReplicaState::NonExistentReplica;

  using initial_state = StateNode<NonExistent>;

  using transition_table = boost::mpl::vector<
      Edge<NonExistent, New>,  // NewReplica ← NonExistentReplica
      Edge<New, Online>,       // OnlineReplica ← New, Online, Offline, Ineligible
      Edge<Online, Online>,
      Edge<Offline, Online>,
      Edge<Ineligible, Online>,
      Edge<New, Offline>,      // OfflineReplica ← New, Online, Offline, Ineligible
      Edge<Online, Offline>,
      Edge<Offline, Offline>,
      Edge<Ineligible, Offline>,
      Edge<Offline, Started>,      // ReplicaDeletionStarted ← OfflineReplica
      Edge<Started, Successful>,   // ReplicaDeletionSuccessful ← ReplicaDeletionStarted
      Edge<Offline, Ineligible>,   // ReplicaDeletionIneligible ← OfflineReplica, ReplicaDeletionStarted
      Edge<Started, Ineligible>,
      Edge<Successful, NonExistent>  // NonExistentReplica ← ReplicaDeletionSuccessful
      >;
};

}  // namespace kcspec::model
