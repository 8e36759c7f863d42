// ControllerEventManager (kafka.md §5.11): the controller's FIFO event queue, bounded. `put`
// follows docs/world.md §2–3 (an equal queued event absorbs the new one); `append` is the plain
// put used for StopReplica responses (§6); `clearAndPut` is Kafka's, used for Expire.
#pragma once

#include <optional>

#include "spec/vocabulary/bounded_list.hpp"
#include "spec/vocabulary/events.hpp"

namespace kcspec::impl {

class ControllerEventManager {
 public:
  using Queue = BoundedList<ControllerEvent, kMaxControllerEvents>;

  // Returns false when an equal event was already queued (nothing added).
  bool put(const ControllerEvent& event);
  void append(const ControllerEvent& event) { queue_.push_back(event); }
  // Drains the queue (its events are preempted: none of kcspec's has a callback to complete).
  void clearAndPut(const ControllerEvent& event);
  std::optional<ControllerEvent> poll();

  bool empty() const { return queue_.empty(); }
  bool full() const { return queue_.full(); }
  bool contains(const ControllerEvent& event) const { return queue_.contains(event); }
  bool containsKind(ControllerEventKind kind) const;
  void clear() { queue_.clear(); }
  const Queue& queue() const { return queue_; }
  // The manager holding `queue` as it stands (a stated world, issue 28).
  static ControllerEventManager fromObservation(const Queue& queue) {
    ControllerEventManager out;
    out.queue_ = queue;
    return out;
  }

 private:
  Queue queue_;
};

}  // namespace kcspec::impl
