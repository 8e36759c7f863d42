// HugePageAllocator: a table of 2 MiB or more starts on a 2 MiB boundary, in a mapping that
// carries the huge-page advice (smaps' VmFlags "hg") where the kernel has transparent huge
// pages; values survive a vector's growth from operator new's storage into a mapping and its
// copies; smaller tables stay with operator new.
#include "proofs/explorer/huge_page_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

TEST(HugePageAllocator, LargeTablesStartOnA2MiBBoundary) {
  HugeVector<std::uint64_t> keys(3 * kTwoMiB / sizeof(std::uint64_t) + 5, 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(keys.data()) % kTwoMiB, 0u);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761u;
  for (std::size_t i = 0; i < keys.size(); i += 4097) ASSERT_EQ(keys[i], i * 2654435761u) << i;
  EXPECT_EQ(keys.back(), (keys.size() - 1) * 2654435761u);
}

TEST(HugePageAllocator, LargeTablesCarryTheHugePageAdvice) {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    GTEST_SKIP() << "this kernel has no transparent huge pages: the advice is not given";
  }
  HugeVector<std::uint32_t> parents(kTwoMiB, 7);
  const std::string flags = vmFlagsOf(parents.data());
  ASSERT_FALSE(flags.empty()) << "no /proc/self/smaps entry holds the table";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

TEST(HugePageAllocator, ValuesSurviveGrowthIntoAMappingAndCopies) {
  HugeVector<std::uint32_t> slots;
  const std::size_t count = kTwoMiB / sizeof(std::uint32_t) * 2 + 3;  // past operator new's range, twice
  for (std::size_t i = 0; i < count; ++i) slots.push_back(static_cast<std::uint32_t>(i ^ 0x5a5a5a5au));
  HugeVector<std::uint32_t> copy = slots;
  HugeVector<std::uint32_t> moved = std::move(slots);
  ASSERT_EQ(copy.size(), count);
  ASSERT_EQ(moved.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_EQ(copy[i], static_cast<std::uint32_t>(i ^ 0x5a5a5a5au)) << i;
    ASSERT_EQ(moved[i], copy[i]) << i;
  }
  moved.resize(10);
  moved.shrink_to_fit();  // back to operator new's storage
  EXPECT_EQ(moved[9], static_cast<std::uint32_t>(9 ^ 0x5a5a5a5au));
}

TEST(HugePageAllocator, SmallTablesStayWithOperatorNew) {
  HugeVector<std::uint64_t> small(100, 3);
  const std::string flags = vmFlagsOf(small.data());
  EXPECT_EQ(flags.find(" hg"), std::string::npos) << flags;  // the heap carries no huge-page advice
  EXPECT_EQ(small[99], 3u);
}

}  // namespace
}  // namespace kcspec::explorer
