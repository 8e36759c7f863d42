#include "proofs/explorer/state_codec.hpp"

#include <array>
#include <bit>
#include <algorithm>
#include <concepts>
#include <cstring>
#include <span>
#include <optional>
#include <type_traits>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {
namespace walker {

// ---------------------------------------------------------------- the three visitors
//
// A visitor has `static constexpr bool kDecodes` and `scalar(x)`: readers (hash, encode) get
// const values, the decoder gets mutable ones and assigns them.

inline constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
inline constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
inline constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
inline constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
inline constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

template <class T>
constexpr std::uint64_t rawBits(T x) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(x));
  } else if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else {
    return static_cast<std::uint64_t>(x);  // two's complement for signed values
  }
}

template <class T>
constexpr int fixedWidth() {
  if constexpr (std::is_enum_v<T> || std::is_same_v<T, bool>) {
    return 1;
  } else {
    return static_cast<int>(sizeof(T));
  }
}

// xxHash64's 8-byte step over the little-endian byte stream of the fields, with its avalanche.
class HashSink {
 public:
  static constexpr bool kDecodes = false;
  explicit HashSink(const StateShape& shape_) : shape(shape_) {}
  const StateShape& shape;

  template <class T>
  void scalar(const T& x) {
    put(rawBits(x), fixedWidth<T>());
  }

  void put(std::uint64_t value, int bytes) {
    const std::uint64_t bits = bytes == 8 ? value : value & ((std::uint64_t{1} << (8 * bytes)) - 1);
    length_ += static_cast<std::uint64_t>(bytes);
    word_ |= bits << (8 * fill_);
    if (fill_ + bytes < 8) {
      fill_ += bytes;
      return;
    }
    mix(word_);
    const int spill = fill_ + bytes - 8;  // bytes of `bits` that did not fit
    word_ = spill == 0 ? 0 : bits >> (8 * (bytes - spill));
    fill_ = spill;
  }

  std::uint64_t finish() {
    std::uint64_t h = hash_ + length_;
    if (fill_ > 0) {
      h ^= round(word_);
      h = std::rotl(h, 27) * kPrime1 + kPrime4;
    }
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    h ^= h >> 32;
    return h;
  }

 private:
  static std::uint64_t round(std::uint64_t input) {
    std::uint64_t acc = input * kPrime2;
    acc = std::rotl(acc, 31);
    return acc * kPrime1;
  }
  void mix(std::uint64_t word) {
    hash_ ^= round(word);
    hash_ = std::rotl(hash_, 27) * kPrime1 + kPrime4;
  }

  std::uint64_t hash_ = kPrime5;
  std::uint64_t word_ = 0;
  std::uint64_t length_ = 0;
  int fill_ = 0;
};

// Zig-zag varints; a zero scalar is a zero byte and zero bytes are run-length encoded as
// (0, run length 1…255) (a varint of a non-zero value has no zero byte). Writes through a raw
// pointer into `out`, grown geometrically.
class EncodeSink {
 public:
  static constexpr bool kDecodes = false;
  EncodeSink(std::string& out, const StateShape& shape_) : shape(shape_), out_(out) {
    if (buffer_.size() < 4096) buffer_.resize(4096);
  }

  template <class T>
  [[gnu::always_inline]] void scalar(const T& x) {
    std::uint64_t value = rawBits(x);
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      const auto v = static_cast<std::int64_t>(x);
      value = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    }
    if (value == 0) {
      if (++zeros_ == 255) flushZeros();
      return;
    }
    if (position_ + 16 > buffer_.size()) buffer_.resize(2 * buffer_.size());
    char* p = buffer_.data() + position_;
    if (zeros_ != 0) {
      *p++ = '\0';
      *p++ = static_cast<char>(static_cast<std::uint8_t>(zeros_));
      zeros_ = 0;
    }
    while (value >= 0x80) {
      *p++ = static_cast<char>(static_cast<std::uint8_t>(value | 0x80));
      value >>= 7;
    }
    *p++ = static_cast<char>(static_cast<std::uint8_t>(value));
    position_ = static_cast<std::size_t>(p - buffer_.data());
  }

  void finish() {
    flushZeros();
    out_.append(buffer_.data(), position_);
  }

  // finish() for a segment: its length as a varint, then its bytes.
  void finishSegment() {
    flushZeros();
    std::size_t length = position_;
    while (length >= 0x80) {
      out_.push_back(static_cast<char>(static_cast<std::uint8_t>(length | 0x80)));
      length >>= 7;
    }
    out_.push_back(static_cast<char>(static_cast<std::uint8_t>(length)));
    out_.append(buffer_.data(), position_);
  }

  const StateShape& shape;

 private:
  void flushZeros() {
    if (zeros_ == 0) return;
    if (position_ + 2 > buffer_.size()) buffer_.resize(2 * buffer_.size());
    buffer_[position_++] = '\0';
    buffer_[position_++] = static_cast<char>(static_cast<std::uint8_t>(zeros_));
    zeros_ = 0;
  }

  // Each thread's encodings go through one buffer that only grows (no allocation, no zeroing
  // per encoding), then are appended to the caller's string.
  static thread_local std::string buffer_;
  std::string& out_;
  std::size_t position_ = 0;
  int zeros_ = 0;
};
thread_local std::string EncodeSink::buffer_;

class DecodeSource {
 public:
  static constexpr bool kDecodes = true;
  DecodeSource(std::string_view in, const StateShape& shape_) : shape(shape_), in_(in) {}

