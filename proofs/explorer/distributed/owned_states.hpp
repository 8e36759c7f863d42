// The states one rank of a distributed search owns (those whose fingerprint hashes to it,
// ownerOf): their fingerprints, each with a local index given in discovery order (found through
// an open-addressed table of indexes) — so a level's
// states have consecutive indexes and a state's depth is found from where each level begins — and
// per index the parent's fingerprint (0 for an initial state: a stored fingerprint is never 0),
// since the parent may live on another rank.
#pragma once

#include <algorithm>
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
    if (slots_.empty()) return std::nullopt;
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t tag = tagOf(stored);
    for (std::size_t slot = stored & mask;; slot = (slot + 1) & mask) {
      const Slot s = slots_[slot];
      if (s.index == kEmpty) return std::nullopt;
      if (s.tag == tag && fingerprints_[s.index] == stored) return s.index;
    }
  }

  // A new state (not found before): its index.
  Index insert(Fingerprint stored, Fingerprint parent) {
    KCSPEC_ASSERT(stored != 0);
    if (parents_.size() >= kMaxStates) throw std::length_error("more than 2^32 states on one rank");
    if (fullAfterInsert()) grow();
    const Index index = static_cast<Index>(parents_.size());
    parents_.push_back(parent);
    fingerprints_.push_back(stored);
    place(stored, index);
    return index;
  }

  Fingerprint parentOf(Index index) const { return parents_.at(index); }
  Fingerprint fingerprintOf(Index index) const { return fingerprints_.at(index); }

  // The slots that hold `states` without growing (at most 70 % full).
  static std::size_t slotsToHold(std::size_t states) {
    return std::bit_ceil(std::max<std::size_t>(kFirstSlots, (states * 10 + 6) / 7));
  }
  // The bytes a table sized up front for `states` takes (reserve).
  static std::uint64_t bytesToHold(std::size_t states) {
    return slotsToHold(states) * sizeof(Slot) + states * 2 * sizeof(Fingerprint);
  }
  // Sized up front so that `states` states go in without the table or the records growing
  // (ExploreOptions::expected_states: a rank's share).
  void reserve(std::size_t states) {
    parents_.reserve(states);
    fingerprints_.reserve(states);
    const std::size_t slots = slotsToHold(states);
    if (slots > slots_.size()) rebuild(slots);
  }

  // The bytes the table and the per-state records take.
  std::uint64_t bytes() const {
    return slots_.capacity() * sizeof(Slot) + (parents_.capacity() + fingerprints_.capacity()) * sizeof(Fingerprint);
  }
  // What the next insert() would make them take (a growing table holds its old slots meanwhile).
  std::uint64_t bytesAfterInsert() const {
    const std::uint64_t table = fullAfterInsert() ? (std::max<std::size_t>(kFirstSlots, slots_.size() * 2) + slots_.size()) * sizeof(Slot)
                                                  : slots_.capacity() * sizeof(Slot);
    const std::size_t records = parents_.size() == parents_.capacity() ? std::max<std::size_t>(1, parents_.capacity() * 2)
                                                                       : parents_.capacity();
    return table + records * 2 * sizeof(Fingerprint);
  }

 private:
  // A slot: the state's index, and 32 bits of its fingerprint that a probe compares before it
  // reads the fingerprint itself (8 bytes a slot, at most 70 % full).
  struct Slot {
    Index index = kEmpty;
    std::uint32_t tag = 0;
  };
  static constexpr Index kEmpty = 0xFFFF'FFFFu;
  static constexpr std::size_t kFirstSlots = 1024;

  static std::uint32_t tagOf(Fingerprint stored) { return static_cast<std::uint32_t>(stored >> 32); }
  bool fullAfterInsert() const { return (parents_.size() + 1) * 10 > slots_.size() * 7; }

  void place(Fingerprint stored, Index index) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = stored & mask;
    while (slots_[slot].index != kEmpty) slot = (slot + 1) & mask;
    slots_[slot] = Slot{index, tagOf(stored)};
  }

  void grow() { rebuild(std::max<std::size_t>(kFirstSlots, slots_.size() * 2)); }

  void rebuild(std::size_t slots) {
    KCSPEC_ASSERT(std::has_single_bit(slots));
    std::vector<Slot> old(slots);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.index != kEmpty) place(fingerprints_[s.index], s.index);
    }
  }

  std::vector<Slot> slots_;
  std::vector<Fingerprint> parents_;       // per index
  std::vector<Fingerprint> fingerprints_;  // per index
};

// A rank's share of `expected_states` (ExploreOptions::expected_states) for a table sized up
// front: an even share and 5 % over for the spread of the fingerprints; 0 when there is none to
// size (no figure, or more than a rank can index).
inline std::uint64_t expectedShare(std::uint64_t expected_states, int ranks) {
  const std::uint64_t even = expected_states / static_cast<std::uint64_t>(ranks);
  if (even == 0 || even >= OwnedStates::kMaxStates) return 0;
  const std::uint64_t share = even * 21 / 20 + 1024;
  return share < OwnedStates::kMaxStates ? share : 0;
}

}  // namespace kcspec::explorer::distributed
