// inter.broker.protocol.version's spelling, as Kafka 3.8's MetadataVersion.fromVersionString reads it.
#include <gtest/gtest.h>

#include "spec/vocabulary/metadata_version.hpp"

namespace kcspec {
namespace {

using MV = MetadataVersion;

TEST(MetadataVersion, EveryFullSpellingParsesToItselfInKafkasOrder) {
  for (std::size_t i = 0; i < kMetadataVersionCount; ++i) {
    const auto version = static_cast<MV>(i);
    const std::string_view name = metadataVersionName(version);
    SCOPED_TRACE(std::string(name));
    EXPECT_EQ(parseMetadataVersion(name), version);
    if (i > 0) {
      EXPECT_LT(static_cast<MV>(i - 1), version);
    }
  }
  EXPECT_EQ(metadataVersionName(MV::IBP_0_8_0), "0.8.0");
  EXPECT_EQ(metadataVersionName(MV::IBP_0_10_0_IV1), "0.10.0-IV1");
  EXPECT_EQ(metadataVersionName(MV::IBP_2_7_IV2), "2.7-IV2");
  EXPECT_EQ(metadataVersionName(MV::IBP_3_8_IV0), "3.8-IV0");
}

TEST(MetadataVersion, AReleaseMeansItsNewestInternalVersion) {
  EXPECT_EQ(parseMetadataVersion("2.7"), MV::IBP_2_7_IV2);
  EXPECT_EQ(parseMetadataVersion("2.4"), MV::IBP_2_4_IV1);
  EXPECT_EQ(parseMetadataVersion("3.7"), MV::IBP_3_7_IV4);
  EXPECT_EQ(parseMetadataVersion("3.8"), MV::IBP_3_8_IV0);
  EXPECT_EQ(parseMetadataVersion("0.10.1"), MV::IBP_0_10_1_IV2);
  EXPECT_EQ(parseMetadataVersion("0.8.2"), MV::IBP_0_8_2);
  EXPECT_EQ(parseMetadataVersion("2.6"), MV::IBP_2_6_IV0);
}

// "Note that 'misconfigured' values such as "1.0.1" will be parsed to IBP_1_0_IV0 as we ignore
// anything after the first two digits for versions that don't start with "0."".
TEST(MetadataVersion, SegmentsPastTheReleaseAreIgnored) {
  EXPECT_EQ(parseMetadataVersion("1.0.1"), MV::IBP_1_0_IV0);
  EXPECT_EQ(parseMetadataVersion("2.7.0"), MV::IBP_2_7_IV2);
  EXPECT_EQ(parseMetadataVersion("3.8.1.2"), MV::IBP_3_8_IV0);
  EXPECT_EQ(parseMetadataVersion("2.7-IV1.x"), MV::IBP_2_7_IV1);
  EXPECT_EQ(parseMetadataVersion("0.10.0.1"), MV::IBP_0_10_0_IV1);
  EXPECT_EQ(parseMetadataVersion("0.10.0-IV0.5"), MV::IBP_0_10_0_IV0);
}

TEST(MetadataVersion, WhatKafkaRefuses) {
  for (const char* bad : {"", "3.9", "3.9-IV0", "2.7-IV3", "2", "2.", "2.7.", "0.10", "0.10.0.", ".2.7", "2..7",
                          "v2.7", "2.7-iv2", "2.7 ", "IBP_2_7_IV2", "4.0"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(parseMetadataVersion(bad), std::nullopt);
  }
}

}  // namespace
}  // namespace kcspec
