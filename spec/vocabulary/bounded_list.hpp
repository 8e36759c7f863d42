// BoundedList<T, N>: BoundedVector's interface over heap storage sized to its contents, for
// large elements that are usually few (requests in flight, their partition entries). The bound
// still holds: exceeding N stops the program. Copying costs what the list holds, not N slots.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "spec/vocabulary/assert.hpp"

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

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  bool full() const { return items_.size() == N; }

  T& operator[](std::size_t i) {
    KCSPEC_ASSERT(i < items_.size());
    return items_[i];
  }
  const T& operator[](std::size_t i) const {
    KCSPEC_ASSERT(i < items_.size());
    return items_[i];
  }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[items_.size() - 1]; }

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

  void push_back(const T& value) {
    KCSPEC_ASSERT(items_.size() < N);
    items_.push_back(value);
  }
  void pop_back() {
    KCSPEC_ASSERT(!items_.empty());
    items_.pop_back();
  }
  void clear() { items_.clear(); }
  // Keeps the first n elements, or appends default ones up to n (existing storage is reused).
  void resize(std::size_t n) {
    KCSPEC_ASSERT(n <= N);
    items_.resize(n);
  }
  void erase_at(std::size_t i) {
    KCSPEC_ASSERT(i < items_.size());
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  bool contains(const T& value) const { return std::find(begin(), end(), value) != end(); }
  void remove(const T& value) { std::erase(items_, value); }

  friend bool operator==(const BoundedList&, const BoundedList&) = default;

 private:
  std::vector<T> items_;
};

}  // namespace kcspec
