// The first step found to outgrow the modeled world (CapacityExceeded, docs/spec/rules.md
// "Histories that outgrow the model") while threads expand a level: the smallest frontier
// position, then the smallest action ordinal — the same step whichever thread found it first.
// Both explorers (explorer.hpp, distributed/distributed_explorer.hpp) keep one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace kcspec::explorer {

class FirstCapacityStep {
 public:
  // Called by the thread whose step threw: keeps it when it comes before the one kept so far.
  void note(std::size_t position, std::uint32_t ordinal) {
    std::lock_guard lock(mutex_);
    if (!found_.load(std::memory_order_relaxed) || position < position_ ||
        (position == position_ && ordinal < ordinal_)) {
      position_ = position;
      ordinal_ = ordinal;
    }
    found_.store(true, std::memory_order_relaxed);
  }
  // Read by every thread (to stop expanding); the rest only once the threads have joined.
  bool found() const { return found_.load(std::memory_order_relaxed); }
  std::size_t position() const { return position_; }  // the state's position in the frontier
  std::uint32_t ordinal() const { return ordinal_; }   // the action's, among its enabled actions

 private:
  std::atomic<bool> found_{false};
  std::mutex mutex_;
  std::size_t position_ = 0;
  std::uint32_t ordinal_ = 0;
};

}  // namespace kcspec::explorer
