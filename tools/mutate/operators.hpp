// The mutation operators (docs/testing.md "Generated mutants"), as Clang AST matchers over one
// translation unit. Each finds sites in the main file only (never in headers or macros), outside
// constexpr functions, and skips code that only logs or that is a hand-written mutant switch
// (impl/mutants.hpp).
#pragma once

#include <clang/ASTMatchers/ASTMatchFinder.h>

#include <memory>
#include <vector>

#include "site.hpp"

namespace kcspec::mutate {

// Registers every operator on `finder`; found sites are appended to `sites` (one list per run
// of the finder over a translation unit).
class Operators {
 public:
  explicit Operators(std::vector<Site>& sites);
  ~Operators();
  void registerOn(clang::ast_matchers::MatchFinder& finder);

 private:
  std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>> callbacks_;
  std::vector<Site>& sites_;
};

}  // namespace kcspec::mutate
