// RecoveryEdges: liveness' recovery edges (System::isRecovery), per state in BFS order — the BFS
// indexes of its recovery successors, then how many there are — as one stream of 32-bit words,
// written once while exploring and read backwards by each sweep of the liveness pass. The count
// after a state's edges lets a reader going backwards find them without an offset per state.
//
// The words sit in fixed chunks that are never reallocated. Given a spill file (`kcspec explore
// --spill-dir`), each full chunk is written there and released: memory then holds the chunk being
// filled and one chunk that a backwards reader reads into (64 KiB each), whatever the number of
// edges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "proofs/explorer/spill_file.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

template <std::size_t kChunkWords = std::size_t{1} << 14>
class BasicRecoveryEdges {
 public:
  static_assert(kChunkWords > 0 && (kChunkWords & (kChunkWords - 1)) == 0, "a power of two");
  static constexpr std::size_t kChunkBytes = kChunkWords * sizeof(std::uint32_t);

  BasicRecoveryEdges() = default;
  // Spills full chunks to `spill`; the read buffer is allocated here, so reading allocates nothing.
  explicit BasicRecoveryEdges(std::unique_ptr<SpillFile> spill)
      : spill_(std::move(spill)), read_buffer_(std::make_unique_for_overwrite<std::uint32_t[]>(kChunkWords)) {}

  // One recovery edge of the current state, to the state with BFS index `target`.
  void addEdge(std::uint32_t target) {
    push(target);
    ++edges_;
    ++current_edges_;
  }
  // The current state's edges are all added; the next addEdge() is the next state's.
  void endState() {
    push(current_edges_);
    current_edges_ = 0;
    ++states_;
  }

  std::uint64_t states() const { return states_; }
  std::uint64_t spilledBytes() const { return spill_ ? spill_->size() : 0; }
  std::uint64_t edges() const { return edges_; }

  // What the chunks in memory take (and, when spilling, the read buffer).
  std::size_t bytes() const {
    return in_memory_chunks_ * kChunkBytes + (read_buffer_ ? kChunkBytes : 0) + chunks_.capacity() * sizeof(Chunk);
  }
  // What adding one word may add to bytes(): a chunk, when the last one is full.
  std::size_t bytesToPush() const { return words_ % kChunkWords == 0 ? kChunkBytes + 2 * sizeof(Chunk) : 0; }

  // Reads the states backwards, from the last one that ended; nothing may be added meanwhile.
  // One reader at a time (a spilled chunk is read into the log's one buffer).
  class Backwards {
   public:
    explicit Backwards(BasicRecoveryEdges& log) : log_(log), position_(log.words_ - log.current_edges_), states_left_(log.states_) {}

    bool done() const { return states_left_ == 0; }

    // The previous state's edges: calls `visit(target)` for each.
    template <class Visit>
    void previousState(Visit&& visit) {
      KCSPEC_ASSERT(states_left_ > 0);
      --states_left_;
      const std::uint32_t count = pop();
      for (std::uint32_t k = 0; k < count; ++k) visit(pop());
    }

   private:
    std::uint32_t pop() {
      KCSPEC_ASSERT(position_ > 0);
      --position_;
      const std::size_t chunk = static_cast<std::size_t>(position_ / kChunkWords);
      if (chunk != loaded_) {
        words_ = log_.chunkWords(chunk);
        loaded_ = chunk;
      }
      return words_[position_ % kChunkWords];
    }

    BasicRecoveryEdges& log_;
    std::uint64_t position_;  // words before the reader
    std::uint64_t states_left_;
    std::size_t loaded_ = std::numeric_limits<std::size_t>::max();
    const std::uint32_t* words_ = nullptr;
  };

 private:
  struct Chunk {
    std::unique_ptr<std::uint32_t[]> words;  // null once spilled
    std::uint64_t file_offset = 0;
  };

  void push(std::uint32_t word) {
    const std::size_t in_chunk = static_cast<std::size_t>(words_ % kChunkWords);
    if (in_chunk == 0) {
      if (spill_ && !chunks_.empty()) spillLast();
      chunks_.push_back(Chunk{std::make_unique_for_overwrite<std::uint32_t[]>(kChunkWords), 0});
      ++in_memory_chunks_;
    }
    chunks_.back().words[in_chunk] = word;
    ++words_;
  }

  void spillLast() {
    Chunk& last = chunks_.back();
    KCSPEC_ASSERT(last.words != nullptr);
    last.file_offset = spill_->append(last.words.get(), kChunkBytes);
    last.words.reset();
    --in_memory_chunks_;
  }

  const std::uint32_t* chunkWords(std::size_t chunk) {
    const Chunk& c = chunks_[chunk];
    if (c.words) return c.words.get();
    spill_->read(c.file_offset, read_buffer_.get(), kChunkBytes);
    return read_buffer_.get();
  }

  std::vector<Chunk> chunks_;
  std::size_t in_memory_chunks_ = 0;
  std::uint64_t words_ = 0;
  std::uint64_t states_ = 0;
  std::uint64_t edges_ = 0;
  std::uint32_t current_edges_ = 0;
  std::unique_ptr<SpillFile> spill_;
  std::unique_ptr<std::uint32_t[]> read_buffer_;
};

using RecoveryEdges = BasicRecoveryEdges<>;

}  // namespace kcspec::explorer
