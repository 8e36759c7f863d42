// GoalBits: one byte a state up to 8 goal bits, two up to 16 (the spec's eight liveness goals and
// the all-goals bit), four beyond; values come back and are widened in place, across chunk ends.
#include "proofs/explorer/goal_bits.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace kcspec::explorer {
namespace {

TEST(GoalBits, EightBitsTakeAByteAStateSixteenTwoMoreFour) {
  EXPECT_EQ(GoalBits(7).bytesPerState(), 1u);
  EXPECT_EQ(GoalBits(8).bytesPerState(), 1u);
  EXPECT_EQ(GoalBits(9).bytesPerState(), 2u);
  EXPECT_EQ(GoalBits(16).bytesPerState(), 2u);
  EXPECT_EQ(GoalBits(17).bytesPerState(), 4u);
  EXPECT_EQ(GoalBits(32).bytesPerState(), 4u);
}

TEST(GoalBits, ValuesComeBackAndWidenInPlace) {
  const std::size_t states = 200000;  // past a chunk of 65,536
  for (const std::size_t bits : {std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{16}, std::size_t{20}, std::size_t{32}}) {
    SCOPED_TRACE(bits);
    const std::uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    GoalBits goals(bits);
    for (std::size_t i = 0; i < states; ++i) goals.push_back(static_cast<std::uint32_t>(i * 2654435761u) & mask);
    ASSERT_EQ(goals.size(), states);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < states; ++i) {
      if (goals[i] != (static_cast<std::uint32_t>(i * 2654435761u) & mask)) ++mismatches;
    }
    EXPECT_EQ(mismatches, 0u);
    goals.set(states - 1, mask);  // every bit, the top one included
    goals.set(70000, 0);
    EXPECT_EQ(goals[states - 1], mask);
    EXPECT_EQ(goals[70000], 0u);
    EXPECT_EQ(goals[69999], static_cast<std::uint32_t>(69999 * 2654435761u) & mask);
  }
}

}  // namespace
}  // namespace kcspec::explorer
