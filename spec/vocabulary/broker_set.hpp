// BrokerSet: an unordered set of broker ids (0 … kMaxBrokers-1) as a bit mask. Kafka keeps these
// in hash sets; where Kafka's iteration order is unspecified kcspec iterates in ascending id order
// (DESIGN.md), which is this type's only order.
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec {

class BrokerSet {
  static_assert(kMaxBrokers <= 16);

 public:
  constexpr BrokerSet() = default;
  constexpr BrokerSet(std::initializer_list<BrokerId> ids) {
    for (BrokerId id : ids) insert(id);
  }

  constexpr bool contains(BrokerId id) const { return isBrokerId(id) && (bits_ & bit(id)) != 0; }
  constexpr void insert(BrokerId id) { bits_ = static_cast<std::uint16_t>(bits_ | bit(id)); }
  constexpr void erase(BrokerId id) { bits_ = static_cast<std::uint16_t>(bits_ & ~bit(id)); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }

  constexpr BrokerSet operator|(BrokerSet other) const { return fromBits(bits_ | other.bits_); }
  constexpr BrokerSet operator&(BrokerSet other) const { return fromBits(bits_ & other.bits_); }
  constexpr BrokerSet operator-(BrokerSet other) const { return fromBits(bits_ & ~other.bits_); }

  // Ascending ids.
  template <class Visit>
  constexpr void forEach(Visit visit) const {
    for (BrokerId id = 0; id < kMaxBrokers; ++id) {
      if (contains(id)) visit(id);
    }
  }

  constexpr std::uint16_t bits() const { return bits_; }
  friend constexpr bool operator==(BrokerSet, BrokerSet) = default;

 private:
  static constexpr std::uint16_t bit(BrokerId id) {
    KCSPEC_ASSERT(isBrokerId(id));
    return static_cast<std::uint16_t>(1u << id);
  }
  static constexpr BrokerSet fromBits(unsigned bits) {
    BrokerSet set;
    set.bits_ = static_cast<std::uint16_t>(bits);
    return set;
  }
  std::uint16_t bits_ = 0;
};

}  // namespace kcspec
