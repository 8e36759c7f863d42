// What the catalog's properties take for granted (spec/rules/invariants.cpp, ConfiguredSlots): no
// step writes a slot of the world outside the configuration — a broker it does not name, a topic
// it does not have, a partition beyond a topic's initial and added ones. Checked after every
// enabled action of every state along seeded random walks of every preset and check configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::spec {
namespace {

struct Outside {
  BrokerSet brokers;                            // the broker slots the configuration does not fill
  std::vector<TopicPartition> partitions;       // of its topics, the partition slots it does not fill
  std::vector<int> partition_indices;           // those and every partition of an absent topic
  TopicIndex first_absent_topic = kMaxTopics;
};

Outside outsideOf(const Config& config) {
  Outside outside;
  const BrokerSet configured = config.brokers | config.brokers_alive_at_start;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (!configured.contains(b)) outside.brokers.insert(b);
  }
  outside.first_absent_topic = static_cast<TopicIndex>(std::min(config.topicCount(), kMaxTopics));
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    int count = 0;
    if (t < outside.first_absent_topic) {
      const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
      count = static_cast<int>(std::min<std::size_t>(topic.partitionCount(), kMaxPartitionsPerTopic));
    }
    for (int p = count; p < kMaxPartitionsPerTopic; ++p) {
      if (t < outside.first_absent_topic) outside.partitions.push_back(TopicPartition{t, p});
      outside.partition_indices.push_back(partitionIndex(TopicPartition{t, p}));
    }
  }
  return outside;
}

// The first slot outside the configuration that `world` holds something in, or "".
std::string writtenOutside(const Outside& outside, const Observation& world) {
  std::string found;
  outside.brokers.forEach([&](BrokerId b) {
    if (found.empty() && world.brokers[static_cast<std::size_t>(b)] != BrokerData{}) {
      found = "broker " + std::to_string(b);
    }
  });
  for (TopicIndex t = outside.first_absent_topic; found.empty() && t < kMaxTopics; ++t) {
    if (world.zk.topics[static_cast<std::size_t>(t)] != TopicZnodes{}) found = "topic slot " + std::to_string(t);
  }
  for (const TopicPartition tp : outside.partitions) {
    const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(tp.topic)];
    if (found.empty() && (topic.partitions[static_cast<std::size_t>(tp.partition)] ||
                          topic.states[static_cast<std::size_t>(tp.partition)])) {
      found = "the znodes of partition slot " + std::to_string(tp.topic) + "-" + std::to_string(tp.partition);
    }
  }
  for (const int i : outside.partition_indices) {
    for (std::size_t b = 0; found.empty() && b < kMaxBrokers; ++b) {
      const BrokerData& broker = world.brokers[b];
      const auto at = static_cast<std::size_t>(i);
      if (broker.metadata_cache[at] || broker.replicas[at] != HostedReplica{} ||
          broker.controller.context.partitions[at] != PartitionContext{}) {
        found = "broker " + std::to_string(b) + "'s data of partition slot " + std::to_string(i);
      }
    }
  }
  return found;
}

void walkAndCheck(const Config& config, std::uint64_t& checked) {
  const Outside outside = outsideOf(config);
  std::uint64_t random = 0x9E3779B97F4A7C15ull;
  for (int walk = 0; walk < 12; ++walk) {
    ClusterState state = initialState(config);
    ASSERT_EQ(writtenOutside(outside, state.world), "") << "the initial state";
    for (int depth = 0; depth < 100; ++depth) {
      const std::vector<Action> actions = enabledActions(config, state);
      if (actions.empty()) break;
      for (const Action& action : actions) {
        const ClusterState after = next(config, state, action);
        ++checked;
        ASSERT_EQ(writtenOutside(outside, after.world), "") << printAction(config, action) << " at depth " << depth;
      }
      random = random * 6364136223846793005ull + 1442695040888963407ull;
      state = next(config, state, actions[(random >> 33) % actions.size()]);
    }
  }
}

TEST(ConfiguredSlots, NoStepWritesASlotOutsideTheConfiguration) {
  std::uint64_t checked = 0;
  for (const std::string_view name : kPresetNames) {
    SCOPED_TRACE(std::string(name));
    walkAndCheck(*preset(name), checked);
  }
  for (const std::string_view name : kCheckPresetNames) {
    SCOPED_TRACE(std::string(name));
    walkAndCheck(*preset(name), checked);
  }
  EXPECT_GT(checked, 100'000u);
}

// The check sees a write outside: a broker slot the configuration does not name, and a partition
// slot beyond a topic's partitions, each written by hand.
TEST(ConfiguredSlots, TheCheckSeesAWriteOutside) {
  const Config config = *preset("default");
  const Outside outside = outsideOf(config);
  ASSERT_FALSE(outside.brokers.empty());
  ASSERT_FALSE(outside.partitions.empty());
  const ClusterState initial = initialState(config);

  ClusterState broker_written = initial;
  outside.brokers.forEach([&](BrokerId b) { broker_written.world.brokers[static_cast<std::size_t>(b)].alive = true; });
  EXPECT_NE(writtenOutside(outside, broker_written.world), "");

  ClusterState partition_written = initial;
  const BrokerId some_broker = [&] {
    BrokerId first = kNoLeader;
    config.brokers.forEach([&](BrokerId b) { first = first == kNoLeader ? b : first; });
    return first;
  }();
  partition_written.world.brokers[static_cast<std::size_t>(some_broker)]
      .replicas[static_cast<std::size_t>(outside.partition_indices.front())]
      .leader_epoch = 3;
  EXPECT_NE(writtenOutside(outside, partition_written.world), "");
}

}  // namespace
}  // namespace kcspec::spec
