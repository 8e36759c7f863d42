// Identifiers of the modeled world and the bounds of every configuration.
#pragma once

#include <compare>
#include <cstdint>

#include "spec/vocabulary/bounded_vector.hpp"

namespace kcspec {

// Bounds on a configuration; a configuration outside them is rejected with file:line.
inline constexpr int kMaxBrokers = 8;               // broker ids 0 … 7
inline constexpr int kMaxTopics = 4;                // topic indexes 0 … 3, named by the configuration
inline constexpr int kMaxPartitionsPerTopic = 4;    // including partitions added by expansion
inline constexpr int kMaxReplicationFactor = kMaxBrokers;  // a full assignment during a reassignment may hold every broker

// A broker id as Kafka has it. Two negative values are reserved for leaders (kafka.md §0.1).
using BrokerId = std::int32_t;
inline constexpr BrokerId kNoLeader = -1;            // LeaderAndIsr.NoLeader
inline constexpr BrokerId kLeaderDuringDelete = -2;  // LeaderAndIsr.LeaderDuringDelete

constexpr bool isBrokerId(BrokerId id) { return id >= 0 && id < kMaxBrokers; }

// A topic is an index into the configuration's topic list (its name is the configuration's).
using TopicIndex = std::int32_t;

// A topic id (Kafka's Uuid, KIP-516), always read next to the topic it names: a small number per
// topic name instead of a random Uuid — a new one is the least that nothing in the world holds for
// that name (topic_ids.hpp), which keeps ids apart as random ones are and lets a permutation of
// topics carry their ids along (docs/world.md convention 13). 0 is Uuid.ZERO_UUID: none.
using TopicId = std::uint8_t;
inline constexpr TopicId kNoTopicId = 0;

struct TopicPartition {
  TopicIndex topic = 0;
  std::int32_t partition = 0;
  friend constexpr auto operator<=>(const TopicPartition&, const TopicPartition&) = default;
};

// Kafka's PartitionAndReplica: one replica of one partition, on one broker.
struct PartitionAndReplica {
  TopicPartition tp;
  BrokerId replica = 0;
  friend constexpr auto operator<=>(const PartitionAndReplica&, const PartitionAndReplica&) = default;
};

// An ordered list of broker ids: an assignment (preference order) or an ISR.
using BrokerList = BoundedVector<BrokerId, kMaxReplicationFactor>;

}  // namespace kcspec
