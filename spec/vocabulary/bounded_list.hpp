// BoundedList<T, N>: BoundedVector's interface over heap storage sized to its contents, for
// large elements that are usually few (requests in flight, their partition entries). The bound
// still holds: exceeding N stops the program. Copying costs what the list holds, not N slots.
//
// The storage is reused, so that a value that is stepped and put back again and again (the
// explorer's scratch state, a broker's queue) stops allocating once it has held its largest
// contents: an element taken off (erase_at, pop_back, remove, clear) stays constructed past the
// end as a spare, and the next push_back or assignment copies into it, reusing the element's own
// lists. A copy (the constructor) takes the elements only, not the spares.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/capacity.hpp"

namespace kcspec {

template <class T, std::size_t N>
class BoundedList {
 public:
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;
  static constexpr std::size_t capacity = N;

  BoundedList() = default;
  BoundedList(std::initializer_list<T> values) {
    for (const T& value : values) push_back(value);
  }
  BoundedList(const BoundedList& other) : items_(other.begin(), other.end()), size_(other.size_) {}
  BoundedList(BoundedList&& other) noexcept : items_(std::move(other.items_)), size_(other.size_) {
    other.items_.clear();
    other.size_ = 0;
  }
  // Copies into this list's elements and spares first; constructs only past them.
  BoundedList& operator=(const BoundedList& other) {
    if (this == &other) return *this;
    const std::size_t reused = std::min(items_.size(), other.size_);
    std::copy(other.begin(), other.begin() + static_cast<std::ptrdiff_t>(reused), items_.begin());
    items_.insert(items_.end(), other.begin() + static_cast<std::ptrdiff_t>(reused), other.end());
    size_ = other.size_;
    return *this;
  }
  // Exchanges storage: `other` is left empty, holding this list's former elements as spares.
  BoundedList& operator=(BoundedList&& other) noexcept {
    if (this == &other) return *this;
    items_.swap(other.items_);
    size_ = other.size_;
    other.size_ = 0;
    return *this;
  }
  ~BoundedList() = default;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }

  T& operator[](std::size_t i) {
    KCSPEC_ASSERT(i < size_);
    return items_[i];
  }
  const T& operator[](std::size_t i) const {
    KCSPEC_ASSERT(i < size_);
    return items_[i];
  }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size_ - 1]; }
  T& back() { return (*this)[size_ - 1]; }

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.begin() + static_cast<std::ptrdiff_t>(size_); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.begin() + static_cast<std::ptrdiff_t>(size_); }

  // A full list throws CapacityExceeded (capacity.hpp): a history outgrew the world's bound.
  void push_back(const T& value) {
    if (size_ >= N) throwCapacityExceeded(kBoundedElements<T>, N);
    if (size_ < items_.size()) {
      items_[size_] = value;
    } else {
      items_.push_back(value);
    }
    ++size_;
  }
  void pop_back() {
    KCSPEC_ASSERT(size_ > 0);
    --size_;
  }
  void clear() { size_ = 0; }
  // Keeps the first n elements, or appends default ones up to n.
  void resize(std::size_t n) {
    KCSPEC_ASSERT(n <= N);
    for (std::size_t i = size_; i < std::min(n, items_.size()); ++i) items_[i] = T{};
    resize_for_overwrite(n);
  }
  // resize(n) for a caller that assigns every field of the appended elements: they are spares
  // as they were left (their storage reused), or default ones past the spares.
  void resize_for_overwrite(std::size_t n) {
    KCSPEC_ASSERT(n <= N);
    if (n > items_.size()) items_.resize(n);
    size_ = n;
  }
  void erase_at(std::size_t i) {
    KCSPEC_ASSERT(i < size_);
    std::rotate(items_.begin() + static_cast<std::ptrdiff_t>(i), items_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                end());
    --size_;
  }
  bool contains(const T& value) const { return std::find(begin(), end(), value) != end(); }
  void remove(const T& value) {
    size_ = static_cast<std::size_t>(std::remove(begin(), end(), value) - begin());
  }

  friend bool operator==(const BoundedList& a, const BoundedList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::vector<T> items_;  // [0, size_) the list; the rest spares whose storage the list reuses
  std::size_t size_ = 0;
};

}  // namespace kcspec
