// The compile-time theorems: facts about model/'s Boost.MSM tables that the compiler proves
// (each is a static_assert in lifecycle_tables.cpp; the build fails when one stops holding).
#pragma once

#include <span>
#include <string_view>

namespace kcspec::proofs {

struct CompileTimeTheorem {
  std::string_view id;
  std::string_view statement;
};

// In the order they are asserted. Every one of them holds, or this program would not exist.
std::span<const CompileTimeTheorem> compileTimeTheorems();

}  // namespace kcspec::proofs
