// Where a flushed request batch goes: Kafka's ControllerChannelManager, reduced to "append this
// request to that broker's inbound queue" (docs/world.md §4). The cluster implements it.
#pragma once

#include <cstdint>

#include "impl/controller/alter_partition_response.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/requests.hpp"

namespace kcspec::impl {

class ControllerChannel {
 public:
  virtual ~ControllerChannel() = default;
  virtual void sendRequest(BrokerId broker, const ControlRequest& request) = 0;
  // The AlterPartition response reaches the leader atomically with its processing (docs/world.md
  // §7): called for every partition the controller answered, accepted or rejected.
  virtual void respondAlterPartition(BrokerId broker, TopicPartition tp, const AlterPartitionResponse& response) = 0;
};

}  // namespace kcspec::impl
