// Numbers as reports print them.
#pragma once

#include <cstdint>
#include <string>

namespace kcspec {

// 1234567 → "1,234,567".
inline std::string grouped(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace kcspec
