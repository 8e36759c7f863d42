// GoalBits: liveness' goal bits per state in BFS order (bit j: liveness goal j; the bit after
// the last goal: every goal at once), which the liveness pass widens in place into what recovery
// can reach. One byte a state when the bits fit in 8, two up to 16 — the spec's eight liveness
// properties and the all-goals bit take nine — else four. Append-only, in fixed chunks (ChunkedVector).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "proofs/explorer/chunked_vector.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

class GoalBits {
 public:
  // `bits`: how many bits a state's goals take (at most 32).
  explicit GoalBits(std::size_t bits = 0) : bytes_(bits <= 8 ? 1 : bits <= 16 ? 2 : 4) { KCSPEC_ASSERT(bits <= 32); }

  std::size_t bytesPerState() const { return bytes_; }

  // A state's goal bits from the properties it reaches (bit i of `reached`: properties()[i]):
  // bit j for the liveness property at liveness[j], and bit liveness.size() when it reaches all.
  static std::uint32_t compact(std::uint64_t reached, std::span<const std::size_t> liveness) {
    std::uint32_t goals = 0;
    for (std::size_t j = 0; j < liveness.size(); ++j) {
      if ((reached >> liveness[j]) & 1u) goals |= 1u << j;
    }
    const std::uint32_t all = (1u << liveness.size()) - 1;
    if (goals == all) goals |= 1u << liveness.size();
    return goals;
  }
  std::size_t size() const { return bytes_ == 1 ? bits8_.size() : bytes_ == 2 ? bits16_.size() : bits32_.size(); }

  void push_back(std::uint32_t goals) {
    switch (bytes_) {
      case 1:
        KCSPEC_ASSERT(goals <= 0xFFu);
        bits8_.push_back(static_cast<std::uint8_t>(goals));
        break;
      case 2:
        KCSPEC_ASSERT(goals <= 0xFFFFu);
        bits16_.push_back(static_cast<std::uint16_t>(goals));
        break;
      default:
        bits32_.push_back(goals);
    }
  }

  std::uint32_t operator[](std::size_t i) const {
    return bytes_ == 1 ? bits8_[i] : bytes_ == 2 ? bits16_[i] : bits32_[i];
  }

  void set(std::size_t i, std::uint32_t goals) {
    switch (bytes_) {
      case 1:
        KCSPEC_ASSERT(goals <= 0xFFu);
        bits8_[i] = static_cast<std::uint8_t>(goals);
        break;
      case 2:
        KCSPEC_ASSERT(goals <= 0xFFFFu);
        bits16_[i] = static_cast<std::uint16_t>(goals);
        break;
      default:
        bits32_[i] = goals;
    }
  }

 private:
  std::size_t bytes_;
  ChunkedVector<std::uint8_t> bits8_;
  ChunkedVector<std::uint16_t> bits16_;
  ChunkedVector<std::uint32_t> bits32_;
};

}  // namespace kcspec::explorer
