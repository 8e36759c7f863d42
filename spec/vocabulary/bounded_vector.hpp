// BoundedVector<T, N>: an ordered list of at most N values, stored inline (no allocation).
// Every container in the modeled world is bounded (a configuration fixes the sizes), so states
// are plain values that copy, compare and hash cheaply.
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/capacity.hpp"

namespace kcspec {

template <class T, std::size_t N>
class BoundedVector {
  static_assert(N > 0 && N < 256);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  static constexpr std::size_t capacity = N;

  constexpr BoundedVector() = default;
  constexpr BoundedVector(std::initializer_list<T> values) {
    for (const T& value : values) push_back(value);
  }

  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool full() const { return size_ == N; }

  constexpr T& operator[](std::size_t i) {
    KCSPEC_ASSERT(i < size_);
    return items_[i];
  }
  constexpr const T& operator[](std::size_t i) const {
    KCSPEC_ASSERT(i < size_);
    return items_[i];
  }
  constexpr const T& front() const { return (*this)[0]; }
  constexpr const T& back() const { return (*this)[size_ - 1]; }

  constexpr iterator begin() { return items_.data(); }
  constexpr iterator end() { return items_.data() + size_; }
  constexpr const_iterator begin() const { return items_.data(); }
  constexpr const_iterator end() const { return items_.data() + size_; }

  // A full vector throws CapacityExceeded (capacity.hpp): a history outgrew the world's bound.
  constexpr void push_back(const T& value) {
    if (size_ >= N) throwCapacityExceeded(kBoundedElements<T>, N);
    items_[size_++] = value;
  }
  constexpr void pop_back() {
    KCSPEC_ASSERT(size_ > 0);
    items_[--size_] = T{};
  }
  constexpr void clear() { *this = BoundedVector{}; }

  // Removes the element at `i`, keeping the order of the rest.
  constexpr void erase_at(std::size_t i) {
    KCSPEC_ASSERT(i < size_);
    for (std::size_t j = i; j + 1 < size_; ++j) items_[j] = items_[j + 1];
    pop_back();
  }

  constexpr bool contains(const T& value) const { return std::find(begin(), end(), value) != end(); }

  // Removes every element equal to `value`, keeping the order of the rest.
  constexpr void remove(const T& value) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      if (!(items_[i] == value)) items_[kept++] = items_[i];
    }
    while (size_ > kept) pop_back();
  }

  // Order-sensitive equality and ordering (unused slots are always value-initialized).
  friend constexpr bool operator==(const BoundedVector& a, const BoundedVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend constexpr auto operator<=>(const BoundedVector& a, const BoundedVector& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<T, N> items_{};
  std::uint8_t size_ = 0;
};

}  // namespace kcspec
