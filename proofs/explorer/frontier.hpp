// Frontier: one breadth-first level's states, as encodings with their visited-set slots, in the
// order they were found — stored compressed.
//
// Consecutive states of a level are siblings and cousins that differ in a few fields, so the
// encodings are compressed with LZ4 as a stream: each one against the raw bytes of the states
// pushed before it in its group ("group of pictures", as in video), at most kGroupEntries
// states and kGroupBytes raw bytes (within LZ4's window). The group's first state (its key) is
// compressed alone. A state whose compressed form is not smaller is stored raw (a flag), and
// one larger than kGroupBytes is stored raw as a group of its own. On the explorer's
// encodings (already varints and zero runs) this takes about a tenth of the raw bytes
// (docs/performance.md, "The frontier, compressed").
//
// Reading state i decodes its group from the key up to i into a Cursor the caller owns (one
// per thread: at() is const and thread-safe for readers, the bytes live in the cursor). A
// cursor remembers the group it decoded, so reading positions in order decodes each state once.
//
// The stored bytes live in blocks of kBlockBytes that are never reallocated: a level grows by
// whole blocks, so its memory is what it holds (plus at most one partly filled block). A stored
// encoding never straddles two blocks; one larger than a block gets a block of its own size.
// Per state there are 8 bytes of position and 4 of slot, in chunks that are never reallocated
// either.
//
// Given a spill directory (`kcspec explore --spill-dir`), each full block is written to the
// level's own unnamed file there and released, so memory holds the per-state records and one
// block; a reader then reads a block into its cursor when it first needs it (a level is read in
// order, so about once per block and reader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/explorer/chunked_vector.hpp"
#include "proofs/explorer/spill_file.hpp"
#include "proofs/explorer/visited_set.hpp"

namespace kcspec::explorer {

class Frontier {
 public:
  using Slot = VisitedSet::Slot;
  static constexpr std::size_t kBlockBytes = std::size_t{64} << 10;  // 64 KiB: small enough for tiny memory caps
  static constexpr std::size_t kGroupBytes = std::size_t{64} << 10;  // LZ4's window
  static constexpr std::size_t kGroupEntries = 64;  // reading one state decodes at most this many

  // Where one reader decodes: the raw bytes of the group it read last.
  class Cursor {
   public:
    Cursor();
    ~Cursor();
    Cursor(Cursor&&) noexcept;
    Cursor& operator=(Cursor&&) noexcept;

   private:
    friend class Frontier;
    std::uint64_t frontier_ = 0;  // the Frontier's identity; 0: none
    std::size_t key_ = 0;         // the group's first state
    std::vector<std::uint32_t> ends_;  // per state decoded from the key: where its bytes end in buffer_
    std::unique_ptr<char[]> buffer_;   // kGroupBytes
    std::size_t block_ = SIZE_MAX;           // the spilled block read into block_bytes_
    std::vector<char> block_bytes_;
  };

  Frontier();
  // Spills full blocks to an unnamed file in `spill_directory` (empty: keeps them in memory).
  // The file is created with the first full block; its failure throws std::runtime_error.
  explicit Frontier(std::string spill_directory);
  ~Frontier();
  Frontier(Frontier&& other) noexcept;
  Frontier& operator=(Frontier&& other) noexcept;
  Frontier(const Frontier&) = delete;
  Frontier& operator=(const Frontier&) = delete;

  std::size_t size() const { return entries_.size(); }

  // State i's encoding, valid until the next at() with the same cursor. Readers on several
  // threads each use their own cursor (no push meanwhile).
  std::string_view at(std::size_t i, Cursor& cursor) const;

  Slot slotAt(std::size_t i) const { return slots_[i]; }

  void push(std::string_view encoding, Slot slot);

  // An upper bound of the bytes that push(an encoding of `length` bytes) adds (as if it were
  // stored raw).
  std::size_t bytesToPush(std::size_t length) const;

  // The visited set grew: every slot moved.
  void remap(const std::vector<Slot>& map) {
    for (std::size_t i = 0; i < slots_.size(); ++i) slots_[i] = map[slots_[i]];
  }

  // No more pushes for now: releases what pushing needs (LZ4's stream and the group's raw
  // bytes, about 80 kB). A later push starts a new group.
  void finish();

  std::size_t memory() const;
  // What its spill file holds (0 without one).
  std::uint64_t spilledBytes() const { return spill_ ? spill_->size() : 0; }

 private:
  struct Block {
    std::unique_ptr<char[]> bytes;  // null once spilled
    std::size_t capacity = 0;
    std::size_t used = 0;
    std::uint64_t file_offset = 0;  // where a spilled block's `used` bytes are
  };
  // A stored encoding: its block, and its offset there with two flags in the top bits (its
  // length is where the next one in the block begins, or the block's end).
  struct Entry {
    std::uint32_t block = 0;
    std::uint32_t offset_and_flags = 0;  // an offset is below kBlockBytes, or 0 in a block of its own
  };
  static constexpr std::uint32_t kKey = std::uint32_t{1} << 31;  // the first of its group
  static constexpr std::uint32_t kRaw = std::uint32_t{1} << 30;  // stored as is
  static constexpr std::uint32_t kOffsetMask = kRaw - 1;
  static constexpr std::size_t kChunkEntries = 1024;
  struct Encoder;  // frontier.cpp: LZ4's stream and the group's raw bytes, while pushing

  void swap(Frontier& other) noexcept;
  std::string_view stored(std::size_t i, Cursor& cursor) const;
  void spillLastBlock();

  std::uint64_t id_;  // for cursors; a moved-from Frontier gets a new one
  std::vector<Block> blocks_;
  std::size_t bytes_ = 0;  // the blocks' capacities
  ChunkedVector<Entry, kChunkEntries> entries_;
  ChunkedVector<Slot, kChunkEntries> slots_;
  std::unique_ptr<Encoder> encoder_;  // allocated by the first push
  std::string spill_directory_;
  std::unique_ptr<SpillFile> spill_;  // created by the first spilled block
};

}  // namespace kcspec::explorer
