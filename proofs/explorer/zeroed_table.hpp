// The explorer's big tables (the visited set's fingerprints and parent links, the liveness pass's
// per-slot BFS index): a fixed number of trivially copyable values, all zero at the start.
//
// A table of 2 MiB or more is its own anonymous mapping, aligned to 2 MiB and marked
// MADV_HUGEPAGE, and is never written when made: the kernel hands out zeroed pages when they are
// first touched. So a table sized up front for hundreds of millions of states is ready at once:
// its pages are zeroed as the first states' insertions touch them, between states, where Ctrl-C
// and --max-seconds act (`large`'s 5.4 GiB took 4–14 s to fill up front before, with neither
// able to act; docs/performance.md, "Session 16"). Where transparent huge pages are
// enabled "always" or "madvise" (this machine's setting) the table sits in 2 MiB pages: its
// lookups land at random places in gigabytes, where 4 KiB pages make most of them TLB misses too.
// Where huge pages are not available the madvise call fails and is ignored. A smaller table is
// zeroed on the heap.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace kcspec::explorer {

namespace huge_pages {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

inline std::size_t roundedUp(std::size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

// Maps `bytes` (rounded up to whole huge pages) at a 2 MiB boundary, zero-filled on first touch: a
// larger mapping is made and the unaligned head and the tail past the rounded size are given back.
inline void* map(std::size_t bytes) {
  const std::size_t length = roundedUp(bytes);
  const std::size_t mapped_length = length + kHugePageBytes;
  void* mapped = ::mmap(nullptr, mapped_length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto begin = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const std::size_t head = aligned - begin;
  const std::size_t tail = mapped_length - head - length;
  if (head > 0) ::munmap(mapped, head);
  if (tail > 0) ::munmap(reinterpret_cast<void*>(aligned + length), tail);
  ::madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);  // best effort
  return reinterpret_cast<void*>(aligned);
}

inline void unmap(void* p, std::size_t bytes) { ::munmap(p, roundedUp(bytes)); }

}  // namespace huge_pages

template <typename T>
class ZeroedTable {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "a zeroed table holds plain values: zero bytes are a value, nothing is destroyed");

 public:
  ZeroedTable() = default;

  explicit ZeroedTable(std::size_t size) : size_(size) {
    if (size == 0) return;
    if (size > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = size * sizeof(T);
    if (bytes < huge_pages::kHugePageBytes) {
      data_ = static_cast<T*>(::operator new(bytes));
      std::memset(static_cast<void*>(data_), 0, bytes);
    } else {
      data_ = static_cast<T*>(huge_pages::map(bytes));
    }
  }

  ZeroedTable(ZeroedTable&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedTable& operator=(ZeroedTable&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ZeroedTable(const ZeroedTable&) = delete;  // gigabytes: never copied by accident
  ZeroedTable& operator=(const ZeroedTable&) = delete;
  ~ZeroedTable() { release(); }

  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  void release() noexcept {
    if (data_ == nullptr) return;
    const std::size_t bytes = size_ * sizeof(T);
    if (bytes < huge_pages::kHugePageBytes) {
      ::operator delete(static_cast<void*>(data_));
    } else {
      huge_pages::unmap(data_, bytes);
    }
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace kcspec::explorer
