// Generated mutants of the reference controller (docs/testing.md "Generated mutants"): mutant
// schemata. tools/mutate rewrites every impl/controller/*.cpp so that each mutation site reads
// `generated::on(N) ? <mutated> : <original>`; the rewritten sources are compiled once into the
// `kcspec-schemata` executable, and `active` picks which of its hundreds of mutants runs. In the
// ordinary build no source reads `active` and `table()` is empty.
#pragma once

#include <span>
#include <string_view>

namespace kcspec::impl::generated {

struct GeneratedMutant {
  int id;                      // what `on` compares `active` to; 0, 1, 2, … in table order
  std::string_view file;       // impl/controller/<file>.cpp
  int line;                    // of the mutated code's first character (1-based)
  int column;                  // 1-based
  std::string_view op;         // the operator (docs/testing.md): negate-condition, drop-call, …
  std::string_view original;   // the code as written (one line, shortened)
  std::string_view mutated;    // what the mutant does instead (one line, shortened)
};

// The mutant that runs: -1 (none) unless a run of generated mutants set it before starting. Set
// once per process before any controller runs; the schemata only read it.
inline int active = -1;

inline bool on(int id) { return active == id; }

// Every generated mutant of this executable: empty in `kcspec`, the whole table in
// `kcspec-schemata` (whose generated table replaces impl/generated_mutants.cpp at link time).
std::span<const GeneratedMutant> table();

}  // namespace kcspec::impl::generated
