// Kafka's Uuid and the reference controller's source of topic ids (uuid.hpp).
#include "impl/uuid.hpp"

#include <limits>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {
namespace {

constexpr std::string_view kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::uint64_t kKcspecTag = 0x6b63737065630000ULL;  // "kcspec" in the high bytes
constexpr std::uint64_t kTopicMask = 0xffffULL;

int base64Value(char c) {
  const std::size_t at = kBase64Url.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace

std::string Uuid::toString() const {
  std::array<std::uint8_t, 16> bytes{};
  for (int i = 0; i < 8; ++i) {
    bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(most_significant_bits >> (56 - 8 * i));
    bytes[static_cast<std::size_t>(8 + i)] = static_cast<std::uint8_t>(least_significant_bits >> (56 - 8 * i));
  }
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::uint8_t byte : bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kBase64Url[(buffer >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += kBase64Url[(buffer << (6 - bits)) & 0x3f];  // 128 bits: 21 full sextets and 2 bits
  return out;
}

std::optional<Uuid> Uuid::fromString(std::string_view text) {
  if (text.size() != 22) return std::nullopt;
  std::array<std::uint8_t, 16> bytes{};
  std::uint32_t buffer = 0;
  int bits = 0;
  std::size_t at = 0;
  for (char c : text) {
    const int value = base64Value(c);
    if (value < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (at < bytes.size()) bytes[at++] = static_cast<std::uint8_t>(buffer >> bits);
    }
  }
  if (at != bytes.size() || (buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  Uuid out;
  for (int i = 0; i < 8; ++i) {
    out.most_significant_bits = (out.most_significant_bits << 8) | bytes[static_cast<std::size_t>(i)];
    out.least_significant_bits = (out.least_significant_bits << 8) | bytes[static_cast<std::size_t>(8 + i)];
  }
  return out;
}

TopicId topicIdNumber(const std::optional<Uuid>& id) {
  if (!id || *id == kZeroUuid) return kNoTopicId;
  KCSPEC_ASSERT((id->most_significant_bits & ~kTopicMask) == kKcspecTag);
  KCSPEC_ASSERT(id->least_significant_bits > 0 && id->least_significant_bits <= std::numeric_limits<TopicId>::max());
  return static_cast<TopicId>(id->least_significant_bits);
}

Uuid topicUuid(TopicIndex topic, TopicId number) {
  KCSPEC_ASSERT(topic >= 0 && topic < kMaxTopics && number != kNoTopicId);
  return Uuid{kKcspecTag | static_cast<std::uint64_t>(topic), number};
}

}  // namespace kcspec::impl
