// Fingerprints and compact encodings of the modeled world (vocabulary types only, so that any
// system that produces an Observation can use them).
//
// Both walk every field of Observation and Bounds in one fixed order (state_codec.cpp's
// `walk` overloads, one per vocabulary type), except the slots of arrays indexed by broker id,
// partition or topic that a StateShape leaves out:
// - a StateShape built from a configuration names the brokers, topics and partitions that
//   configuration can ever use; every other slot keeps its default value in every state of it
//   (nothing starts a broker, creates a topic or adds a partition the configuration does not
//   name), so leaving them out loses nothing. Decoding fills only the shape's slots: decode
//   into a default value, or into a state of the same configuration (the explorer reuses one).
//   tests/explorer/state_codec_test.cpp checks the round trip on every explored state;
// - the encoding writes the fields as zig-zag varints and run-length encodes zero bytes (most
//   of a world is default values): a few hundred bytes for a 53 kB value. It is a sequence of
//   self-contained segments (ZooKeeper; per broker its request queue, its other fields, then its
//   controller module; the budget), so a successor's encoding reuses its parent's bytes for the parts a step left
//   unchanged (encodeWorldAfter) and a decoder skips the parts it already holds (decodeWorldOver);
// - hashEncoding(encoding) is the explorer's fingerprint of a state (xxHash64 of the bytes: the
//   encoding is canonical, so equal states hash equally);
// - fingerprintWorld (every slot, an xxHash64-style mixer over each field's little-endian
//   bytes, no encoding) is for systems without a configuration's shape at hand.
// None of these depend on the process, the platform's std::hash or padding.
//
// A field added to a vocabulary type must be added to its walk overload (and to kWalkedFields
// below); tests/explorer/state_codec_test.cpp fails to compile until it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include <string_view>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/requests.hpp"

namespace kcspec::explorer {

// How many fields state_codec.cpp walks in each struct (it checks its lists against these; the
// explorer tests check these against each struct's own field count, so a field added to the
// vocabulary and not to the walk fails the tests instead of silently merging distinct states).
template <class T>
inline constexpr std::size_t kWalkedFields = 0;
template <>
inline constexpr std::size_t kWalkedFields<TopicPartition> = 2;
template <>
inline constexpr std::size_t kWalkedFields<LeaderAndIsr> = 5;
template <>
inline constexpr std::size_t kWalkedFields<LeaderIsrAndControllerEpoch> = 2;
template <>
inline constexpr std::size_t kWalkedFields<ReplicaAssignment> = 3;
template <>
inline constexpr std::size_t kWalkedFields<PartitionStateZnode> = 2;
template <>
inline constexpr std::size_t kWalkedFields<TopicZnodes> = 5;
template <>
inline constexpr std::size_t kWalkedFields<BrokerRegistration> = 2;
template <>
inline constexpr std::size_t kWalkedFields<ReassignPartitionsZnode> = 4;
template <>
inline constexpr std::size_t kWalkedFields<PreferredReplicaElectionZnode> = 2;
template <>
inline constexpr std::size_t kWalkedFields<FeatureZnode> = 2;
template <>
inline constexpr std::size_t kWalkedFields<ZooKeeperData> = 15;
template <>
inline constexpr std::size_t kWalkedFields<PartitionContext> = 4;
template <>
inline constexpr std::size_t kWalkedFields<ControllerContextData> = 14;
template <>
inline constexpr std::size_t kWalkedFields<ControllerEvent> = 14;
template <>
inline constexpr std::size_t kWalkedFields<ControllerData> = 6;
template <>
inline constexpr std::size_t kWalkedFields<HostedReplica> = 9;
template <>
inline constexpr std::size_t kWalkedFields<LeaderAndIsrPartitionState> = 5;
template <>
inline constexpr std::size_t kWalkedFields<UpdateMetadataPartitionState> = 9;
template <>
inline constexpr std::size_t kWalkedFields<StopReplicaPartitionState> = 3;
template <>
inline constexpr std::size_t kWalkedFields<ControlRequest> = 10;
template <>
inline constexpr std::size_t kWalkedFields<StopReplicaResponse> = 4;
template <>
inline constexpr std::size_t kWalkedFields<LeaderAndIsrResponse> = 6;
template <>
inline constexpr std::size_t kWalkedFields<BrokerData> = 13;
template <>
inline constexpr std::size_t kWalkedFields<Observation> = 2;

// The slots of the id-indexed arrays a configuration's states can use.
class StateShape {
 public:
  StateShape();  // every slot
  explicit StateShape(const Config& config);

