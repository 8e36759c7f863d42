// PartitionState's lifecycle as a Boost.MSM machine: exactly Kafka 3.8's validPreviousStates
// (kafka.md §1.1), one Row per (previous → target) pair, grouped by target.
#pragma once

#include <boost/mpl/vector.hpp>

#include "model/lifecycle_def.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::model {

struct PartitionLifecycleDef : LifecycleDef<PartitionLifecycleDef, PartitionState> {
  static constexpr auto New = PartitionState::NewPartition;
  static constexpr auto Online = PartitionState::OnlinePartition;
  static constexpr auto Offline = PartitionState::OfflinePartition;
  static constexpr auto NonExistent = PartitionState::NonExistentPartition;

  using initial_state = StateNode<NonExistent>;

  using transition_table = boost::mpl::vector<
      Edge<NonExistent, New>,  // NewPartition ← NonExistentPartition
      Edge<New, Online>,       // OnlinePartition ← NewPartition, OnlinePartition, OfflinePartition
      Edge<Online, Online>,
      Edge<Offline, Online>,
      Edge<New, Offline>,      // OfflinePartition ← NewPartition, OnlinePartition, OfflinePartition
      Edge<Online, Offline>,
      Edge<Offline, Offline>,
      Edge<Offline, NonExistent>  // NonExistentPartition ← OfflinePartition
      >;
};

}  // namespace kcspec::model
