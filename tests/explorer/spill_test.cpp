// Spilling to disk (`kcspec explore --spill-dir`): a SpillFile gives back what was appended and
// leaves no name in its directory; a bad directory is refused with its name; RecoveryEdges come
// back per state, backwards, across chunk ends, held in memory or spilled, and spilled they take
// a bounded amount of memory; a spilled Frontier gives back every encoding (in any order, from two
// threads) and holds less than one kept in memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "proofs/explorer/frontier.hpp"
#include "proofs/explorer/recovery_edges.hpp"
#include "proofs/explorer/spill_file.hpp"

namespace kcspec::explorer {
namespace {

namespace fs = std::filesystem;

// A fresh, empty directory of this test's own.
fs::path emptyDirectory(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("kcspec-spill-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::size_t entriesIn(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(SpillFile, GivesBackWhatWasAppendedAndLeavesNoName) {
  const fs::path dir = emptyDirectory("file");
  {
    SpillFile file(dir.string());
    std::string first(100000, 'a');
    for (std::size_t i = 0; i < first.size(); ++i) first[i] = static_cast<char>(i * 7);
    const std::string second = "second";
    EXPECT_EQ(file.append(first.data(), first.size()), 0u);
    EXPECT_EQ(file.append(second.data(), second.size()), first.size());
    EXPECT_EQ(file.size(), first.size() + second.size());
    std::string back(second.size(), '\0');
    file.read(first.size(), back.data(), back.size());
    EXPECT_EQ(back, second);
    std::string middle(5000, '\0');
    file.read(777, middle.data(), middle.size());
    EXPECT_EQ(middle, first.substr(777, 5000));
    EXPECT_EQ(entriesIn(dir), 0u);  // unnamed while open
  }
  EXPECT_EQ(entriesIn(dir), 0u);
}

TEST(SpillFile, ADirectoryThatCannotHoldOneIsNamed) {
  const fs::path missing = emptyDirectory("missing") / "no" / "such";
  EXPECT_NE(spillDirectoryProblem(missing.string()).find(missing.string()), std::string::npos);
  try {
    SpillFile file(missing.string());
    ADD_FAILURE() << "a spill file in a missing directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("spill file in " + missing.string() + ": cannot create"), std::string::npos)
        << e.what();
  }
  const fs::path regular = emptyDirectory("regular") / "a-file";
  { std::ofstream(regular) << "x"; }
  EXPECT_FALSE(spillDirectoryProblem(regular.string()).empty());
  EXPECT_EQ(spillDirectoryProblem(emptyDirectory("fine").string()), "");
}

// State i has i % 5 edges, to (i * 31 + k) % 100003 for k = 0, 1, ….
std::vector<std::uint32_t> edgesOf(std::uint32_t i) {
  std::vector<std::uint32_t> edges;
  for (std::uint32_t k = 0; k < i % 5; ++k) edges.push_back((i * 31 + k) % 100003);
  return edges;
}

template <class Edges>
void fill(Edges& log, std::uint32_t states) {
  for (std::uint32_t i = 0; i < states; ++i) {
    for (std::uint32_t target : edgesOf(i)) log.addEdge(target);
    log.endState();
  }
}

// Reads the log backwards (twice, as the liveness pass's sweeps do) and counts the states whose
// edges differ from edgesOf(i).
template <class Edges>
std::size_t mismatchesReadingBackwards(Edges& log, std::uint32_t states) {
  std::size_t mismatches = 0;
  for (int sweep = 0; sweep < 2; ++sweep) {
    typename Edges::Backwards reader(log);
    for (std::uint32_t i = states; i-- > 0;) {
      EXPECT_FALSE(reader.done());
      std::vector<std::uint32_t> read;
      reader.previousState([&](std::uint32_t target) { read.push_back(target); });
      std::vector<std::uint32_t> expected = edgesOf(i);
      std::reverse(expected.begin(), expected.end());  // backwards
      if (read != expected) ++mismatches;
    }
    EXPECT_TRUE(reader.done());
  }
  return mismatches;
}

TEST(RecoveryEdges, StatesComeBackBackwardsAcrossChunkEnds) {
  const std::uint32_t states = 1000;  // 2,000 edges and 1,000 counts in chunks of 16 words
  BasicRecoveryEdges<16> log;
  fill(log, states);
  EXPECT_EQ(log.states(), states);
  EXPECT_EQ(log.edges(), 2000u);
  EXPECT_EQ(mismatchesReadingBackwards(log, states), 0u);
  EXPECT_GE(log.bytes(), (2000 + 1000) * sizeof(std::uint32_t));
}

TEST(RecoveryEdges, SpilledTheyComeBackInBoundedMemory) {
  const fs::path dir = emptyDirectory("edges");
  const std::uint32_t states = 100000;
  using Edges = BasicRecoveryEdges<1024>;  // 300,000 words: 293 chunks of 4 KiB
  Edges kept;
  Edges spilled(std::make_unique<SpillFile>(dir.string()));
  fill(kept, states);
  fill(spilled, states);
  EXPECT_EQ(spilled.edges(), kept.edges());
  EXPECT_EQ(mismatchesReadingBackwards(spilled, states), 0u);
  EXPECT_GT(kept.bytes(), 300000 * sizeof(std::uint32_t));
  // The chunk being filled, the read buffer, and the chunk table (16 bytes a chunk, capacity 512).
  EXPECT_LE(spilled.bytes(), 2 * Edges::kChunkBytes + 512 * 16);
  EXPECT_EQ(entriesIn(dir), 0u);
}

TEST(RecoveryEdges, ReadingResumesAfterMoreStates) {
  // The liveness pass reads once the exploration is over; a reader made earlier sees the states
  // that had ended then.
  BasicRecoveryEdges<4> log;
  fill(log, 10);
  log.addEdge(12345);  // the 11th state, not ended
  typename BasicRecoveryEdges<4>::Backwards reader(log);
  std::vector<std::uint32_t> last;
  reader.previousState([&](std::uint32_t target) { last.push_back(target); });
  std::vector<std::uint32_t> expected = edgesOf(9);
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(last, expected);
}

// Like consecutive explorer states: a few fields change per state.
std::string encodingOf(std::size_t i) {
  std::string bytes(300 + i % 40, '\0');
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>((k * 13) % 7 == 0 ? k & 0x7F : 0);
  bytes[20] = static_cast<char>(i & 0xFF);
  bytes[21] = static_cast<char>((i >> 8) & 0xFF);
  bytes[200] = static_cast<char>((i * 7919) & 0xFF);
  return bytes;
}

std::vector<std::string> encodings() {
  std::vector<std::string> all;
  std::mt19937_64 random(20261201);
  for (std::size_t i = 0; i < 30000; ++i) {
    all.push_back(encodingOf(i));
    if (i % 1000 == 17) {  // incompressible ones, one larger than a block
      std::string noise(i == 5017 ? Frontier::kBlockBytes * 2 + 3 : 700, '\0');
      for (char& byte : noise) byte = static_cast<char>(random() & 0xFF);
      all.push_back(noise);
    }
  }
  return all;
}

TEST(Frontier, SpilledEveryEncodingComesBackFromTwoThreadsInLessMemory) {
  const fs::path dir = emptyDirectory("frontier");
  const std::vector<std::string> all = encodings();
  Frontier kept;
  Frontier spilled(dir.string());
  for (std::size_t i = 0; i < all.size(); ++i) {
    kept.push(all[i], static_cast<Frontier::Slot>(i));
    spilled.push(all[i], static_cast<Frontier::Slot>(i));
  }
  kept.finish();
  spilled.finish();
  ASSERT_EQ(spilled.size(), all.size());
  EXPECT_EQ(entriesIn(dir), 0u);
  // Kept: every block; spilled: the per-state records and the last block.
  EXPECT_GT(kept.memory(), 10 * Frontier::kBlockBytes);
  EXPECT_LT(spilled.memory(), kept.memory() - 8 * Frontier::kBlockBytes);
  std::vector<std::size_t> mismatches(2, 0);
  auto read = [&](std::size_t thread) {
    Frontier::Cursor cursor;
    for (std::size_t n = 0; n < all.size(); ++n) {
      const std::size_t i = thread == 0 ? n : all.size() - 1 - n;  // in order, and backwards
      if (spilled.at(i, cursor) != all[i] || spilled.slotAt(i) != i) ++mismatches[thread];
    }
    for (std::size_t n = 0; n < 2000; ++n) {  // at random
      const std::size_t i = (n * 7919 + 13 * thread) % all.size();
      if (spilled.at(i, cursor) != all[i]) ++mismatches[thread];
    }
  };
  std::thread other(read, 1);
  read(0);
  other.join();
  EXPECT_EQ(mismatches[0], 0u);
  EXPECT_EQ(mismatches[1], 0u);
  // A cursor moves between a spilled frontier and a kept one.
  Frontier::Cursor cursor;
  EXPECT_EQ(spilled.at(5, cursor), all[5]);
  EXPECT_EQ(kept.at(5, cursor), all[5]);
  EXPECT_EQ(spilled.at(all.size() - 1, cursor), all.back());
  EXPECT_EQ(kept.at(6, cursor), all[6]);
}

TEST(Frontier, ASpillDirectoryThatWentAwayThrowsOnTheFirstFullBlock) {
  const fs::path dir = emptyDirectory("gone");
  Frontier frontier(dir.string());
  fs::remove_all(dir);
  std::size_t pushed = 0;
  try {
    for (; pushed < 100000; ++pushed) frontier.push(std::string(1000, static_cast<char>(pushed)), 0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.string()), std::string::npos) << e.what();
  }
  EXPECT_GT(pushed, 0u);
}

}  // namespace
}  // namespace kcspec::explorer
