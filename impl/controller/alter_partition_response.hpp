// What the controller answers a leader for one partition of an AlterPartition request (kafka.md
// §5.12), as the leader's Partition reads it.
#pragma once

#include <cstdint>

#include "spec/vocabulary/leader_and_isr.hpp"

namespace kcspec::impl {

// AlterPartition in IBP 3.8 is version 3 (topic ids): rule 9 answers INELIGIBLE_REPLICA.
enum class AlterPartitionError : std::uint8_t {
  NONE, NOT_CONTROLLER, STALE_BROKER_EPOCH, UNKNOWN_TOPIC_ID, UNKNOWN_TOPIC_OR_PARTITION, FENCED_LEADER_EPOCH,
  INVALID_UPDATE_VERSION, INVALID_REQUEST, INELIGIBLE_REPLICA
};

struct AlterPartitionResponse {
  LeaderAndIsr proposed;  // the leader's pending change the response is for
  AlterPartitionError error = AlterPartitionError::NONE;
  LeaderAndIsr accepted;  // the state now in ZooKeeper, when error is NONE
};

}  // namespace kcspec::impl
