// Topic ids (issue 29 item 2; docs/kafka.md Appendix A.6, docs/world.md convention 13) as checks on
// an observation, shared by the tests of both versions: each version runs the same history and
// these say what the world must show.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "spec/vocabulary/observation.hpp"

namespace kcspec::testing {

inline constexpr TopicPartition kTopicIdT0{0, 0};

// Brokers 1, 2, 3; t-0 on 1,2 (leader 1); the controller will run on broker 3.
inline std::string topicIdConfig(std::string_view protocol) {
  return std::string("name topic-ids\nbrokers 1 2 3\nalive-at-start 1 2 3\ninter.broker.protocol.version ") +
         std::string(protocol) +
         "\ntopic t\n  partition 0 replicas 1,2\n  exists-at-start true\n"
         "bound topic-deletions 1\nbound topic-creations 1\nbound crashes 1\nbound isr-shrinks 1\n";
}

// Where a topic id shows once the controller on broker 3 has run and every request was delivered:
// the topic znode and the controller's context hold `stored`; LeaderAndIsr and UpdateMetadata
// carried `sent` to the replicas' logs and every broker's metadata cache.
inline void expectTopicIds(const Observation& world, TopicId stored, TopicId sent) {
  EXPECT_EQ(world.zk.topics[0].topic_id, stored) << "/brokers/topics/t \"topic_id\"";
  EXPECT_EQ(world.brokers[3].controller.context.topic_ids[0], stored) << "controllerContext.topicIds";
  for (BrokerId b : {1, 2}) {
    EXPECT_EQ(world.brokers[static_cast<std::size_t>(b)].replicas[0].topic_id, sent) << "the log's topic id on broker " << b;
  }
  for (BrokerId b : {1, 2, 3}) {
    const auto& cached = world.brokers[static_cast<std::size_t>(b)].metadata_cache[0];
    ASSERT_TRUE(cached.has_value()) << "broker " << b;
    EXPECT_EQ(cached->topic_id, sent) << "metadata cache of broker " << b;
  }
}

// `world` as a topic created before 2.8 left it: no topic id anywhere.
inline Observation withoutAnyTopicId(Observation world) {
  world.zk.topics[0].topic_id = kNoTopicId;
  return world;
}

// `world` (t created once, with id 1 everywhere) as if t had been deleted and created again with
// id 2 while broker `stale`'s log of t-0 stayed from the first t: the topic znode, the
// controller's context and every other log and cache hold 2, broker `stale`'s log holds 1.
inline Observation recreatedWithStaleLog(Observation world, BrokerId stale) {
  world.zk.topics[0].topic_id = 2;
  world.brokers[3].controller.context.topic_ids[0] = 2;
  for (BrokerData& broker : world.brokers) {
    if (broker.replicas[0].topic_id != kNoTopicId) broker.replicas[0].topic_id = 2;
    if (broker.metadata_cache[0]) broker.metadata_cache[0]->topic_id = 2;
  }
  world.brokers[static_cast<std::size_t>(stale)].replicas[0].topic_id = 1;
  return world;
}

}  // namespace kcspec::testing
