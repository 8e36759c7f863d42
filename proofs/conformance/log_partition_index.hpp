// The log checker's index of partitions by (topic, partition): an open-addressing hash table of
// 8-byte slots (a 32-bit hash tag and the entry's number), at most half full, so a lookup is one
// hash of the topic's bytes and usually one slot read; the caller confirms a candidate against
// its own entry, which it reads next anyway. Entries are numbered 0, 1, 2, … in insertion order.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace kcspec::conformance {

class PartitionIndex {
 public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  // The topic's bytes a little-endian word at a time (the last word zero-padded), then the
  // partition. hashWords() gives the same from those words, for topics of up to 24 bytes.
  static std::uint64_t hash(std::string_view topic, std::int32_t partition) {
    std::uint64_t h = seed(topic.size(), partition);
    const char* p = topic.data();
    std::size_t n = topic.size();
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t v = 0;
      std::memcpy(&v, p, 8);
      h = mix(h, v);
    }
    std::uint64_t tail = 0;
    for (std::size_t i = 0; i < n; ++i) tail |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    return finish(h, tail);
  }
  static std::uint64_t hashWords(std::uint64_t w0, std::uint64_t w1, std::uint64_t w2, std::size_t size,
                                 std::int32_t partition) {
    std::uint64_t h = seed(size, partition);
    if (size < 8) return finish(h, w0);
    h = mix(h, w0);
    if (size < 16) return finish(h, w1);
    h = mix(h, w1);
    if (size < 24) return finish(h, w2);
    return finish(mix(h, w2), 0);
  }

  // The number of the entry for `hash` that `same(number)` confirms, or kAbsent.
  template <class Same>
  std::uint32_t find(std::uint64_t hash, Same&& same) const {
    if (slots_.empty()) return kAbsent;
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot slot = slots_[i];
      if (slot.number_plus_one == 0) return kAbsent;
      if (slot.tag == tag && same(slot.number_plus_one - 1)) return slot.number_plus_one - 1;
    }
  }

  // Cache hints for a lookup of `hash` a few lines ahead: the slot it starts at; then, once that
  // slot is likely cached, the number of the entry in it when its tag matches (kAbsent if not).
  [[gnu::always_inline]] void prefetch(std::uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
  }
  std::uint32_t likely(std::uint64_t hash) const {
    if (slots_.empty()) return kAbsent;
    const Slot slot = slots_[hash & mask_];
    return slot.number_plus_one != 0 && slot.tag == static_cast<std::uint32_t>(hash >> 32) ? slot.number_plus_one - 1
                                                                                          : kAbsent;
  }

  // Adds the next entry (numbered size()) under `hash`.
  void insert(std::uint64_t hash) {
    if (2 * (hashes_.size() + 1) > slots_.size()) grow();
    hashes_.push_back(hash);
    place(hash, static_cast<std::uint32_t>(hashes_.size() - 1));
  }

  std::size_t size() const { return hashes_.size(); }

  void clear() {
    slots_.clear();
    hashes_.clear();
    mask_ = 0;
  }

 private:
  static std::uint64_t seed(std::size_t size, std::int32_t partition) {
    return 0x9E3779B97F4A7C15ULL ^ (std::uint64_t{static_cast<std::uint32_t>(partition)} << 32) ^ size;
  }
  static std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
    h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 32);
  }
  static std::uint64_t finish(std::uint64_t h, std::uint64_t tail) {
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 29;
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 32);
  }

  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t number_plus_one = 0;  // 0: empty
  };

  void place(std::uint64_t hash, std::uint32_t number) {
    std::size_t i = hash & mask_;
    while (slots_[i].number_plus_one != 0) i = (i + 1) & mask_;
    slots_[i] = Slot{static_cast<std::uint32_t>(hash >> 32), number + 1};
  }

  void grow() {
    const std::size_t size = slots_.empty() ? 64 : 2 * slots_.size();
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    for (std::uint32_t number = 0; number < hashes_.size(); ++number) place(hashes_[number], number);
  }

  std::vector<Slot> slots_;
  std::vector<std::uint64_t> hashes_;  // by entry number, for growing
  std::size_t mask_ = 0;
};

}  // namespace kcspec::conformance
