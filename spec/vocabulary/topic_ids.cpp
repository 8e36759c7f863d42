// freshTopicId and withoutTopicIds (topic_ids.hpp).
#include "spec/vocabulary/topic_ids.hpp"

#include <bitset>
#include <limits>

#include "spec/vocabulary/assert.hpp"

namespace kcspec {

TopicId freshTopicId(const Observation& world, TopicIndex topic) {
  const auto t = static_cast<std::size_t>(topic);
  std::bitset<std::numeric_limits<TopicId>::max() + 1> held;
  held.set(kNoTopicId);
  held.set(world.zk.topics[t].topic_id);
  for (const BrokerData& broker : world.brokers) {
    for (const ControlRequest& request : broker.inbox) {
      for (const LeaderAndIsrPartitionState& entry : request.leader_and_isr) {
        if (entry.tp.topic == topic) held.set(entry.topic_id);
      }
      for (const UpdateMetadataPartitionState& entry : request.update_metadata) {
        if (entry.tp.topic == topic) held.set(entry.topic_id);
      }
    }
    for (int i = 0; i < kMaxPartitions; ++i) {
      if (partitionAt(i).topic != topic) continue;
      const auto& cached = broker.metadata_cache[static_cast<std::size_t>(i)];
      if (cached) held.set(cached->topic_id);
      held.set(broker.replicas[static_cast<std::size_t>(i)].topic_id);
    }
    for (const LeaderAndIsrResponse& response : broker.leader_and_isr_responses) held.set(response.topic_ids[t]);
    held.set(broker.controller.context.topic_ids[t]);
    for (const ControllerEvent& event : broker.controller.events) held.set(event.topic_ids[t]);
  }
  for (std::size_t id = 1; id < held.size(); ++id) {
    if (!held.test(id)) return static_cast<TopicId>(id);
  }
  KCSPEC_ASSERT(false);  // 255 ids of one topic held at once: more than the world can hold
  return kNoTopicId;
}

Observation withoutTopicIds(Observation world) {
  for (TopicZnodes& topic : world.zk.topics) topic.topic_id = kNoTopicId;
  for (BrokerData& broker : world.brokers) {
    for (ControlRequest& request : broker.inbox) {
      for (LeaderAndIsrPartitionState& entry : request.leader_and_isr) entry.topic_id = kNoTopicId;
      for (UpdateMetadataPartitionState& entry : request.update_metadata) entry.topic_id = kNoTopicId;
    }
    for (auto& entry : broker.metadata_cache) {
      if (entry) entry->topic_id = kNoTopicId;
    }
    for (HostedReplica& replica : broker.replicas) replica.topic_id = kNoTopicId;
    for (LeaderAndIsrResponse& response : broker.leader_and_isr_responses) {
      response.by_topic_id = false;
      response.topic_ids = {};
    }
    broker.controller.context.topic_ids = {};
    for (ControllerEvent& event : broker.controller.events) {
      event.by_topic_id = false;
      event.topic_ids = {};
    }
  }
  return world;
}

}  // namespace kcspec
