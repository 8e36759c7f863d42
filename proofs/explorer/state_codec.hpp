// Fingerprints and compact encodings of the modeled world (vocabulary types only, so that any
// system that produces an Observation can use them).
//
// Both walk EVERY field of Observation and Bounds in one fixed order (state_codec.cpp's
// `walk` overloads, one per vocabulary type):
// - the fingerprint feeds each field's little-endian bytes (fixed width per type: bool and
//   enums 1, int32 4, int64 8; a container's size before its elements; an optional's flag
//   before its value) into an xxHash64-style mixer. That byte stream is a prefix-free
//   encoding of the value, so equal worlds hash equally and different ones differ in the
//   stream. The result does not depend on the process, the platform's std::hash or padding.
// - the encoding writes the same fields as zig-zag varints and then run-length encodes zero
//   bytes (most of a world is empty slots): typically a few hundred bytes for a 53 kB value.
//
// A field added to a vocabulary type must be added to its walk overload (and to kWalkedFields
// below); tests/explorer/state_codec_test.cpp fails to compile until it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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
inline constexpr std::size_t kWalkedFields<TopicZnodes> = 4;
template <>
inline constexpr std::size_t kWalkedFields<BrokerRegistration> = 2;
template <>
inline constexpr std::size_t kWalkedFields<ZooKeeperData> = 7;
template <>
inline constexpr std::size_t kWalkedFields<PartitionContext> = 4;
template <>
inline constexpr std::size_t kWalkedFields<ControllerContextData> = 11;
template <>
inline constexpr std::size_t kWalkedFields<ControllerEvent> = 11;
template <>
inline constexpr std::size_t kWalkedFields<ControllerData> = 6;
template <>
inline constexpr std::size_t kWalkedFields<HostedReplica> = 6;
template <>
inline constexpr std::size_t kWalkedFields<LeaderAndIsrPartitionState> = 4;
template <>
inline constexpr std::size_t kWalkedFields<UpdateMetadataPartitionState> = 8;
template <>
inline constexpr std::size_t kWalkedFields<StopReplicaPartitionState> = 3;
template <>
inline constexpr std::size_t kWalkedFields<ControlRequest> = 9;
template <>
inline constexpr std::size_t kWalkedFields<StopReplicaResponse> = 3;
template <>
inline constexpr std::size_t kWalkedFields<BrokerData> = 9;
template <>
inline constexpr std::size_t kWalkedFields<Observation> = 2;

std::uint64_t fingerprintWorld(const Observation& world);
std::uint64_t fingerprintWorld(const Observation& world, const Bounds& budget);

// Appends the encoding of (world, budget) to `out`.
void encodeWorld(const Observation& world, const Bounds& budget, std::string& out);

// Decodes what encodeWorld wrote (a malformed encoding stops the program: encodings never
// leave the process).
void decodeWorld(std::string_view bytes, Observation& world, Bounds& budget);

// The same xxHash64-style mixing over a byte string, for anything else the explorer fingerprints.
std::uint64_t hashBytes(std::string_view bytes);

}  // namespace kcspec::explorer
