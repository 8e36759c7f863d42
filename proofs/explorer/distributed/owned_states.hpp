// The states one rank of a distributed search owns (those whose fingerprint hashes to it,
// ownerOf): their fingerprints, each with a local index given in discovery order — so a level's
// states have consecutive indexes and a state's depth is found from where each level begins — and
// per index the parent's fingerprint (0 for an initial state: a stored fingerprint is never 0),
// since the parent may live on another rank.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "proofs/explorer/system.hpp"
#include "proofs/explorer/visited_set.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer::distributed {

// The rank that owns a state: a multiplicative mix of its stored fingerprint, so that the table
// below (which uses the low bits) sees a fingerprint's other bits than the choice of rank did.
inline int ownerOf(Fingerprint stored, int ranks) {
  const std::uint64_t mixed = (stored * 0x9E3779B97F4A7C15ull) >> 32;
  return static_cast<int>((mixed * static_cast<std::uint64_t>(ranks)) >> 32);
}

class OwnedStates {
 public:
  using Index = std::uint32_t;
  static constexpr Index kMaxStates = 0xFFFF'FFF0u;

  std::size_t size() const { return parents_.size(); }

  std::optional<Index> find(Fingerprint stored) const {
    if (keys_.empty()) return std::nullopt;
    const std::size_t mask = keys_.size() - 1;
    for (std::size_t slot = stored & mask;; slot = (slot + 1) & mask) {
      if (keys_[slot] == stored) return values_[slot];
      if (keys_[slot] == 0) return std::nullopt;
    }
  }

  // A new state (not found before): its index.
  Index insert(Fingerprint stored, Fingerprint parent) {
    KCSPEC_ASSERT(stored != 0);
    if (parents_.size() >= kMaxStates) throw std::length_error("more than 2^32 states on one rank");
    if ((parents_.size() + 1) * 2 > keys_.size()) grow();
    const Index index = static_cast<Index>(parents_.size());
    place(stored, index);
    parents_.push_back(parent);
    fingerprints_.push_back(stored);
    return index;
  }

  Fingerprint parentOf(Index index) const { return parents_.at(index); }
  Fingerprint fingerprintOf(Index index) const { return fingerprints_.at(index); }

  // The bytes the table and the per-state records take.
  std::uint64_t bytes() const {
    return keys_.capacity() * (sizeof(Fingerprint) + sizeof(Index)) +
           (parents_.capacity() + fingerprints_.capacity()) * sizeof(Fingerprint);
  }
  // What the next insert() would make it take.
  std::uint64_t bytesAfterInsert() const {
    const std::uint64_t table = (parents_.size() + 1) * 2 > keys_.size()
                                    ? std::max<std::size_t>(kFirstSlots, keys_.size() * 2) * 12 + keys_.size() * 12
                                    : keys_.size() * 12;
    const std::uint64_t records = parents_.size() == parents_.capacity()
                                      ? std::max<std::size_t>(1, parents_.capacity() * 2) * 16
                                      : parents_.capacity() * 16;
    return table + records;
  }

 private:
  static constexpr std::size_t kFirstSlots = 1024;

  void place(Fingerprint stored, Index index) {
    const std::size_t mask = keys_.size() - 1;
    std::size_t slot = stored & mask;
    while (keys_[slot] != 0) slot = (slot + 1) & mask;
    keys_[slot] = stored;
    values_[slot] = index;
  }

  void grow() {
    const std::size_t slots = std::max<std::size_t>(kFirstSlots, keys_.size() * 2);
    KCSPEC_ASSERT(std::has_single_bit(slots));
    std::vector<Fingerprint> old_keys(slots, 0);
    std::vector<Index> old_values(slots, 0);
    old_keys.swap(keys_);
    old_values.swap(values_);
    for (std::size_t slot = 0; slot < old_keys.size(); ++slot) {
      if (old_keys[slot] != 0) place(old_keys[slot], old_values[slot]);
    }
  }

  std::vector<Fingerprint> keys_;  // 0: empty
  std::vector<Index> values_;
  std::vector<Fingerprint> parents_;       // per index
  std::vector<Fingerprint> fingerprints_;  // per index
};

}  // namespace kcspec::explorer::distributed
