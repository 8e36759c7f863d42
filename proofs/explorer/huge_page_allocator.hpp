// An allocator for the explorer's big tables (the visited set's fingerprints and parent links,
// the liveness pass's per-slot index): an allocation of 2 MiB or more is its own anonymous
// mapping, aligned to 2 MiB and marked MADV_HUGEPAGE, so that where transparent huge pages are
// enabled "always" or "madvise" (this machine's setting) the table sits in 2 MiB pages. The table's
// lookups land at random places in gigabytes, where 4 KiB pages make most of them TLB misses
// too (no gain measured on `default`'s 80 MiB table, docs/performance.md "Session 12"), and
// sizing a table up front first-touched one page per 4 KiB (`large`'s 5.9 GiB: 22–25 s, now
// 2–11 s). Where huge pages are not available the madvise call fails and is
// ignored: the mapping is then an ordinary one. Smaller allocations go to operator new.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace kcspec::explorer {

namespace huge_pages {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Maps `bytes` (rounded up to whole huge pages) at a 2 MiB boundary: a larger mapping is made
// and the unaligned head and the tail past the rounded size are given back.
inline void* map(std::size_t bytes) {
  const std::size_t length = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
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

inline void unmap(void* p, std::size_t bytes) {
  const std::size_t length = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  ::munmap(p, length);
}

}  // namespace huge_pages

template <typename T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: converting, as allocators are

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_pages::kHugePageBytes) return static_cast<T*>(::operator new(bytes));
    return static_cast<T*>(huge_pages::map(bytes));
  }

  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_pages::kHugePageBytes) {
      ::operator delete(p);
    } else {
      huge_pages::unmap(p, bytes);
    }
  }

  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace kcspec::explorer