  std::span<const std::uint8_t> brokers() const { return brokers_; }     // broker ids
  std::span<const std::uint8_t> topics() const { return topics_; }       // topic indexes
  std::span<const std::uint8_t> partitions() const { return partitions_; }  // partitionIndex values
  // Partition numbers within a topic (0 … the most partitions any topic can reach − 1).
  std::span<const std::uint8_t> partitionsOfATopic() const { return partitions_of_a_topic_; }

 private:
  std::vector<std::uint8_t> brokers_;
  std::vector<std::uint8_t> topics_;
  std::vector<std::uint8_t> partitions_;
  std::vector<std::uint8_t> partitions_of_a_topic_;
};

// Every slot.
std::uint64_t fingerprintWorld(const Observation& world);
std::uint64_t fingerprintWorld(const Observation& world, const Bounds& budget);
void encodeWorld(const Observation& world, const Bounds& budget, std::string& out);
void decodeWorld(std::string_view bytes, Observation& world, Bounds& budget);

// The shape's slots: appends the encoding of (world, budget) to `out`; decodes what it wrote
// into `world` (whose other slots must hold their defaults) and `budget`. A malformed encoding
// stops the program: encodings never leave the process.
void encodeWorld(const Observation& world, const Bounds& budget, const StateShape& shape, std::string& out);
void decodeWorld(std::string_view bytes, const StateShape& shape, Observation& world, Bounds& budget);

// The world's segments as bits: bit 0 ZooKeeper; for the i-th broker of the shape, bit 1 + 3i
// its request queue, bit 2 + 3i its other fields and bit 3 + 3i its controller module. (The
// budget, the last segment, is tiny: compared whatever the step, and copied back whole.)
using SegmentMask = std::uint32_t;
inline constexpr SegmentMask kEveryWorldSegment = (SegmentMask{1} << (1 + 3 * kMaxBrokers)) - 1;
static_assert(1 + 3 * kMaxBrokers <= 32, "a SegmentMask has a bit per segment");

// Broker `b`'s request queue and other fields, not its controller module: all that a delivery to b
// changes (spec/rules/brokers.hpp processNextRequest). `b` must be one of the shape's brokers.
SegmentMask brokerDataSegments(const StateShape& shape, BrokerId b);

// encodeWorld(world, budget, shape, out), given the parent state `parent` (with `parent_budget`)
// the step that led to `world` started from and its encoding `parent_encoding` (=
// encodeWorld(parent, parent_budget, shape)): the parts of the state the step left unchanged are
// copied from the parent's encoding instead of walked again (the encoding is a sequence of
// self-contained segments, state_codec.cpp).
// `changed` tells which of the world's segments differ from the parent's. Only the segments in
// `may_change` are compared: the caller knows that the step left the others as they were. With
// `one_step` (`world` is the parent after one spec step), a request queue is judged by its length
// alone (spec/rules/step.hpp takeStep: a step changes a queue only at its ends); else its requests
// are compared.
void encodeWorldAfter(const Observation& parent, const Bounds& parent_budget, std::string_view parent_encoding,
                      const Observation& world, const Bounds& budget, const StateShape& shape, std::string& out,
                      SegmentMask& changed, SegmentMask may_change = kEveryWorldSegment, bool one_step = false);

// copyWorld restricted to some segments (the others of `to` are left as they are).
void copyWorldSegments(const Observation& from, Observation& to, const StateShape& shape, SegmentMask segments);

// decodeWorld(bytes, shape, world, budget) for a `world` and `budget` that hold the decoding of
// `previous` (an encoding of the same configuration): the segments whose bytes equal the
// previous ones are already in place and are skipped.
void decodeWorldOver(std::string_view bytes, std::string_view previous, const StateShape& shape, Observation& world,
                     Bounds& budget);

// to = from, for a `to` whose slots outside the shape hold their defaults (a state of the same
// configuration): copies only the shape's slots — its brokers, topics and partitions (for three
// brokers and three partitions, about a tenth of the world).
void copyWorld(const Observation& from, Observation& to, const StateShape& shape);

// to = Observation{} over the shape's slots and every field that is no slot (copyWorld from a
// default world): what a value reused for observations of one configuration is reset to.
void resetWorld(Observation& to, const StateShape& shape);

// fingerprintWorld over the shape's slots only (no encoding).
std::uint64_t fingerprintWorld(const Observation& world, const Bounds& budget, const StateShape& shape);

// a == b over the shape's slots (both states of the configuration, or values whose other slots
// hold their defaults): what operator== says for such values, at the cost of the copy.
bool sameWorld(const Observation& a, const Observation& b, const StateShape& shape);

// xxHash64 of an encoding (seed 0): the fingerprint of the state it encodes.
std::uint64_t hashEncoding(std::string_view bytes);

// The byte-wise mixing of fingerprintWorld over a byte string, for anything else the explorer
// fingerprints.
std::uint64_t hashBytes(std::string_view bytes);

}  // namespace kcspec::explorer
