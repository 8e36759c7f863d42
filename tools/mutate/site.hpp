// One mutation site found by an operator (operators.hpp), as the text edits that turn the
// original source into its schema: `prefix` goes before the byte range [begin, end) and
// `suffix` after it, so that the code reads `(on(N) ? mutated : original)` or an equivalent.
// Edits only insert text: sites nest (a call inside a negated condition) without conflicts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kcspec::mutate {

struct Site {
  std::size_t begin = 0;  // byte offset in the file
  std::size_t end = 0;    // one past the last byte; == begin for an insertion point
  std::string op;         // operator name (docs/testing.md "Generated mutants")
  std::string original;   // the code as written, for the table
  std::string mutated;    // a one-line description of the mutant's code
  // Filled by the schema writer once ids are known: text with the placeholder `@ID@`.
  std::string prefix;
  std::string suffix;
  int line = 0, column = 0;
  int id = -1;
};

// The file's text with every site's prefix and suffix inserted (`@ID@` replaced by the site's
// id). Sites must nest or be disjoint; at one offset suffixes of inner sites come first, then
// suffixes of outer sites, then insertion points' texts, then prefixes of outer sites, then of
// inner ones. Of two sites with one range, the one listed first is the outer one.
std::string applySites(const std::string& text, const std::vector<Site>& sites);

}  // namespace kcspec::mutate
