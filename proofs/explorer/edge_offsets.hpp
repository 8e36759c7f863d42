// EdgeOffsets: where each state's recovery edges begin, for the explorer's liveness records — a
// non-decreasing sequence of 64-bit offsets in 4 bytes per entry. Entries come in blocks of
// kBlockEntries; a block keeps its first offset in full and each entry as its distance from it,
// so an entry fits in 32 bits as long as one block's states have fewer than 2^32 recovery edges
// together (a state has at most a few dozen; push_back() checks it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "proofs/explorer/chunked_vector.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

template <std::size_t kBlockEntries = std::size_t{1} << 16>
class BasicEdgeOffsets {
 public:
  static_assert(kBlockEntries > 0 && (kBlockEntries & (kBlockEntries - 1)) == 0, "a power of two");
  static constexpr std::size_t kBytesPerEntry = sizeof(std::uint32_t);

  std::size_t size() const { return distances_.size(); }

  void push_back(std::uint64_t offset) {
    if (size() % kBlockEntries == 0) block_begins_.push_back(offset);
    KCSPEC_ASSERT(size() == 0 || offset >= (*this)[size() - 1]);  // non-decreasing
    const std::uint64_t distance = offset - block_begins_.back();
    if (distance > std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("2^32 recovery edges or more in one block of states");
    }
    distances_.push_back(static_cast<std::uint32_t>(distance));
  }

  std::uint64_t operator[](std::size_t i) const {
    KCSPEC_ASSERT(i < size());
    return block_begins_[i / kBlockEntries] + distances_[i];
  }

  std::size_t bytes() const { return distances_.bytes() + block_begins_.capacity() * sizeof(std::uint64_t); }

 private:
  ChunkedVector<std::uint32_t, kBlockEntries> distances_;
  std::vector<std::uint64_t> block_begins_;  // per block: its first entry's offset
};

using EdgeOffsets = BasicEdgeOffsets<>;

}  // namespace kcspec::explorer
