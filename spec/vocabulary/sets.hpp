// Small unordered sets of topics and partitions as bit masks (ascending iteration order, which
// is kcspec's choice wherever Kafka iterates a hash set).
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec {

// Every partition the world can hold, as one dense index: topic * kMaxPartitionsPerTopic + partition.
inline constexpr int kMaxPartitions = kMaxTopics * kMaxPartitionsPerTopic;

constexpr int partitionIndex(TopicPartition tp) {
  KCSPEC_ASSERT(tp.topic >= 0 && tp.topic < kMaxTopics);
  KCSPEC_ASSERT(tp.partition >= 0 && tp.partition < kMaxPartitionsPerTopic);
  return tp.topic * kMaxPartitionsPerTopic + tp.partition;
}

constexpr TopicPartition partitionAt(int index) {
  KCSPEC_ASSERT(index >= 0 && index < kMaxPartitions);
  return TopicPartition{index / kMaxPartitionsPerTopic, index % kMaxPartitionsPerTopic};
}

// A set of keys 0 … Size-1 stored in one unsigned word; Key converts with ToIndex/FromIndex.
template <class Key, int Size, class Word, int (*ToIndex)(Key), Key (*FromIndex)(int)>
class BitSet {
  static_assert(Size <= static_cast<int>(sizeof(Word) * 8));

 public:
  constexpr BitSet() = default;
  constexpr BitSet(std::initializer_list<Key> keys) {
    for (Key key : keys) insert(key);
  }
  constexpr bool contains(Key key) const { return (bits_ & bit(key)) != 0; }
  constexpr void insert(Key key) { bits_ = static_cast<Word>(bits_ | bit(key)); }
  constexpr void erase(Key key) { bits_ = static_cast<Word>(bits_ & ~bit(key)); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr BitSet operator|(BitSet o) const { return fromBits(bits_ | o.bits_); }
  constexpr BitSet operator&(BitSet o) const { return fromBits(bits_ & o.bits_); }
  constexpr BitSet operator-(BitSet o) const { return fromBits(bits_ & ~o.bits_); }
  template <class Visit>
  constexpr void forEach(Visit visit) const {
    for (int i = 0; i < Size; ++i) {
      if ((bits_ >> i) & 1u) visit(FromIndex(i));
    }
  }
  constexpr Word bits() const { return bits_; }
  friend constexpr bool operator==(BitSet, BitSet) = default;

 private:
  static constexpr Word bit(Key key) {
    const int i = ToIndex(key);
    KCSPEC_ASSERT(i >= 0 && i < Size);
    return static_cast<Word>(Word{1} << i);
  }
  static constexpr BitSet fromBits(unsigned long long bits) {
    BitSet set;
    set.bits_ = static_cast<Word>(bits);
    return set;
  }
  Word bits_ = 0;
};

namespace detail {
constexpr int topicToIndex(TopicIndex t) { return t; }
constexpr TopicIndex indexToTopic(int i) { return i; }
}  // namespace detail

using TopicSet = BitSet<TopicIndex, kMaxTopics, std::uint8_t, detail::topicToIndex, detail::indexToTopic>;
using PartitionSet = BitSet<TopicPartition, kMaxPartitions, std::uint16_t, partitionIndex, partitionAt>;

}  // namespace kcspec