  template <class T>
  [[gnu::always_inline]] void scalar(T& x) {
    std::uint64_t value = 0;
    if (pending_zeros_ > 0) {
      --pending_zeros_;
    } else {
      std::uint8_t b = byte();
      if (b == 0) {
        const std::uint8_t run = byte();
        KCSPEC_ASSERT(run > 0);
        pending_zeros_ = run - 1;
      } else {
        for (int shift = 0;; shift += 7) {
          KCSPEC_ASSERT(shift < 64);
          value |= static_cast<std::uint64_t>(b & 0x7F) << shift;
          if ((b & 0x80) == 0) break;
          b = byte();
        }
      }
    }
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      const auto v = static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
      x = static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, bool>) {
      x = value != 0;
    } else if constexpr (std::is_enum_v<T>) {
      x = static_cast<T>(static_cast<std::underlying_type_t<T>>(value));
    } else {
      x = static_cast<T>(value);
    }
  }

  bool atEnd() const { return pending_zeros_ == 0 && position_ == in_.size(); }

  const StateShape& shape;

 private:
  std::uint8_t byte() {
    KCSPEC_ASSERT(position_ < in_.size());
    return static_cast<std::uint8_t>(in_[position_++]);
  }

  std::string_view in_;
  std::size_t position_ = 0;
  int pending_zeros_ = 0;
};

// ---------------------------------------------------------------- the walk, one overload per type
//
// `walk(v, x)` visits every field of x; x is const for readers and mutable for the decoder.
// Calls are unqualified: argument-dependent lookup on the visitor finds every overload here.

template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;

template <class T>
concept Scalar = std::is_arithmetic_v<std::remove_const_t<T>> || std::is_enum_v<std::remove_const_t<T>>;

template <class V, Scalar T>
void walk(V& v, T& x) {
  v.scalar(x);
}

template <class T>
struct IsStdArray : std::false_type {};
template <class T, std::size_t N>
struct IsStdArray<std::array<T, N>> : std::true_type {};

template <class T>
struct IsStdOptional : std::false_type {};
template <class T>
struct IsStdOptional<std::optional<T>> : std::true_type {};

template <class T>
struct IsBounded : std::false_type {};
template <class T, std::size_t N>
struct IsBounded<BoundedVector<T, N>> : std::true_type {};
template <class T, std::size_t N>
struct IsBounded<BoundedList<T, N>> : std::true_type {};

template <class T>
struct IsBoundedList : std::false_type {};
template <class T, std::size_t N>
struct IsBoundedList<BoundedList<T, N>> : std::true_type {};

template <class V, class A>
  requires IsStdArray<std::remove_const_t<A>>::value
void walk(V& v, A& array) {
  for (auto& element : array) walk(v, element);
}

template <class V, class O>
  requires IsStdOptional<std::remove_const_t<O>>::value
void walk(V& v, O& optional) {
  if constexpr (V::kDecodes) {
    bool present = false;
    v.scalar(present);
    if (present) {
      optional.emplace();
      walk(v, *optional);
    } else {
      optional.reset();
    }
  } else {
    const bool present = optional.has_value();
    v.scalar(present);
    if (present) walk(v, *optional);
  }
}

template <class V, class C>
  requires IsBounded<std::remove_const_t<C>>::value
void walk(V& v, C& list) {
  using List = std::remove_const_t<C>;
  using Size = std::conditional_t<(List::capacity < 256), std::uint8_t, std::uint32_t>;
  if constexpr (V::kDecodes) {
    Size size = 0;
    v.scalar(size);
    KCSPEC_ASSERT(size <= List::capacity);
    if constexpr (IsBoundedList<List>::value) {
      // Decode in place: the elements' own lists keep their storage (no allocation per element);
      // the walk assigns every field.
      list.resize_for_overwrite(size);
      for (auto& element : list) walk(v, element);
    } else {
      list.clear();
      for (Size i = 0; i < size; ++i) {
        typename List::value_type element{};
        walk(v, element);
        list.push_back(element);
      }
    }
  } else {
    const auto size = static_cast<Size>(list.size());
    v.scalar(size);
    for (const auto& element : list) walk(v, element);
  }
}

// Bit sets: their word; the decoder inserts each bit back.
template <class V, class Set, class FromIndex>
void walkBits(V& v, Set& set, int size, FromIndex from_index) {
  if constexpr (V::kDecodes) {
    std::uint64_t bits = 0;
    v.scalar(bits);
    set = std::remove_const_t<Set>{};
    for (int i = 0; i < size; ++i) {
      if ((bits >> i) & 1u) set.insert(from_index(i));
    }
  } else {
    const auto bits = static_cast<std::uint64_t>(set.bits());
    v.scalar(bits);
  }
}

template <class V, Is<BrokerSet> T>
void walk(V& v, T& set) {
  walkBits(v, set, kMaxBrokers, [](int i) { return static_cast<BrokerId>(i); });
}
template <class V, Is<TopicSet> T>
void walk(V& v, T& set) {
  walkBits(v, set, kMaxTopics, [](int i) { return static_cast<TopicIndex>(i); });
}
template <class V, Is<PartitionSet> T>
void walk(V& v, T& set) {
  walkBits(v, set, kMaxPartitions, [](int i) { return partitionAt(i); });
}

// An array indexed by broker id, partition index or topic, walked only at the slots the shape
// names (every other slot holds its default in every state of the configuration).
template <class A>
struct SlotView {
  A& array;
  std::span<const std::uint8_t> slots;
};
template <class A>
SlotView<A> bySlot(A& array, std::span<const std::uint8_t> slots) {
  return SlotView<A>{array, slots};
}
template <class V, class A>
void walk(V& v, const SlotView<A>& view) {
  for (const std::uint8_t slot : view.slots) walk(v, view.array[slot]);
}

template <class Type, class V, class... Fields>
void walkFields(V& v, Fields&&... fields) {
  static_assert(sizeof...(Fields) == kWalkedFields<Type>, "update kWalkedFields in state_codec.hpp");
  (walk(v, fields), ...);
}

// A struct's fields, in declaration order.
#define KCSPEC_WALK_FIELDS(Type, ...)      \
  template <class V, Is<Type> T>           \
  void walk(V& v, T& x) {                  \
    walkFields<Type>(v, __VA_ARGS__);      \
  }

