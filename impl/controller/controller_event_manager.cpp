// ControllerEventManager (controller_event_manager.hpp).
#include "impl/controller/controller_event_manager.hpp"

namespace kcspec::impl {

bool ControllerEventManager::put(const ControllerEvent& event) {
  if (queue_.contains(event)) return false;
  queue_.push_back(event);
  return true;
}

void ControllerEventManager::clearAndPut(const ControllerEvent& event) {
  queue_.clear();
  queue_.push_back(event);
}

std::optional<ControllerEvent> ControllerEventManager::poll() {
  if (queue_.empty()) return std::nullopt;
  ControllerEvent head = queue_.front();
  queue_.erase_at(0);
  return head;
}

bool ControllerEventManager::containsKind(ControllerEventKind kind) const {
  for (const ControllerEvent& e : queue_) {
    if (e.kind == kind) return true;
  }
  return false;
}

}  // namespace kcspec::impl
