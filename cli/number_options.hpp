// Validators for numeric command-line options. CLI11's own (PositiveNumber, NonNegativeNumber)
// print a range of 300 digits, let "nan" through, and a number too large for the option's type
// is then clamped or wrapped without a word. These run on the text before it is converted: the
// whole text must be the number, within [min, max], or the option is refused (exit 2) with a
// message that says what is accepted.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <string>

namespace kcspec::cli {

// A whole number (decimal digits only, no sign) from `min` to `max`.
inline CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max) {
  const std::string accepted = fmt::format("a whole number from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* const end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits_only || error != std::errc{} || stop != end || value < min || value > max) {
          return fmt::format("{} is not {}", text, accepted);
        }
        return {};
      },
      accepted);
}

// The largest value an `int` option holds.
inline constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<int>::max());

// A finite number of seconds greater than 0 and at most `max_seconds` (decimals allowed).
inline CLI::Validator positiveSeconds(double max_seconds) {
  const std::string accepted = fmt::format("a number of seconds above 0 and at most {}", max_seconds);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0;
        const char* const end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc{} || stop != end || !std::isfinite(value) || !(value > 0) ||
            value > max_seconds) {
          return fmt::format("{} is not {}", text, accepted);
        }
        return {};
      },
      accepted);
}

}  // namespace kcspec::cli
