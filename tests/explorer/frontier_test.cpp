// The explorer's Frontier: encodings stored compressed in fixed blocks come back byte for byte,
// in order, with their slots — similar and dissimilar ones, empty and 1-byte ones, ones larger
// than a block or than a compression group, incompressible ones — read in order, backwards, at
// random and from two threads at once; similar encodings take less memory than their raw
// bytes; bytesToPush bounds what a push adds; its memory is what it holds.
#include "proofs/explorer/frontier.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace kcspec::explorer {
namespace {

std::string encodingOf(std::size_t i) {
  // Lengths 1 … 997 (never a multiple of the block size), contents that differ per state.
  std::string bytes(1 + (i * 7919) % 997, '\0');
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>((i * 31 + k) & 0xFF);
  return bytes;
}

// Like consecutive explorer states: one layout of 400 bytes, a few fields changed per state
// (the state's number written into three places), every 50th one a bit longer.
std::string similarEncodingOf(std::size_t i) {
  std::string bytes(400 + (i % 50 == 0 ? 7 : 0), '\0');
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>((k * 13) % 7 == 0 ? k & 0x7F : 0);
  for (std::size_t field : {std::size_t{10}, std::size_t{150}, std::size_t{390}}) {
    bytes[field] = static_cast<char>(i & 0xFF);
    bytes[field + 1] = static_cast<char>((i >> 8) & 0xFF);
  }
  return bytes;
}

std::string randomBytes(std::mt19937_64& random, std::size_t length) {
  std::string bytes(length, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xFF);
  return bytes;
}

// Encodings of every kind, in an order that mixes them.
std::vector<std::string> mixedEncodings() {
  const std::uint64_t seed = 20261130;
  std::mt19937_64 random(seed);
  std::vector<std::string> encodings;
  for (std::size_t i = 0; i < 3000; ++i) {
    switch (i % 10) {
      case 0: encodings.push_back(std::string()); break;
      case 1: encodings.push_back(std::string(1, static_cast<char>(i & 0xFF))); break;
      case 2: encodings.push_back(randomBytes(random, 1 + random() % 900)); break;  // incompressible
      case 3: encodings.push_back(encodingOf(i)); break;
      default: encodings.push_back(similarEncodingOf(i)); break;
    }
    if (i == 1234) encodings.push_back(std::string(Frontier::kBlockBytes * 2 + 17, 'b'));    // larger than a block
    if (i == 2345) encodings.push_back(randomBytes(random, Frontier::kBlockBytes + 5));       // incompressible too
    if (i == 2500) encodings.push_back(randomBytes(random, Frontier::kGroupBytes));           // exactly a group
  }
  return encodings;
}

Frontier frontierOf(const std::vector<std::string>& encodings) {
  Frontier frontier;
  for (std::size_t i = 0; i < encodings.size(); ++i) frontier.push(encodings[i], static_cast<Frontier::Slot>(10 * i));
  return frontier;
}

TEST(Frontier, EncodingsComeBackInOrderAcrossBlocks) {
  Frontier frontier;
  std::size_t total_bytes = 0;
  const std::size_t count = 2000;  // about 1 MB raw: many blocks of 64 KiB even compressed
  for (std::size_t i = 0; i < count; ++i) {
    const std::string encoding = encodingOf(i);
    total_bytes += encoding.size();
    frontier.push(encoding, static_cast<Frontier::Slot>(10 * i));
  }
  ASSERT_GT(total_bytes, 4 * Frontier::kBlockBytes);
  ASSERT_EQ(frontier.size(), count);
  Frontier::Cursor cursor;
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(frontier.at(i, cursor), encodingOf(i)) << "state " << i;
    EXPECT_EQ(frontier.slotAt(i), 10 * i);
  }
}

TEST(Frontier, EveryKindOfEncodingComesBackInAnyOrder) {
  const std::vector<std::string> encodings = mixedEncodings();
  const Frontier frontier = frontierOf(encodings);
  ASSERT_EQ(frontier.size(), encodings.size());
  Frontier::Cursor cursor;
  for (std::size_t i = 0; i < encodings.size(); ++i) {
    ASSERT_EQ(frontier.at(i, cursor), encodings[i]) << "state " << i << " read in order";
    EXPECT_EQ(frontier.slotAt(i), 10 * i);
  }
  for (std::size_t i = encodings.size(); i-- > 0;) {
    ASSERT_EQ(frontier.at(i, cursor), encodings[i]) << "state " << i << " read backwards";
  }
  const std::uint64_t seed = 7;
  std::mt19937_64 random(seed);
  for (std::size_t n = 0; n < 5000; ++n) {
    const std::size_t i = random() % encodings.size();
    ASSERT_EQ(frontier.at(i, cursor), encodings[i]) << "state " << i << " read at random (seed " << seed << ")";
  }
}