KCSPEC_WALK_FIELDS(TopicPartition, x.topic, x.partition)
KCSPEC_WALK_FIELDS(LeaderAndIsr, x.leader, x.leader_epoch, x.recovery_state, x.isr, x.partition_epoch)
KCSPEC_WALK_FIELDS(LeaderIsrAndControllerEpoch, x.leader_and_isr, x.controller_epoch)
KCSPEC_WALK_FIELDS(ReplicaAssignment, x.replicas, x.adding_replicas, x.removing_replicas)
KCSPEC_WALK_FIELDS(PartitionStateZnode, x.leader_and_isr, x.controller_epoch)
KCSPEC_WALK_FIELDS(TopicZnodes, x.exists, bySlot(x.partitions, v.shape.partitionsOfATopic()),
                   bySlot(x.states, v.shape.partitionsOfATopic()), x.unclean_leader_election_enable, x.topic_id)
KCSPEC_WALK_FIELDS(BrokerRegistration, x.registered, x.broker_epoch)
KCSPEC_WALK_FIELDS(ReassignPartitionsZnode, x.exists, x.invalid_json, x.partitions,
                   bySlot(x.targets, v.shape.partitions()))
KCSPEC_WALK_FIELDS(PreferredReplicaElectionZnode, x.exists, x.partitions)
KCSPEC_WALK_FIELDS(FeatureZnode, x.status, x.format_version)
KCSPEC_WALK_FIELDS(ZooKeeperData, bySlot(x.brokers, v.shape.brokers()), bySlot(x.topics, v.shape.topics()),
                   x.controller, x.controller_epoch, x.controller_epoch_zk_version, x.delete_topics, x.last_zxid,
                   x.reassign_partitions, x.preferred_replica_election, x.log_dir_event_notifications,
                   x.lost_write_responses, x.isr_change_notifications, x.feature, x.lost_feature_write_response,
                   x.session_expiring_writes)
KCSPEC_WALK_FIELDS(PartitionContext, x.assignment, x.leadership, x.state, bySlot(x.replica_states, v.shape.brokers()))
KCSPEC_WALK_FIELDS(ControllerContextData, x.epoch, x.epoch_zk_version, bySlot(x.live_broker_epochs, v.shape.brokers()),
                   x.shutting_down_broker_ids, x.all_topics, bySlot(x.partitions, v.shape.partitions()),
                   x.partitions_being_reassigned, x.topics_to_be_deleted, x.topics_with_deletion_started,
                   x.topics_ineligible_for_deletion, x.offline_partition_count,
                   bySlot(x.replicas_on_offline_dirs, v.shape.brokers()), x.reassignment_isr_watches,
                   bySlot(x.topic_ids, v.shape.topics()))
KCSPEC_WALK_FIELDS(ControllerEvent, x.kind, x.broker, x.broker_epoch, x.topic, x.tp, x.partitions, x.partition_errors,
                   x.election_type, x.zk_triggered, x.cancel, x.target_replicas, x.proposed, x.by_topic_id,
                   bySlot(x.topic_ids, v.shape.topics()))
KCSPEC_WALK_FIELDS(ControllerData, x.active, x.session_lost, x.psm_batch_unflushed, x.rsm_batch_unflushed, x.context,
                   x.events)
KCSPEC_WALK_FIELDS(HostedReplica, x.present, x.is_leader, x.leader_epoch, x.partition_epoch, x.isr,
                   x.alter_partition_pending, x.refused_expansions,
                   x.refused_shrinks, x.topic_id)
KCSPEC_WALK_FIELDS(LeaderAndIsrPartitionState, x.tp, x.leadership, x.assignment, x.is_new, x.topic_id)
KCSPEC_WALK_FIELDS(UpdateMetadataPartitionState, x.tp, x.controller_epoch, x.leader, x.leader_epoch, x.isr, x.zk_version,
                   x.replicas, x.offline_replicas, x.topic_id)
KCSPEC_WALK_FIELDS(StopReplicaPartitionState, x.tp, x.leader_epoch, x.delete_partition)
KCSPEC_WALK_FIELDS(ControlRequest, x.kind, x.version, x.controller_id, x.controller_epoch, x.broker_epoch, x.leader_and_isr,
                   x.update_metadata, x.live_brokers, x.stop_replica, x.response_wanted)
KCSPEC_WALK_FIELDS(StopReplicaResponse, x.controller_id, x.controller_epoch, x.partitions, x.storage_errors)
KCSPEC_WALK_FIELDS(LeaderAndIsrResponse, x.controller_id, x.controller_epoch, x.partitions, x.storage_errors,
                   x.by_topic_id, bySlot(x.topic_ids, v.shape.topics()))
// A broker's fields but its request queue and its controller module: the segmented encoding
// keeps the three apart (a controller's requests change the queue alone, a delivered request
// takes its head off and changes the rest, an event changes the controller module alone).
template <class B>
struct BrokerRest {
  B& x;
};
template <class V, class B>
void walk(V& v, const BrokerRest<B>& rest) {
  auto& x = rest.x;
  static_assert(kWalkedFields<BrokerData> == 1 + 11 + 1, "the broker's queue, its other fields, its controller module");
  walk(v, x.alive);
  walk(v, x.broker_epoch);
  walk(v, x.known_controller_epoch);
  walk(v, bySlot(x.metadata_cache, v.shape.partitions()));
  walk(v, x.metadata_live_brokers);
  walk(v, bySlot(x.replicas, v.shape.partitions()));
  walk(v, x.outbox);
  walk(v, x.leader_and_isr_responses);
  walk(v, x.offline_log_dir_replicas);
  walk(v, x.pending_isr_changes);
  walk(v, x.ibp_upgraded);
}
template <class V, Is<BrokerData> T>
void walk(V& v, T& x) {
  walk(v, x.inbox);
  walk(v, BrokerRest<T>{x});
  walk(v, x.controller);
}
KCSPEC_WALK_FIELDS(Observation, x.zk, bySlot(x.brokers, v.shape.brokers()))

