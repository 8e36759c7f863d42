// ChunkedVector: values come back at their index across chunk ends, entries stay where they are
// (a reference taken early still reads the same value after the vector grew), and its memory is
// the data plus at most one partly filled chunk.
#include "proofs/explorer/chunked_vector.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace kcspec::explorer {
namespace {

TEST(ChunkedVector, ValuesComeBackAcrossChunks) {
  ChunkedVector<std::uint64_t, 8> values;
  EXPECT_TRUE(values.empty());
  for (std::uint64_t i = 0; i < 100; ++i) values.push_back(i * i + 7);
  ASSERT_EQ(values.size(), 100u);
  for (std::uint64_t i = 0; i < 100; ++i) EXPECT_EQ(values[i], i * i + 7) << i;
  values[42] = 1;
  EXPECT_EQ(values[42], 1u);
  EXPECT_EQ(values[41], 41u * 41u + 7);
}

TEST(ChunkedVector, EntriesNeverMove) {
  ChunkedVector<std::uint32_t, 4> values;
  values.push_back(5);
  const std::uint32_t* first = &values[0];
  for (std::uint32_t i = 0; i < 1000; ++i) values.push_back(i);
  EXPECT_EQ(first, &values[0]);
  EXPECT_EQ(*first, 5u);
}

TEST(ChunkedVector, MemoryIsTheDataPlusAtMostOneChunk) {
  ChunkedVector<std::uint32_t, 16> values;
  EXPECT_EQ(values.bytes(), 0u);
  for (std::uint32_t i = 0; i < 17; ++i) values.push_back(i);
  const std::size_t data = 17 * sizeof(std::uint32_t);
  EXPECT_GE(values.bytes(), data);
  EXPECT_LE(values.bytes(), data + 16 * sizeof(std::uint32_t) + 2 * sizeof(void*));
}

}  // namespace
}  // namespace kcspec::explorer
