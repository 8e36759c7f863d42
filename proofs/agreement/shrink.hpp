// The history shrinker of every random search (`kcspec drive`, `kcspec mutants`, the property
// tests, `kcspec prove`'s AGREE): removes chunks of steps (halves, then
// quarters, … then single steps) and keeps every removal after which the history still fails,
// until no single step can go or the replay budget is spent. The same input and predicate give
// the same result, so a shrunk counterexample is reproducible from the seed it was found with.
#pragma once

#include <functional>
#include <vector>

#include "spec/vocabulary/action.hpp"

namespace kcspec::agreement {

struct ShrinkResult {
  std::vector<Action> history;
  int replays = 0;  // how often `still_fails` was called
};

// `still_fails(candidate)` replays a candidate (it returns false for one the spec does not
// enable); it is called at most `max_replays` times. `failing` must fail.
ShrinkResult shrinkHistory(std::vector<Action> failing,
                           const std::function<bool(const std::vector<Action>&)>& still_fails, int max_replays);

}  // namespace kcspec::agreement
