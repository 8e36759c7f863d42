// Frontier: one breadth-first level's states, as encodings with their visited-set slots, in the
// order they were found.
//
// The encodings live in blocks of kBlockBytes that are never reallocated: a level grows by whole
// blocks, so its memory is what it holds (plus at most one partly filled block) — one contiguous
// string growing by doubling peaked at three times that while it copied itself (the largest
// share of the explorer's peak RSS). An encoding never straddles two blocks; one larger than a
// block gets a block of its own size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "proofs/explorer/visited_set.hpp"

namespace kcspec::explorer {

class Frontier {
 public:
  using Slot = VisitedSet::Slot;
  static constexpr std::size_t kBlockBytes = std::size_t{64} << 10;  // 64 KiB: small enough for tiny memory caps

  std::size_t size() const { return entries_.size(); }

  std::string_view at(std::size_t i) const {
    const Entry& entry = entries_[i];
    return std::string_view(blocks_[entry.block].bytes.get() + entry.offset, entry.length);
  }

  Slot slotAt(std::size_t i) const { return slots_[i]; }

  void push(std::string_view encoding, Slot slot) {
    if (encoding.size() > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("an encoding of 4 GiB or more");
    if (blocks_.empty() || blocks_.back().used + encoding.size() > blocks_.back().capacity) {
      const std::size_t capacity = std::max(kBlockBytes, encoding.size());
      blocks_.push_back(Block{std::make_unique_for_overwrite<char[]>(capacity), capacity, 0});
      bytes_ += capacity;
    }
    Block& block = blocks_.back();
    std::copy(encoding.begin(), encoding.end(), block.bytes.get() + block.used);
    entries_.push_back(Entry{static_cast<std::uint32_t>(blocks_.size() - 1), static_cast<std::uint32_t>(block.used),
                             static_cast<std::uint32_t>(encoding.size())});
    block.used += encoding.size();
    slots_.push_back(slot);
  }

  // Bytes that push(an encoding of `length` bytes) would add.
  std::size_t bytesToPush(std::size_t length) const {
    std::size_t added = sizeof(Entry) + sizeof(Slot);
    if (blocks_.empty() || blocks_.back().used + length > blocks_.back().capacity) added += std::max(kBlockBytes, length);
    return added;
  }

  // The visited set grew: every slot moved.
  void remap(const std::vector<Slot>& map) {
    for (Slot& slot : slots_) slot = map[slot];
  }

  std::size_t memory() const { return bytes_ + entries_.capacity() * sizeof(Entry) + slots_.capacity() * sizeof(Slot); }

 private:
  struct Block {
    std::unique_ptr<char[]> bytes;
    std::size_t capacity = 0;
    std::size_t used = 0;
  };
  struct Entry {
    std::uint32_t block = 0;
    std::uint32_t offset = 0;  // a block is at most max(kBlockBytes, one encoding) bytes
    std::uint32_t length = 0;
  };

  std::vector<Block> blocks_;
  std::size_t bytes_ = 0;  // the blocks' capacities
  std::vector<Entry> entries_;
  std::vector<Slot> slots_;
};

}  // namespace kcspec::explorer
