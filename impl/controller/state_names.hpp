// State names and valid-previous lists as Kafka prints them in invalid-transition messages
// (kafka.md §1.4, §7.2–7.3), read from the Boost.MSM tables so they cannot drift from the machines.
#pragma once

#include <string>

#include "spec/vocabulary/states.hpp"

namespace kcspec::impl {

// `NewPartition,OnlinePartition,OfflinePartition` — the predecessors of `target` in declaration order.
std::string validPreviousStatesText(PartitionState target);
std::string validPreviousStatesText(ReplicaState target);

}  // namespace kcspec::impl
