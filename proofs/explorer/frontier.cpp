// Frontier's compression (frontier.hpp): LZ4's streaming API, kept out of the header.
#include "proofs/explorer/frontier.hpp"

#include <lz4.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {
namespace {

std::uint64_t newIdentity() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

struct Frontier::Encoder {
  LZ4_stream_t stream;  // remembers the group's raw bytes pushed so far (they stay in `group`)
  std::unique_ptr<char[]> group = std::make_unique_for_overwrite<char[]>(kGroupBytes);
  std::size_t group_bytes = 0;
  std::size_t group_entries = 0;  // 0: the next push starts a group
  std::vector<char> compressed;   // one encoding's LZ4 block

  Encoder() { LZ4_initStream(&stream, sizeof(stream)); }

  // What an Encoder takes before its `compressed` buffer grows.
  static constexpr std::size_t kBytes = sizeof(LZ4_stream_t) + kGroupBytes;
};

Frontier::Cursor::Cursor() = default;
Frontier::Cursor::~Cursor() = default;
Frontier::Cursor::Cursor(Cursor&&) noexcept = default;
Frontier::Cursor& Frontier::Cursor::operator=(Cursor&&) noexcept = default;

Frontier::Frontier() : id_(newIdentity()) {}
Frontier::Frontier(std::string spill_directory) : id_(newIdentity()), spill_directory_(std::move(spill_directory)) {}
Frontier::~Frontier() = default;

Frontier::Frontier(Frontier&& other) noexcept : Frontier() { swap(other); }

Frontier& Frontier::operator=(Frontier&& other) noexcept {
  Frontier taken(std::move(other));  // `other` is left empty, with an identity of its own
  swap(taken);
  return *this;
}

void Frontier::swap(Frontier& other) noexcept {
  std::swap(id_, other.id_);
  std::swap(blocks_, other.blocks_);
  std::swap(bytes_, other.bytes_);
  std::swap(entries_, other.entries_);
  std::swap(slots_, other.slots_);
  std::swap(encoder_, other.encoder_);
  std::swap(spill_directory_, other.spill_directory_);
  std::swap(spill_, other.spill_);
}

void Frontier::spillLastBlock() {
  Block& block = blocks_.back();
  if (!spill_) spill_ = std::make_unique<SpillFile>(spill_directory_);
  block.file_offset = spill_->append(block.bytes.get(), block.used);
  block.bytes.reset();
  bytes_ -= block.capacity;
}

void Frontier::push(std::string_view encoding, Slot slot) {
  if (encoding.size() > kOffsetMask) throw std::length_error("an encoding of 1 GiB or more");
  if (!encoder_) encoder_ = std::make_unique<Encoder>();
  Encoder& encoder = *encoder_;
  std::uint32_t flags = 0;
  std::string_view stored = encoding;
  if (encoding.size() > kGroupBytes) {
    flags = kKey | kRaw;  // a group of its own
    encoder.group_entries = 0;
  } else {
    if (encoder.group_entries == 0 || encoder.group_entries == kGroupEntries ||
        encoder.group_bytes + encoding.size() > kGroupBytes) {
      LZ4_resetStream_fast(&encoder.stream);
      encoder.group_bytes = 0;
      encoder.group_entries = 0;
      flags |= kKey;
    }
    flags |= kRaw;
    if (!encoding.empty()) {
      // LZ4 compresses against the group's earlier bytes, which must stay where they were.
      char* raw = encoder.group.get() + encoder.group_bytes;
      std::memcpy(raw, encoding.data(), encoding.size());
      const int length = static_cast<int>(encoding.size());
      const int bound = LZ4_compressBound(length);
      if (encoder.compressed.size() < static_cast<std::size_t>(bound)) {
        encoder.compressed.reserve(bound);  // exactly (memory() and bytesToPush count it)
        encoder.compressed.resize(bound);
      }
      const int written = LZ4_compress_fast_continue(&encoder.stream, raw, encoder.compressed.data(), length, bound, 1);
      KCSPEC_ASSERT(written > 0);  // the buffer holds LZ4's bound
      if (written < length) {
        stored = std::string_view(encoder.compressed.data(), static_cast<std::size_t>(written));
        flags &= ~kRaw;
      }
      encoder.group_bytes += encoding.size();
    }
    ++encoder.group_entries;
  }
  if (blocks_.empty() || blocks_.back().used + stored.size() > blocks_.back().capacity) {
    const std::size_t capacity = std::max(kBlockBytes, stored.size());
    try {
      if (!spill_directory_.empty() && !blocks_.empty()) spillLastBlock();
      blocks_.push_back(Block{std::make_unique_for_overwrite<char[]>(capacity), capacity, 0});
    } catch (...) {
      encoder.group_entries = 0;  // LZ4's stream holds this encoding, the frontier does not
      throw;
    }
    bytes_ += capacity;
  }
  Block& block = blocks_.back();
  KCSPEC_ASSERT(block.used <= kOffsetMask);
  if (!stored.empty()) std::memcpy(block.bytes.get() + block.used, stored.data(), stored.size());
  entries_.push_back(Entry{static_cast<std::uint32_t>(blocks_.size() - 1), static_cast<std::uint32_t>(block.used) | flags});
  block.used += stored.size();
  slots_.push_back(slot);
}

std::string_view Frontier::stored(std::size_t i, Cursor& cursor) const {
  const Entry& entry = entries_[i];
  const Block& block = blocks_[entry.block];
  const std::size_t begin = entry.offset_and_flags & kOffsetMask;
  const std::size_t end = i + 1 < entries_.size() && entries_[i + 1].block == entry.block
                              ? entries_[i + 1].offset_and_flags & kOffsetMask
                              : block.used;
  const char* bytes = block.bytes.get();
  if (bytes == nullptr) {  // spilled: read into the cursor
    if (cursor.block_ != entry.block) {
      cursor.block_bytes_.resize(block.used);
      spill_->read(block.file_offset, cursor.block_bytes_.data(), block.used);
      cursor.block_ = entry.block;
    }
    bytes = cursor.block_bytes_.data();
  }
  return std::string_view(bytes + begin, end - begin);
}

std::string_view Frontier::at(std::size_t i, Cursor& cursor) const {
  KCSPEC_ASSERT(i < entries_.size());
  std::size_t key = i;
  while ((entries_[key].offset_and_flags & kKey) == 0) --key;  // the first entry is a key
  if (cursor.frontier_ != id_) {
    cursor.frontier_ = id_;
    cursor.ends_.clear();
    cursor.block_ = SIZE_MAX;
  }
  if ((entries_[key].offset_and_flags & kRaw) != 0 && stored(key, cursor).size() > kGroupBytes) {
    return stored(key, cursor);  // a group of its own, stored as is
  }
  if (cursor.key_ != key) {
    cursor.key_ = key;
    cursor.ends_.clear();
  }
  if (!cursor.buffer_) cursor.buffer_ = std::make_unique_for_overwrite<char[]>(kGroupBytes);
  char* const buffer = cursor.buffer_.get();
  // Decode the group on from the last state the cursor holds (its bytes are the dictionary).
  for (std::size_t j = key + cursor.ends_.size(); j <= i; ++j) {
    const std::size_t begin = cursor.ends_.empty() ? 0 : cursor.ends_.back();
    const std::string_view bytes = stored(j, cursor);
    std::size_t length = bytes.size();
    if ((entries_[j].offset_and_flags & kRaw) != 0) {
      KCSPEC_ASSERT(begin + length <= kGroupBytes);
      if (length != 0) std::memcpy(buffer + begin, bytes.data(), length);
    } else {
      const int decoded = LZ4_decompress_safe_usingDict(bytes.data(), buffer + begin, static_cast<int>(bytes.size()),
                                                        static_cast<int>(kGroupBytes - begin), buffer,
                                                        static_cast<int>(begin));
      KCSPEC_ASSERT(decoded >= 0);  // only this class writes what it reads
      length = static_cast<std::size_t>(decoded);
    }
    cursor.ends_.push_back(static_cast<std::uint32_t>(begin + length));
  }
  const std::size_t k = i - key;
  const std::size_t begin = k == 0 ? 0 : cursor.ends_[k - 1];
  return std::string_view(buffer + begin, cursor.ends_[k] - begin);
}

std::size_t Frontier::bytesToPush(std::size_t length) const {
  std::size_t added = 0;
  if (entries_.size() % kChunkEntries == 0) {  // a new chunk of entries and of slots
    added += kChunkEntries * (sizeof(Entry) + sizeof(Slot)) + 2 * sizeof(void*);
  }
  if (!encoder_) added += Encoder::kBytes;
  if (length <= kGroupBytes) {  // the buffer for its LZ4 block may grow
    const std::size_t bound = static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(length)));
    if (!encoder_ || encoder_->compressed.capacity() < bound) added += bound;
  }
  // Stored raw at worst.
  if (blocks_.empty() || blocks_.back().used + length > blocks_.back().capacity) added += std::max(kBlockBytes, length);
  return added;
}

void Frontier::finish() { encoder_.reset(); }

std::size_t Frontier::memory() const {
  std::size_t bytes = bytes_ + entries_.bytes() + slots_.bytes();
  if (encoder_) bytes += Encoder::kBytes + encoder_->compressed.capacity();
  return bytes;
}

}  // namespace kcspec::explorer
