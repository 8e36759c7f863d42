// GoalBits: liveness' goal bits per state in BFS order (bit j: liveness goal j; the bit after
// the last goal: every goal at once), which the liveness pass widens in place into what recovery
// can reach. One byte a state when the bits fit in 8 — the spec's six liveness properties and
// the all-goals bit do — else four. Append-only, in fixed chunks (ChunkedVector).
#pragma once

#include <cstddef>
#include <cstdint>

#include "proofs/explorer/chunked_vector.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

class GoalBits {
 public:
  // `bits`: how many bits a state's goals take (at most 32).
  explicit GoalBits(std::size_t bits = 0) : wide_(bits > 8) { KCSPEC_ASSERT(bits <= 32); }

  std::size_t bytesPerState() const { return wide_ ? sizeof(std::uint32_t) : sizeof(std::uint8_t); }
  std::size_t size() const { return wide_ ? wide_bits_.size() : narrow_bits_.size(); }

  void push_back(std::uint32_t goals) {
    if (wide_) {
      wide_bits_.push_back(goals);
    } else {
      KCSPEC_ASSERT(goals <= 0xFFu);
      narrow_bits_.push_back(static_cast<std::uint8_t>(goals));
    }
  }

  std::uint32_t operator[](std::size_t i) const { return wide_ ? wide_bits_[i] : narrow_bits_[i]; }

  void set(std::size_t i, std::uint32_t goals) {
    if (wide_) {
      wide_bits_[i] = goals;
    } else {
      KCSPEC_ASSERT(goals <= 0xFFu);
      narrow_bits_[i] = static_cast<std::uint8_t>(goals);
    }
  }

 private:
  bool wide_;
  ChunkedVector<std::uint8_t> narrow_bits_;
  ChunkedVector<std::uint32_t> wide_bits_;
};

}  // namespace kcspec::explorer
