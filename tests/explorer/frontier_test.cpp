// The explorer's Frontier: encodings stored in fixed blocks come back byte for byte, in order,
// with their slots, across block ends and for encodings larger than a block; its memory is what
// it holds (blocks are never reallocated, so nothing is counted twice).
#include "proofs/explorer/frontier.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcspec::explorer {
namespace {

std::string encodingOf(std::size_t i) {
  // Lengths 1 … 997 (never a multiple of the block size), contents that differ per state.
  std::string bytes(1 + (i * 7919) % 997, '\0');
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>((i * 31 + k) & 0xFF);
  return bytes;
}

TEST(Frontier, EncodingsComeBackInOrderAcrossBlocks) {
  Frontier frontier;
  std::size_t total_bytes = 0;
  const std::size_t count = 2000;  // about 1 MB: many blocks of 64 KiB
  for (std::size_t i = 0; i < count; ++i) {
    const std::string encoding = encodingOf(i);
    total_bytes += encoding.size();
    frontier.push(encoding, static_cast<Frontier::Slot>(10 * i));
  }
  ASSERT_GT(total_bytes, 4 * Frontier::kBlockBytes);
  ASSERT_EQ(frontier.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(frontier.at(i), encodingOf(i)) << "state " << i;
    EXPECT_EQ(frontier.slotAt(i), 10 * i);
  }
}

TEST(Frontier, AnEncodingLargerThanABlockGetsABlockOfItsOwn) {
  Frontier frontier;
  const std::string small(100, 'a');
  const std::string huge(Frontier::kBlockBytes * 2 + 17, 'b');
  frontier.push(small, 1);
  frontier.push(huge, 2);
  frontier.push(small, 3);
  EXPECT_EQ(frontier.at(0), small);
  EXPECT_EQ(frontier.at(1), huge);
  EXPECT_EQ(frontier.at(2), small);
  EXPECT_GE(frontier.memory(), 2 * Frontier::kBlockBytes + huge.size());
}

TEST(Frontier, BytesToPushPredictsTheGrowth) {
  Frontier frontier;
  for (std::size_t i = 0; i < 500; ++i) {
    const std::string encoding = encodingOf(i);
    const std::size_t predicted = frontier.bytesToPush(encoding.size());
    const std::size_t before = frontier.memory();
    frontier.push(encoding, 0);
    // The entry vectors may reserve ahead (doubling), so the prediction bounds the blocks' part.
    EXPECT_LE(frontier.memory() - before, predicted + frontier.size() * 16) << "state " << i;
    if (predicted >= Frontier::kBlockBytes) {
      EXPECT_GE(frontier.memory() - before, Frontier::kBlockBytes);
    }
  }
  // Memory stays within one block (plus the entries) of what is held.
  std::size_t held = 0;
  for (std::size_t i = 0; i < frontier.size(); ++i) held += frontier.at(i).size();
  EXPECT_LE(frontier.memory(), held + 2 * Frontier::kBlockBytes + frontier.size() * 32);
}

TEST(Frontier, RemapMovesEverySlot) {
  Frontier frontier;
  for (Frontier::Slot slot = 0; slot < 5; ++slot) frontier.push(std::string(1, 'x'), slot);
  const std::vector<Frontier::Slot> map = {40, 30, 20, 10, 0};
  frontier.remap(map);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(frontier.slotAt(i), map[i]);
}

}  // namespace
}  // namespace kcspec::explorer