TEST(Frontier, OneCursorReadsSeveralFrontiers) {
  // A cursor holds one frontier's group; reading another one, or a frontier moved elsewhere
  // and refilled, must not return the group it held.
  const std::vector<std::string> a = {similarEncodingOf(1), similarEncodingOf(2), similarEncodingOf(3)};
  const std::vector<std::string> b = {similarEncodingOf(7), similarEncodingOf(8), similarEncodingOf(9)};
  Frontier first = frontierOf(a);
  const Frontier second = frontierOf(b);
  Frontier::Cursor cursor;
  EXPECT_EQ(first.at(1, cursor), a[1]);
  EXPECT_EQ(second.at(2, cursor), b[2]);
  EXPECT_EQ(first.at(2, cursor), a[2]);
  Frontier moved = std::move(first);
  EXPECT_EQ(moved.at(0, cursor), a[0]);
  first = frontierOf(b);
  EXPECT_EQ(first.at(1, cursor), b[1]);
  EXPECT_EQ(moved.at(1, cursor), a[1]);
}

TEST(Frontier, PushingAfterFinishStartsANewGroup) {
  Frontier frontier;
  for (std::size_t i = 0; i < 10; ++i) frontier.push(similarEncodingOf(i), 0);
  frontier.finish();
  const std::size_t finished = frontier.memory();
  for (std::size_t i = 10; i < 20; ++i) frontier.push(similarEncodingOf(i), 0);
  EXPECT_GT(frontier.memory(), finished);  // pushing needs its encoder again
  Frontier::Cursor cursor;
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(frontier.at(i, cursor), similarEncodingOf(i)) << "state " << i;
}

TEST(Frontier, TwoThreadsReadAtOnce) {
  const std::vector<std::string> encodings = mixedEncodings();
  const Frontier frontier = frontierOf(encodings);
  // Each thread reads every state, in chunks in a different order, so their groups overlap.
  std::vector<std::size_t> mismatches(2, 0);
  auto read = [&](std::size_t thread) {
    Frontier::Cursor cursor;
    for (int round = 0; round < 3; ++round) {
      for (std::size_t n = 0; n < encodings.size(); ++n) {
        const std::size_t i = thread == 0 ? n : (n * 7919 + 13) % encodings.size();
        if (frontier.at(i, cursor) != encodings[i]) ++mismatches[thread];
      }
    }
  };
  std::thread other(read, 1);
  read(0);
  other.join();
  EXPECT_EQ(mismatches[0], 0u);
  EXPECT_EQ(mismatches[1], 0u);
}

TEST(Frontier, SimilarEncodingsTakeLessThanTheirRawBytes) {
  Frontier frontier;
  std::size_t raw_bytes = 0;
  for (std::size_t i = 0; i < 20000; ++i) {  // about 8 MB raw
    const std::string encoding = similarEncodingOf(i);
    raw_bytes += encoding.size();
    frontier.push(encoding, static_cast<Frontier::Slot>(i));
  }
  frontier.finish();
  // Everything counted: blocks, positions, slots.
  EXPECT_LT(frontier.memory() * 4, raw_bytes) << "memory " << frontier.memory() << " for " << raw_bytes << " raw bytes";
  Frontier::Cursor cursor;
  for (std::size_t i = 0; i < frontier.size(); i += 97) EXPECT_EQ(frontier.at(i, cursor), similarEncodingOf(i));
}

TEST(Frontier, IncompressibleEncodingsTakeAboutTheirRawBytes) {
  // Stored as they are: no more than their bytes plus the fixed costs.
  std::mt19937_64 random(99);
  Frontier frontier;
  std::size_t raw_bytes = 0;
  std::vector<std::string> encodings;
  for (std::size_t i = 0; i < 500; ++i) {
    encodings.push_back(randomBytes(random, 600));
    raw_bytes += encodings.back().size();
    frontier.push(encodings.back(), 0);
  }
  frontier.finish();
  EXPECT_LE(frontier.memory(), raw_bytes + Frontier::kBlockBytes + 500 * 12 + 64 * 1024);
  Frontier::Cursor cursor;
  for (std::size_t i = 0; i < encodings.size(); ++i) EXPECT_EQ(frontier.at(i, cursor), encodings[i]);
}

TEST(Frontier, AnEncodingLargerThanABlockGetsABlockOfItsOwn) {
  Frontier frontier;
  const std::string small(100, 'a');
  const std::string huge(Frontier::kBlockBytes * 2 + 17, 'b');
  frontier.push(small, 1);
  frontier.push(huge, 2);
  frontier.push(small, 3);
  Frontier::Cursor cursor;
  EXPECT_EQ(frontier.at(0, cursor), small);
  EXPECT_EQ(frontier.at(1, cursor), huge);
  EXPECT_EQ(frontier.at(2, cursor), small);
  EXPECT_EQ(frontier.at(1, cursor), huge);
  EXPECT_GE(frontier.memory(), 2 * Frontier::kBlockBytes + huge.size());
}

TEST(Frontier, BytesToPushBoundsTheGrowth) {
  const std::vector<std::string> encodings = mixedEncodings();
  Frontier frontier;
  for (std::size_t i = 0; i < encodings.size(); ++i) {
    const std::size_t predicted = frontier.bytesToPush(encodings[i].size());
    const std::size_t before = frontier.memory();
    frontier.push(encodings[i], 0);
    EXPECT_LE(frontier.memory() - before, predicted) << "state " << i;
  }
  // Memory stays within one block (plus positions, slots and the encoder) of the raw bytes.
  std::size_t raw_bytes = 0;
  for (const std::string& encoding : encodings) raw_bytes += encoding.size();
  EXPECT_LE(frontier.memory(), raw_bytes + 2 * Frontier::kBlockBytes + Frontier::kGroupBytes * 3);
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
