// CapacityExceeded: a step needs more room than one of the modeled world's bounded containers has
// (BoundedVector, BoundedList). Every container in the world is bounded so that states are plain
// values; a configuration whose histories outgrow a bound — a request queue that a controller
// failing over forever keeps filling (docs/spec/rules.md, "The failover loop of a pending
// preferred election") — is outside what kcspec can model, and is told so: the explorer names the
// history that got there (a replayable scenario) and the command exits with status 2, as for any
// input it cannot take. It is not an invariant broken by a rule, so it is an exception, not an
// assertion.
#pragma once

#include <cstddef>
#include <exception>
#include <string>

namespace kcspec {

// What a container of T holds, for the message: specialised next to the bounds of the world's
// queues (spec/vocabulary/requests.hpp, events.hpp), "values" for any other.
template <class T>
inline constexpr const char* kBoundedElements = "values";

class CapacityExceeded : public std::exception {
 public:
  CapacityExceeded(const char* elements, std::size_t capacity);
  const char* what() const noexcept override { return message_.c_str(); }
  std::size_t capacity() const { return capacity_; }

 private:
  std::size_t capacity_;
  std::string message_;
};

// Throws CapacityExceeded (out of line: the containers' push_back stays small).
[[noreturn]] void throwCapacityExceeded(const char* elements, std::size_t capacity);

}  // namespace kcspec
