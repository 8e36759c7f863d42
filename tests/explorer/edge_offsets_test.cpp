// EdgeOffsets: 64-bit non-decreasing offsets come back at their index across block ends, also
// when the offsets themselves pass 2^32 (only a block's spread must stay below it), and take 4
// bytes an entry.
#include "proofs/explorer/edge_offsets.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace kcspec::explorer {
namespace {

TEST(EdgeOffsets, OffsetsComeBackAcrossBlocksAndPast4Gi) {
  BasicEdgeOffsets<8> offsets;
  std::vector<std::uint64_t> expected;
  std::uint64_t offset = (std::uint64_t{1} << 32) - 40;  // crosses 2^32 within the first blocks
  for (std::uint64_t i = 0; i < 100; ++i) {
    expected.push_back(offset);
    offsets.push_back(offset);
    offset += i % 7;  // some states have no recovery edges: equal neighbours
  }
  ASSERT_EQ(offsets.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(offsets[i], expected[i]) << i;
}

TEST(EdgeOffsets, ABlockSpreadOf2To32IsRefused) {
  BasicEdgeOffsets<8> offsets;
  offsets.push_back(5);
  offsets.push_back(5 + 0xffffffffull);  // the largest distance that fits
  EXPECT_EQ(offsets[1], 5 + 0xffffffffull);
  EXPECT_THROW(offsets.push_back(5 + 0x100000000ull), std::length_error);
  // A new block starts from its own first offset.
  BasicEdgeOffsets<2> fresh;
  fresh.push_back(0);
  fresh.push_back(10);
  fresh.push_back(0x300000000ull);
  EXPECT_EQ(fresh[2], 0x300000000ull);
}

TEST(EdgeOffsets, FourBytesAnEntry) {
  BasicEdgeOffsets<16> offsets;
  for (std::uint64_t i = 0; i < 160; ++i) offsets.push_back(3 * i);
  EXPECT_GE(offsets.bytes(), 160 * sizeof(std::uint32_t));
  EXPECT_LE(offsets.bytes(), 160 * sizeof(std::uint32_t) + 10 * sizeof(void*) + 16 * sizeof(std::uint64_t));
}

}  // namespace
}  // namespace kcspec::explorer
