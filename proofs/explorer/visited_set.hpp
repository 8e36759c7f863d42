// The explorer's visited set: fingerprint → state index, open addressing with linear probing in
// two flat arrays (no per-entry allocation). Fingerprint 0 is the empty-slot marker, so a state
// whose fingerprint is 0 is stored as 1 (one more collision, with probability 2⁻⁶⁴).
//
// Not thread-safe for writers: the explorer reads it from many threads during a level's
// expansion and writes it from one thread while merging the level.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "proofs/explorer/system.hpp"

namespace kcspec::explorer {

class VisitedSet {
 public:
  using Index = std::uint32_t;

  explicit VisitedSet(std::size_t initial_capacity = 1024) { allocate(std::bit_ceil(std::max<std::size_t>(initial_capacity, 16))); }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return keys_.size(); }
  std::size_t bytes() const { return bytesFor(capacity()); }

  // What the table would occupy after one more insertion (it doubles past 3/4 full).
  std::size_t bytesAfterInsert() const { return needsGrowth() ? bytesFor(2 * capacity()) : bytes(); }

  std::optional<Index> find(Fingerprint fingerprint) const {
    const Fingerprint key = normalize(fingerprint);
    for (std::size_t slot = key & mask_;; slot = (slot + 1) & mask_) {
      if (keys_[slot] == key) return values_[slot];
      if (keys_[slot] == 0) return std::nullopt;
    }
  }

  struct Inserted {
    Index index;    // the new index, or the one already stored
    bool inserted;  // false: the fingerprint was present
  };

  Inserted insert(Fingerprint fingerprint, Index index) {
    if (needsGrowth()) grow();
    const Fingerprint key = normalize(fingerprint);
    for (std::size_t slot = key & mask_;; slot = (slot + 1) & mask_) {
      if (keys_[slot] == key) return {values_[slot], false};
      if (keys_[slot] == 0) {
        keys_[slot] = key;
        values_[slot] = index;
        ++size_;
        return {index, true};
      }
    }
  }

 private:
  static Fingerprint normalize(Fingerprint fingerprint) {
    // Fingerprints are already well mixed: the low bits pick the slot.
    return fingerprint == 0 ? 1 : fingerprint;
  }
  static std::size_t bytesFor(std::size_t slots) { return slots * (sizeof(Fingerprint) + sizeof(Index)); }
  bool needsGrowth() const { return 4 * (size_ + 1) > 3 * capacity(); }

  void allocate(std::size_t slots) {
    keys_.assign(slots, 0);
    values_.assign(slots, 0);
    mask_ = slots - 1;
  }

  void grow() {
    std::vector<Fingerprint> old_keys = std::move(keys_);
    std::vector<Index> old_values = std::move(values_);
    allocate(2 * old_keys.size());
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] == 0) continue;
      std::size_t slot = old_keys[i] & mask_;
      while (keys_[slot] != 0) slot = (slot + 1) & mask_;
      keys_[slot] = old_keys[i];
      values_[slot] = old_values[i];
    }
  }

  std::vector<Fingerprint> keys_;
  std::vector<Index> values_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace kcspec::explorer
