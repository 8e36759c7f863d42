// Kafka's Uuid (org.apache.kafka.common.Uuid): 128 bits, printed as URL-safe base64 without padding
// (22 characters). Topic ids are Uuids (KIP-516).
//
// Kafka draws topic ids at random (Uuid.randomUuid()). The reference controller draws them from the
// world's source instead (spec/vocabulary/topic_ids.hpp: the least number n that nothing holds for
// the topic), so that its observations can be compared with the spec's: id n of the topic at index
// t is the Uuid {kKcspecTag | t, n}, and the observation's TopicId is n (docs/world.md convention 13).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/vocabulary/ids.hpp"

namespace kcspec::impl {

struct Uuid {
  std::uint64_t most_significant_bits = 0;
  std::uint64_t least_significant_bits = 0;
  std::string toString() const;
  // Uuid.fromString; nothing for text that is not 22 URL-safe base64 characters.
  static std::optional<Uuid> fromString(std::string_view text);
  friend constexpr auto operator<=>(const Uuid&, const Uuid&) = default;
};

inline constexpr Uuid kZeroUuid{};  // Uuid.ZERO_UUID: "no id" on the wire

// The observation's number of a topic id this source gave (kNoTopicId for none).
TopicId topicIdNumber(const std::optional<Uuid>& id);
// The Uuid of the n-th id given to topic t (the inverse of topicIdNumber).
Uuid topicUuid(TopicIndex topic, TopicId number);

}  // namespace kcspec::impl
