// The bytes ranks send each other (distributed_explorer.hpp): fixed-width little-endian integers
// appended to a message and read back in order. A reader past a message's end is a bug of the
// sender's and reader's agreement, not bad input: it throws std::logic_error.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace kcspec::explorer::distributed {

template <class T>
void put(std::string& out, T value) {
  static_assert(std::is_integral_v<T>);
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // the machines of one run share a byte order (docs/distributed.md)
  out.append(bytes, sizeof(T));
}

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return position_ == bytes_.size(); }

  template <class T>
  T get() {
    static_assert(std::is_integral_v<T>);
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }

  std::string_view bytes(std::size_t length) {
    need(length);
    const std::string_view out = bytes_.substr(position_, length);
    position_ += length;
    return out;
  }

 private:
  void need(std::size_t length) const {
    if (bytes_.size() - position_ < length) throw std::logic_error("a message between ranks ended early");
  }

  std::string_view bytes_;
  std::size_t position_ = 0;
};

}  // namespace kcspec::explorer::distributed
