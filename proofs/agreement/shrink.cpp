// shrinkHistory: chunk removal from large chunks to single steps (the "ddmin" shape, complement
// only), restarting at the same chunk size after every successful removal.
#include "proofs/agreement/shrink.hpp"

#include <cstddef>

namespace kcspec::agreement {

ShrinkResult shrinkHistory(std::vector<Action> failing,
                           const std::function<bool(const std::vector<Action>&)>& still_fails, int max_replays) {
  ShrinkResult result{std::move(failing), 0};
  std::size_t chunk = result.history.size() / 2;
  if (chunk == 0) chunk = 1;
  while (result.replays < max_replays && !result.history.empty()) {
    bool removed = false;
    // Try each chunk position, from the front; the last step is the failing one and goes last.
    for (std::size_t start = 0; start < result.history.size() && result.replays < max_replays;) {
      const std::size_t end = std::min(result.history.size(), start + chunk);
      std::vector<Action> candidate;
      candidate.reserve(result.history.size() - (end - start));
      candidate.insert(candidate.end(), result.history.begin(), result.history.begin() + static_cast<std::ptrdiff_t>(start));
      candidate.insert(candidate.end(), result.history.begin() + static_cast<std::ptrdiff_t>(end), result.history.end());
      ++result.replays;
      if (still_fails(candidate)) {
        result.history = std::move(candidate);
        removed = true;  // the same start now holds the next chunk
      } else {
        start += chunk;
      }
    }
    if (chunk == 1 && !removed) break;  // no single step can go: 1-minimal
    if (!removed) chunk = chunk / 2 == 0 ? 1 : chunk / 2;
    if (chunk > result.history.size()) chunk = result.history.size() == 0 ? 1 : result.history.size();
  }
  return result;
}

}  // namespace kcspec::agreement