#undef KCSPEC_WALK_FIELDS

// Bounds: its per-kind fields in kBoundNames' order, then the overall bound.
template <class V, Is<Bounds> T>
void walk(V& v, T& x) {
  static_assert(kBoundNames.size() == 19, "walk every per-kind bound");
  walk(v, x.crashes);
  walk(v, x.controlled_shutdowns);
  walk(v, x.controller_failovers);
  walk(v, x.topic_creations);
  walk(v, x.topic_deletions);
  walk(v, x.partition_additions);
  walk(v, x.reassignments);
  walk(v, x.preferred_elections);
  walk(v, x.unclean_elections);
  walk(v, x.isr_shrinks);
  walk(v, x.stop_replica_errors);
  walk(v, x.auto_rebalances);
  walk(v, x.zk_reassignments);
  walk(v, x.zk_preferred_elections);
  walk(v, x.log_dir_failures);
  walk(v, x.zk_connection_losses);
  walk(v, x.broker_session_losses);
  walk(v, x.ibp_upgrades);
  walk(v, x.zk_session_expiries);
  walk(v, x.perturbations);
}

}  // namespace walker

namespace {

std::uint64_t readWord(const char* p) {
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

std::uint32_t readHalf(const char* p) {
  std::uint32_t half = 0;
  std::memcpy(&half, p, sizeof half);
  if constexpr (std::endian::native == std::endian::big) half = __builtin_bswap32(half);
  return half;
}

std::uint64_t xxRound(std::uint64_t acc, std::uint64_t input) {
  acc += input * walker::kPrime2;
  acc = std::rotl(acc, 31);
  return acc * walker::kPrime1;
}

std::uint64_t xxMerge(std::uint64_t acc, std::uint64_t lane) {
  acc ^= xxRound(0, lane);
  return acc * walker::kPrime1 + walker::kPrime4;
}

}  // namespace

StateShape::StateShape() {
  for (int b = 0; b < kMaxBrokers; ++b) brokers_.push_back(static_cast<std::uint8_t>(b));
  for (int t = 0; t < kMaxTopics; ++t) topics_.push_back(static_cast<std::uint8_t>(t));
  for (int p = 0; p < kMaxPartitionsPerTopic; ++p) partitions_of_a_topic_.push_back(static_cast<std::uint8_t>(p));
  for (int i = 0; i < kMaxPartitions; ++i) partitions_.push_back(static_cast<std::uint8_t>(i));
}

StateShape::StateShape(const Config& config) {
  BrokerSet brokers = config.brokers | config.brokers_alive_at_start;
  const auto add = [&brokers](const BrokerList& list) {
    for (BrokerId b : list) {
      if (isBrokerId(b)) brokers.insert(b);
    }
  };
  int most_partitions = 0;
  std::array<bool, kMaxPartitions> used{};
  for (int t = 0; t < config.topicCount() && t < kMaxTopics; ++t) {
    const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
    for (const BrokerList& list : topic.assignment) add(list);
    for (const BrokerList& list : topic.added_partitions) add(list);
    for (const auto& [partition, target] : topic.reassignment_targets) add(target);
    const int count = std::min(static_cast<int>(topic.partitionCount()), kMaxPartitionsPerTopic);
    most_partitions = std::max(most_partitions, count);
    for (int p = 0; p < count; ++p) used[static_cast<std::size_t>(partitionIndex(TopicPartition{t, p}))] = true;
    topics_.push_back(static_cast<std::uint8_t>(t));
  }
  brokers.forEach([this](BrokerId b) { brokers_.push_back(static_cast<std::uint8_t>(b)); });
  for (int p = 0; p < most_partitions; ++p) partitions_of_a_topic_.push_back(static_cast<std::uint8_t>(p));
  for (int i = 0; i < kMaxPartitions; ++i) {
    if (used[static_cast<std::size_t>(i)]) partitions_.push_back(static_cast<std::uint8_t>(i));
  }
}

// The copy walks the same fields as the codec, restricted the same way: the id-indexed arrays
// only at the shape's slots (a broker's per-partition arrays are 16 slots, of which a
// configuration uses a few). Each function names its struct's field count, like the walk.
namespace {

template <class A>
void copySlots(const A& from, A& to, std::span<const std::uint8_t> slots) {
  for (const std::uint8_t slot : slots) to[slot] = from[slot];
}

void copyTopic(const TopicZnodes& from, TopicZnodes& to, const StateShape& shape) {
  static_assert(kWalkedFields<TopicZnodes> == 5, "copy every field of TopicZnodes");
  to.exists = from.exists;
  copySlots(from.partitions, to.partitions, shape.partitionsOfATopic());
  copySlots(from.states, to.states, shape.partitionsOfATopic());
  to.unclean_leader_election_enable = from.unclean_leader_election_enable;
  to.topic_id = from.topic_id;
}

void copyZooKeeper(const ZooKeeperData& from, ZooKeeperData& to, const StateShape& shape) {
  static_assert(kWalkedFields<ZooKeeperData> == 15, "copy every field of ZooKeeperData");
  copySlots(from.brokers, to.brokers, shape.brokers());
  for (const std::uint8_t t : shape.topics()) copyTopic(from.topics[t], to.topics[t], shape);
  to.controller = from.controller;
  to.controller_epoch = from.controller_epoch;
  to.controller_epoch_zk_version = from.controller_epoch_zk_version;
  to.delete_topics = from.delete_topics;
  to.last_zxid = from.last_zxid;
  static_assert(kWalkedFields<ReassignPartitionsZnode> == 4, "copy every field of ReassignPartitionsZnode");
  to.reassign_partitions.exists = from.reassign_partitions.exists;
  to.reassign_partitions.invalid_json = from.reassign_partitions.invalid_json;
  to.reassign_partitions.partitions = from.reassign_partitions.partitions;
  copySlots(from.reassign_partitions.targets, to.reassign_partitions.targets, shape.partitions());
  to.preferred_replica_election = from.preferred_replica_election;
  to.log_dir_event_notifications = from.log_dir_event_notifications;
  to.lost_write_responses = from.lost_write_responses;
  to.isr_change_notifications = from.isr_change_notifications;
  to.feature = from.feature;
  to.lost_feature_write_response = from.lost_feature_write_response;
  to.session_expiring_writes = from.session_expiring_writes;
}

void copyContext(const ControllerContextData& from, ControllerContextData& to, const StateShape& shape) {
  static_assert(kWalkedFields<ControllerContextData> == 14, "copy every field of ControllerContextData");
  to.epoch = from.epoch;
  to.epoch_zk_version = from.epoch_zk_version;
  copySlots(from.live_broker_epochs, to.live_broker_epochs, shape.brokers());
  to.shutting_down_broker_ids = from.shutting_down_broker_ids;
  to.all_topics = from.all_topics;
  copySlots(from.partitions, to.partitions, shape.partitions());
  to.partitions_being_reassigned = from.partitions_being_reassigned;
  to.topics_to_be_deleted = from.topics_to_be_deleted;
  to.topics_with_deletion_started = from.topics_with_deletion_started;
  to.topics_ineligible_for_deletion = from.topics_ineligible_for_deletion;
  to.offline_partition_count = from.offline_partition_count;
  copySlots(from.replicas_on_offline_dirs, to.replicas_on_offline_dirs, shape.brokers());
  to.reassignment_isr_watches = from.reassignment_isr_watches;
  copySlots(from.topic_ids, to.topic_ids, shape.topics());
}

void copyController(const ControllerData& from, ControllerData& to, const StateShape& shape) {
  static_assert(kWalkedFields<ControllerData> == 6, "copy every field of ControllerData");
  to.active = from.active;
  to.session_lost = from.session_lost;
  to.psm_batch_unflushed = from.psm_batch_unflushed;
  to.rsm_batch_unflushed = from.rsm_batch_unflushed;
  copyContext(from.context, to.context, shape);
  to.events = from.events;
}

// Every field of a broker but its request queue and its controller module (the walk's BrokerRest).
void copyBrokerRest(const BrokerData& from, BrokerData& to, const StateShape& shape) {
  static_assert(kWalkedFields<BrokerData> == 13, "copy every field of BrokerData");
  to.alive = from.alive;
  to.broker_epoch = from.broker_epoch;
  to.known_controller_epoch = from.known_controller_epoch;
  copySlots(from.metadata_cache, to.metadata_cache, shape.partitions());
  to.metadata_live_brokers = from.metadata_live_brokers;
  copySlots(from.replicas, to.replicas, shape.partitions());
  to.outbox = from.outbox;
  to.leader_and_isr_responses = from.leader_and_isr_responses;
  to.offline_log_dir_replicas = from.offline_log_dir_replicas;
  to.pending_isr_changes = from.pending_isr_changes;
  to.ibp_upgraded = from.ibp_upgraded;
}

}  // namespace

// Equality over the same slots as the copy.
namespace {

template <class A>
bool sameSlots(const A& a, const A& b, std::span<const std::uint8_t> slots) {
  for (const std::uint8_t slot : slots) {
    if (!(a[slot] == b[slot])) return false;
  }
  return true;
}

bool sameTopic(const TopicZnodes& a, const TopicZnodes& b, const StateShape& shape) {
  static_assert(kWalkedFields<TopicZnodes> == 5, "compare every field of TopicZnodes");
  return a.exists == b.exists && sameSlots(a.partitions, b.partitions, shape.partitionsOfATopic()) &&
         sameSlots(a.states, b.states, shape.partitionsOfATopic()) &&
         a.unclean_leader_election_enable == b.unclean_leader_election_enable && a.topic_id == b.topic_id;
}

bool sameZooKeeper(const ZooKeeperData& a, const ZooKeeperData& b, const StateShape& shape) {
  static_assert(kWalkedFields<ZooKeeperData> == 15, "compare every field of ZooKeeperData");
  if (!sameSlots(a.brokers, b.brokers, shape.brokers())) return false;
  for (const std::uint8_t t : shape.topics()) {
    if (!sameTopic(a.topics[t], b.topics[t], shape)) return false;
  }
  return a.controller == b.controller && a.controller_epoch == b.controller_epoch &&
         a.controller_epoch_zk_version == b.controller_epoch_zk_version && a.delete_topics == b.delete_topics &&
         a.last_zxid == b.last_zxid && a.reassign_partitions.exists == b.reassign_partitions.exists &&
         a.reassign_partitions.invalid_json == b.reassign_partitions.invalid_json &&
         a.reassign_partitions.partitions == b.reassign_partitions.partitions &&
         sameSlots(a.reassign_partitions.targets, b.reassign_partitions.targets, shape.partitions()) &&
         a.preferred_replica_election == b.preferred_replica_election &&
         a.log_dir_event_notifications == b.log_dir_event_notifications &&
         a.lost_write_responses == b.lost_write_responses && a.isr_change_notifications == b.isr_change_notifications &&
         a.feature == b.feature && a.lost_feature_write_response == b.lost_feature_write_response &&
         a.session_expiring_writes == b.session_expiring_writes;
}

bool sameContext(const ControllerContextData& a, const ControllerContextData& b, const StateShape& shape) {
  static_assert(kWalkedFields<ControllerContextData> == 14, "compare every field of ControllerContextData");
  return a.epoch == b.epoch && a.epoch_zk_version == b.epoch_zk_version &&
         sameSlots(a.live_broker_epochs, b.live_broker_epochs, shape.brokers()) &&
         a.shutting_down_broker_ids == b.shutting_down_broker_ids && a.all_topics == b.all_topics &&
         sameSlots(a.partitions, b.partitions, shape.partitions()) &&
         a.partitions_being_reassigned == b.partitions_being_reassigned && a.topics_to_be_deleted == b.topics_to_be_deleted &&
         a.topics_with_deletion_started == b.topics_with_deletion_started &&
         a.topics_ineligible_for_deletion == b.topics_ineligible_for_deletion &&
         a.offline_partition_count == b.offline_partition_count &&
         sameSlots(a.replicas_on_offline_dirs, b.replicas_on_offline_dirs, shape.brokers()) &&
         a.reassignment_isr_watches == b.reassignment_isr_watches && sameSlots(a.topic_ids, b.topic_ids, shape.topics());
}

bool sameController(const ControllerData& a, const ControllerData& b, const StateShape& shape) {
  static_assert(kWalkedFields<ControllerData> == 6, "compare every field of ControllerData");
  return a.active == b.active && a.session_lost == b.session_lost && a.psm_batch_unflushed == b.psm_batch_unflushed &&
         a.rsm_batch_unflushed == b.rsm_batch_unflushed && sameContext(a.context, b.context, shape) && a.events == b.events;
}

// Every field of a broker but its request queue and its controller module (the walk's BrokerRest).
bool sameBrokerRest(const BrokerData& a, const BrokerData& b, const StateShape& shape) {
  static_assert(kWalkedFields<BrokerData> == 13, "compare every field of BrokerData");
  return a.alive == b.alive && a.broker_epoch == b.broker_epoch && a.known_controller_epoch == b.known_controller_epoch &&
         sameSlots(a.metadata_cache, b.metadata_cache, shape.partitions()) &&
         a.metadata_live_brokers == b.metadata_live_brokers && sameSlots(a.replicas, b.replicas, shape.partitions()) &&
         a.outbox == b.outbox && a.leader_and_isr_responses == b.leader_and_isr_responses &&
         a.offline_log_dir_replicas == b.offline_log_dir_replicas && a.pending_isr_changes == b.pending_isr_changes &&
         a.ibp_upgraded == b.ibp_upgraded;
}

bool sameBroker(const BrokerData& a, const BrokerData& b, const StateShape& shape) {
  return a.inbox == b.inbox && sameBrokerRest(a, b, shape) && sameController(a.controller, b.controller, shape);
}

}  // namespace

bool sameWorld(const Observation& a, const Observation& b, const StateShape& shape) {
  static_assert(kWalkedFields<Observation> == 2, "compare every field of Observation");
  if (!sameZooKeeper(a.zk, b.zk, shape)) return false;
  for (const std::uint8_t broker : shape.brokers()) {
    if (!sameBroker(a.brokers[broker], b.brokers[broker], shape)) return false;
  }
  return true;
}

void copyWorld(const Observation& from, Observation& to, const StateShape& shape) {
  copyWorldSegments(from, to, shape, kEveryWorldSegment);
}

void resetWorld(Observation& to, const StateShape& shape) {
  static const Observation defaults{};
  copyWorld(defaults, to, shape);
}

void copyWorldSegments(const Observation& from, Observation& to, const StateShape& shape, SegmentMask segments) {
  static_assert(kWalkedFields<Observation> == 2, "copy every field of Observation");
  if (segments & 1u) copyZooKeeper(from.zk, to.zk, shape);
  SegmentMask bit = 2;
  for (const std::uint8_t b : shape.brokers()) {
    if (segments & bit) to.brokers[b].inbox = from.brokers[b].inbox;
    if (segments & (bit << 1)) copyBrokerRest(from.brokers[b], to.brokers[b], shape);
    if (segments & (bit << 2)) copyController(from.brokers[b].controller, to.brokers[b].controller, shape);
    bit <<= 3;
  }
}

std::uint64_t fingerprintWorld(const Observation& world) {
  static const StateShape every;
  walker::HashSink sink(every);
  walk(sink, world);
  return sink.finish();
}

std::uint64_t fingerprintWorld(const Observation& world, const Bounds& budget) {
  static const StateShape every;
  walker::HashSink sink(every);
  walk(sink, world);
  walk(sink, budget);
  return sink.finish();
}

std::uint64_t fingerprintWorld(const Observation& world, const Bounds& budget, const StateShape& shape) {
  walker::HashSink sink(shape);
  walk(sink, world);
  walk(sink, budget);
  return sink.finish();
}

void encodeWorld(const Observation& world, const Bounds& budget, std::string& out) {
  static const StateShape every;
  encodeWorld(world, budget, every, out);
}

void decodeWorld(std::string_view bytes, Observation& world, Bounds& budget) {
  static const StateShape every;
  world = Observation{};
  decodeWorld(bytes, every, world, budget);
}

// ---------------------------------------------------------------- the segmented encoding
//
// An encoding is a sequence of segments, each the varint length of its bytes and then the walk
// of one part of the state: ZooKeeper; for each broker of the shape, its request queue, its
// other fields, and its controller module; the budget. A segment's zero runs end with it, so its
// bytes depend on its part alone: a successor's encoding copies its parent's bytes for the parts
// a step left alone, and a decoder skips the parts whose bytes equal those of the state it
// decoded before.
//
// A request queue's segment is itself a sequence of blocks, one per request (each a varint
// length and the walk of the request), and no count: a delivered request takes the first block
// off the parent's bytes, and requests the controller sends add blocks after them — most
// successors' queues are one of the two (on `default`, 76 % of changed queues lost their head).

namespace {

using Inbox = decltype(BrokerData::inbox);

// A request queue as a segment part.
template <class L>
struct RequestBlocks {
  L& list;
};
template <class T>
inline constexpr bool kIsRequestBlocks = false;
template <class L>
inline constexpr bool kIsRequestBlocks<RequestBlocks<L>> = true;

// One segment's part of the state, by position: 0 = ZooKeeper, then three per shape broker, then
// the budget. `visit(part)` gets the part (const or not, as the world and budget are).
template <class World, class Budget, class Visit>
void forEachSegment(World& world, Budget& budget, const StateShape& shape, Visit visit) {
  visit(world.zk);
  for (const std::uint8_t b : shape.brokers()) {
    auto& broker = world.brokers[b];
    visit(RequestBlocks<std::remove_reference_t<decltype((broker.inbox))>>{broker.inbox});
    visit(walker::BrokerRest<std::remove_reference_t<decltype(broker)>>{broker});
    visit(broker.controller);
  }
  visit(budget);
}

// Splits the next segment off `bytes`: its bytes with their length prefix (`whole`) and without
// (`body`). A malformed encoding stops the program: encodings never leave the process.
struct Segment {
  std::string_view whole;
  std::string_view body;
};
Segment takeSegment(std::string_view& bytes) {
  std::size_t length = 0;
  std::size_t position = 0;
  for (int shift = 0;; shift += 7) {
    KCSPEC_ASSERT(shift < 35 && position < bytes.size());
    const auto byte = static_cast<std::uint8_t>(bytes[position++]);
    length |= static_cast<std::size_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
  }
  KCSPEC_ASSERT(length <= bytes.size() - position);
  const Segment segment{bytes.substr(0, position + length), bytes.substr(position, length)};
  bytes.remove_prefix(position + length);
  return segment;
}

// A segment of the given body: its varint length, then the body.
void appendSegment(std::string_view body, std::string& out) {
  std::size_t length = body.size();
  while (length >= 0x80) {
    out.push_back(static_cast<char>(static_cast<std::uint8_t>(length | 0x80)));
    length >>= 7;
  }
  out.push_back(static_cast<char>(static_cast<std::uint8_t>(length)));
  out += body;
}

template <class Part>
[[gnu::flatten]] void encodeWalk(const Part& part, const StateShape& shape, std::string& out) {
  walker::EncodeSink sink(out, shape);
  walk(sink, part);
  sink.finishSegment();
}

// Appends the blocks of requests [first, list.size()) to `body`.
void encodeRequestBlocks(const Inbox& list, std::size_t first, const StateShape& shape, std::string& body) {
  for (std::size_t i = first; i < list.size(); ++i) encodeWalk(list[i], shape, body);
}

template <class Part>
void encodeSegment(const Part& part, const StateShape& shape, std::string& out) {
  if constexpr (kIsRequestBlocks<Part>) {
    thread_local std::string body;
    body.clear();
    encodeRequestBlocks(part.list, 0, shape, body);
    appendSegment(body, out);
  } else {
    encodeWalk(part, shape, out);
  }
}

template <class Part>
[[gnu::flatten]] void decodeWalk(std::string_view body, const StateShape& shape, Part&& part) {
  walker::DecodeSource source(body, shape);
  walk(source, part);
  KCSPEC_ASSERT(source.atEnd());
}

// Decodes the blocks in `blocks` into list[first …], which it resizes to hold them.
void decodeRequestBlocks(std::string_view blocks, std::size_t first, const StateShape& shape, Inbox& list) {
  std::size_t count = 0;
  for (std::string_view rest = blocks; !rest.empty(); ++count) takeSegment(rest);
  list.resize_for_overwrite(first + count);
  for (std::size_t i = first; i < first + count; ++i) decodeWalk(takeSegment(blocks).body, shape, list[i]);
}

template <class Part>
void decodeSegment(std::string_view body, const StateShape& shape, Part&& part) {
  if constexpr (kIsRequestBlocks<std::remove_cvref_t<Part>>) {
    decodeRequestBlocks(body, 0, shape, part.list);
  } else {
    decodeWalk(body, shape, part);
  }
}

// How a queue after a step differs from the queue before it.
enum class QueueChange : std::uint8_t { Same, HeadsTaken, Appended, Other };

// After one step, from the lengths alone, as a step changes a queue only at its ends
// (spec/rules/step.hpp takeStep): the same length, the same queue; shorter and not empty, its head
// taken off; longer, requests appended; empty, emptied. After a step and a chain of deliveries
// (which may take off requests the step appended), by comparing the requests.
QueueChange queueChange(const Inbox& was, const Inbox& is, bool one_step) {
  if (one_step) {
    if (is.size() == was.size()) return QueueChange::Same;
    if (!is.empty() && is.size() < was.size()) return QueueChange::HeadsTaken;
    return is.size() > was.size() ? QueueChange::Appended : QueueChange::Other;
  }
  if (is == was) return QueueChange::Same;
  if (is.size() < was.size() && std::equal(is.begin(), is.end(), was.begin() + (was.size() - is.size()))) {
    return QueueChange::HeadsTaken;
  }
  if (is.size() > was.size() && std::equal(was.begin(), was.end(), is.begin())) return QueueChange::Appended;
  return QueueChange::Other;
}

// A queue's segment after a step, from its parent's `before`: the parent's bytes when the queue
// is unchanged (false), else the parent's blocks without those taken off the head, the parent's
// blocks and the new requests' when requests were added, or every block (true).
bool encodeRequestsAfter(const Inbox& was, const Inbox& is, const Segment& before, const StateShape& shape,
                         bool one_step, std::string& out) {
  switch (queueChange(was, is, one_step)) {
    case QueueChange::Same:
      out += before.whole;
      return false;
    case QueueChange::HeadsTaken: {
      std::string_view blocks = before.body;
      for (std::size_t taken = was.size() - is.size(); taken > 0; --taken) takeSegment(blocks);  // bounded by the queue
      appendSegment(blocks, out);
      return true;
    }
    case QueueChange::Appended: {
      thread_local std::string body;
      body.assign(before.body);
      encodeRequestBlocks(is, was.size(), shape, body);
      appendSegment(body, out);
      return true;
    }
    case QueueChange::Other:
      break;
  }
  encodeSegment(RequestBlocks<const Inbox>{is}, shape, out);
  return true;
}

// decodeSegment of a queue's `body` into `list`, which holds the decoding of `previous` (a
// different body): the head taken off, or the added requests decoded, when that is the change.
void decodeRequestsOver(std::string_view body, std::string_view previous, const StateShape& shape, Inbox& list) {
  if (!previous.empty()) {
    std::string_view rest = previous;
    takeSegment(rest);
    if (body == rest) {
      list.erase_at(0);
      return;
    }
  }
  if (body.size() > previous.size() && body.starts_with(previous)) {
    decodeRequestBlocks(body.substr(previous.size()), list.size(), shape, list);
    return;
  }
  decodeRequestBlocks(body, 0, shape, list);
}

}  // namespace

void encodeWorld(const Observation& world, const Bounds& budget, const StateShape& shape, std::string& out) {
  forEachSegment(world, budget, shape, [&](const auto& part) { encodeSegment(part, shape, out); });
}

SegmentMask brokerDataSegments(const StateShape& shape, BrokerId b) {
  const auto brokers = shape.brokers();
  const auto at = std::find(brokers.begin(), brokers.end(), static_cast<std::uint8_t>(b));
  KCSPEC_ASSERT(at != brokers.end());
  const auto i = static_cast<unsigned>(at - brokers.begin());
  return (SegmentMask{1} << (1 + 3 * i)) | (SegmentMask{1} << (2 + 3 * i));
}

void encodeWorldAfter(const Observation& parent, const Bounds& parent_budget, std::string_view parent_encoding,
                      const Observation& world, const Bounds& budget, const StateShape& shape, std::string& out,
                      SegmentMask& changed, SegmentMask may_change, bool one_step) {
  // The segments in forEachSegment's order, each the parent's bytes when its part is unchanged.
  changed = 0;
  SegmentMask bit = 1;
  const auto segment = [&](const auto& same, const auto& part) {
    const Segment before = takeSegment(parent_encoding);
    if ((may_change & bit) == 0 || same()) {
      out += before.whole;
    } else {
      encodeSegment(part, shape, out);
      changed |= bit;
    }
    bit <<= 1;
  };
  segment([&] { return sameZooKeeper(parent.zk, world.zk, shape); }, world.zk);
  for (const std::uint8_t b : shape.brokers()) {
    const BrokerData& was = parent.brokers[b];
    const BrokerData& is = world.brokers[b];
    const Segment requests = takeSegment(parent_encoding);
    if ((may_change & bit) == 0) {
      out += requests.whole;
    } else if (encodeRequestsAfter(was.inbox, is.inbox, requests, shape, one_step, out)) {
      changed |= bit;
    }
    bit <<= 1;
    segment([&] { return sameBrokerRest(was, is, shape); }, walker::BrokerRest<const BrokerData>{is});
    segment([&] { return sameController(was.controller, is.controller, shape); }, is.controller);
  }
  may_change |= bit;  // the budget: compared (a few ints, cheaper than their varints) whatever the step
  segment([&] { return parent_budget == budget; }, budget);
  changed &= kEveryWorldSegment;
  KCSPEC_ASSERT(parent_encoding.empty());
}

void decodeWorld(std::string_view bytes, const StateShape& shape, Observation& world, Bounds& budget) {
  forEachSegment(world, budget, shape, [&](auto&& part) { decodeSegment(takeSegment(bytes).body, shape, part); });
  KCSPEC_ASSERT(bytes.empty());
}

void decodeWorldOver(std::string_view bytes, std::string_view previous, const StateShape& shape, Observation& world,
                     Bounds& budget) {
  forEachSegment(world, budget, shape, [&](auto&& part) {
    const Segment segment = takeSegment(bytes);
    const Segment before = takeSegment(previous);
    if (before.whole == segment.whole) return;
    if constexpr (kIsRequestBlocks<std::remove_cvref_t<decltype(part)>>) {
      decodeRequestsOver(segment.body, before.body, shape, part.list);
    } else {
      decodeSegment(segment.body, shape, part);
    }
  });
  KCSPEC_ASSERT(bytes.empty() && previous.empty());
}

std::uint64_t hashBytes(std::string_view bytes) {
  walker::HashSink sink(StateShape{});
  for (char c : bytes) sink.put(static_cast<std::uint8_t>(c), 1);
  return sink.finish();
}

// xxHash64 (Yann Collet's public algorithm), seed 0.
std::uint64_t hashEncoding(std::string_view bytes) {
  using walker::kPrime1, walker::kPrime2, walker::kPrime3, walker::kPrime4, walker::kPrime5;
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  std::uint64_t h = 0;
  if (bytes.size() >= 32) {
    std::uint64_t v1 = kPrime1 + kPrime2;
    std::uint64_t v2 = kPrime2;
    std::uint64_t v3 = 0;
    std::uint64_t v4 = 0 - kPrime1;
    for (; p + 32 <= end; p += 32) {
      v1 = xxRound(v1, readWord(p));
      v2 = xxRound(v2, readWord(p + 8));
      v3 = xxRound(v3, readWord(p + 16));
      v4 = xxRound(v4, readWord(p + 24));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = xxMerge(h, v1);
    h = xxMerge(h, v2);
    h = xxMerge(h, v3);
    h = xxMerge(h, v4);
  } else {
    h = kPrime5;
  }
  h += static_cast<std::uint64_t>(bytes.size());
  for (; p + 8 <= end; p += 8) {
    h ^= xxRound(0, readWord(p));
    h = std::rotl(h, 27) * kPrime1 + kPrime4;
  }
  if (p + 4 <= end) {
    h ^= static_cast<std::uint64_t>(readHalf(p)) * kPrime1;
    h = std::rotl(h, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= static_cast<std::uint64_t>(static_cast<std::uint8_t>(*p)) * kPrime5;
    h = std::rotl(h, 11) * kPrime1;
  }
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

}  // namespace kcspec::explorer
