// inter.broker.protocol.version: Kafka 3.8's MetadataVersion values (docs/kafka.md Appendix A.6), oldest
// first, and their spelling. A fact of Kafka's, read by the configuration and by both versions;
// what each value changes in the controller is rule code, written in spec/ and impl/ separately.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kcspec {

// In Kafka's order: a later value is a newer protocol (MetadataVersion.isAtLeast compares ordinals).
enum class MetadataVersion : std::uint8_t {
  IBP_0_8_0, IBP_0_8_1, IBP_0_8_2, IBP_0_9_0,
  IBP_0_10_0_IV0, IBP_0_10_0_IV1, IBP_0_10_1_IV0, IBP_0_10_1_IV1, IBP_0_10_1_IV2, IBP_0_10_2_IV0,
  IBP_0_11_0_IV0, IBP_0_11_0_IV1, IBP_0_11_0_IV2,
  IBP_1_0_IV0, IBP_1_1_IV0,
  IBP_2_0_IV0, IBP_2_0_IV1, IBP_2_1_IV0, IBP_2_1_IV1, IBP_2_1_IV2, IBP_2_2_IV0, IBP_2_2_IV1,
  IBP_2_3_IV0, IBP_2_3_IV1, IBP_2_4_IV0, IBP_2_4_IV1, IBP_2_5_IV0, IBP_2_6_IV0,
  IBP_2_7_IV0, IBP_2_7_IV1, IBP_2_7_IV2, IBP_2_8_IV0, IBP_2_8_IV1,
  IBP_3_0_IV0, IBP_3_0_IV1, IBP_3_1_IV0, IBP_3_2_IV0,
  IBP_3_3_IV0, IBP_3_3_IV1, IBP_3_3_IV2, IBP_3_3_IV3, IBP_3_4_IV0,
  IBP_3_5_IV0, IBP_3_5_IV1, IBP_3_5_IV2, IBP_3_6_IV0, IBP_3_6_IV1, IBP_3_6_IV2,
  IBP_3_7_IV0, IBP_3_7_IV1, IBP_3_7_IV2, IBP_3_7_IV3, IBP_3_7_IV4, IBP_3_8_IV0,
};

inline constexpr std::size_t kMetadataVersionCount = static_cast<std::size_t>(MetadataVersion::IBP_3_8_IV0) + 1;

// The newest value Kafka 3.8 runs in production, and a broker's default when it sets none.
inline constexpr MetadataVersion kLatestProductionMetadataVersion = MetadataVersion::IBP_3_8_IV0;

// Kafka's `version()`: "0.8.0", "0.10.0-IV1", "2.7-IV2", "3.8-IV0".
std::string_view metadataVersionName(MetadataVersion version);

// Kafka's MetadataVersion.fromVersionString: the full spelling ("2.7-IV2"), or a release ("2.7",
// "0.10.0") for its newest internal version; for a version that does not start with "0." only
// the first two dot-separated segments count ("2.7.1" is "2.7"), for one that does the first
// three. Nothing when Kafka would throw "Version … is not a valid version".
std::optional<MetadataVersion> parseMetadataVersion(std::string_view text);

}  // namespace kcspec
