// The explorer's visited set and parent links in one table: per slot an 8-byte fingerprint and
// the 4-byte slot of the state's parent (12 bytes a slot, no per-entry allocation). A state is
// named by its slot. Open addressing with linear probing; the home slot is the fingerprint
// scaled to the capacity (fingerprints are already well mixed), so the capacity need not be a
// power of two: the table grows by 1/8 when it is 7/8 full, which keeps it between 78% and 88%
// full — 13.7 to 15.4 bytes per visited state once past the first thousand.
//
// Growing moves states to other slots: insert() reports the old → new slot map to the caller,
// which remaps every slot it holds (the parent links are remapped here). A growth holds at most
// the old table, the new fingerprints and the map at once (25 bytes per old slot): the old
// fingerprints are released before the new parent links are allocated. Fingerprint 0 is the
// empty-slot marker, so a state whose fingerprint is 0 is stored as 1 (one more collision, with
// probability 2⁻⁶⁴). The tables start as zeroed_table.hpp's, untouched until filled: an empty
// slot's parent link is 0 and never read.
//
// One writer, many readers: find() may run on other threads while insert() runs, as long as
// the table does not grow (growsOnInsert() tells; the explorer stops its readers first). A
// key is stored after its parent, with release order; find() reads keys with acquire order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "proofs/explorer/system.hpp"
#include "proofs/explorer/zeroed_table.hpp"

namespace kcspec::explorer {

class VisitedSet {
 public:
  using Slot = std::uint32_t;
  static constexpr Slot kNoSlot = std::numeric_limits<Slot>::max();

  explicit VisitedSet(std::size_t initial_slots = 1024) { allocate(std::max<std::size_t>(initial_slots, 16)); }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return keys_.size(); }
  std::size_t bytes() const { return bytesFor(capacity()); }

  // The most the table occupies during one more insertion: while it grows, the old table, the
  // new fingerprints and the slot map (grow()'s first phase, its peak).
  std::size_t bytesAfterInsert() const {
    if (!needsGrowth()) return bytes();
    return bytes() + grownCapacity() * sizeof(Fingerprint) + capacity() * sizeof(Slot);
  }

  std::optional<Slot> find(Fingerprint fingerprint) const {
    const Fingerprint key = normalize(fingerprint);
    for (std::size_t slot = home(key);; slot = next(slot)) {
      const Fingerprint stored_key = __atomic_load_n(&keys_[slot], __ATOMIC_ACQUIRE);
      if (stored_key == key) return static_cast<Slot>(slot);
      if (stored_key == 0) return std::nullopt;
    }
  }

  // The capacity that holds `states` without growing (growth starts past 7/8 full).
  static std::size_t slotsToHold(std::size_t states) { return 8 * (states + 1) / 7 + 2; }

  // Whether the next insert() grows the table (moving every slot).
  bool growsOnInsert() const { return needsGrowth(); }

  // Asks the CPU to fetch the cache line where find(fingerprint) starts (a hint; no effect on
  // the contents), so that a batch of lookups waits for memory once rather than once each.
  void prefetch(Fingerprint fingerprint) const { __builtin_prefetch(&keys_[home(normalize(fingerprint))]); }

  Fingerprint fingerprintAt(Slot slot) const { return keys_[slot]; }
  // The fingerprint as the table stores it (fingerprintAt compares equal to this).
  static Fingerprint stored(Fingerprint fingerprint) { return normalize(fingerprint); }
  Slot parentAt(Slot slot) const { return parents_[slot]; }

  struct Inserted {
    Slot slot;      // the new state's slot, or the one already stored
    bool inserted;  // false: the fingerprint was present
  };

  // Inserts `fingerprint` with parent `parent` (kNoSlot for an initial state). When the table
  // grows first, on_grow(map) is called with map[old slot] = new slot, before the insertion (and
  // `parent` is remapped too).
  template <class OnGrow>
  Inserted insert(Fingerprint fingerprint, Slot parent, OnGrow&& on_grow) {
    if (needsGrowth()) {
      const std::vector<Slot> map = grow();
      if (parent != kNoSlot) parent = map[parent];
      on_grow(map);
    }
    const Fingerprint key = normalize(fingerprint);
    for (std::size_t slot = home(key);; slot = next(slot)) {
      if (keys_[slot] == key) return {static_cast<Slot>(slot), false};
      if (keys_[slot] == 0) {
        parents_[slot] = parent;
        __atomic_store_n(&keys_[slot], key, __ATOMIC_RELEASE);
        ++size_;
        return {static_cast<Slot>(slot), true};
      }
    }
  }

 private:
  static Fingerprint normalize(Fingerprint fingerprint) { return fingerprint == 0 ? 1 : fingerprint; }
  static std::size_t bytesFor(std::size_t slots) { return slots * (sizeof(Fingerprint) + sizeof(Slot)); }

  std::size_t home(Fingerprint key) const {
    return static_cast<std::size_t>(((key >> 32) * keys_.size()) >> 32);  // capacity < 2^32
  }
  std::size_t next(std::size_t slot) const { return slot + 1 == keys_.size() ? 0 : slot + 1; }
  bool needsGrowth() const { return 8 * (size_ + 1) > 7 * capacity(); }
  std::size_t grownCapacity() const { return capacity() + capacity() / 8; }

  void allocate(std::size_t slots) {
    if (slots > std::size_t{kNoSlot}) throw std::length_error("more than 2^32 visited-set slots");
    keys_ = ZeroedTable<Fingerprint>(slots);
    parents_ = ZeroedTable<Slot>(slots);
  }

  // Two phases, so that the old fingerprints are gone before the new parent links exist: first
  // the fingerprints move (the map records where), then the parent links.
  std::vector<Slot> grow() {
    const std::size_t old_capacity = keys_.size();
    const std::size_t new_capacity = grownCapacity();
    if (new_capacity > std::size_t{kNoSlot}) throw std::length_error("more than 2^32 visited-set slots");
    std::vector<Slot> map(old_capacity, kNoSlot);
    {
      ZeroedTable<Fingerprint> old_keys = std::move(keys_);
      keys_ = ZeroedTable<Fingerprint>(new_capacity);
      for (std::size_t i = 0; i < old_capacity; ++i) {
        if (old_keys[i] == 0) continue;
        std::size_t slot = home(old_keys[i]);
        while (keys_[slot] != 0) slot = next(slot);
        keys_[slot] = old_keys[i];
        map[i] = static_cast<Slot>(slot);
      }
    }  // the old fingerprints are released here
    ZeroedTable<Slot> old_parents = std::move(parents_);
    parents_ = ZeroedTable<Slot>(new_capacity);
    for (std::size_t i = 0; i < old_capacity; ++i) {
      if (map[i] != kNoSlot) parents_[map[i]] = old_parents[i] == kNoSlot ? kNoSlot : map[old_parents[i]];
    }
    return map;
  }

  ZeroedTable<Fingerprint> keys_;
  ZeroedTable<Slot> parents_;
  std::size_t size_ = 0;
};

}  // namespace kcspec::explorer
