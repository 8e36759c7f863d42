#include "spec/vocabulary/capacity.hpp"

namespace kcspec {

CapacityExceeded::CapacityExceeded(const char* elements, std::size_t capacity)
    : capacity_(capacity),
      message_(std::string("a step needs more than the modeled world holds: more than ") + std::to_string(capacity) +
               " " + elements + "; the configuration has a history that outgrows kcspec's bounds (docs/spec/rules.md, "
               "\"Histories that outgrow the model\")") {}

void throwCapacityExceeded(const char* elements, std::size_t capacity) { throw CapacityExceeded(elements, capacity); }

}  // namespace kcspec
