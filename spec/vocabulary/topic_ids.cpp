// freshTopicId and withoutTopicIds (topic_ids.hpp).
#include "spec/vocabulary/topic_ids.hpp"

#include <array>
#include <bitset>
#include <limits>

#include "spec/vocabulary/assert.hpp"

namespace kcspec {
namespace {

// Calls visit(topic, id) on every topic id that `world` holds — each znode, context, log, cache,
// request, response and event field — in one fixed order. `W` is Observation or const Observation.
template <class W, class Visit>
void forEachTopicId(W& world, Visit visit) {
  for (int t = 0; t < kMaxTopics; ++t) visit(static_cast<TopicIndex>(t), world.zk.topics[static_cast<std::size_t>(t)].topic_id);
  for (auto& broker : world.brokers) {
    for (auto& request : broker.inbox) {
      for (auto& entry : request.leader_and_isr) visit(entry.tp.topic, entry.topic_id);
      for (auto& entry : request.update_metadata) visit(entry.tp.topic, entry.topic_id);
    }
    for (int i = 0; i < kMaxPartitions; ++i) {
      const TopicIndex topic = partitionAt(i).topic;
      auto& cached = broker.metadata_cache[static_cast<std::size_t>(i)];
      if (cached) visit(topic, cached->topic_id);
      visit(topic, broker.replicas[static_cast<std::size_t>(i)].topic_id);
    }
    for (auto& response : broker.leader_and_isr_responses) {
      for (int t = 0; t < kMaxTopics; ++t) visit(static_cast<TopicIndex>(t), response.topic_ids[static_cast<std::size_t>(t)]);
    }
    for (int t = 0; t < kMaxTopics; ++t) {
      visit(static_cast<TopicIndex>(t), broker.controller.context.topic_ids[static_cast<std::size_t>(t)]);
    }
    for (auto& event : broker.controller.events) {
      for (int t = 0; t < kMaxTopics; ++t) visit(static_cast<TopicIndex>(t), event.topic_ids[static_cast<std::size_t>(t)]);
    }
  }
}

using HeldIds = std::bitset<std::numeric_limits<TopicId>::max() + 1>;

}  // namespace

TopicId freshTopicId(const Observation& world, TopicIndex topic) {
  HeldIds held;
  held.set(kNoTopicId);
  forEachTopicId(world, [&](TopicIndex t, TopicId id) {
    if (t == topic) held.set(id);
  });
  for (std::size_t id = 1; id < held.size(); ++id) {
    if (!held.test(id)) return static_cast<TopicId>(id);
  }
  KCSPEC_ASSERT(false);  // 255 ids of one topic held at once: more than the world can hold
  return kNoTopicId;
}

Observation withoutTopicIds(Observation world) {
  forEachTopicId(world, [](TopicIndex, TopicId& id) { id = kNoTopicId; });
  for (BrokerData& broker : world.brokers) {
    for (LeaderAndIsrResponse& response : broker.leader_and_isr_responses) response.by_topic_id = false;
    for (ControllerEvent& event : broker.controller.events) event.by_topic_id = false;
  }
  return world;
}

Observation withTopicIdsRenumbered(Observation world) {
  // By topic, the new number of each old one (0: not met yet), and the numbers given so far.
  std::array<std::array<TopicId, std::numeric_limits<TopicId>::max() + 1>, kMaxTopics> renamed{};
  std::array<TopicId, kMaxTopics> given{};
  forEachTopicId(world, [&](TopicIndex topic, TopicId& id) {
    if (id == kNoTopicId) return;
    TopicId& to = renamed[static_cast<std::size_t>(topic)][id];
    if (to == kNoTopicId) to = ++given[static_cast<std::size_t>(topic)];
    id = to;
  });
  return world;
}

}  // namespace kcspec
