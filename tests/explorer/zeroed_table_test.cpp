// ZeroedTable: every value starts at zero; a table of 2 MiB or more starts on a 2 MiB boundary,
// in a mapping that carries the huge-page advice (smaps' VmFlags "hg") where the kernel has
// transparent huge pages, and none of its pages is resident until written (mincore), so a table
// sized up front for hundreds of millions of states costs no time; smaller tables are zeroed on
// the heap; a move hands the values over.
#include "proofs/explorer/zeroed_table.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kcspec::explorer {
namespace {

constexpr std::size_t kTwoMiB = std::size_t{2} << 20;

// The VmFlags line of the /proc/self/smaps entry whose range holds `address` ("" if none).
std::string vmFlagsOf(const void* address) {
  const auto where = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= where && where < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// How many of the pages of [begin, begin + bytes) are resident (mincore, in the kernel's pages).
std::size_t residentPages(const void* begin, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(begin) / page * page;
  const std::size_t pages = (reinterpret_cast<std::uintptr_t>(begin) + bytes - start + page - 1) / page;
  std::vector<unsigned char> resident(pages);
  if (::mincore(reinterpret_cast<void*>(start), pages * page, resident.data()) != 0) return pages + 1;  // a failure shows
  std::size_t count = 0;
  for (const unsigned char flags : resident) count += flags & 1u;
  return count;
}

TEST(ZeroedTable, LargeTablesStartOnA2MiBBoundaryAllZero) {
  ZeroedTable<std::uint64_t> keys(3 * kTwoMiB / sizeof(std::uint64_t) + 5);
  ASSERT_EQ(keys.size(), 3 * kTwoMiB / sizeof(std::uint64_t) + 5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(keys.data()) % kTwoMiB, 0u);
  for (std::size_t i = 0; i < keys.size(); i += 511) ASSERT_EQ(keys[i], 0u) << i;
  EXPECT_EQ(keys[keys.size() - 1], 0u);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761u;
  for (std::size_t i = 0; i < keys.size(); i += 4097) ASSERT_EQ(keys[i], i * 2654435761u) << i;
  EXPECT_EQ(keys[keys.size() - 1], (keys.size() - 1) * 2654435761u);
}

// A gigabyte's table is made without touching it: no page is resident until written, and one
// written value makes one page resident (a 2 MiB one where huge pages are in use), not the table.
TEST(ZeroedTable, ALargeTableIsNotTouchedWhenMade) {
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  ZeroedTable<std::uint32_t> table(kBytes / sizeof(std::uint32_t));
  EXPECT_EQ(residentPages(table.data(), kBytes), 0u);
  table[12345] = 7;
  const std::size_t resident = residentPages(table.data(), kBytes);
  EXPECT_GE(resident, 1u);
  EXPECT_LE(resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)), 2 * kTwoMiB);
  EXPECT_EQ(table[12345], 7u);
  EXPECT_EQ(table[12346], 0u);
}

TEST(ZeroedTable, LargeTablesCarryTheHugePageAdvice) {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    GTEST_SKIP() << "this kernel has no transparent huge pages: the advice is not given";
  }
  ZeroedTable<std::uint32_t> parents(kTwoMiB);
  parents[0] = 7;
  const std::string flags = vmFlagsOf(parents.data());
  ASSERT_FALSE(flags.empty()) << "no /proc/self/smaps entry holds the table";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

TEST(ZeroedTable, AMoveHandsTheValuesOver) {
  const std::size_t count = kTwoMiB / sizeof(std::uint32_t) * 2 + 3;
  ZeroedTable<std::uint32_t> slots(count);
  for (std::size_t i = 0; i < count; ++i) slots[i] = static_cast<std::uint32_t>(i ^ 0x5a5a5a5au);
  const std::uint32_t* const where = slots.data();
  ZeroedTable<std::uint32_t> moved(std::move(slots));
  EXPECT_EQ(slots.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from table is empty
  EXPECT_EQ(slots.data(), nullptr);
  ASSERT_EQ(moved.size(), count);
  EXPECT_EQ(moved.data(), where);
  ZeroedTable<std::uint32_t> assigned(10);
  assigned = std::move(moved);
  ASSERT_EQ(assigned.size(), count);
  for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(assigned[i], static_cast<std::uint32_t>(i ^ 0x5a5a5a5au)) << i;
}

TEST(ZeroedTable, SmallTablesAreZeroedOnTheHeap) {
  ZeroedTable<std::uint64_t> small(100);
  const std::string flags = vmFlagsOf(small.data());
  EXPECT_EQ(flags.find(" hg"), std::string::npos) << flags;  // the heap carries no huge-page advice
  for (std::size_t i = 0; i < small.size(); ++i) ASSERT_EQ(small[i], 0u) << i;
  small[99] = 3;
  EXPECT_EQ(small[99], 3u);
  const ZeroedTable<std::uint64_t> empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.data(), nullptr);
}

}  // namespace
}  // namespace kcspec::explorer
