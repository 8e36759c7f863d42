// ChunkedVector: an append-only array in fixed chunks that are never reallocated, for the
// explorer's per-state records (liveness' goal bits, the frontier's positions and slots). A
// std::vector doubling to hundreds of millions of entries holds the old and the new
// array at once while it copies — up to three times the data at the peak; this one holds the
// data plus at most one partly filled chunk.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

template <class T, std::size_t kChunkElements = std::size_t{1} << 16>
class ChunkedVector {
 public:
  static_assert(kChunkElements > 0 && (kChunkElements & (kChunkElements - 1)) == 0, "a power of two");

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push_back(const T& value) {
    if (size_ == chunks_.size() * kChunkElements) chunks_.push_back(std::make_unique<T[]>(kChunkElements));
    chunks_[size_ / kChunkElements][size_ % kChunkElements] = value;
    ++size_;
  }

  T& operator[](std::size_t i) {
    KCSPEC_ASSERT(i < size_);
    return chunks_[i / kChunkElements][i % kChunkElements];
  }
  const T& operator[](std::size_t i) const {
    KCSPEC_ASSERT(i < size_);
    return chunks_[i / kChunkElements][i % kChunkElements];
  }

  // What the chunks take (the chunk table itself is a pointer per chunk).
  std::size_t bytes() const { return chunks_.size() * (kChunkElements * sizeof(T) + sizeof(void*)); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace kcspec::explorer
